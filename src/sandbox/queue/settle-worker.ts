/**
 * The settlement side of `anchor-rl worker`: BullMQ workers that take batches off the settlement
 * queues and run them in this machine's local sandbox (the same LocalExecutor the `local`
 * backend uses), returning the results as the job's return value.
 */
import { Worker, type Job } from 'bullmq';
import type { Language } from '../../datasets/problem.ts';
import { LocalExecutor } from '../local-executor.ts';
import type { ExecResult } from '../types.ts';
import { closeQuietly, connectionOptions, DEFAULT_QUEUE_PREFIX, redactUrl, settleQueueName } from './connection.ts';
import type { BatchJobData, BatchSettings } from './queue-executor.ts';

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
  log?: (line: string) => void;
}

/** A running settlement worker. */
export interface SettlementWorker {
  /** Batches finished by this process. */
  readonly processed: () => number;
  close(): Promise<void>;
}

/** Start BullMQ workers for the given languages; resolves once they are connected. */
export async function startSettlementWorker(opts: SettlementWorkerOptions): Promise<SettlementWorker> {
  const prefix = opts.prefix ?? DEFAULT_QUEUE_PREFIX;
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  const languages = opts.languages ?? ['javascript'];
  const log = opts.log ?? (() => {});
  // One local executor per language and distinct settings: the trainer's config decides them.
  const executors = new Map<string, LocalExecutor>();
  const executorFor = (language: Language, s: BatchSettings): LocalExecutor => {
    const key = `${language}:${s.memoryMb}:${s.stdoutLimit}:${s.minAssertions}:${s.verdict}:${s.seed}`;
    let ex = executors.get(key);
    if (!ex) {
      ex = new LocalExecutor({
        workers: concurrency,
        timeoutMs: 2000,
        memoryMb: s.memoryMb,
        stdoutLimit: s.stdoutLimit,
        minAssertions: s.minAssertions,
        verdict: s.verdict,
        seed: s.seed,
      });
      executors.set(key, ex);
    }
    return ex;
  };
  let processed = 0;
  const workers: Worker[] = [];
  for (const language of languages) {
    const name = settleQueueName(prefix, language);
    const worker = new Worker<BatchJobData, ExecResult[]>(
      name,
      async (job: Job<BatchJobData, ExecResult[]>) => {
        const { settings, programs } = job.data;
        // Programs carry their own timeouts (filled in by the trainer) so the executor default is unused.
        const results = await executorFor(language, settings).run(programs);
        processed++;
        return results;
      },
      {
        connection: connectionOptions(opts.redis, 'blocking'),
        concurrency: concurrency * Math.max(1, Math.floor(opts.prefetch ?? 2)),
        lockDuration: opts.lockDurationMs ?? 30_000,
        stalledInterval: opts.stalledIntervalMs ?? 30_000,
        maxStalledCount: opts.maxStalledCount ?? 5,
        autorun: true,
      },
    );
    worker.on('error', (e) => log(`worker error (${name}): ${e.message}`));
    worker.on('failed', (job, e) => log(`batch ${job?.id ?? '?'} failed: ${e.message}`));
    workers.push(worker);
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  log(
    `settlement worker ready: ${languages.join(', ')} on ${redactUrl(opts.redis)} (prefix ${prefix}, concurrency ${concurrency})`,
  );
  return {
    processed: () => processed,
    close: async () => {
      // Finishes the batches in hand; bounded, since BullMQ's close waits for Redis forever.
      await Promise.all(workers.map((w) => closeQuietly(w, 60_000)));
      await Promise.all([...executors.values()].map((e) => e.close()));
    },
  };
}
