/**
 * Python sandbox worker process (forked by the local executor for `language: python` programs).
 * Speaks the same IPC protocol as the JavaScript worker (src/sandbox/protocol.ts) and hosts one
 * {@link PythonRuntime}. Programs run one at a time, synchronously on this thread (their time limit
 * is this thread's CPU time); progress goes out before an attempt, at most every PROGRESS_MS, and
 * while a runtime boots (the parent kills a worker that burns too much CPU, or wall time, without
 * reporting).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { internalErrorResult, sendToParent, serveWorker, type WireProgram, type WireResult } from '../protocol.ts';
import { PythonRuntime } from './runtime.ts';

const PROGRESS_MS = 50;

const send = sendToParent;

async function runBatch(rt: PythonRuntime, batch: number, programs: WireProgram[]): Promise<void> {
  let buffered: WireResult[] = [];
  let running: number | undefined;
  let started = 0;
  let lastFlush = 0;
  const flush = (done: boolean) => {
    lastFlush = performance.now();
    const items = buffered;
    buffered = [];
    send({
      type: 'progress',
      batch,
      items,
      done,
      // While a runtime boots the program's time does not run: report it as fresh.
      ...(running !== undefined && !done
        ? { running, elapsed: rt.isBooting() ? 0 : Math.round(performance.now() - started) }
        : {}),
    });
  };
  // Attempts run synchronously (their CPU time is the program's, src/sandbox/cpu-budget.ts), so
  // this timer fires only while a runtime boots in the background; otherwise the worker reports
  // before an attempt, at most every PROGRESS_MS (the parent's watchdog counts the CPU time the
  // worker burns from its last report, so every re-run of a loaded program starts afresh).
  const ticker = setInterval(() => flush(false), PROGRESS_MS);
  try {
    for (const p of programs) {
      running = p.i;
      started = performance.now();
      let r: WireResult;
      try {
        const res = await rt.run(
          {
            code: p.code,
            ...(p.tests !== undefined ? { tests: p.tests } : {}),
            ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
            ...(p.draw ? { draw: p.draw } : {}),
          },
          p.timeoutMs,
          () => {
            started = performance.now();
            if (started - lastFlush >= PROGRESS_MS) flush(false);
          },
        );
        r = {
          i: p.i,
          status: res.status,
          passed: res.passed,
          total: res.total,
          ms: res.ms,
          stdout: res.stdout,
          ...(res.error !== undefined ? { error: res.error } : {}),
          ...(res.code !== undefined ? { code: res.code } : {}),
        };
      } catch (e) {
        rt.discard(true);
        r = internalErrorResult(p.i, started, e);
      }
      buffered.push(r);
    }
  } finally {
    clearInterval(ticker);
    running = undefined;
    flush(true);
  }
}

async function main(): Promise<void> {
  await serveWorker<PythonRuntime>({
    what: 'python sandbox worker',
    start: async (opts) => {
      const rt = new PythonRuntime({
        memoryMb: opts.memoryMb,
        stdoutLimit: opts.stdoutLimit,
        minAssertions: opts.minAssertions,
        verdict: opts.verdict,
        seed: opts.seed,
      });
      // Ready at once, booting in the background: the two interpreters take seconds (tens under
      // heavy load), and a program's time is counted only once the boot is done (runBatch).
      rt.start().catch(() => undefined);
      return rt;
    },
    runBatch,
    close: (rt) => rt.close(),
  });
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) void main();
