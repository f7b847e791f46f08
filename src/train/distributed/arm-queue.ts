/**
 * Arms across machines: `anchor-rl train --queue URL` puts each arm of a run on a BullMQ queue
 * and `anchor-rl worker --role trainer` processes take them and run them exactly as the local
 * driver does (a forked arm process calling runArm, checkpoints and logs in the run directory,
 * which must be a path shared by all machines). An arm whose trainer worker dies is re-queued by
 * BullMQ's stalled-job check and resumes from its last checkpoint on another worker.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import {
  armQueueName,
  authMessage,
  closeQuietly,
  connectionOptions,
  DEFAULT_QUEUE_PREFIX,
  errorLogOnce,
  EVENTS_BLOCK_MS,
  isAuthError,
  redactUrl,
} from '../../sandbox/queue/connection.ts';
import type { ArmMessage } from '../arm-process.ts';
import type { ArmProgress } from '../arm-runner.ts';
import { readStatus } from '../arm-runner.ts';
import { AnchorError } from '../../util/errors.ts';
import { forkModule } from '../../util/fork.ts';

/** Data of an arm job. */
export interface ArmJobData {
  runDir: string;
  arm: string;
}

/** Return value of an arm job: the arm process's exit code and the arm's state afterwards. */
export interface ArmJobResult {
  code: number;
  state: string | null;
  stepsDone: number | null;
}

/** Options of {@link runArmsOnQueue}. */
export interface ArmDispatchOptions {
  redis: string;
  prefix?: string;
  runDir: string;
  arms: string[];
  /** Fail when no trainer worker serves the queue for this long (default 10 min). */
  noWorkerTimeoutMs?: number;
  /** Fail when Redis stays unreachable this long (default 10 min). */
  redisTimeoutMs?: number;
  pollMs?: number;
  /** Times an arm that stopped unfinished (worker shut down gracefully) is queued again. */
  maxRequeues?: number;
  log?: (line: string) => void;
  onProgress?: (p: ArmProgress) => void;
}

/**
 * Enqueue the arms and wait until each has a final outcome. Resolves with the arms that failed
 * (name and reason); an arm that came back unfinished is queued again and resumes.
 */
