/**
 * The local settlement executor: isolated-vm isolates living in forked worker processes, so that
 * an out-of-memory or crash inside an isolate can never take the caller down. Programs are sent
 * to workers in batches (one IPC round trip per batch); concurrency is a p-queue with one slot
 * per worker. A crashed or killed worker is replaced and its unfinished programs are re-run one
 * at a time; a program that takes a worker down twice is reported with a crash status, so no
 * program is ever lost and `run` never rejects because of a program.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import PQueue from 'p-queue';
import {
  type FromWorker,
  type ToWorker,
  type WireProgram,
  type WireResult,
  type WorkerOptions,
  wallBackstopMs,
} from './protocol.ts';
import type { ExecErrorCode, ExecResult, ExecStatus, Executor, ExecutorOptions, OnResult, ProgramSpec } from './types.ts';
import { runDistinct } from './dedupe.ts';
import { moduleEntry, type ModuleEntry } from '../util/fork.ts';

/** Options of {@link createLocalExecutor}: the common executor options plus local tuning knobs. */
export interface LocalExecutorOptions extends ExecutorOptions {
  /** A program that completes but ran fewer assertions than this is `fail` (default 1). */
  minAssertions?: number;
  /** Max programs per IPC batch (default 32). */
  maxBatch?: number;
  /**
   * Replace a worker's isolate after this many programs (default 20,000). A new isolate starts cold:
   * its tests realm is built again and the harness's code runs unoptimised until it is hot again,
   * which cost ~10% of the training-shaped throughput when it happened every 2,000 programs
   * (BENCHMARKS.md, "isolate lifetime"). Memory does not wait for this count: an isolate is also
   * replaced when its heap passes half the limit, and after a timeout or OOM.
   */
  recycleAfter?: number;
  /** Extra time the parent grants a program beyond its wall-clock backstop before killing the worker (default 2000 ms). */
  killGraceMs?: number;
}

const DEFAULTS: Required<LocalExecutorOptions> = {
  workers: 2,
  timeoutMs: 2000,
  memoryMb: 64,
  stdoutLimit: 65_536,
  minAssertions: 1,
  verdict: 'strict',
  seed: 0,
  dedupe: false,
  maxBatch: 32,
  recycleAfter: 20_000,
  killGraceMs: 2000,
};

/** CPU time a silent worker may burn, as a multiple of the longest program budget (plus the grace), before it counts as hung. */
const HUNG_CPU_FACTOR = 3;
/** Clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ). */
const USER_HZ = 100;

/** A process's CPU time (user + system), ms, from /proc/<pid>/stat; undefined where it cannot be read. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th
    // field of the line, stime the 15th.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/** The environment without the locale variables (LANG, LANGUAGE, LC_*), which the worker sets itself. */
function withoutLocale(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k !== 'LANG' && k !== 'LANGUAGE' && !k.startsWith('LC_')));
}

/** Attempts after which a program that keeps crashing its worker is reported instead of retried. */
const MAX_CRASHES = 2;
const STARTUP_TIMEOUT_MS = 60_000;
const WATCHDOG_INTERVAL_MS = 200;

interface Job {
  /** Index in the caller's array. */
  index: number;
  spec: ProgramSpec;
  crashes: number;
}

/** What happened to a batch whose worker died. */
interface BatchOutcome {
  /** Jobs without a result. */
  leftover: Job[];
  /** Job index blamed for a hang (worker killed by the watchdog), if any. */
  hungIndex?: number;
  /** Crash description when the worker died on its own. */
  crash?: { status: ExecStatus; error: string };
}

/**
 * V8's stack limit for the Python worker, KiB: CPython's C-level recursion (an `lru_cache`d
 * recursion, `max(f(c) for c in …)`, `sum(map(f, …))`) runs on the wasm call stack, which V8's
 * default (~984 KiB) ended after ~220 levels where CPython goes on to its recursion limit (1000):
 * honest programs were `error` (red-team rt57 F01), and where near that depth the overflow fell
 * moved with what the worker ran before (F02). Three quarters of the main thread's stack (the
 * isolate runs on it), at most 6000 KiB; V8's default when the limit cannot be read.
 */
