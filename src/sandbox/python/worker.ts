/**
 * Python sandbox worker process (forked by the local executor for `language: python` programs).
 * Speaks the same IPC protocol as the JavaScript worker (src/sandbox/protocol.ts) and hosts one
 * {@link PythonRuntime}. Programs run one at a time; the runtime's isolated-vm call is async, so
 * this process's event loop stays free to report progress (the parent kills a worker whose
 * program outlives its timeout).
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
  let booting = false;
  const flush = (done: boolean) => {
    const items = buffered;
    buffered = [];
    send({
      type: 'progress',
      batch,
      items,
      done,
      // While a runtime boots (after a recycle) the program has not started: report it as fresh.
      ...(running !== undefined && !done ? { running, elapsed: booting ? 0 : Math.round(performance.now() - started) } : {}),
    });
  };
  const ticker = setInterval(() => flush(false), PROGRESS_MS);
  try {
    for (const p of programs) {
      running = p.i;
      // A (re)boot is not the program's time: the parent's watchdog counts from here.
      booting = true;
      try {
        await rt.start();
      } catch {
        /* reported by run() below */
      } finally {
        booting = false;
      }
      started = performance.now();
      flush(false);
      let r: WireResult;
      try {
        const res = await rt.run(
          {
            code: p.code,
            ...(p.tests !== undefined ? { tests: p.tests } : {}),
            ...(p.prompt !== undefined ? { prompt: p.prompt } : {}),
          },
          p.timeoutMs,
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