export async function runArmsOnQueue(opts: ArmDispatchOptions): Promise<string[]> {
  const prefix = opts.prefix ?? DEFAULT_QUEUE_PREFIX;
  const name = armQueueName(prefix);
  const log = opts.log ?? (() => {});
  const noWorkerTimeoutMs = opts.noWorkerTimeoutMs ?? 600_000;
  const redisTimeoutMs = opts.redisTimeoutMs ?? 600_000;
  const pollMs = opts.pollMs ?? 500;
  const maxRequeues = opts.maxRequeues ?? 20;
  const queue = new Queue<ArmJobData, ArmJobResult>(name, { connection: connectionOptions(opts.redis, 'client') });
  // Wrong credentials are final (no waiting out redis_timeout); other errors are waited out below.
  let authError: unknown;
  const onError = (e: Error) => {
    if (isAuthError(e)) authError ??= e;
  };
  queue.on('error', onError);
  const events = new QueueEvents(name, {
    connection: connectionOptions(opts.redis, 'blocking'),
    blockingTimeout: EVENTS_BLOCK_MS,
  });
  events.on('error', onError);
  const token = randomUUID().slice(0, 12);
  const pending = new Map<string, { arm: string; requeues: number }>();
  events.on('progress', ({ jobId, data }) => {
    if (pending.has(jobId) && data && typeof data === 'object') opts.onProgress?.(data as unknown as ArmProgress);
  });
  const failures: string[] = [];
  const add = (id: string, arm: string) =>
    queue.add('arm', { runDir: opts.runDir, arm }, { jobId: id, removeOnComplete: false, removeOnFail: { age: 7 * 24 * 3600 } });
  try {
    let redisDownSince: number | undefined;
    let noWorkerSince: number | undefined;
    const toAdd = opts.arms.map((arm) => ({ id: `${token}-${arm}-0`, arm, requeues: 0 }));
    while (toAdd.length || pending.size) {
      const now = Date.now();
      try {
        while (toAdd.length) {
          const a = toAdd[0]!;
          await add(a.id, a.arm);
          pending.set(a.id, { arm: a.arm, requeues: a.requeues });
          toAdd.shift();
          log(`arm ${a.arm} queued on ${name} at ${redactUrl(opts.redis)}`);
        }
        for (const [id, p] of [...pending]) {
          const state = await queue.getJobState(id);
          if (state === 'completed' || state === 'failed') {
            const job = await Job.fromId<ArmJobData, ArmJobResult>(queue, id);
            pending.delete(id);
            const status = readStatus(join(opts.runDir, p.arm));
            if (status?.state === 'done') log(`arm ${p.arm} done`);
            else if (state === 'completed' && status?.state === 'running' && p.requeues < maxRequeues) {
              // Stopped cleanly but unfinished (its worker was shut down): resume elsewhere.
              log(`arm ${p.arm} stopped at step ${status.stepsDone}; queued again to resume`);
              toAdd.push({ id: `${token}-${p.arm}-${p.requeues + 1}`, arm: p.arm, requeues: p.requeues + 1 });
            } else
              failures.push(`${p.arm} (${status?.error ?? job?.failedReason ?? `exit code ${job?.returnvalue?.code ?? '?'}`})`);
            await job?.remove().catch(() => {});
          } else if (state === 'unknown') {
            await add(id, p.arm); // Redis lost it: the arm resumes from its checkpoint
          }
        }
        redisDownSince = undefined;
        if (pending.size && (await queue.getWorkersCount()) === 0) {
          noWorkerSince ??= now;
          if (now - noWorkerSince >= noWorkerTimeoutMs) {
            throw new AnchorError(
              'RUN_FAILED',
              `no trainer workers on queue ${name} at ${redactUrl(opts.redis)} for ${Math.round((now - noWorkerSince) / 1000)} s; start one with \`anchor-rl worker --role trainer --redis URL\` on a machine that sees ${opts.runDir}`,
            );
          }
        } else noWorkerSince = undefined;
      } catch (e) {
        if (e instanceof AnchorError) throw e;
        if (authError !== undefined || isAuthError(e))
          throw new AnchorError('BAD_CONFIG', authMessage(opts.redis, authError ?? e));
        redisDownSince ??= now;
        if (now - redisDownSince >= redisTimeoutMs) {
          throw new AnchorError(
            'RUN_FAILED',
            `Redis at ${redactUrl(opts.redis)} unreachable for ${Math.round((now - redisDownSince) / 1000)} s: ${(e as Error).message}`,
          );
        }
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
    return failures;
  } finally {
    await Promise.all([closeQuietly(events), closeQuietly(queue)]);
  }
}

/** Options of {@link startTrainerWorker}. */
export interface TrainerWorkerOptions {
  redis: string;
  prefix?: string;
  /** Arms trained at once on this machine (default 1). */
  concurrency?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  log?: (line: string) => void;
}

/** A running trainer worker. */
export interface TrainerWorker {
  /** Process ids of the arm processes running now (tests kill them). */
  armPids(): number[];
  /** Rejects when the worker cannot go on (Redis refused its credentials); never resolves otherwise. */
  readonly fatal: Promise<never>;
  /** Stop: arms checkpoint and stop; `force` does not wait for BullMQ (only when no job can be in hand). */
  close(force?: boolean): Promise<void>;
}

/** Take arms off the arm queue and run each in its own process (resuming from checkpoints). */
export async function startTrainerWorker(opts: TrainerWorkerOptions): Promise<TrainerWorker> {
  const prefix = opts.prefix ?? DEFAULT_QUEUE_PREFIX;
  const name = armQueueName(prefix);
  const log = opts.log ?? (() => {});
  const children = new Set<import('node:child_process').ChildProcess>();
  const worker = new Worker<ArmJobData, ArmJobResult>(
    name,
    async (job) => {
      const { runDir, arm } = job.data;
      log(`[${arm}] taking arm job ${job.id} (${runDir})`);
      let lastProgress = 0;
      const code = await new Promise<number>((res) => {
        const child = forkModule('./arm-child', import.meta.url, [runDir, arm], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        children.add(child);
        child.on('message', (m: ArmMessage) => {
          if (m.type === 'progress') {
            const now = Date.now();
            if (now - lastProgress > 500 || m.progress.step === m.progress.total) {
              lastProgress = now;
              job.updateProgress(m.progress as unknown as Record<string, unknown>).catch(() => {});
            }
          } else if (m.type === 'log') log(`[${arm}] ${m.message}`);
          else log(`[${arm}] error: ${m.message}`);
        });
        child.on('exit', (c, sig) => {
          children.delete(child);
          res(c ?? (sig ? 128 : 1));
        });
      });
      const status = readStatus(join(runDir, arm));
      log(`[${arm}] arm process exited with code ${code} (state ${status?.state ?? 'unknown'})`);
      return { code, state: status?.state ?? null, stepsDone: status?.stepsDone ?? null };
    },
    {
      connection: connectionOptions(opts.redis, 'blocking'),
      concurrency: Math.max(1, Math.floor(opts.concurrency ?? 1)),
      lockDuration: opts.lockDurationMs ?? 30_000,
      stalledInterval: opts.stalledIntervalMs ?? 30_000,
      maxStalledCount: 10,
    },
  );
  let failFatal: (e: Error) => void = () => {};
  const fatal = new Promise<never>((_, reject) => {
    failFatal = reject;
  });
  fatal.catch(() => {});
  // ioredis reports an outage on every reconnect attempt of every connection: log each message once.
  const logRedisError = errorLogOnce(log, `Redis at ${redactUrl(opts.redis)}`);
  worker.on('error', (e) => {
    if (isAuthError(e)) failFatal(new AnchorError('BAD_CONFIG', authMessage(opts.redis, e)));
    else logRedisError(e);
  });
  try {
    await Promise.race([worker.waitUntilReady(), fatal]);
  } catch (e) {
    await closeQuietly(worker, 1000, true);
    throw e;
  }
  log(`trainer worker ready on ${redactUrl(opts.redis)} (queue ${name})`);
  return {
    armPids: () => [...children].map((c) => c.pid).filter((p): p is number => p !== undefined),
    fatal,
    close: async (force = false) => {
      // Arms stop at their next step boundary and checkpoint (runArm handles SIGTERM); the
      // dispatcher sees them unfinished and queues them again. `force` (Redis refused the
      // credentials, so no job can be in hand): do not wait for BullMQ's fetch loop.
      for (const c of children) c.kill('SIGTERM');
      await closeQuietly(worker, force ? 1000 : 600_000, force);
    },
  };
}
