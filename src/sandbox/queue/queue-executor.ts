/**
 * The `queue` executor backend: settlement programs go to BullMQ queues on Redis in batches
 * (one job per batch, one queue per language) and `anchor-rl worker` processes on any machine run
 * them in the same local sandbox and return the results as the job's return value.
 *
 * Delivery is exactly once per program: each batch has a unique job id, the executor keeps the
 * batches it is waiting for, and a batch's results are taken (and the job removed) only the first
 * time it is seen completed. Lost work is re-run, never lost:
 * - a worker that dies mid-batch stops renewing its job lock; BullMQ's stalled-job check (run by
 *   the surviving workers) moves the job back to waiting and another worker takes it;
 * - a Redis restart that lost the data (no persistence) shows up as jobs in state `unknown`; they
 *   are re-added under the same id (BullMQ ignores an add whose id already exists).
 * Failure is bounded, never a hang: Redis unreachable for `redisTimeoutMs`, no worker serving a
 * queue with pending batches for `noWorkerTimeoutMs`, a queue whose workers make no progress for
 * `stallTimeoutMs`, Redis refusing the credentials, or a worker refusing a batch (another harness,
 * see ./job.ts) rejects `run` with an AnchorError. Then nothing more is sent: batches waiting for
 * capacity are rejected and this executor's jobs still waiting in Redis are removed.
 */
import { randomUUID } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Language } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { wallBackstopMs } from '../protocol.ts';
import { runDistinct } from '../dedupe.ts';
import type { ExecErrorCode, ExecResult, Executor, OnResult, ProgramSpec, VerdictMode } from '../types.ts';
import {
  authMessage,
  closeQuietly,
  connectionOptions,
  DEFAULT_QUEUE_PREFIX,
  EVENTS_BLOCK_MS,
  isAuthError,
  QUEUE_LANGUAGES,
  redactUrl,
  settleQueueName,
} from './connection.ts';
import { type BatchJobData, type BatchSettings, harnessIdentity, JOB_FORMAT, REFUSED } from './job.ts';

/** Options of {@link QueueExecutor}. */
export interface QueueExecutorOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://` for TLS. */
  redis: string;
  /** Queue-name prefix (several runs or clusters can share one Redis). */
  prefix: string;
  /** Programs per job. */
  batchSize: number;
  /** Most programs submitted and not yet returned, across all concurrent `run` calls. */
  maxInFlight: number;
  /** Reject `run` when no worker has served a queue with pending batches for this long. */
  noWorkerTimeoutMs: number;
  /** Reject `run` when Redis has been unreachable for this long. */
  redisTimeoutMs: number;
  /**
   * Reject `run` when workers are connected but no program on a queue with pending batches has
   * finished for this long (a worker stuck on a job). 0 = auto: see {@link stallLimitMs}.
   */
  stallTimeoutMs: number;
  /** How often pending batches are checked (queue events make the common case faster). */
  pollMs: number;
  /** Sandbox settings sent with each batch so workers run programs exactly as the local backend. */
  timeoutMs: number;
  memoryMb: number;
  stdoutLimit: number;
  minAssertions: number;
  verdict?: VerdictMode;
  seed?: number;
  /** Submit each distinct program of a batch once (src/sandbox/dedupe.ts). */
  dedupe?: boolean;
}

const DEFAULTS: QueueExecutorOptions = {
  redis: 'redis://127.0.0.1:6379',
  prefix: DEFAULT_QUEUE_PREFIX,
  batchSize: 16,
  maxInFlight: 256,
  noWorkerTimeoutMs: 60_000,
  redisTimeoutMs: 120_000,
  stallTimeoutMs: 0,
  pollMs: 250,
  timeoutMs: 2000,
  memoryMb: 64,
  stdoutLimit: 65_536,
  minAssertions: 1,
  dedupe: false,
};

/** A batch the executor is waiting for. */
interface Pending {
  id: string;
  language: Language;
  data: BatchJobData;
  /** Called once with the results (or an error) — then the entry is gone. */
  settle: (results: ExecResult[] | Error) => void;
  /** Settled with an error: a job added after that is removed again. */
  failed?: boolean;
}

/** Waiters for in-flight capacity, first come first served. */
interface Waiter {
  size: number;
  resolve: () => void;
  reject: (e: Error) => void;
}

