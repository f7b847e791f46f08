/**
 * Fault injection on the queue backend (docs/scaling.md, "What survives what"): a private
 * redis-server on 127.0.0.1 and `anchor-rl worker` processes, killed, stopped, restarted,
 * mismatched, fed bad jobs and wrong passwords. Each case checks the outcome an operator needs —
 * results exactly once, a clear bounded failure, nothing left running or queued — and prints the
 * recovery times it measured (`[faults] ...` lines), which the docs quote.
 *
 * Timing: waits are bounded polls with generous limits; the one comparison of durations (an
 * orphaned sandbox process must be gone within 5 s of its parent's SIGKILL, while the program it
 * runs would go on for 8-20 s) leaves seconds of margin on either side.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectionOptions, settleQueueName } from '../../../src/sandbox/queue/connection.ts';
import { harnessIdentity, JOB_FORMAT } from '../../../src/sandbox/queue/job.ts';
import { wallBackstopMs } from '../../../src/sandbox/protocol.ts';
import { QueueExecutor } from '../../../src/sandbox/queue/queue-executor.ts';
import type { ProgramSpec } from '../../../src/sandbox/types.ts';
import { spawnSmokeTrain } from '../../helpers/cli.ts';
import { repoRoot } from '../../helpers/paths.ts';
import { haveRedisServer, startWorker, TestRedis, type WorkerProc } from '../../../support/redis.ts';

const haveRedis = haveRedisServer('queue fault-injection tests');
const haveProc = existsSync('/proc/self/stat');

const FAST = ['--lock-duration-ms', '2000', '--stalled-interval-ms', '1000'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const js = (id: string, code: string, extra: Partial<ProgramSpec> = {}): ProgramSpec => ({
  id,
  language: 'javascript',
  code,
  ...extra,
});
const pass = (id: string) => js(id, "require('node:assert').ok(true);");
/** CPU-bound for about `ms` idle milliseconds, then passes (generous limit: this is about delivery, not timeouts). */
const spin = (id: string, ms: number) =>
  js(id, `let x = 0; for (let i = 0; i < ${ms} * 4e5; i++) x += i; require('node:assert').ok(x > 0);`, { timeoutMs: 30_000 });
/**
 * Loops until its limit: the program an orphaned sandbox process would keep running. The limit is
 * CPU time, so on a loaded machine it takes several times as long in wall time: keep it short.
 */
const loop = (id: string, timeoutMs: number) => js(id, 'while (true) {}', { timeoutMs });
const note = (line: string) => process.stdout.write(`[faults] ${line}\n`);

/** Live (not zombie) sandbox worker processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== pid || state === 'Z') continue;
      // Only sandbox workers: a parent run through tsx also has an esbuild child.
      if (/sandbox\/(python\/)?worker\.[jt]s/.test(readFileSync(`/proc/${d}/cmdline`, 'utf8'))) out.push(Number(d));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Whether `pid` is a live process (zombies count as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Poll `cond` every 50 ms until true or `ms` passed; returns whether it became true. */
async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await cond()) return true;
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
}

/** Exit code of a child within `ms`, or null (then it is SIGKILLed). */
async function exitWithin(proc: ChildProcess, ms: number): Promise<number | null> {
  if (proc.exitCode !== null) return proc.exitCode;
  const code = await new Promise<number | null>((res) => {
    const t = setTimeout(() => res(null), ms);
    proc.once('exit', (c, sig) => {
      clearTimeout(t);
      res(c ?? (sig ? 128 : 1));
    });
  });
  if (code === null) proc.kill('SIGKILL');
  return code;
}

/**
 * Wait until a worker is inside the looping program of a batch `[pass, loop, ...]`: the worker
 * reports progress after each program, so progress 1 means the pass is done and the loop has
 * begun (killed earlier, a sandbox process would see its parent go between programs, which
 * proves nothing). Resolves with the pid of the worker holding the batch.
 */