export function pythonStackKiB(limits = '/proc/self/limits'): number | undefined {
  let text: string;
  try {
    text = readFileSync(limits, 'utf8');
  } catch {
    return undefined;
  }
  const m = /^Max stack size\s+(\S+)/m.exec(text);
  if (!m) return undefined;
  const soft = m[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(m[1]) / 1024;
  // (A limit that is no number gives NaN, which is not above V8's default.)
  const kib = Math.floor(Math.min(PYTHON_STACK_MAX_KIB, soft * 0.75));
  return kib > 984 ? kib : undefined;
}
const PYTHON_STACK_MAX_KIB = 6000;

/** The worker module to fork, in this module's flavour (util/fork.ts); isolated-vm needs --no-node-snapshot. */
function workerEntry(language: 'javascript' | 'python' = 'javascript'): ModuleEntry {
  const entry = moduleEntry(language === 'python' ? './python/worker' : './worker', import.meta.url);
  // JavaScript: V8 discards queued background optimizing compiles whenever a context is released
  // (once per program), so compile on the worker's own thread where they are kept.
  const stack = language === 'python' ? pythonStackKiB() : undefined;
  const flags =
    language === 'python'
      ? ['--no-node-snapshot', ...(stack !== undefined ? [`--stack-size=${stack}`] : [])]
      : ['--no-node-snapshot', '--no-concurrent-recompilation'];
  return { path: entry.path, execArgv: [...entry.execArgv, ...flags] };
}

class WorkerSlot {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private stderrTail = '';
  private batchSeq = 0;
  /** The batch in flight. */
  private current:
    | {
        batch: number;
        pending: Map<number, Job>;
        onItem: (r: WireResult) => void;
        finish: (o: BatchOutcome) => void;
        running?: number;
        runningSince: number;
        lastHeard: number;
        /** The worker process's CPU time when it last reported (ms; undefined without /proc). */
        heardCpu: number | undefined;
        maxTimeout: number;
        killedForHang?: number;
      }
    | undefined;

  constructor(
    private readonly opts: Required<LocalExecutorOptions>,
    private readonly entry: ModuleEntry,
  ) {}

  /** Spawn the worker if needed and wait until it reports ready. */
  start(): Promise<void> {
    if (this.ready && this.child && this.child.exitCode === null && this.child.signalCode === null) return this.ready;
    const wopts: WorkerOptions = {
      memoryMb: this.opts.memoryMb,
      stdoutLimit: this.opts.stdoutLimit,
      minAssertions: this.opts.minAssertions,
      recycleAfter: this.opts.recycleAfter,
      verdict: this.opts.verdict,
      seed: this.opts.seed,
    };
    const child = fork(this.entry.path, [JSON.stringify(wopts)], {
      execArgv: this.entry.execArgv,
      // Programs see dates in UTC and format numbers and dates in one locale whatever the host's
      // zone and language: a verdict must not depend on the machine (`n.toLocaleString()` gave
      // '1.234.567' under LANG=de_DE.UTF-8).
      env: { ...withoutLocale(process.env), TZ: 'UTC', LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    this.child = child;
    this.stderrTail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      this.stderrTail = (this.stderrTail + d).slice(-8192);
      if (process.env.ANCHOR_DEBUG) process.stderr.write(`[sandbox worker ${child.pid}] ${d}`);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`sandbox worker did not start within ${STARTUP_TIMEOUT_MS} ms`));
        child.kill('SIGKILL');
      }, STARTUP_TIMEOUT_MS);
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          this.idle();
          resolve();
        } else if (m.type === 'fatal') {
          clearTimeout(timer);
          reject(new Error(m.message));
        } else {
          this.onProgress(m);
        }
      };
      child.on('message', onMessage);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            `sandbox worker exited during start-up (code ${code}, signal ${signal}): ${this.stderrTail.trim().slice(-2000)}`,
          ),
        );
        this.onExit(child, code, signal);
      });
      child.on('error', () => {
        /* reported through 'exit' */
      });
    });
    this.ready.catch(() => {
      /* surfaced to whoever awaits start() */
    });
    return this.ready;
  }

  /** Send a batch; resolves when every job has a result or the worker died. */
  runBatch(jobs: Job[], timeoutFor: (j: Job) => number, onItem: (job: Job, r: WireResult) => void): Promise<BatchOutcome> {
    const child = this.child;
    if (!child) return Promise.resolve({ leftover: jobs, crash: { status: 'error', error: 'sandbox worker is not running' } });
    const batch = ++this.batchSeq;
    const pending = new Map(jobs.map((j) => [j.index, j]));
    const programs: WireProgram[] = jobs.map((j) => ({
      i: j.index,
      code: j.spec.code,
      ...(j.spec.tests !== undefined ? { tests: j.spec.tests } : {}),
      ...(j.spec.prompt !== undefined ? { prompt: j.spec.prompt } : {}),
      ...(j.spec.draw ? { draw: j.spec.draw } : {}),
      timeoutMs: timeoutFor(j),
    }));
    return new Promise<BatchOutcome>((resolve) => {
      const now = performance.now();
      this.current = {
        batch,
        pending,
        onItem: (r) => {
          const job = pending.get(r.i);
          if (!job) return;
          pending.delete(r.i);
          onItem(job, r);
        },
        finish: (o) => {
          this.current = undefined;
          resolve(o);
        },
        runningSince: now,
        lastHeard: now,
        heardCpu: processCpuMs(this.child?.pid),
        maxTimeout: Math.max(...programs.map((p) => p.timeoutMs)),
      };
      this.busy();
      const msg: ToWorker = { type: 'batch', batch, programs };
      child.send(msg, (err) => {
        if (err && this.current?.batch === batch) child.kill('SIGKILL');
      });
    });
  }

  private onProgress(m: Extract<FromWorker, { type: 'progress' }>): void {
    const cur = this.current;
    if (!cur || cur.batch !== m.batch) return;
    cur.lastHeard = performance.now();
    cur.heardCpu = processCpuMs(this.child?.pid);
    for (const r of m.items) cur.onItem(r);
    if (m.running !== undefined) {
      if (cur.running !== m.running) cur.running = m.running;
      cur.runningSince = performance.now() - (m.elapsed ?? 0);
    }
    if (m.done) {
      const leftover = [...cur.pending.values()];
      this.idle();
      cur.finish(
        leftover.length
          ? { leftover, crash: { status: 'error', error: 'sandbox worker returned no result for this program' } }
          : { leftover: [] },
      );
    }
  }

  /** Parent-side watchdog: kill a worker whose program outlived its timeout or that went silent. */
  check(now: number): void {
    const cur = this.current;
    if (!cur || !this.child || cur.killedForHang !== undefined) return;
    // A program's limit is CPU time; on a loaded machine it may take up to the wall-clock backstop.
    const limit = wallBackstopMs(cur.maxTimeout) + this.opts.killGraceMs;
    const programAge = cur.running !== undefined ? now - cur.runningSince : 0;
    // A worker that burns CPU without reporting is hung (isolated-vm stuck outside its timer, e.g.
    // in a hostile thrown Proxy's trap) long before the backstop: one program's attempts use at
    // most about 2.7 × its budget (worker.ts), so past 3 × the budget + the grace it is killed,
    // however loaded the machine.
    const cpu = cur.heardCpu === undefined ? undefined : processCpuMs(this.child.pid);
    const burnt = cpu === undefined ? 0 : cpu - cur.heardCpu!;
    if (programAge > limit || now - cur.lastHeard > limit || burnt > HUNG_CPU_FACTOR * cur.maxTimeout + this.opts.killGraceMs) {
      cur.killedForHang = cur.running ?? [...cur.pending.keys()][0] ?? -1;
      this.child.kill('SIGKILL');
    }
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child) return;
    this.child = undefined;
    this.ready = undefined;
    const cur = this.current;
    if (!cur) return;
    const leftover = [...cur.pending.values()];
    if (cur.killedForHang !== undefined) {
      cur.finish({ leftover, hungIndex: cur.killedForHang });
      return;
    }
    const tail = this.stderrTail;
    const oom = /out of memory|heap limit|Allocation failed|OOM/i.test(tail);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    cur.finish({
      leftover,
      crash: oom
        ? { status: 'oom', error: `out of memory: the sandbox worker process died (${how})` }
        : { status: 'error', error: `sandbox worker crashed (${how})${tail.trim() ? `: ${tail.trim().slice(-500)}` : ''}` },
    });
  }

  /** While a batch runs, the IPC channel keeps the parent alive; idle workers do not. */
  private busy(): void {
    this.child?.ref();
    (this.child as unknown as { channel?: { ref(): void } })?.channel?.ref();
  }

  private idle(): void {
    this.child?.unref();
    (this.child as unknown as { channel?: { unref(): void } })?.channel?.unref();
  }

  isBusy(): boolean {
    return this.current !== undefined;
  }

  /** Process id of the worker (tests use it to simulate crashes). */
  pid(): number | undefined {
    return this.child?.pid;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    this.ready = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Keep the event loop alive until the worker is gone (idle workers are unref'd).
    child.ref();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 2000);
      timer.unref();
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      try {
        child.send({ type: 'exit' } satisfies ToWorker);
      } catch {
        child.kill('SIGKILL');
      }
    });
  }
}