/** Executor that runs programs on remote `anchor-rl worker` processes through BullMQ. */
/** Wall time, ms, a queue's worker may take past its slowest program's backstop before it counts as stuck. */
const STALL_GRACE_MS = 30_000;

/**
 * How long a queue with pending batches may see no program finish while workers are connected
 * before the trainer calls it stalled: `configured` ms, or with 0 (auto) the wall-clock backstop
 * of the longest pending program's budget plus a grace. A worker on an overloaded host may
 * legitimately spend up to that backstop on one program before it reports `host_overloaded`
 * (src/sandbox/protocol.ts), so an auto limit below it would fail a healthy queue.
 */
export function stallLimitMs(configured: number, longestTimeoutMs: number): number {
  return configured > 0 ? configured : wallBackstopMs(longestTimeoutMs) + STALL_GRACE_MS;
}

export class QueueExecutor implements Executor {
  readonly opts: QueueExecutorOptions;
  private readonly token = randomUUID().slice(0, 12);
  private seq = 0;
  private readonly queues = new Map<Language, Queue>();
  private readonly events = new Map<Language, QueueEvents>();
  private readonly pending = new Map<string, Pending>();
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];
  private monitor: NodeJS.Timeout | undefined;
  private checking = false;
  private recheck = false;
  private redisDownSince: number | undefined;
  private lastRedisError = '';
  private readonly noWorkerSince = new Map<Language, number>();
  /** Last sign of progress on each queue with pending batches (any job's, so a shared fleet busy with others is not stalled). */
  private readonly lastProgress = new Map<Language, number>();
  /** Removal of jobs left in Redis after a fatal error (close() waits for it). */
  private cleanup: Promise<void> = Promise.resolve();
  private lastWorkerCheck = 0;
  private closed = false;
  /** Highest number of programs in flight seen (tests check the back-pressure bound). */
  peakInFlight = 0;
  /** Batches re-added after Redis lost them (diagnostics). */
  resubmitted = 0;

  constructor(options: Partial<QueueExecutorOptions> = {}) {
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.opts = { ...DEFAULTS, ...defined } as QueueExecutorOptions;
    connectionOptions(this.opts.redis, 'client'); // validates the URL early
    this.opts.batchSize = Math.max(1, Math.min(this.opts.batchSize, this.opts.maxInFlight));
  }

  private queue(language: Language): Queue {
    let q = this.queues.get(language);
    if (!q) {
      q = new Queue(settleQueueName(this.opts.prefix, language), { connection: connectionOptions(this.opts.redis, 'client') });
      q.on('error', (e) => this.noteRedisError(e));
      this.queues.set(language, q);
      const ev = new QueueEvents(settleQueueName(this.opts.prefix, language), {
        connection: connectionOptions(this.opts.redis, 'blocking'),
        blockingTimeout: EVENTS_BLOCK_MS,
      });
      ev.on('error', (e) => {
        // The poll loop notices Redis being down and bounds the wait; wrong credentials are final.
        if (isAuthError(e)) this.noteRedisError(e);
      });
      const moved = () => {
        if (this.lastProgress.has(language)) this.lastProgress.set(language, Date.now());
      };
      const wake = ({ jobId }: { jobId: string }) => {
        moved();
        if (this.pending.has(jobId)) this.kick();
      };
      ev.on('completed', wake);
      ev.on('failed', wake);
      ev.on('progress', moved);
      ev.on('active', moved);
      this.events.set(language, ev);
    }
    return q;
  }

  private noteRedisError(e: unknown, what: 'connection' | 'timeout' = 'connection'): void {
    if (isAuthError(e)) {
      // Retrying cannot fix credentials: fail now, not after redis_timeout_ms.
      this.failAll(new AnchorError('SANDBOX_FAILED', authMessage(this.opts.redis, e)));
      return;
    }
    // Keep the connection's own error (e.g. ECONNREFUSED) over our timeout note: it says more.
    if (what === 'connection' || !this.lastRedisError) this.lastRedisError = (e as Error)?.message ?? String(e);
    this.redisDownSince ??= Date.now();
  }

  run(programs: readonly ProgramSpec[], onResult?: OnResult): Promise<ExecResult[]> {
    return this.opts.dedupe ? runDistinct(programs, onResult, this.runEach) : this.runEach(programs, onResult);
  }

  /** Submit every program of the batch. */
  private readonly runEach = async (programs: readonly ProgramSpec[], onResult?: OnResult): Promise<ExecResult[]> => {
    const results: ExecResult[] = new Array(programs.length);
    const delivered = new Uint8Array(programs.length);
    let callbackError: unknown;
    const deliver = (index: number, r: ExecResult) => {
      if (delivered[index]) return; // exactly once, whatever the queue did
      delivered[index] = 1;
      results[index] = r;
      if (onResult) {
        try {
          onResult(r, index);
        } catch (e) {
          callbackError ??= e;
        }
      }
    };
    const byLanguage = new Map<Language, number[]>();
    programs.forEach((spec, index) => {
      if (this.closed) deliver(index, failure(spec, 'error', 'executor is closed', 'sandbox_unavailable'));
      else if (!QUEUE_LANGUAGES.includes(spec.language))
        deliver(index, failure(spec, 'unsupported', `unsupported language: ${String(spec.language)}`));
      else {
        const list = byLanguage.get(spec.language) ?? [];
        list.push(index);
        byLanguage.set(spec.language, list);
      }
    });
    const settings: BatchSettings = {
      memoryMb: this.opts.memoryMb,
      stdoutLimit: this.opts.stdoutLimit,
      minAssertions: this.opts.minAssertions,
      seed: this.opts.seed ?? 0,
    };
    const identity = harnessIdentity(this.opts.verdict ?? 'strict');
    const batches: Array<{ language: Language; indices: number[] }> = [];
    for (const [language, indices] of byLanguage) {
      for (let i = 0; i < indices.length; i += this.opts.batchSize)
        batches.push({ language, indices: indices.slice(i, i + this.opts.batchSize) });
    }
    // Submit in order as capacity frees up; every batch settles (results or a bounded error).
    let firstError: Error | undefined;
    const done: Promise<void>[] = [];
    for (const b of batches) {
      if (firstError) break;
      try {
        await this.acquire(b.indices.length);
      } catch (e) {
        firstError ??= e as Error;
        break;
      }
      const data: BatchJobData = {
        format: JOB_FORMAT,
        identity,
        settings,
        programs: b.indices.map((i) => {
          const s = programs[i]!;
          return { ...s, timeoutMs: s.timeoutMs ?? this.opts.timeoutMs };
        }),
      };
      done.push(
        this.submit(b.language, data).then(
          (rs) => {
            b.indices.forEach((idx, k) => {
              const r = rs[k];
              deliver(
                idx,
                r && r.id === programs[idx]!.id
                  ? r
                  : failure(programs[idx]!, 'error', 'sandbox queue worker returned a malformed result', 'sandbox_unavailable'),
              );
            });
          },
          (e: Error) => {
            firstError ??= e;
          },
        ),
      );
    }
    await Promise.all(done);
    if (firstError) throw firstError;
    if (callbackError !== undefined) throw callbackError;
    return results;
  };

  /** Wait for room for `size` more programs in flight. */
  private acquire(size: number): Promise<void> {
    if (this.closed) return Promise.reject(new AnchorError('SANDBOX_FAILED', 'queue executor is closed'));
    if (this.waiters.length === 0 && this.inFlight + size <= this.opts.maxInFlight) {
      this.take(size);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.waiters.push({ size, resolve, reject }));
  }

  private take(size: number): void {
    this.inFlight += size;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
  }

  private release(size: number): void {
    this.inFlight -= size;
    while (this.waiters.length && this.inFlight + this.waiters[0]!.size <= this.opts.maxInFlight) {
      const w = this.waiters.shift()!;
      this.take(w.size);
      w.resolve();
    }
  }

  /** Add one batch and resolve with its results (the in-flight slot is released on settle). */
  private submit(language: Language, data: BatchJobData): Promise<ExecResult[]> {
    const id = `${this.token}-${++this.seq}`;
    return new Promise<ExecResult[]>((resolve, reject) => {
      const entry: Pending = {
        id,
        language,
        data,
        settle: (r) => {
          if (!this.pending.delete(id)) return;
          if (r instanceof Error) entry.failed = true;
          this.release(data.programs.length);
          if (r instanceof Error) reject(r);
          else resolve(r);
        },
      };
      if (![...this.pending.values()].some((p) => p.language === language)) this.lastProgress.set(language, Date.now());
      this.pending.set(id, entry);
      this.add(entry).then(
        // Failed while its add was on the way: it must not wait in Redis for a worker.
        () => (entry.failed ? this.removeJobs([entry]) : undefined),
        (e) => this.noteRedisError(e),
      );
      this.startMonitor();
    });
  }

  private async add(p: Pending): Promise<void> {
    // The trainer removes a job once it has its results; the age limits only matter when a
    // trainer dies first (then Redis drops them after an hour; failed jobs stay a day for inspection).
    await this.queue(p.language).add('batch', p.data, {
      jobId: p.id,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
  }

  private startMonitor(): void {
    if (this.monitor) return;
    this.monitor = setInterval(() => this.kick(), this.opts.pollMs);
  }

  /** Check pending batches now (coalesced: one check runs at a time, one more is queued). */
  private kick(): void {
    if (this.checking) {
      this.recheck = true;
      return;
    }
    this.checking = true;
    void this.check()
      .catch((e) => this.noteRedisError(e))
      .finally(() => {
        this.checking = false;
        if (this.pending.size === 0 && this.monitor) {
          clearInterval(this.monitor);
          this.monitor = undefined;
        }
        if (this.recheck && this.pending.size) {
          this.recheck = false;
          this.kick();
        }
      });
  }

  private async check(): Promise<void> {
    if (this.pending.size === 0) return;
    const now = Date.now();
    // A command can wait forever for a connection that never became ready; bound every round.
    const budget = Math.max(1000, Math.min(10_000, this.opts.redisTimeoutMs / 2));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.checkRound(now),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer from Redis within ${budget} ms`)), budget);
        }),
      ]);
    } catch (e) {
      this.noteRedisError(e, 'timeout');
      const down = this.redisDownSince ?? now;
      if (Date.now() - down >= this.opts.redisTimeoutMs) {
        this.failAll(
          new AnchorError(
            'SANDBOX_FAILED',
            `Redis at ${redactUrl(this.opts.redis)} unreachable for ${Math.round((Date.now() - down) / 1000)} s (sandbox.redis_timeout_ms = ${this.opts.redisTimeoutMs}): ${this.lastRedisError}`,
          ),
        );
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async checkRound(now: number): Promise<void> {
    for (const p of [...this.pending.values()]) {
      if (!this.pending.has(p.id)) continue; // failed during this round (then its job was removed)
      const q = this.queue(p.language);
      const state = await q.getJobState(p.id);
      if (state === 'completed') {
        const job = await Job.fromId<BatchJobData, ExecResult[]>(q, p.id);
        if (!job) continue; // removed between the two calls: cannot be ours (we remove after settling)
        const rv = job.returnvalue;
        p.settle(Array.isArray(rv) ? rv : new AnchorError('SANDBOX_FAILED', `settlement job ${p.id} returned no results`));
        await job.remove().catch(() => {});
      } else if (state === 'failed') {
        const job = await Job.fromId<BatchJobData, ExecResult[]>(q, p.id);
        const reason = job?.failedReason ?? 'unknown reason';
        if (reason.startsWith(REFUSED)) {
          // A worker that cannot honour the batch (other code, a malformed job): stop, saying
          // which worker and why, rather than let verdicts of mixed code into the run.
          await job?.remove().catch(() => {});
          this.failAll(
            new AnchorError(
              'SANDBOX_FAILED',
              `settlement batch ${p.id} on ${settleQueueName(this.opts.prefix, p.language)} was ${reason}`,
              {
                queue: settleQueueName(this.opts.prefix, p.language),
              },
            ),
          );
          return;
        }
        // A batch the workers could not run (e.g. their sandbox would not start) is every
        // program's error, not the trainer's: run() never rejects for the programs' sake.
        p.settle(p.data.programs.map((s) => failure(s, 'error', `sandbox queue job failed: ${reason}`, 'sandbox_unavailable')));
        await job?.remove().catch(() => {});
      } else if (state === 'unknown') {
        // Redis lost it (restarted without persistence): add it again under the same id.
        this.resubmitted++;
        await this.add(p);
      }
    }
    if (this.redisDownSince !== undefined) {
      this.redisDownSince = undefined;
      // Time without Redis is not the workers' fault: the stall clock starts again.
      for (const language of this.lastProgress.keys()) this.lastProgress.set(language, now);
    }
    if (now - this.lastWorkerCheck >= Math.min(1000, this.opts.noWorkerTimeoutMs / 2)) {
      this.lastWorkerCheck = now;
      const languages = new Set([...this.pending.values()].map((p) => p.language));
      for (const language of QUEUE_LANGUAGES) {
        if (!languages.has(language)) {
          this.noWorkerSince.delete(language);
          continue;
        }
        const n = await this.queue(language).getWorkersCount();
        if (n > 0) {
          if (this.noWorkerSince.delete(language)) this.lastProgress.set(language, now);
          this.checkStall(language, n, now);
        } else {
          const since = this.noWorkerSince.get(language) ?? now;
          this.noWorkerSince.set(language, since);
          if (now - since >= this.opts.noWorkerTimeoutMs) {
            this.failAll(
              new AnchorError(
                'SANDBOX_FAILED',
                `no sandbox workers for ${language} on queue ${settleQueueName(this.opts.prefix, language)} at ${redactUrl(this.opts.redis)} for ${Math.round((now - since) / 1000)} s ` +
                  `(sandbox.no_worker_timeout_ms = ${this.opts.noWorkerTimeoutMs}); start one with \`anchor-rl worker --redis URL --languages ${language === 'python' ? 'python' : 'js'}\``,
                { queue: settleQueueName(this.opts.prefix, language) },
              ),
            );
          }
        }
      }
    }
  }

  /** Fail when workers are connected but nothing on the queue has moved for the stall timeout. */
  private checkStall(language: Language, workers: number, now: number): void {
    const since = this.lastProgress.get(language);
    if (since === undefined) return;
    let longest = 0;
    for (const p of this.pending.values())
      if (p.language === language) for (const s of p.data.programs) longest = Math.max(longest, s.timeoutMs ?? 0);
    const limit = stallLimitMs(this.opts.stallTimeoutMs, longest);
    if (now - since < limit) return;
    const queue = settleQueueName(this.opts.prefix, language);
    this.failAll(
      new AnchorError(
        'SANDBOX_FAILED',
        `settlement queue ${queue} at ${redactUrl(this.opts.redis)} stalled: no program finished for ${Math.round((now - since) / 1000)} s ` +
          `although ${workers} worker connection(s) are open (sandbox.stall_timeout_ms = ${this.opts.stallTimeoutMs || `auto, ${limit}`}); ` +
          "a worker is stuck (stopped, or an older anchor-rl that does not cap program limits): check the workers' logs",
        { queue },
      ),
    );
  }

  /**
   * Fail every pending batch and every batch waiting for capacity with `err`. Waiters go first:
   * failing a pending batch frees capacity, which would otherwise let a waiting batch be sent.
   * This executor's jobs still waiting in Redis are removed (in the background; close() waits),
   * so no later worker runs them for nobody.
   */
  private failAll(err: Error): void {
    for (const w of this.waiters.splice(0)) w.reject(err);
    const dropped = [...this.pending.values()];
    for (const p of dropped) p.settle(err);
    this.lastProgress.clear();
    if (dropped.length) {
      const previous = this.cleanup;
      this.cleanup = previous.then(() => this.removeJobs(dropped));
    }
  }

  /** Remove jobs that are still waiting (a running one cannot be; it expires with removeOnComplete). */
  private async removeJobs(batches: Pending[]): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const removals = Promise.all(
      batches.map((p) =>
        this.queue(p.language)
          .remove(p.id)
          .catch(() => 0),
      ),
    );
    // Bounded: after a Redis outage this cannot succeed, and Redis lost or will expire the jobs.
    await Promise.race([removals, new Promise<void>((res) => (timer = setTimeout(res, 3000)))]);
    clearTimeout(timer);
  }

  /** Number of programs submitted and not yet returned. */
  programsInFlight(): number {
    return this.inFlight;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failAll(new AnchorError('SANDBOX_FAILED', 'queue executor closed with batches pending'));
    if (this.monitor) clearInterval(this.monitor);
    this.monitor = undefined;
    await this.cleanup;
    await Promise.all([...this.events.values(), ...this.queues.values()].map((x) => closeQuietly(x)));
  }
}

function failure(spec: ProgramSpec, status: ExecResult['status'], error: string, code?: ExecErrorCode): ExecResult {
  return { id: spec.id, status, passed: 0, total: 0, ms: 0, stdout: '', error, ...(code ? { code } : {}) };
}
