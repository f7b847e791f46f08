/**
 * Sandbox worker process (forked by the local executor). Hosts one isolated-vm isolate and runs
 * batches of programs in it, each in a fresh context.
 *
 * Per program: new context → run the harness (compiled once per isolate) which returns the
 * controller → compile the program (and its tests, as a second script) → run with a timeout →
 * ask the controller for the verdict. The verdict comes from the in-isolate recorder, never from
 * the program's output. Nothing of this process is put into the context.
 *
 * The isolate runs user code on isolated-vm's thread (async `run`), so this process's event loop
 * stays free: it reports progress to the parent (which kills us if a program outlives its
 * timeout — isolated-vm can hang outside its own timeout, e.g. while copying a hostile thrown
 * Proxy) and runs a second wall-clock watchdog that disposes a stuck isolate.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ivm from 'isolated-vm';
import type { ExecStatus } from './types.ts';
import { sendToParent, serveWorker, type WireProgram, type WireResult, type WorkerOptions } from './protocol.ts';

const HARNESS_FILES = ['primordials.js', 'comparisons.js', 'inspect.js', 'assert.js', 'harness.js'];
/** How often the worker reports progress while a batch runs, ms. */
const PROGRESS_MS = 50;
/** Extra time beyond the program's timeout before the in-worker watchdog disposes the isolate. */
const WATCHDOG_SLACK_MS = 250;
/** Isolate heap use (fraction of the limit) above which the isolate is replaced between programs. */
const HEAP_RECYCLE_FRACTION = 0.5;
const MAX_ERROR = 4000;
/** Tests only: a program containing this string makes the worker kill itself (a simulated crash). */
const CRASH_MARKER = process.env.ANCHOR_SANDBOX_TEST_CRASH_MARKER || undefined;

/** Source of the in-isolate harness script (the files of top-level `sandbox/`). */
export function harnessSource(stdoutLimit: number): string {
  const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../sandbox');
  const parts = HARNESS_FILES.map((f) => readFileSync(resolve(dir, f), 'utf8'));
  const config = JSON.stringify({ stdoutLimit });
  return `(function () {\n'use strict';\n${parts.join('\n')}\nreturn setupHarness(createPrimordials(globalThis), ${config});\n})()`;
}

interface Verdict {
  pending: boolean;
  passed: number;
  failed: number;
  unsettled: number;
  failure: string;
  stdout: string;
  truncated: boolean;
  asyncState: number;
  asyncError: string;
}

class Host {
  private isolate: ivm.Isolate | undefined;
  private harness: ivm.Script | undefined;
  private used = 0;
  private readonly source: string;

  constructor(private readonly opts: WorkerOptions) {
    this.source = harnessSource(opts.stdoutLimit);
  }

  private ensure(): { isolate: ivm.Isolate; harness: ivm.Script } {
    if (!this.isolate || this.isolate.isDisposed || !this.harness) {
      this.isolate = new ivm.Isolate({ memoryLimit: this.opts.memoryMb });
      this.harness = this.isolate.compileScriptSync(this.source, { filename: 'sandbox-harness.js' });
      this.used = 0;
    }
    return { isolate: this.isolate, harness: this.harness };
  }

  /** Dispose the isolate (after a timeout/OOM, or to bound heap growth). */
  recycle(): void {
    const iso = this.isolate;
    this.isolate = undefined;
    this.harness = undefined;
    if (iso && !iso.isDisposed) {
      try {
        iso.dispose();
      } catch {
        /* already gone */
      }
    }
  }

  /** Warm up: create the isolate and prove the harness runs. */
  warm(): void {
    const { isolate, harness } = this.ensure();
    const ctx = isolate.createContextSync();
    const ctl = harness.runSync(ctx, { reference: true, timeout: 5000 });
    ctl.release();
    ctx.release();
  }