/** The local isolated-vm executor. Prefer {@link createExecutor} from `src/sandbox/index.ts`. */
export class LocalExecutor implements Executor {
  private readonly opts: Required<LocalExecutorOptions>;
  private readonly slots: WorkerSlot[];
  private readonly free: WorkerSlot[];
  private readonly queue: PQueue;
  private readonly watchdog: NodeJS.Timeout;
  private closed = false;
  /** Python programs go to a second pool of Python workers (src/sandbox/python/), started on first use. */
  private python: LocalExecutor | undefined;

  constructor(
    options: Partial<LocalExecutorOptions> = {},
    private readonly language: 'javascript' | 'python' = 'javascript',
  ) {
    const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.opts = { ...DEFAULTS, ...defined } as Required<LocalExecutorOptions>;
    const entry = workerEntry(language);
    this.slots = Array.from({ length: Math.max(1, Math.floor(this.opts.workers)) }, () => new WorkerSlot(this.opts, entry));
    this.free = [...this.slots];
    this.queue = new PQueue({ concurrency: this.slots.length });
    this.watchdog = setInterval(() => {
      const now = performance.now();
      for (const s of this.slots) s.check(now);
    }, WATCHDOG_INTERVAL_MS);
    this.watchdog.unref();
  }

  /** Worker process ids, the Python pool's included once started (for diagnostics, crash and load tests). */
  workerPids(): Array<number | undefined> {
    return [...this.slots.map((s) => s.pid()), ...(this.python?.workerPids() ?? [])];
  }

