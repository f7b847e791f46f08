/**
 * `npm run bench:queue`: settlement throughput through the `queue` backend (BullMQ on a private
 * redis-server) with 1 and 2 `anchor-rl worker` processes on this machine vs the local backend
 * with the same number of sandbox slots, the latency the queue adds to one batch, and a scaling
 * model derived from those figures. Writes the "## Queue" section of BENCHMARKS.md.
 *
 * Environment: BENCH_PROGRAMS (default 1000), BENCH_REPEATS (3), BENCH_LATENCY_REPS (20),
 * BENCH_QUICK=1 for a smoke run. Needs `redis-server` on PATH.
 */
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalExecutor } from '../src/sandbox/local-executor.ts';
import { QueueExecutor } from '../src/sandbox/queue/queue-executor.ts';
import type { Executor, ProgramSpec } from '../src/sandbox/types.ts';
import { Rng } from '../src/util/rng.ts';
import { redisServerInstalled, startWorker, TestRedis, type WorkerProc } from '../support/redis.ts';
import { median, writeBenchSection } from './benchmarks-file.ts';

const quick = process.env.BENCH_QUICK === '1';
const N = Number(process.env.BENCH_PROGRAMS ?? (quick ? 300 : 1000));
const REPEATS = Number(process.env.BENCH_REPEATS ?? (quick ? 1 : 3));
const LAT_REPS = Number(process.env.BENCH_LATENCY_REPS ?? (quick ? 5 : 20));
const BATCH = 16;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** MultiPL-E-style programs: a small function and three asserts, correct or buggy. */
function programs(n: number, seed: number): ProgramSpec[] {
  const rng = new Rng(seed);
  const bodies = [
    ['return a + b;', 'return a - b;', (a: number, b: number) => a + b],
    ['return Math.max(a, b);', 'return a;', (a: number, b: number) => Math.max(a, b)],
    [
      'let s = 0; for (let i = a; i <= b; i++) s += i; return s;',
      'return a * b;',
      (a: number, b: number) => {
        let s = 0;
        for (let i = a; i <= b; i++) s += i;
        return s;
      },
    ],
  ] as const;
  return Array.from({ length: n }, (_, i) => {
    const [good, bad, ref] = bodies[rng.int(bodies.length)]!;
    const body = rng.next() < 0.6 ? good : bad;
    const checks = Array.from({ length: 3 }, () => {
      const a = rng.int(50);
      const b = a + rng.int(50);
      return `assert.deepEqual(f(${a}, ${b}), ${ref(a, b)});`;
    }).join('\n');
    return {
      id: `p${i}`,
      language: 'javascript',
      code: `function f(a, b) { ${body} }`,
      tests: `const assert = require('node:assert');\n${checks}`,
    };
  });
}

const fmt = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function throughput(ex: Executor, progs: ProgramSpec[]): Promise<number> {
  const t = performance.now();
  const rs = await ex.run(progs);
  const s = (performance.now() - t) / 1000;
  if (rs.length !== progs.length || rs.some((r) => !r)) throw new Error('missing results');
  return progs.length / s;
}