  async run(p: WireProgram): Promise<WireResult> {
    // Test hook: emulate a native crash of this process (tests cannot crash it from inside).
    if (CRASH_MARKER && p.code.includes(CRASH_MARKER)) process.kill(process.pid, 'SIGKILL');
    const t0 = performance.now();
    const base = { i: p.i, passed: 0, total: 0, stdout: '' };
    const done = (status: ExecStatus, extra: Partial<WireResult> = {}): WireResult => ({
      ...base,
      status,
      ms: Math.round((performance.now() - t0) * 100) / 100,
      ...extra,
    });
    let env: { isolate: ivm.Isolate; harness: ivm.Script };
    try {
      env = this.ensure();
    } catch (e) {
      this.recycle();
      return done('error', { error: `sandbox could not start an isolate: ${msg(e)}` });
    }
    let { isolate, harness } = env;
    const deadline = t0 + p.timeoutMs;
    const left = () => Math.max(1, Math.floor(deadline - performance.now()));
    const refs: Array<{ release(): void }> = [];
    let recycle = false;
    try {
      let ctx: ivm.Context;
      let controller: ivm.Reference<(op: number, value?: unknown) => Verdict>;
      try {
        [ctx, controller] = this.prepare(isolate, harness, refs);
      } catch {
        // Not this program's fault (e.g. garbage of an earlier program still counted against the
        // limit): start over with a fresh isolate once.
        this.recycle();
        try {
          ({ isolate, harness } = this.ensure());
          [ctx, controller] = this.prepare(isolate, harness, refs);
        } catch (e) {
          recycle = true;
          return done('error', { error: `sandbox could not prepare a context: ${msg(e)}` });
        }
      }

      // Compile everything first: a syntax error anywhere means nothing runs.
      const scripts: ivm.Script[] = [];
      const sources: Array<[string, string]> = [[p.code, 'program.js']];
      if (p.tests !== undefined) sources.push([p.tests, 'tests.js']);
      for (const [src, filename] of sources) {
        try {
          const s = isolate.compileScriptSync(src, { filename });
          scripts.push(s);
          refs.push(s);
        } catch (e) {
          if (isolate.isDisposed || isMemoryError(e)) {
            recycle = true;
            return done('oom', { error: 'isolate memory limit reached while compiling' });
          }
          return done('syntax_error', { error: `${errName(e)}: ${errMessage(e)}` });
        }
      }

      let completion: ivm.Reference | undefined;
      let runError: unknown;
      let timedOut = false;
      for (const script of scripts) {
        if (performance.now() >= deadline) {
          timedOut = true;
          break;
        }
        const r = await this.runWatched(isolate, script, ctx, left());
        if (r.kind === 'hung') {
          recycle = true;
          return done('timeout', { error: `timed out after ${p.timeoutMs} ms (watchdog disposed the isolate)` });
        }
        if (r.kind === 'error') {
          runError = r.error;
          break;
        }
        completion?.release();
        completion = r.value;
        if (completion) refs.push(completion);
      }

      if (timedOut || (runError !== undefined && isTimeout(runError))) {
        recycle = true;
        const v = this.collect(controller, 50);
        return done('timeout', {
          ...counts(v),
          stdout: stdoutOf(v),
          error: `timed out after ${p.timeoutMs} ms`,
        });
      }
      if (runError !== undefined && (isolate.isDisposed || isMemoryError(runError))) {
        recycle = true;
        return done('oom', { error: `out of memory: isolate memory limit (${this.opts.memoryMb} MB) reached` });
      }
      if (runError !== undefined) {
        const v = this.collect(controller, left());
        const c = counts(v);
        if (v && v.failed > 0) return done('fail', { ...c, stdout: stdoutOf(v), error: v.failure });
        const error = describeRunError(runError);
        if (isAllocationFailure(runError)) {
          recycle = true;
          return done('oom', { ...c, stdout: stdoutOf(v), error: `out of memory: ${error}` });
        }
        return done(isLateSyntaxError(runError) ? 'syntax_error' : 'error', { ...c, stdout: stdoutOf(v), error });
      }

      // Ran to completion: the verdict comes from the recorder.
      let v: Verdict;
      try {
        v = controller.applySync(undefined, [1, completion ? completion.derefInto() : undefined], {
          timeout: left(),
          result: { copy: true },
        }) as Verdict;
        if (v.pending) v = controller.applySync(undefined, [2], { timeout: left(), result: { copy: true } }) as Verdict;
      } catch (e) {
        if (isTimeout(e)) {
          recycle = true;
          return done('timeout', { error: `timed out after ${p.timeoutMs} ms` });
        }
        if (isolate.isDisposed || isMemoryError(e)) {
          recycle = true;
          return done('oom', { error: `out of memory: isolate memory limit (${this.opts.memoryMb} MB) reached` });
        }
        const v2 = this.collect(controller, left());
        if (v2 && v2.failed > 0) return done('fail', { ...counts(v2), stdout: stdoutOf(v2), error: v2.failure });
        return done('error', { ...counts(v2), stdout: stdoutOf(v2), error: describeRunError(e) });
      }
      const c = counts(v);
      const out = stdoutOf(v);
      if (v.failed > 0) return done('fail', { ...c, stdout: out, error: v.failure });
      if (v.asyncState === 3) {
        return done('timeout', {
          ...c,
          stdout: out,
          error: "the program's promise never settled (it awaits something that cannot happen: the sandbox has no timers or I/O)",
        });
      }
      if (v.asyncState === 2) return done('error', { ...c, stdout: out, error: `unhandled rejection: ${v.asyncError}` });
      if (v.unsettled > 0) {
        return done('fail', { ...c, stdout: out, error: `${v.unsettled} assert.rejects/doesNotReject call(s) never settled` });
      }
      if (v.passed < this.opts.minAssertions) {
        return done('fail', {
          ...c,
          stdout: out,
          error: `no assertion ran (${v.passed} < min_assertions ${this.opts.minAssertions}): the tests did not execute`,
          code: 'tests_not_run',
        });
      }
      return done('pass', { ...c, stdout: out });
    } finally {
      for (const r of refs.reverse()) {
        try {
          r.release();
        } catch {
          /* isolate gone */
        }
      }
      this.used++;
      if (recycle || this.used >= this.opts.recycleAfter || this.heapTooLarge()) this.recycle();
    }
  }

