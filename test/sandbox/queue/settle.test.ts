/**
 * The `queue` sandbox backend against a real redis-server and two `anchor-rl worker` processes:
 * results identical to the local backend, back-pressure, a worker SIGKILLed mid-batch (nothing
 * lost, nothing duplicated), Redis restarted mid-run (the trainer waits and resumes), Redis gone
 * for good and no workers at all (clear bounded errors, never a hang).
 */
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalExecutor } from '../../../src/sandbox/local-executor.ts';
import { connectionOptions, settleQueueName } from '../../../src/sandbox/queue/connection.ts';
import { QueueExecutor } from '../../../src/sandbox/queue/queue-executor.ts';
import { createExecutorFromConfig, sandboxConfigSchema, type ExecResult, type ProgramSpec } from '../../../src/sandbox/index.ts';
import { AnchorError } from '../../../src/util/errors.ts';
import { haveRedisServer, startWorker, TestRedis, type WorkerProc } from '../../../support/redis.ts';

const haveRedis = haveRedisServer('queue backend tests');

// Short locks so a killed worker's batches come back within a few seconds.
const FAST = ['--lock-duration-ms', '2000', '--stalled-interval-ms', '1000'];
const js = (id: string, code: string, extra: Partial<ProgramSpec> = {}): ProgramSpec => ({
  id,
  language: 'javascript',
  code,
  ...extra,
});
const noMs = (rs: ExecResult[]) => rs.map(({ ms: _ms, ...rest }) => rest);
/**
 * As {@link noMs}, and a timeout's message reduced to "timed out": which of the host's two limits
 * stops a hung program first — the isolate's CPU budget ("used its 300 ms of CPU time") or the
 * parent's kill of a worker that outlived it ("hung its sandbox worker") — depends on the machine's
 * load, not on the backend (fresh-clone CI runs on loaded machines saw both). Status, counts and
 * output must still match exactly.
 */
const comparable = (rs: ExecResult[]) =>
  noMs(rs).map((r) => (r.status === 'timeout' && /^timed out\b/.test(r.error ?? '') ? { ...r, error: 'timed out' } : r));
/** A program that passes after spinning for about `ms` milliseconds. */
// CPU-bound (about `ms` ms idle): the sandbox's clock is virtual (1 ms per reading), so a
// Date.now() busy-wait would end at once. A generous time limit: on a loaded machine the spin takes
// many times longer, and these tests are about losing and duplicating results, not timeouts.
const slow = (id: string, ms: number) =>
  js(id, `let x = 0; for (let i = 0; i < ${ms} * 4e5; i++) x += i; require('node:assert').ok(x > 0);`, { timeoutMs: 20_000 });

