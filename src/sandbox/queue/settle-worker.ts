/**
 * The settlement side of `anchor-rl worker`: BullMQ workers that take batches off the settlement
 * queues and run them in this machine's local sandbox (the same LocalExecutor the `local`
 * backend uses), returning the results as the job's return value.
 *
 * Before running anything a worker checks the job (./job.ts): a malformed job, or one made for
 * another harness (version, sandbox files, verdict mode), is refused with the reason — the job
 * fails with `refused by worker HOST:PID: ...` and the trainer stops on it. Limits above this
 * worker's maxima are lowered to them. Wrong Redis credentials end the worker with one message.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Language } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { LocalExecutor } from '../local-executor.ts';
import type { ExecResult } from '../types.ts';
import {
  authMessage,
  closeQuietly,
  connectionOptions,
  DEFAULT_QUEUE_PREFIX,
  errorLogOnce,
  isAuthError,
  redactUrl,
  settleQueueName,
} from './connection.ts';
import {
  type BatchJobData,
  type BatchSettings,
  capBatch,
  DEFAULT_WORKER_LIMITS,
  harnessIdentity,
  noteCap,
  REFUSED,
  refusal,
  type WorkerLimits,
  workerName,
} from './job.ts';

/** Options of {@link startSettlementWorker}. */
export interface SettlementWorkerOptions {
  redis: string;
  prefix?: string;
  /** Sandbox worker processes per language (batches beyond them wait for a free one). */
  concurrency?: number;
  languages?: Language[];
  /**
   * BullMQ job lock (ms). A worker renews it every half period; a killed worker's batches are
   * re-queued once it expires and a surviving worker's stalled check (every `stalledIntervalMs`)
   * sees it. Lower values recover faster and cost more Redis traffic.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /**
   * Batches taken per sandbox slot (default 2): while one runs, the next is already fetched, so
   * the Redis round trips of fetching a job and storing its result overlap with execution.
   */
  prefetch?: number;
  /** Times a batch may be orphaned by a dying worker before it is failed (default 5). */
  maxStalledCount?: number;
  /** Ceilings on what a job may ask for (default {@link DEFAULT_WORKER_LIMITS}). */
  limits?: Partial<WorkerLimits>;
  log?: (line: string) => void;
}

/** A running settlement worker. */
export interface SettlementWorker {
  /** Batches finished by this process. */
  readonly processed: () => number;
  /** Rejects when the worker cannot go on (Redis refused its credentials); never resolves otherwise. */
  readonly fatal: Promise<never>;
  /** Stop; finishes the batches in hand unless `force`. */
  close(force?: boolean): Promise<void>;
}

/** How often a running batch reports progress (the trainer's stall check counts it), ms. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Start BullMQ workers for the given languages; resolves once they are connected, rejects with
 * BAD_CONFIG when Redis refuses the credentials.
 */