  run(programs: readonly ProgramSpec[], onResult?: OnResult): Promise<ExecResult[]> {
    return this.opts.dedupe ? runDistinct(programs, onResult, this.runEach) : this.runEach(programs, onResult);
  }

  /** Run every program of the batch (JavaScript here, Python on the Python pool). */
  private readonly runEach = async (programs: readonly ProgramSpec[], onResult?: OnResult): Promise<ExecResult[]> => {
    const results: ExecResult[] = new Array(programs.length);
    let callbackError: unknown;
    const deliver = (index: number, r: ExecResult) => {
      results[index] = r;
      if (onResult) {
        try {
          onResult(r, index);
        } catch (e) {
          callbackError ??= e;
        }
      }
    };
    const jobs: Job[] = [];
    const pyIndex: number[] = [];
    programs.forEach((spec, index) => {
      if (this.closed) {
        deliver(index, failure(spec, 'error', 'executor is closed', 0, 'sandbox_unavailable'));
      } else if (spec.language === 'python' && this.language === 'javascript') {
        pyIndex.push(index);
      } else if (spec.language !== this.language) {
        deliver(index, failure(spec, 'unsupported', `unsupported language: ${String(spec.language)}`));
      } else {
        jobs.push({ index, spec, crashes: 0 });
      }
    });
    let pyRun: Promise<unknown> = Promise.resolve();
    if (pyIndex.length) {
      // `run` has merged the repeats already when `dedupe` is on: the Python pool runs what it is given.
      this.python ??= new LocalExecutor({ ...this.opts, dedupe: false }, 'python');
      pyRun = this.python.run(
        pyIndex.map((i) => programs[i]!),
        (r, k) => deliver(pyIndex[k]!, r),
      );
    }
    const size = Math.max(1, Math.min(this.opts.maxBatch, Math.ceil(jobs.length / (this.slots.length * 4))));
    const chunks: Job[][] = [];
    for (let i = 0; i < jobs.length; i += size) chunks.push(jobs.slice(i, i + size));
    await Promise.all([...chunks.map((c) => this.process(c, deliver)), pyRun]);
    if (callbackError !== undefined) throw callbackError;
    return results;
  };