async function latency(ex: Executor, progs: ProgramSpec[], reps: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await ex.run(progs.map((p) => ({ ...p, id: `${p.id}-${i}` })));
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  if (!redisServerInstalled()) {
    console.error('bench:queue needs redis-server on PATH (apt-get install redis-server); nothing measured');
    process.exitCode = 1;
    return;
  }
  const load0 = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const redis = await TestRedis.start();
  const workers: WorkerProc[] = [];
  // prefix w1: one worker process (1 sandbox slot); prefix w2: two worker processes (1 slot each).
  workers.push(await startWorker(['--redis', redis.url, '--prefix', 'w1', '--concurrency', '1']));
  workers.push(
    ...(await Promise.all([0, 1].map(() => startWorker(['--redis', redis.url, '--prefix', 'w2', '--concurrency', '1'])))),
  );
  const local1 = new LocalExecutor({ workers: 1 });
  const local2 = new LocalExecutor({ workers: 2 });
  const q1 = new QueueExecutor({ redis: redis.url, prefix: 'w1', batchSize: BATCH, maxInFlight: 256 });
  const q2 = new QueueExecutor({ redis: redis.url, prefix: 'w2', batchSize: BATCH, maxInFlight: 256 });
  const arms: Array<[string, Executor]> = [
    ['local, 1 sandbox worker', local1],
    ['queue, 1 worker process', q1],
    ['local, 2 sandbox workers', local2],
    ['queue, 2 worker processes', q2],
  ];
  try {
    // Warm-up: start every sandbox process and load the Lua scripts.
    for (const [, ex] of arms) await ex.run(programs(64, 99));
    const rates = new Map<string, number[]>(arms.map(([n]) => [n, []]));
    for (let r = 0; r < REPEATS; r++) {
      const progs = programs(N, r + 1);
      for (const [name, ex] of arms) {
        rates.get(name)!.push(
          await throughput(
            ex,
            progs.map((p) => ({ ...p, id: `${p.id}-${r}` })),
          ),
        );
        console.error(`repeat ${r + 1}/${REPEATS} ${name}: ${fmt(rates.get(name)!.at(-1)!)} programs/s`);
      }
    }
    // Latency of one batch on an idle system, interleaved local / queue.
    const lat: Record<string, number[]> = { l1: [], q1: [], l16: [], q16: [] };
    const one = programs(1, 7);
    const sixteen = programs(BATCH, 8);
    for (let i = 0; i < LAT_REPS; i++) {
      lat.l1!.push(...(await latency(local1, one, 1)));
      lat.q1!.push(...(await latency(q1, one, 1)));
      lat.l16!.push(...(await latency(local1, sixteen, 1)));
      lat.q16!.push(...(await latency(q1, sixteen, 1)));
    }
    const load1 = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    const med = (n: string) => median(rates.get(n)!);
    const L1 = med('local, 1 sandbox worker');
    const Q1 = med('queue, 1 worker process');
    const L2 = med('local, 2 sandbox workers');
    const Q2 = med('queue, 2 worker processes');
    const addedOne = median(lat.q1!) - median(lat.l1!);
    const added16 = median(lat.q16!) - median(lat.l16!);
    // Per-program cost c (one slot, local) and the queue's per-batch cost on the worker's
    // critical path o_w, from 1/Q1 = c + o_w / b.
    const c = 1 / L1;
    const ow = Math.max(0, BATCH * (1 / Q1 - 1 / L1));
    const perSlot = 1 / (c + ow / BATCH);
    const slots = Math.max(1, cpus().length);
    const perMachine = slots * perSlot;
    const batchRtt = median(lat.q16!) / 1000;
    const model = [100, 1000, 10_000].map((R) => {
      const machines = Math.ceil(R / perMachine);
      const inFlight = Math.ceil(R * batchRtt); // Little's law: programs in flight to keep R flowing
      return `| ${fmt(R)} programs/s | ${machines} | ≥ ${fmt(inFlight)} |`;
    });

    const row = (n: string) =>
      `| ${n} | ${fmt(med(n))} programs/s | ${rates
        .get(n)!
        .map((x) => fmt(x))
        .join(', ')} |`;
    const lines = [
      '## Queue',
      '',
      `Written by \`npm run bench:queue\` (bench/queue-bench.ts) on ${new Date().toISOString()}; ${cpus().length} cores, load average ${load0} → ${load1} ` +
        `(the machine is shared with other jobs: figures are noisy — compare the rows of one run, measured interleaved, not across runs). Node ${process.version}, BullMQ on a private redis-server on 127.0.0.1 (no persistence).`,
      `Workload: ${fmt(N)} MultiPL-E-style programs per run (a small function, three \`assert.deepEqual\` checks, ~60% pass), batches of ${BATCH}, max_in_flight 256; median of ${REPEATS} interleaved runs after a warm-up. ` +
        'Every worker process runs one sandbox slot (`--concurrency 1`), so "1 worker process" has the same sandbox capacity as the local backend with 1 sandbox worker; all processes share this machine\'s cores, so 2 processes here show overhead, not the gain of a second machine.',
      '',
      '| backend | throughput (median) | runs |',
      '|---|---|---|',
      row('local, 1 sandbox worker'),
      row('queue, 1 worker process'),
      row('local, 2 sandbox workers'),
      row('queue, 2 worker processes'),
      '',
      `Queue / local at equal capacity: ${(Q1 / L1).toFixed(2)}× (1 slot), ${(Q2 / L2).toFixed(2)}× (2 slots). With the runs spread as widely as above, a ratio near or above 1 means "no measurable loss", not a gain: the queue cannot add sandbox capacity on the same cores.`,
      '',
      '| latency of one batch on an idle queue (median of ' + LAT_REPS + ') | local | queue | added by the queue |',
      '|---|---|---|---|',
      `| 1 program | ${fmt(median(lat.l1!), 1)} ms | ${fmt(median(lat.q1!), 1)} ms | ${fmt(addedOne, 1)} ms |`,
      `| ${BATCH} programs | ${fmt(median(lat.l16!), 1)} ms | ${fmt(median(lat.q16!), 1)} ms | ${fmt(added16, 1)} ms |`,
      '',
      '### Scaling model',
      '',
      `A worker slot spends c per program plus o_w per batch on the queue (fetch the job, store the result). From this run: c = 1 / (local 1-slot rate) = ${fmt(c * 1000, 3)} ms, ` +
        `and 1 / (queue 1-slot rate) = c + o_w / ${BATCH} gives o_w ≈ ${fmt(ow * 1000, 2)} ms per batch, so one slot settles ≈ ${fmt(perSlot)} programs/s through the queue ` +
        `and a machine with k slots (k ≈ cores; ${slots} here) ≈ ${fmt(perMachine)} programs/s. The trainer-side latency (≈ ${fmt(batchRtt * 1000, 1)} ms per ${BATCH}-program batch here, ` +
        "the job's trips through Redis plus the trainer's wake-up on the completion event) does not cost throughput as long as enough programs are in flight (Little's law: max_in_flight ≥ rate × batch latency). " +
        'Machines needed for a settlement rate R in programs/s (R = rollouts/s when every rollout is executed, `metrics.gold: all`; R = rollouts/s × `settlement.rate` when only the settled sample is):',
      '',
      `| rollout rate R | machines (${slots} slots each) | max_in_flight |`,
      '|---|---|---|',
      ...model,
      '',
      'Programs this cheap (≈ 1 ms) make the per-batch cost matter: raise `sandbox.batch_size` so o_w / batch_size stays well below c. Real completions with heavier tests (tens of ms) make the queue overhead negligible and the machine count ≈ R × c / k.',
      '',
    ];
    writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Queue', lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    for (const [, ex] of arms) await ex.close();
    await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
  }
}

await main();