async function loopingWorker(queue: Queue, ms: number): Promise<number | undefined> {
  let pid: number | undefined;
  await until(async () => {
    const job = (await queue.getActive()).find(
      (j) => j.progress === 1 && (j.data as { programs?: ProgramSpec[] }).programs?.[1]?.id === 'loop',
    );
    pid = job ? Number(job.processedBy?.split(':').pop()) : undefined;
    return pid !== undefined;
  }, ms);
  return pid;
}

/** Lines of a worker's log that report a Redis connection error. */
const redisErrorLines = (w: WorkerProc) =>
  w
    .stderr()
    .split('\n')
    .filter((l) => /ECONNREFUSED|Connection is closed|ECONNRESET/.test(l));

describe.skipIf(!haveRedis || !haveProc)('queue backend under faults', () => {
  let redis: TestRedis;
  const workers: WorkerProc[] = [];
  const extra: ChildProcess[] = [];
  const work = mkdtempSync(join(tmpdir(), 'anchor-faults-'));
  const queueName = settleQueueName('anchor-rl', 'javascript');
  let queue: Queue;

  const addWorker = async (args: string[] = []) => {
    const w = await startWorker(['--redis', redis.url, ...FAST, ...args]);
    workers.push(w);
    return w;
  };
  const stopWorkers = async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  };

  beforeAll(async () => {
    redis = await TestRedis.start();
    queue = new Queue(queueName, { connection: connectionOptions(redis.url, 'client') });
    queue.on('error', () => {});
  }, 30_000);

  afterEach(async () => {
    await stopWorkers();
    for (const p of extra.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    // Each case starts from an empty queue.
    await queue.obliterate({ force: true }).catch(() => {});
  }, 60_000);

  afterAll(async () => {
    await queue?.close();
    await redis?.stop();
    rmSync(work, { recursive: true, force: true });
  }, 30_000);

  it('kill -9 of a worker mid-batch: its batch runs elsewhere, exactly once, and its sandbox process dies with it', async () => {
    const ws = await Promise.all([addWorker(), addWorker()]);
    const events = new QueueEvents(queueName, { connection: connectionOptions(redis.url, 'blocking') });
    events.on('error', () => {});
    let stalledAt = 0;
    events.on('stalled', () => (stalledAt ||= Date.now()));
    await events.waitUntilReady();
    const ex = new QueueExecutor({ redis: redis.url, batchSize: 4, maxInFlight: 16 });
    const programs = [pass('p0'), loop('loop', 3_000), pass('p1')];
    const calls = new Array(programs.length).fill(0);
    try {
      const run = ex.run(programs, (_r, i) => calls[i]++);
      const victimPid = await loopingWorker(queue, 60_000);
      const victim = ws.find((w) => w.proc.pid === victimPid);
      expect(victim, `worker ${victimPid} is not one of ${ws.map((w) => w.proc.pid)}`).toBeDefined();
      const sandboxes = childrenOf(victim!.proc.pid!);
      const killedAt = Date.now();
      victim!.proc.kill('SIGKILL');
      const orphansGone = await until(() => sandboxes.every((p) => !alive(p)), 5000);
      note(`worker kill: its sandbox process gone after ${Date.now() - killedAt} ms`);
      expect(orphansGone, `sandbox processes of the killed worker still running: ${sandboxes.filter(alive)}`).toBe(true);
      // Meanwhile the survivor keeps serving.
      const more = Array.from({ length: 6 }, (_, i) => spin(`s${i}`, 100));
      const [results, moreResults] = await Promise.all([run, ex.run(more)]);
      expect(results.map((r) => r.id)).toEqual(programs.map((p) => p.id));
      expect(results.map((r) => r.status)).toEqual(['pass', 'timeout', 'pass']);
      expect(moreResults.map((r) => r.status)).toEqual(more.map(() => 'pass'));
      expect(calls).toEqual([1, 1, 1]);
      expect(stalledAt).toBeGreaterThan(0);
      note(
        `worker kill: batch re-queued ${((stalledAt - killedAt) / 1000).toFixed(1)} s after the kill (lock 2 s, stalled check 1 s)`,
      );
      expect(await queue.getJobCounts('waiting', 'active', 'completed', 'failed')).toEqual({
        waiting: 0,
        active: 0,
        completed: 0,
        failed: 0,
      });
    } finally {
      await events.close();
      await ex.close();
    }
  }, 120_000);

  it('kill -9 of all workers, then a new one: the run completes on the new worker, no sandbox process is left', async () => {
    const ws = await Promise.all([addWorker(), addWorker()]);
    const ex = new QueueExecutor({ redis: redis.url, batchSize: 3, maxInFlight: 16, noWorkerTimeoutMs: 120_000 });
    const programs = [pass('p0'), loop('loop', 3_000), pass('p1'), ...Array.from({ length: 6 }, (_, i) => spin(`s${i}`, 100))];
    const calls = new Array(programs.length).fill(0);
    try {
      const run = ex.run(programs, (_r, i) => calls[i]++);
      expect(await loopingWorker(queue, 60_000)).toBeDefined();
      const sandboxes = ws.flatMap((w) => childrenOf(w.proc.pid!));
      const killedAt = Date.now();
      for (const w of ws) w.proc.kill('SIGKILL');
      const orphansGone = await until(() => sandboxes.every((p) => !alive(p)), 5000);
      note(`all workers killed: their sandbox processes gone after ${Date.now() - killedAt} ms`);
      expect(orphansGone, `sandbox processes of the killed workers still running: ${sandboxes.filter(alive)}`).toBe(true);
      const startedAt = Date.now();
      await addWorker();
      const results = await run;
      note(
        `all workers killed: a new worker finished the run ${((Date.now() - startedAt) / 1000).toFixed(1)} s after it was started (incl. the looping program: 3 s of CPU)`,
      );
      expect(results.map((r) => r.status)).toEqual(programs.map((p) => (p.id === 'loop' ? 'timeout' : 'pass')));
      expect(calls.every((c) => c === 1)).toBe(true);
    } finally {
      await ex.close();
    }
  }, 180_000);

  for (const aof of [false, true]) {
    it(`redis restart mid-run (${aof ? 'AOF: jobs kept' : 'no persistence: jobs re-added'}): each result once, one log line per outage`, async () => {
      // Its own server: this one is killed and started again.
      const own = await TestRedis.start(aof ? { aofDir: mkdtempSync(join(work, 'aof-')) } : {});
      try {
        const ws = await Promise.all([0, 1].map(() => startWorker(['--redis', own.url, ...FAST])));
        workers.push(...ws);
        const ex = new QueueExecutor({ redis: own.url, batchSize: 2, maxInFlight: 8, redisTimeoutMs: 60_000 });
        const programs = Array.from({ length: 12 }, (_, i) => spin(`r${i}`, 100));
        const calls = new Array(programs.length).fill(0);
        let restarted: Promise<void> | undefined;
        let upAt = 0;
        let firstAfter = 0;
        try {
          const results = await ex.run(programs, (_r, i) => {
            calls[i]++;
            if (upAt && !firstAfter) firstAfter = Date.now();
            restarted ??= (async () => {
              await own.stop();
              await sleep(1500);
              await own.start();
              upAt = Date.now();
            })();
          });
          await restarted;
          expect(results.map((r) => r.status)).toEqual(programs.map(() => 'pass'));
          expect(calls.every((c) => c === 1)).toBe(true);
          // Without persistence the restart lost the queued batches and they were added again.
          // (With AOF they survive; an add that was on its way when Redis died may still be redone.)
          if (!aof) expect(ex.resubmitted).toBeGreaterThan(0);
          if (firstAfter)
            note(
              `redis restart (${aof ? 'AOF' : 'no persistence'}): first result ${((firstAfter - upAt) / 1000).toFixed(1)} s after Redis was back; ${ex.resubmitted} batch(es) re-added`,
            );
        } finally {
          await ex.close();
        }
        // A worker says once that Redis went away (each distinct message once), not on every
        // reconnect attempt of every connection.
        for (const w of ws) {
          const lines = redisErrorLines(w);
          const distinct = new Set(lines.map((l) => l.replace(/^\S+ /, '')));
          expect(lines.length, lines.join('\n')).toBe(distinct.size);
          expect(w.stderr()).not.toMatch(/Unhandled error event/);
        }
      } finally {
        await stopWorkers();
        await own.stop();
      }
    }, 90_000);
  }

  it('redis down past redis_timeout_ms during train: the command returns non-zero with a clear message', async () => {
    const own = await TestRedis.start();
    let stopped = false;
    try {
      workers.push(await startWorker(['--redis', own.url, ...FAST]));
      const runDir = join(work, 'train-run');
      const train = spawnSmokeTrain({
        arm: 'execution',
        steps: 400,
        base: join(work, 'train-base'),
        out: runDir,
        extra: ['--set', 'sandbox.backend=queue', '--set', `sandbox.redis=${own.url}`, '--set', 'sandbox.redis_timeout_ms=2000'],
      });
      extra.push(train.proc);
      // Once the arm trains (its settlement goes through the queue), Redis goes away for good.
      const armStarted = await until(
        () => existsSync(join(runDir, 'execution', 'arm.json')) || train.proc.exitCode !== null,
        240_000,
      );
      expect(armStarted && train.proc.exitCode === null, train.stderr().slice(-3000)).toBe(true);
      await own.stop();
      stopped = true;
      const t = Date.now();
      const code = await exitWithin(train.proc, 90_000);
      note(
        `redis down in train: the command returned ${((Date.now() - t) / 1000).toFixed(1)} s after Redis went (redis_timeout_ms 2000)`,
      );
      const err = train.stderr();
      expect(code, err.slice(-3000)).not.toBe(null);
      expect(code).not.toBe(0);
      expect(err).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? unreachable for \d+ s \(sandbox\.redis_timeout_ms = 2000\)/);
      expect(err).not.toMatch(/Unhandled error event/);
      const arm = JSON.parse(readFileSync(join(runDir, 'execution', 'arm.json'), 'utf8'));
      expect(arm.state).toBe('failed');
    } finally {
      await stopWorkers();
      if (!stopped) await own.stop();
    }
  }, 400_000);

  it('a worker from other code (a changed sandbox harness) refuses the batch; the run fails naming the worker and why', async () => {
    // A copy of the package whose sandbox/assert.js differs by one line, run from its sources.
    const other = join(work, 'other');
    mkdirSync(other);
    for (const d of ['src', 'sandbox', 'bin']) cpSync(join(repoRoot, d), join(other, d), { recursive: true });
    cpSync(join(repoRoot, 'package.json'), join(other, 'package.json'));
    symlinkSync(join(repoRoot, 'node_modules'), join(other, 'node_modules'));
    writeFileSync(
      join(other, 'sandbox', 'assert.js'),
      readFileSync(join(other, 'sandbox', 'assert.js'), 'utf8') + '\n// other code\n',
    );
    const proc = spawn(process.execPath, [join(other, 'bin', 'anchor-rl.js'), 'worker', '--redis', redis.url, ...FAST], {
      cwd: other,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    extra.push(proc);
    let err = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (d: string) => (err += d));
    expect(await until(() => /worker ready/.test(err), 60_000), err).toBe(true);
    const ex = new QueueExecutor({ redis: redis.url, batchSize: 4 });
    try {
      const e = await ex.run([pass('a'), pass('b')]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toMatch(new RegExp(`refused by worker \\S+:${proc.pid}: sandbox harness differs`));
      expect((e as Error).message).toContain(harnessIdentity('strict').harness);
    } finally {
      await ex.close();
    }
    expect(await queue.getJobCounts('waiting', 'failed')).toEqual({ waiting: 0, failed: 0 });
  }, 120_000);

  it('limits above the worker maximum are lowered to it; a stuck worker is noticed as a stalled queue', async () => {
    const w = await addWorker(['--max-timeout-ms', '1500']);
    // A job asking an hour for a looping program: the worker gives it its 1.5 s.
    const ex = new QueueExecutor({ redis: redis.url, timeoutMs: 3_600_000 });
    try {
      const t = Date.now();
      const [r] = await ex.run([loop('hour', 3_600_000)]);
      expect(r!.status).toBe('timeout');
      expect(r!.error).toMatch(/asked for 3600000 ms; this worker caps programs at 1500 ms/);
      // The capped budget applied (1.5 s of CPU, not an hour): on a loaded machine its wall time may
      // reach that budget's wall-clock backstop, never more (plus the parent's grace).
      expect(Date.now() - t).toBeLessThan(wallBackstopMs(1500) + 10_000);
    } finally {
      await ex.close();
    }
    // A stopped worker keeps its Redis connections (so "no workers" never fires) but finishes nothing.
    w.proc.kill('SIGSTOP');
    const stuck = new QueueExecutor({ redis: redis.url, stallTimeoutMs: 3000, noWorkerTimeoutMs: 600_000, pollMs: 100 });
    try {
      const t = Date.now();
      const e = await stuck.run([pass('x')]).catch((x: unknown) => x);
      note(`stuck worker: the trainer failed after ${((Date.now() - t) / 1000).toFixed(1)} s (stall_timeout_ms 3000)`);
      expect((e as Error).message).toMatch(/stalled: no program finished for \d+ s although \d+ worker connection/);
    } finally {
      w.proc.kill('SIGCONT');
      await stuck.close();
    }
  }, 60_000);

  it('a malformed job is refused with the reason before anything runs', async () => {
    await addWorker();
    const good = {
      format: JOB_FORMAT,
      identity: harnessIdentity('strict'),
      settings: { memoryMb: 64, stdoutLimit: 1000, minAssertions: 1, seed: 0 },
      programs: [{ id: 'ok', language: 'javascript', code: "require('node:assert').ok(true)", timeoutMs: 1000 }],
    };
    const cases: Array<[unknown, RegExp]> = [
      [{}, /job format null/],
      [{ ...good, programs: 'rm -rf /' }, /malformed job: programs: /],
      [{ ...good, programs: [{ ...good.programs[0], code: 42 }] }, /malformed job: programs\[0\]\.code: /],
      [{ ...good, programs: [{ ...good.programs[0], timeoutMs: -5 }] }, /malformed job: programs\[0\]\.timeoutMs: /],
      [{ ...good, settings: { ...good.settings, memoryMb: 'lots' } }, /malformed job: settings\.memoryMb: /],
      [{ ...good, programs: [{ ...good.programs[0], language: 'python' }] }, /is python on the javascript queue/],
      [{ ...good, identity: { ...good.identity, verdict: 'lenient' } }, /verdict mode "lenient" is unknown/],
    ];
    const jobs = await Promise.all(cases.map(([data], i) => queue.add('batch', data, { jobId: `bad-${i}` })));
    expect(
      await until(async () => (await queue.getJobCounts('failed')).failed === cases.length, 30_000),
      JSON.stringify(await queue.getJobCounts()),
    ).toBe(true);
    for (const [i, [, reason]] of cases.entries()) {
      const job = await Job.fromId(queue, jobs[i]!.id!);
      expect(job?.failedReason, `case ${i}`).toMatch(/^refused by worker \S+:\d+: /);
      expect(job?.failedReason, `case ${i}`).toMatch(reason);
    }
    // The well-formed job still runs.
    await queue.add('batch', good, { jobId: 'good' });
    expect(await until(async () => (await queue.getJobState('good')) === 'completed', 30_000)).toBe(true);
  }, 60_000);

  it('wrong or missing password: the worker exits 2 with one message; sandbox run --queue fails at once', async () => {
    const locked = await TestRedis.start();
    const port = locked.port;
    await locked.stop();
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', 's3cret'],
      {
        stdio: 'ignore',
      },
    );
    extra.push(proc);
    await sleep(500);
    const cli = (args: string[]) => {
      const p = spawn(process.execPath, [resolve(repoRoot, 'bin/anchor-rl.js'), ...args], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ANCHOR_REDIS_PASSWORD: '' },
      });
      extra.push(p);
      let err = '';
      p.stderr!.setEncoding('utf8');
      p.stderr!.on('data', (d: string) => (err += d));
      return { p, err: () => err };
    };
    for (const [url, role] of [
      [`redis://:wrong@127.0.0.1:${port}`, 'settle'],
      [`redis://127.0.0.1:${port}`, 'settle'],
      [`redis://:wrong@127.0.0.1:${port}`, 'trainer'],
    ]) {
      const w = cli(['worker', '--redis', url!, '--role', role!]);
      const code = await exitWithin(w.p, 30_000);
      expect(code, w.err()).toBe(2);
      expect(w.err().match(/refused the credentials/g)?.length, w.err()).toBe(1);
      expect(w.err()).not.toMatch(/Unhandled error event|WRONGPASS.*\n.*WRONGPASS/);
      expect(w.err()).not.toContain('wrong@');
    }
    const input = join(work, 'programs.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'a', program: "require('node:assert').ok(true)" })}\n`);
    const t = Date.now();
    const s = cli(['sandbox', 'run', input, '--queue', `redis://:wrong@127.0.0.1:${port}`, '--redis-timeout-ms', '60000']);
    const code = await exitWithin(s.p, 30_000);
    expect(code, s.err()).toBe(1);
    expect(s.err()).toMatch(/refused the credentials \(WRONGPASS/);
    expect(s.err()).not.toMatch(/Unhandled error event/);
    expect(Date.now() - t).toBeLessThan(30_000);
  }, 120_000);

  it('sandbox run --queue (a fleet check) gives the local results; queue options need --queue', async () => {
    await addWorker();
    const input = join(work, 'fleet.jsonl');
    const lines = [
      { id: 'pass', program: "require('node:assert').equal(1 + 1, 2);" },
      { id: 'fail', program: "require('node:assert').equal(1, 2);" },
      { id: 'hang', program: 'while (true) {}' },
      { id: 'split', program: 'function add(a, b) { return a + b; }', tests: "require('node:assert').equal(add(2, 3), 5);" },
    ];
    writeFileSync(input, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const run = async (args: string[]) => {
      const p = spawn(
        process.execPath,
        [resolve(repoRoot, 'bin/anchor-rl.js'), 'sandbox', 'run', input, '--timeout-ms', '1000', ...args],
        {
          cwd: repoRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      extra.push(p);
      let out = '';
      let err = '';
      p.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
      p.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
      const code = await exitWithin(p, 120_000);
      return {
        code,
        err,
        results: out.trim()
          ? out
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l))
          : [],
      };
    };
    const local = await run([]);
    const fleet = await run(['--queue', redis.url, '--batch-size', '2', '--no-worker-timeout-ms', '20000']);
    expect(local.code, local.err).toBe(0);
    expect(fleet.code, fleet.err).toBe(0);
    const key = (r: { id: string; status: string; passed: number; total: number }) =>
      `${r.id} ${r.status} ${r.passed}/${r.total}`;
    expect(fleet.results.map(key)).toEqual(local.results.map(key));
    expect(fleet.results.map((r) => r.status)).toEqual(['pass', 'fail', 'timeout', 'pass']);
    expect(fleet.err).toMatch(/2 passed, 2 failed .* \(queue anchor-rl at redis:\/\/127\.0\.0\.1:\d+\/?\)/);
    const stray = await run(['--batch-size', '4']);
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/--batch-size only apply with --queue URL/);
  }, 300_000);

  it('after a fatal error nothing more is sent, and close() leaves no job waiting', async () => {
    // No worker serves this prefix: the no-worker timeout is the fatal error.
    const ex = new QueueExecutor({
      redis: redis.url,
      prefix: 'orphans',
      batchSize: 1,
      maxInFlight: 2,
      noWorkerTimeoutMs: 1000,
      pollMs: 100,
    });
    const q = new Queue(settleQueueName('orphans', 'javascript'), { connection: connectionOptions(redis.url, 'client') });
    const added: string[] = [];
    const ev = new QueueEvents(settleQueueName('orphans', 'javascript'), {
      connection: connectionOptions(redis.url, 'blocking'),
    });
    ev.on('added', ({ jobId }) => added.push(jobId));
    await ev.waitUntilReady();
    try {
      const e = await ex.run(Array.from({ length: 6 }, (_, i) => pass(`q${i}`))).catch((x: unknown) => x);
      expect((e as Error).message).toMatch(/no sandbox workers/);
      await sleep(1000);
      expect(added.length, `jobs added: ${added.join(', ')}`).toBe(2);
      await ex.close();
      expect(await q.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 });
      // close() with batches pending (no fatal error yet) removes them too.
      const ex2 = new QueueExecutor({
        redis: redis.url,
        prefix: 'orphans',
        batchSize: 1,
        maxInFlight: 4,
        noWorkerTimeoutMs: 600_000,
      });
      const pending = ex2.run(Array.from({ length: 3 }, (_, i) => pass(`c${i}`))).catch((x: unknown) => x);
      expect(await until(async () => (await q.getJobCounts('waiting')).waiting === 3, 10_000)).toBe(true);
      await ex2.close();
      expect((await pending) as Error).toBeInstanceOf(Error);
      expect(await q.getJobCounts('waiting', 'active', 'delayed')).toEqual({ waiting: 0, active: 0, delayed: 0 });
    } finally {
      await ev.close();
      await q.obliterate({ force: true }).catch(() => {});
      await q.close();
      await ex.close();
    }
  }, 60_000);

  it("a parent's kill -9 leaves no sandbox process: a queue worker's and a local executor's (an arm process)", async () => {
    // The local executor: a parent busy with looping programs (20 s limit each), SIGKILLed.
    // As an arm process mid-step: a LocalExecutor whose two sandbox workers run looping programs.
    const parentCode = `
      const { LocalExecutor } = await import(${JSON.stringify(join(repoRoot, 'src/sandbox/local-executor.ts'))});
      const ex = new LocalExecutor({ workers: 2, timeoutMs: 20000 });
      // Sixteen programs go out in batches of two, [spin, loop]: once both workers have returned
      // their first spin, both are inside a looping program.
      const spin = "let x = 0; for (let i = 0; i < 6e7; i++) x += i; require('node:assert').ok(x > 0);";
      const programs = Array.from({ length: 16 }, (_, i) => ({ id: 'p' + i, language: 'javascript', code: i % 2 ? 'while (true) {}' : spin }));
      let spun = 0;
      void ex.run(programs, (_r, i) => {
        if (i % 2 === 0 && ++spun === 2) setTimeout(() => process.stdout.write('ready'), 300);
      });`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', parentCode], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    extra.push(parent);
    let out = '';
    parent.stdout!.setEncoding('utf8');
    parent.stdout!.on('data', (d: string) => (out += d));
    expect(await until(() => out.includes('ready'), 120_000)).toBe(true);
    const sandboxes = childrenOf(parent.pid!);
    expect(sandboxes.length).toBe(2);
    const t = Date.now();
    parent.kill('SIGKILL');
    const gone = await until(() => sandboxes.every((p) => !alive(p)), 5000);
    note(`local executor parent kill: sandbox processes gone after ${Date.now() - t} ms`);
    expect(gone, `sandbox processes still running: ${sandboxes.filter(alive)}`).toBe(true);
    // A queue worker killed while its sandbox process loops (20 s) on a batch.
    const w = await addWorker();
    const ex = new QueueExecutor({ redis: redis.url });
    try {
      void ex.run([pass('p0'), loop('loop', 20_000)]).catch(() => {});
      expect(await loopingWorker(queue, 60_000)).toBe(w.proc.pid);
      const kids = childrenOf(w.proc.pid!);
      w.proc.kill('SIGKILL');
      expect(await until(() => kids.every((p) => !alive(p)), 5000), `still running: ${kids.filter(alive)}`).toBe(true);
    } finally {
      await ex.close();
    }
  }, 90_000);
});
