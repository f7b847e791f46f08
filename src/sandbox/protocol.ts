/**
 * Messages between the executor (parent) and its worker processes over the fork IPC channel.
 * Internal to src/sandbox.
 */
import { Worker } from 'node:worker_threads';
import type { ExecErrorCode, ExecStatus, VerdictMode } from './types.ts';

/** Worker start-up options, passed as argv[2] (JSON). */
export interface WorkerOptions {
  memoryMb: number;
  stdoutLimit: number;
  minAssertions: number;
  /** Replace the isolate after this many programs. */
  recycleAfter: number;
  /** Comparison semantics of the tests (see `sandbox.verdict`). */
  verdict: VerdictMode;
  /**
   * Run seed: each program's random sources (Math.random, Date; Python's random, SystemRandom,
   * time) are seeded from it and a hash of the problem's tests and prompt (never the program's own
   * text, which a policy could vary until it met a lucky draw), so a verdict is a pure function of
   * the program and the run seed.
   */
  seed: number;
}

/** How many times its CPU budget a program may take in wall time before the host gives up on it. */
const BACKSTOP_FACTOR = 20;
/** Wall time added to every backstop, ms (isolate replacement and re-runs under load). */
const BACKSTOP_EXTRA_MS = 5000;

/**
 * The wall-clock backstop of a program whose CPU budget is `budgetMs`: an infrastructure guard,
 * not a verdict. A program's time limit is CPU time (src/sandbox/cpu-budget.ts); on
 * a loaded machine it may take many times that in wall time to use its budget, and only past this
 * backstop does the host give up (status `timeout` with code `host_overloaded`). The parent's
 * watchdog kills a silent worker only after it (plus a grace period).
 */
export function wallBackstopMs(budgetMs: number): number {
  return BACKSTOP_FACTOR * budgetMs + BACKSTOP_EXTRA_MS;
}

/** One program as sent to a worker. `i` is the parent's job index. */
export interface WireProgram {
  i: number;
  code: string;
  tests?: string;
  prompt?: string;
  /** Time budget, ms: CPU time of the worker thread (JavaScript and Python; src/sandbox/cpu-budget.ts). */
  timeoutMs: number;
  /** {@link ProgramSpec.draw} (absent = 0). */
  draw?: number;
}

/** One result as sent back. */
export interface WireResult {
  i: number;
  status: ExecStatus;
  passed: number;
  total: number;
  ms: number;
  stdout: string;
  error?: string;
  code?: ExecErrorCode;
}

export type ToWorker = { type: 'batch'; batch: number; programs: WireProgram[] } | { type: 'exit' };

export type FromWorker =
  | { type: 'ready' }
  /** Results so far; `running` = the job index in progress and `elapsed` its age in ms. */
  | { type: 'progress'; batch: number; items: WireResult[]; running?: number; elapsed?: number; done: boolean }
  | { type: 'fatal'; message: string };

/**
 * The result of a program whose run failed outside the per-program handling (a bug, or an
 * isolated-vm failure): reported as an `error`, never lost.
 */
export function internalErrorResult(i: number, started: number, e: unknown): WireResult {
  return {
    i,
    status: 'error',
    passed: 0,
    total: 0,
    ms: Math.round(performance.now() - started),
    stdout: '',
    error: `sandbox internal error: ${e instanceof Error ? e.message : String(e)}`,
  };
}

/** Send a message to the parent executor (dropped once the channel is gone). */
export function sendToParent(m: FromWorker): void {
  if (process.send && process.connected) process.send(m);
}

/**
 * A worker process's main loop, shared by the JavaScript and Python workers: start the runtime
 * (reporting `fatal` and exiting if it cannot), then run batches one after another as they
 * arrive, close on `exit`, and exit when the parent goes away.
 */
export async function serveWorker<R>(spec: {
  what: string;
  start: (opts: WorkerOptions) => R | Promise<R>;
  runBatch: (runtime: R, batch: number, programs: WireProgram[]) => Promise<void>;
  close: (runtime: R) => void;
}): Promise<void> {
  const opts = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
  let runtime: R;
  try {
    runtime = await spec.start(opts);
  } catch (e) {
    sendToParent({
      type: 'fatal',
      message: `${spec.what} failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    });
    process.exit(1);
  }
  process.on('disconnect', () => process.exit(0));
  exitWithParent();
  let chain = Promise.resolve();
  process.on('message', (m: ToWorker) => {
    if (m.type === 'exit') {
      spec.close(runtime);
      process.exit(0);
    }
    if (m.type === 'batch') chain = chain.then(() => spec.runBatch(runtime, m.batch, m.programs));
  });
  sendToParent({ type: 'ready' });
}

/** How often the parent-death watch looks at the parent pid, ms. */
const PARENT_WATCH_MS = 500;

/**
 * End this process when its parent dies, even in the middle of a program. The `disconnect`
 * handler alone is not enough: programs (and whole batches) run synchronously on the main
 * thread, so a parent killed with SIGKILL mid-batch left its sandbox process running every
 * remaining program to its time limit — a looping program at full CPU for minutes. A small
 * thread (its own event loop, ~10 MB) polls the parent pid, which changes when the process is
 * re-parented, and kills this process outright. Linux's PR_SET_PDEATHSIG would do it without a
 * thread, but Node offers no way to set it.
 */
function exitWithParent(): void {
  const watch = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData.ppid) process.kill(process.pid, 'SIGKILL'); }, workerData.every);`,
    { eval: true, workerData: { ppid: process.ppid, every: PARENT_WATCH_MS }, resourceLimits: { maxOldGenerationSizeMb: 8 } },
  );
  watch.unref();
}