describe.skipIf(!haveRedis)('queue sandbox backend', () => {
  let redis: TestRedis;
  let workers: WorkerProc[] = [];

  beforeAll(async () => {
    redis = await TestRedis.start();
    workers = await Promise.all([0, 1].map(() => startWorker(['--redis', redis.url, '--concurrency', '2', ...FAST])));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.stop();
  }, 30_000);

  it('returns exactly what the local backend returns on the same programs', async () => {
    const programs: ProgramSpec[] = [
      js('pass', "const assert = require('node:assert'); assert.deepEqual([1, 2], [1, 2]); console.log('out');"),
      js('fail', "require('node:assert').equal(1, 2);"),
      js('throw', "throw new TypeError('boom');"),
      js('syntax', 'function (('),
      js('hang', 'while (true) {}', { timeoutMs: 300 }),
      js('noassert', 'const x = 1;'),
      js('split', 'function add(a, b) { return a + b; }', { tests: "require('node:assert').equal(add(2, 3), 5);" }),
      // A generous timeout: on a loaded machine a slow allocation loop must still end as oom.
      js('oom', 'const a = []; while (true) a.push(new Array(1e6).fill(1));', { timeoutMs: 20_000 }),
      { id: 'ruby', language: 'ruby' as ProgramSpec['language'], code: 'puts 1' },
      ...Array.from({ length: 20 }, (_, i) => js(`n${i}`, `require('node:assert').equal(${i} % 3, 0);`)),
    ];
    const config = sandboxConfigSchema.parse({ backend: 'queue', redis: redis.url, batch_size: 3, max_in_flight: 9 });
    const queued = createExecutorFromConfig(config);
    expect(queued).toBeInstanceOf(QueueExecutor);
    const local = new LocalExecutor({ workers: 2 });
    try {
      const seen: number[] = [];
      const viaQueue = await queued.run(programs, (_r, i) => seen.push(i));
      const viaLocal = await local.run(programs);
      expect(comparable(viaQueue)).toEqual(comparable(viaLocal));
      expect(viaQueue.map((r) => r.status).slice(0, 9)).toEqual([
        'pass',
        'fail',
        'error',
        'syntax_error',
        'timeout',
        'fail',
        'pass',
        'oom',
        'unsupported',
      ]);
      expect(seen.sort((a, b) => a - b)).toEqual(programs.map((_, i) => i));
      // Back-pressure: never more than max_in_flight programs submitted and not returned.
      expect((queued as QueueExecutor).peakInFlight).toBeGreaterThan(0);
      expect((queued as QueueExecutor).peakInFlight).toBeLessThanOrEqual(9);
    } finally {
      await queued.close();
      await local.close();
    }
  }, 60_000);

  // Generous limits: 24 CPU-bound programs took 58 s at load 32 on 2 cores (9 s idle).
  it('loses and duplicates nothing when a worker is SIGKILLed mid-batch', async () => {
    const programs = Array.from({ length: 24 }, (_, i) => slow(`s${i}`, 250));
    const ex = new QueueExecutor({ redis: redis.url, batchSize: 3, maxInFlight: 24 });
    const events = new QueueEvents(settleQueueName('anchor-rl', 'javascript'), {
      connection: connectionOptions(redis.url, 'blocking'),
    });
    let stalled = 0;
    events.on('stalled', () => stalled++);
    await events.waitUntilReady();
    const calls = new Array(programs.length).fill(0);
    let killed = false;
    try {
      const victim = workers[0]!;
      const run = ex.run(programs, (_r, i) => {
        calls[i]++;
        // Once work is flowing both workers hold batches: kill one in the middle of them. The first
        // result may be the victim's own, just as it finishes a batch; 100 ms later it is inside its
        // next one (a batch here takes about 750 ms), so the kill always leaves a batch stalled.
        if (!killed) {
          killed = true;
          setTimeout(() => victim.proc.kill('SIGKILL'), 100);
        }
      });
      const results = await run;
      expect(killed).toBe(true);
      expect(results.map((r) => r.id)).toEqual(programs.map((p) => p.id));
      expect(results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.status} ${r.error ?? ''}`)).toEqual([]);
      expect(calls.every((c) => c === 1)).toBe(true);
      // The recovery path ran: BullMQ saw the dead worker's batch as stalled and re-queued it.
      expect(stalled).toBeGreaterThan(0);
      const q = new Queue(settleQueueName('anchor-rl', 'javascript'), { connection: connectionOptions(redis.url, 'client') });
      const counts = await q.getJobCounts('waiting', 'active', 'completed', 'failed');
      await q.close();
      expect(counts).toEqual({ waiting: 0, active: 0, completed: 0, failed: 0 });
    } finally {
      await events.close();
      await ex.close();
      workers[0] = await startWorker(['--redis', redis.url, '--concurrency', '2', ...FAST]);
    }
  }, 120_000);

  it('waits through a Redis restart and resumes, each result delivered once', async () => {
    const programs = Array.from({ length: 16 }, (_, i) => slow(`r${i}`, 200));
    const ex = new QueueExecutor({ redis: redis.url, batchSize: 2, maxInFlight: 8, redisTimeoutMs: 30_000 });
    const calls = new Array(programs.length).fill(0);
    let restarted: Promise<void> | undefined;
    try {
      const results = await ex.run(programs, (_r, i) => {
        calls[i]++;
        restarted ??= (async () => {
          await redis.stop(); // everything in Redis is lost: no persistence
          await new Promise((r) => setTimeout(r, 1500));
          await redis.start();
        })();
      });
      await restarted;
      expect(results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.status} ${r.error ?? ''}`)).toEqual([]);
      expect(calls.every((c) => c === 1)).toBe(true);
      expect(ex.resubmitted).toBeGreaterThan(0);
    } finally {
      await ex.close();
    }
  }, 120_000);

  it('fails with a clear error, not a hang, when Redis stays down', async () => {
    const down = new QueueExecutor({ redis: `redis://127.0.0.1:1`, redisTimeoutMs: 1500, pollMs: 100 });
    const t = Date.now();
    const err = await down.run([js('x', "require('node:assert').ok(true)")]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnchorError);
    expect((err as AnchorError).code).toBe('SANDBOX_FAILED');
    expect((err as Error).message).toMatch(/Redis at redis:\/\/127\.0\.0\.1:1\/? unreachable for \d+ s/);
    expect(Date.now() - t).toBeLessThan(15_000);
    await down.close();
  }, 30_000);

  it('fails with a clear error after no_worker_timeout_ms when no worker serves the queue', async () => {
    const ex = new QueueExecutor({ redis: redis.url, prefix: 'nobody-home', noWorkerTimeoutMs: 1500, pollMs: 100 });
    const t = Date.now();
    const err = await ex.run([js('x', "require('node:assert').ok(true)")]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnchorError);
    expect((err as Error).message).toMatch(/no sandbox workers for javascript on queue nobody-home-settle-javascript/);
    expect(Date.now() - t).toBeLessThan(15_000);
    await ex.close();
  }, 30_000);
});