  private prepare(
    isolate: ivm.Isolate,
    harness: ivm.Script,
    refs: Array<{ release(): void }>,
  ): [ivm.Context, ivm.Reference<(op: number, value?: unknown) => Verdict>] {
    const ctx = isolate.createContextSync();
    refs.push(ctx);
    const controller = harness.runSync(ctx, { reference: true, timeout: 5000 });
    refs.push(controller);
    return [ctx, controller];
  }

  private heapTooLarge(): boolean {
    if (!this.isolate || this.isolate.isDisposed || this.used % 16 !== 0) return false;
    try {
      const h = this.isolate.getHeapStatisticsSync();
      return h.used_heap_size + h.externally_allocated_size > HEAP_RECYCLE_FRACTION * this.opts.memoryMb * 1024 * 1024;
    } catch {
      return true;
    }
  }

  /** Run a script with isolated-vm's timeout plus a wall-clock watchdog that disposes the isolate. */
  private runWatched(
    isolate: ivm.Isolate,
    script: ivm.Script,
    ctx: ivm.Context,
    timeout: number,
  ): Promise<{ kind: 'ok'; value: ivm.Reference | undefined } | { kind: 'error'; error: unknown } | { kind: 'hung' }> {
    return new Promise((settle) => {
      let finished = false;
      const timer = setTimeout(() => {
        if (finished) return;
        finished = true;
        settle({ kind: 'hung' });
        try {
          isolate.dispose();
        } catch {
          /* already disposed */
        }
      }, timeout + WATCHDOG_SLACK_MS);
      let running: Promise<unknown>;
      try {
        running = script.run(ctx, { reference: true, timeout });
      } catch (error) {
        // isolated-vm throws synchronously when the isolate is already gone.
        finished = true;
        clearTimeout(timer);
        settle({ kind: 'error', error });
        return;
      }
      running.then(
        (value) => {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          settle({ kind: 'ok', value: value as ivm.Reference | undefined });
        },
        (error: unknown) => {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          settle({ kind: 'error', error });
        },
      );
    });
  }

  /** Best-effort read of the recorder and console buffer after the program failed. */
  private collect(controller: ivm.Reference, timeout: number): Verdict | undefined {
    if (!this.isolate || this.isolate.isDisposed) return undefined;
    try {
      return controller.applySync(undefined, [2], { timeout: Math.max(10, timeout), result: { copy: true } }) as Verdict;
    } catch {
      return undefined;
    }
  }
}