export async function startSettlementWorker(opts: SettlementWorkerOptions): Promise<SettlementWorker> {
  const prefix = opts.prefix ?? DEFAULT_QUEUE_PREFIX;
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  const languages = opts.languages ?? ['javascript'];
  const limits: WorkerLimits = { ...DEFAULT_WORKER_LIMITS, ...opts.limits };
  const log = opts.log ?? (() => {});
  const me = workerName();
  const identity = harnessIdentity('strict');
  // One local executor per language and distinct settings: the trainer's config decides them.
  const executors = new Map<string, LocalExecutor>();
  const executorFor = (language: Language, s: BatchSettings, verdict: BatchJobData['identity']['verdict']): LocalExecutor => {
    const key = `${language}:${s.memoryMb}:${s.stdoutLimit}:${s.minAssertions}:${verdict}:${s.seed}`;
    let ex = executors.get(key);
    if (!ex) {
      ex = new LocalExecutor({
        workers: concurrency,
        timeoutMs: limits.maxTimeoutMs,
        memoryMb: s.memoryMb,
        stdoutLimit: s.stdoutLimit,
        minAssertions: s.minAssertions,
        verdict,
        seed: s.seed,
      });
      executors.set(key, ex);
    }
    return ex;
  };
  let processed = 0;
  let failFatal: (e: Error) => void = () => {};
  const fatal = new Promise<never>((_, reject) => {
    failFatal = reject;
  });
  fatal.catch(() => {});
  // Every connection of every queue reports the same outage: one log line per distinct message.
  const logRedisError = errorLogOnce(log, `Redis at ${redactUrl(opts.redis)}`);
  const workers: Worker[] = [];
  const onError = (e: Error) => {
    if (isAuthError(e)) failFatal(new AnchorError('BAD_CONFIG', authMessage(opts.redis, e)));
    else logRedisError(e);
  };
  for (const language of languages) {
    const name = settleQueueName(prefix, language);
    const worker = new Worker<BatchJobData, ExecResult[]>(
      name,
      async (job: Job<BatchJobData, ExecResult[]>) => {
        // Nothing runs before the job is known to be well-formed and meant for this harness.
        const why = refusal(job.data, language);
        if (why) {
          log(`batch ${job.id} refused: ${why}`);
          throw new UnrecoverableError(`${REFUSED} ${me}: ${why}`);
        }
        const capped = capBatch(job.data, limits);
        if (capped.summary) log(`batch ${job.id}: ${capped.summary}`);
        const { settings, programs } = capped.data;
        let done = 0;
        let lastReport = 0;
        const results = await executorFor(language, settings, capped.data.identity.verdict).run(programs, () => {
          done++;
          const now = Date.now();
          if (now - lastReport >= PROGRESS_EVERY_MS) {
            lastReport = now;
            job.updateProgress(done).catch(() => {});
          }
        });
        processed++;
        return results.map((r, i) => noteCap(r, capped.notes.get(i)));
      },
      {
        connection: connectionOptions(opts.redis, 'blocking'),
        concurrency: concurrency * Math.max(1, Math.floor(opts.prefetch ?? 2)),
        lockDuration: opts.lockDurationMs ?? 30_000,
        stalledInterval: opts.stalledIntervalMs ?? 30_000,
        maxStalledCount: opts.maxStalledCount ?? 5,
        // After a Redis outage the fetch loop retries this soon (BullMQ's default waits 15 s), and
        // an idle fetch blocks 2 s (default 5 s; BullMQ abandons a fetch stuck in a dead connection
        // a second after its block ends), so a restarted Redis is served again within seconds.
        runRetryDelay: 1000,
        drainDelay: 2,
        autorun: true,
        name: me,
      },
    );
    worker.on('error', onError);
    worker.on('failed', (job, e) => {
      if (!e.message.startsWith(REFUSED)) log(`batch ${job?.id ?? '?'} failed: ${e.message}`);
    });
    workers.push(worker);
  }
  const closeAll = async (graceMs: number, force = false) => {
    await Promise.all(workers.map((w) => closeQuietly(w, graceMs, force)));
    await Promise.all([...executors.values()].map((e) => e.close()));
  };
  try {
    await Promise.race([Promise.all(workers.map((w) => w.waitUntilReady())), fatal]);
  } catch (e) {
    await closeAll(1000, true);
    throw e;
  }
  log(
    `settlement worker ready (${me}): ${languages.join(', ')} on ${redactUrl(opts.redis)} (prefix ${prefix}, concurrency ${concurrency}, ` +
      `anchor-rl ${identity.version}, harness ${identity.harness}, max ${limits.maxTimeoutMs} ms / ${limits.maxMemoryMb} MB per program)`,
  );
  return {
    processed: () => processed,
    fatal,
    // Finishes the batches in hand; bounded, since BullMQ's close waits for Redis forever.
    close: (force = false) => (force ? closeAll(1000, true) : closeAll(60_000)),
  };
}