  /** Run a chunk; re-run leftovers of a dead worker one program at a time, outside the queue slot. */
  private async process(chunk: Job[], deliver: (index: number, r: ExecResult) => void): Promise<void> {
    const leftover = await this.queue.add(() => this.attempt(chunk, deliver));
    if (leftover?.length) await Promise.all(leftover.map((j) => this.process([j], deliver)));
  }

  private async attempt(chunk: Job[], deliver: (index: number, r: ExecResult) => void): Promise<Job[]> {
    const slot = this.free.pop();
    if (!slot) throw new Error('internal: no free sandbox worker slot');
    try {
      try {
        await slot.start();
      } catch (e) {
        // One more try with a fresh process before giving up on these programs.
        try {
          await slot.start();
        } catch {
          for (const j of chunk)
            deliver(
              j.index,
              failure(j.spec, 'error', `sandbox worker unavailable: ${(e as Error).message}`, 0, 'sandbox_unavailable'),
            );
          return [];
        }
      }
      const outcome = await slot.runBatch(
        chunk,
        (j) => j.spec.timeoutMs ?? this.opts.timeoutMs,
        (job, r) => deliver(job.index, toResult(job.spec, r)),
      );
      const retry: Job[] = [];
      for (const j of outcome.leftover) {
        if (outcome.hungIndex !== undefined) {
          if (j.index === outcome.hungIndex) {
            const t = j.spec.timeoutMs ?? this.opts.timeoutMs;
            deliver(
              j.index,
              failure(
                j.spec,
                'timeout',
                `timed out after ${t} ms (the program hung its sandbox worker, which was killed and replaced)`,
                t,
              ),
            );
          } else retry.push(j);
          continue;
        }
        j.crashes++;
        if (j.crashes >= MAX_CRASHES) {
          deliver(j.index, failure(j.spec, outcome.crash?.status ?? 'error', outcome.crash?.error ?? 'sandbox worker crashed'));
        } else retry.push(j);
      }
      return retry;
    } finally {
      this.free.push(slot);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.watchdog);
    await this.queue.onIdle();
    await Promise.all([...this.slots.map((s) => s.stop()), this.python?.close()]);
  }
}

function toResult(spec: ProgramSpec, r: WireResult): ExecResult {
  const out: ExecResult = { id: spec.id, status: r.status, passed: r.passed, total: r.total, ms: r.ms, stdout: r.stdout };
  if (r.error !== undefined) out.error = r.error;
  if (r.code !== undefined) out.code = r.code;
  return out;
}

function failure(spec: ProgramSpec, status: ExecStatus, error: string, ms = 0, code?: ExecErrorCode): ExecResult {
  return { id: spec.id, status, passed: 0, total: 0, ms, stdout: '', error, ...(code ? { code } : {}) };
}