function counts(v: Verdict | undefined): { passed: number; total: number } {
  if (!v) return { passed: 0, total: 0 };
  return { passed: v.passed, total: v.passed + v.failed + v.unsettled };
}

function stdoutOf(v: Verdict | undefined): string {
  if (!v) return '';
  return v.truncated ? v.stdout + '\n[output truncated at the sandbox stdout limit]\n' : v.stdout;
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function errName(e: unknown): string {
  try {
    const n = (e as { name?: unknown })?.name;
    return typeof n === 'string' && n ? n : 'Error';
  } catch {
    return 'Error';
  }
}

function errMessage(e: unknown): string {
  try {
    const m = (e as { message?: unknown })?.message;
    return (typeof m === 'string' ? m : String(e)).slice(0, MAX_ERROR);
  } catch {
    return 'unknown error';
  }
}

/** "Name: message" of an error copied out of the isolate; stack lines dropped. */
function describeRunError(e: unknown): string {
  const name = errName(e);
  let message = errMessage(e);
  if (message.startsWith('An object was thrown from supplied code within isolated-vm')) {
    message = 'the program threw a value that is not an Error';
    return `uncaught exception: ${message}`;
  }
  // isolated-vm copies custom errors (e.g. AssertionError) as plain Errors; the stack keeps the name.
  const stack = (e as { stack?: unknown })?.stack;
  if (name === 'Error' && typeof stack === 'string') {
    const first = stack.split('\n', 1)[0] ?? '';
    const m = /^([A-Za-z_$][\w$]*): /.exec(first);
    if (m && m[1] !== 'Error') return `${m[1]}: ${message}`.slice(0, MAX_ERROR);
  }
  return `${name}: ${message}`.slice(0, MAX_ERROR);
}

function isTimeout(e: unknown): boolean {
  return /Script execution timed out/.test(errMessage(e));
}

function isMemoryError(e: unknown): boolean {
  return /disposed during execution due to memory limit|memory limit|out of memory/i.test(errMessage(e));
}

function isAllocationFailure(e: unknown): boolean {
  return errName(e) === 'RangeError' && /Array buffer allocation failed|allocation failed/i.test(errMessage(e));
}

/** A SyntaxError raised while instantiating the script's declarations (e.g. `let require`). */
function isLateSyntaxError(e: unknown): boolean {
  return errName(e) === 'SyntaxError' && /has already been declared/.test(errMessage(e));
}

// ---- process wiring ---------------------------------------------------------------------------

const send = sendToParent;

async function main(): Promise<void> {
  await serveWorker<Host>({
    what: 'sandbox worker',
    start: (opts) => {
      const host = new Host(opts);
      host.warm();
      return host;
    },
    runBatch,
    close: (host) => host.recycle(),
  });
}

async function runBatch(host: Host, batch: number, programs: WireProgram[]): Promise<void> {
  let buffered: WireResult[] = [];
  let running: number | undefined;
  let started = 0;
  const flush = (done: boolean) => {
    const items = buffered;
    buffered = [];
    send({
      type: 'progress',
      batch,
      items,
      done,
      ...(running !== undefined && !done ? { running, elapsed: Math.round(performance.now() - started) } : {}),
    });
  };
  const ticker = setInterval(() => flush(false), PROGRESS_MS);
  try {
    for (const p of programs) {
      running = p.i;
      started = performance.now();
      let r: WireResult;
      try {
        r = await host.run(p);
      } catch (e) {
        // A bug or an isolated-vm failure outside the per-program handling: never lose the program.
        host.recycle();
        r = { i: p.i, status: 'error', passed: 0, total: 0, ms: Math.round(performance.now() - started), stdout: '', error: `sandbox internal error: ${e instanceof Error ? e.message : String(e)}` };
        if (process.env.ANCHOR_DEBUG) process.stderr.write(`sandbox worker: ${e instanceof Error ? e.stack : String(e)}\n`);
      }
      buffered.push(r);
    }
  } finally {
    clearInterval(ticker);
    running = undefined;
    flush(true);
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) void main();
