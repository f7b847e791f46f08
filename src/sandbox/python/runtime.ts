/**
 * Host side of one Python runtime: an isolated-vm isolate holding a context in which Pyodide has
 * been booted with the Python harness installed and the pristine memory image taken (see
 * sandbox/python/harness.js). Programs run one at a time; after each, linear memory is restored
 * in-isolate, so every program sees the same pristine interpreter. A runtime whose JS side may no
 * longer be trusted (timeout, JS bridge reached, filesystem written, interpreter exit, heap grown)
 * is thrown away and a new one booted before the next program.
 *
 * Nothing of this process is put into the context: the Pyodide files are copied in as data, and
 * the host only holds References to the harness functions.
 */
import { createHash, randomBytes } from 'node:crypto';
import ivm from 'isolated-vm';
import { CpuBudget, type CpuMeter, Overloaded, timeoutMessage } from '../cpu-budget.ts';
import type { ExecErrorCode, ExecStatus, VerdictMode } from '../types.ts';
import { clockOrigin } from '../virtual-clock.ts';
import { loadPyodideFiles, type PyodideFiles } from './files.ts';

/** Options of a {@link PythonRuntime}. */
export interface PythonRuntimeOptions {
  /** Python heap budget per program beyond the pristine image, megabytes. */
  memoryMb: number;
  /** Captured stdout+stderr per program, bytes. */
  stdoutLimit: number;
  /** A run that completes with fewer passing assertions than this is `fail`. */
  minAssertions: number;
  /** Boot timeout, milliseconds. */
  bootTimeoutMs?: number;
  /** Comparison semantics of the tests (`sandbox.verdict`; default strict). */
  verdict?: VerdictMode;
  /** Run seed; each program's random sources are seeded from it and the program (default 0). */
  seed?: number;
}

/** One program as the runtime takes it. */
export interface PythonProgram {
  code: string;
  tests?: string;
  /** The problem's prompt code, executed apart so the tests' helpers are the prompt's own. */
  prompt?: string;
  /** Which draw of the problem's random sources and clock (ProgramSpec.draw; absent = 0). */
  draw?: number;
}

/** One program's result as the runtime reports it. */
export interface PythonRunResult {
  status: ExecStatus;
  passed: number;
  total: number;
  stdout: string;
  error?: string;
  code?: ExecErrorCode;
  ms: number;
}

interface InIsolateResult {
  status: string;
  passed: number;
  total: number;
  stdout: string;
  error: string;
  recycle: boolean;
}

const STATUSES = new Set(['pass', 'fail', 'error', 'syntax_error', 'timeout', 'oom']);
/** V8 heap of the isolate (the wasm heap is separate and capped by the harness). */
const ISOLATE_HEAP_MB = 384;
/** Wall limit of the in-isolate recovery after a timeout (a memory restore and a tiny program), ms. */
const RECOVER_TIMEOUT_MS = 2000;

let sharedFiles: PyodideFiles | undefined;
let sharedCopy: ivm.ExternalCopy<Record<string, ArrayBuffer | string>> | undefined;

function files(): { f: PyodideFiles; copy: ivm.ExternalCopy<Record<string, ArrayBuffer | string>> } {
  sharedFiles ??= loadPyodideFiles();
  sharedCopy ??= new ivm.ExternalCopy(sharedFiles.files);
  return { f: sharedFiles, copy: sharedCopy };
}

/** Counters for diagnostics and the benchmark. */
export interface RuntimeStats {
  boots: number;
  bootMs: number[];
  programs: number;
  recycles: Record<string, number>;
  imageBytes: number;
  /** Boots that failed and were tried once more on a fresh isolate (see run). */
  bootRetries: number;
}

/** A Python runtime in its own isolate. Not safe for concurrent `run` calls. */
export class PythonRuntime {
  private isolate: ivm.Isolate | undefined;
  private context: ivm.Context | undefined;
  private runRef:
    | ivm.Reference<
        (
          code: string,
          tests: string | null,
          prompt: string | null,
          nonce: string,
          seed: number,
          verdict: VerdictMode,
          testsSeed: number,
        ) => InIsolateResult
      >
    | undefined;
  private recoverRef: ivm.Reference<() => boolean> | undefined;
  private runtimeRef: ivm.Reference | undefined;
  private scripts: { glue: ivm.Script; loader: ivm.Script; harness: ivm.Script } | undefined;
  private wasmModule: ivm.Reference | undefined;
  readonly stats: RuntimeStats = { boots: 0, bootMs: [], programs: 0, recycles: {}, imageBytes: 0, bootRetries: 0 };

  constructor(private readonly opts: PythonRuntimeOptions) {}

  /** The boot in progress, so concurrent callers share it. */
  private booting: Promise<void> | undefined;

  /** Boot the runtime if needed (cold: ~3-4 s idle for its two interpreters). */
  start(): Promise<void> {
    if (this.runRef) return Promise.resolve();
    this.booting ??= this.boot().finally(() => {
      this.booting = undefined;
    });
    return this.booting;
  }

  private async boot(): Promise<void> {
    const t0 = performance.now();
    const { f, copy } = files();
    if (!this.isolate || this.isolate.isDisposed) {
      this.isolate = new ivm.Isolate({ memoryLimit: ISOLATE_HEAP_MB });
      this.scripts = undefined;
      this.wasmModule = undefined;
    }
    const iso = this.isolate;
    this.scripts ??= {
      glue: iso.compileScriptSync(f.glue, { filename: 'pyodide.asm.js' }),
      loader: iso.compileScriptSync(f.loader, { filename: 'pyodide.js' }),
      harness: iso.compileScriptSync(f.harness, { filename: 'anchor-python-harness.js' }),
    };
    const ctx = await iso.createContext();
    this.context = ctx;
    try {
      const factory = (await this.scripts.harness.run(ctx, { reference: true })) as ivm.Reference<(...a: unknown[]) => unknown>;
      const config = {
        stdoutLimit: this.opts.stdoutLimit,
        heapMaxBytes: 0,
        recycleHeapBytes: 0,
        // Fixed, so every runtime's pristine image is the same; programs are reseeded per run.
        seed: 0x2545f491,
        // The tests' private names' tag (harness.py): random per runtime, so no program can name
        // them in advance; the same for all its programs, so compiled tests can be reused.
        tag: randomBytes(8).toString('hex'),
        debug: !!process.env.ANCHOR_DEBUG,
      };
      // Heap limits depend on the pristine image size, known only after boot; set generously
      // for boot and tightened below.
      config.heapMaxBytes = 1024 * 1024 * 1024;
      config.recycleHeapBytes = 2 * 1024 * 1024 * 1024;
      const cfgCopy = new ivm.ExternalCopy(config);
      const runtime = (await factory.apply(
        undefined,
        [
          copy.copyInto(),
          cfgCopy.copyInto({ release: true }),
          process.env.ANCHOR_PY_NO_MODULE_REUSE ? undefined : this.wasmModule?.derefInto(),
        ],
        {
          result: { reference: true },
        },
      )) as ivm.Reference;
      factory.release();
      this.runtimeRef = runtime;
      await this.scripts.glue.run(ctx);
      await this.scripts.loader.run(ctx);
      const boot = (await runtime.get('boot', { reference: true })) as ivm.Reference<() => Promise<boolean>>;
      const bootMs = this.opts.bootTimeoutMs ?? 120_000;
      // The boot promise settles within the call (there are no timers in the isolate); the
      // watchdog covers a boot that stalls on a promise that never settles.
      await watched(boot.apply(undefined, [], { result: { promise: true }, timeout: bootMs }), bootMs, () => undefined).catch(
        async (e: unknown) => {
          const logs = await runtime
            .get('stats', { reference: true })
            .then((r) =>
              (r as ivm.Reference<() => { logs: string }>).apply(undefined, [], { result: { copy: true }, timeout: 1000 }),
            )
            .then((s) => s.logs)
            .catch(() => '');
          throw new Error(
            `${e instanceof Error && e.message !== WATCHDOG ? e.message : 'boot did not complete'}${logs ? `; runtime log: ${logs.slice(-1500)}` : ''}`,
          );
        },
      );
      boot.release();
      const statsRef = (await runtime.get('stats', { reference: true })) as ivm.Reference<() => { imageBytes: number }>;
      const st = (await statsRef.apply(undefined, [], { result: { copy: true } })) as { imageBytes: number };
      statsRef.release();
      this.stats.imageBytes = st.imageBytes;
      // Program budget: memory_mb beyond the pristine heap; recycle when the heap grew far past it.
      const limitRef = (await runtime.get('module', { reference: true })) as ivm.Reference<() => unknown>;
      if (!this.wasmModule)
        this.wasmModule = (await limitRef.apply(undefined, [], { result: { reference: true } })) as ivm.Reference;
      limitRef.release();
      this.runRef = (await runtime.get('run', { reference: true })) as PythonRuntime['runRef'];
      this.recoverRef = (await runtime.get('recover', { reference: true })) as PythonRuntime['recoverRef'];
      await this.setLimits(st.imageBytes);
      this.stats.boots++;
      this.stats.bootMs.push(Math.round(performance.now() - t0));
    } catch (e) {
      this.discard(true);
      throw new Error(`python runtime failed to boot: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Tell the in-isolate harness its heap cap (image + memory_mb) and recycle threshold. */
  private async setLimits(imageBytes: number): Promise<void> {
    const rt = this.runtimeRef!;
    const setRef = (await rt.get('setLimits', { reference: true })) as ivm.Reference<(a: number, b: number) => void>;
    const cap = imageBytes + this.opts.memoryMb * 1024 * 1024;
    await setRef.apply(undefined, [cap, cap + 64 * 1024 * 1024]);
    setRef.release();
  }

  /** Throw the context away (and the isolate after a hang or when asked). */
  discard(isolateToo = false): void {
    for (const r of [this.runRef, this.recoverRef, this.runtimeRef]) {
      try {
        r?.release();
      } catch {
        /* gone */
      }
    }
    this.runRef = undefined;
    this.recoverRef = undefined;
    this.runtimeRef = undefined;
    try {
      this.context?.release();
    } catch {
      /* gone */
    }
    this.context = undefined;
    if (isolateToo && this.isolate && !this.isolate.isDisposed) {
      try {
        this.isolate.dispose();
      } catch {
        /* gone */
      }
    }
    if (isolateToo) {
      this.isolate = undefined;
      this.scripts = undefined;
      this.wasmModule = undefined;
    }
  }

  private recycle(reason: string, isolateToo = false): void {
    this.stats.recycles[reason] = (this.stats.recycles[reason] ?? 0) + 1;
    this.discard(isolateToo);
  }

  /** A boot is in progress (a program's time does not run meanwhile). */
  isBooting(): boolean {
    return this.booting !== undefined;
  }

  /**
   * Run one Python program (solution, plus tests and prompt when given separately). Never throws.
   * The time limit `timeoutMs` is a budget of CPU time (src/sandbox/cpu-budget.ts), so the verdict
   * does not depend on the machine's load: an attempt the load slowed (stopped by its wall timer
   * with CPU time to spare) is run again from the pristine state with a longer wall limit, up to
   * the wall-clock backstop (past it: `timeout` with code `host_overloaded`, not a verdict).
   * `onAttempt` is called before each attempt, once the runtime is booted (the worker reports
   * progress there: attempts run synchronously, on this thread, so their CPU time is the
   * program's).
   */
  async run(program: PythonProgram, timeoutMs: number, onAttempt?: () => void): Promise<PythonRunResult> {
    const limits = new CpuBudget(timeoutMs);
    let t0 = performance.now();
    const done = (status: ExecStatus, extra: Partial<PythonRunResult> = {}): PythonRunResult => ({
      status,
      passed: 0,
      total: 0,
      stdout: '',
      ...extra,
      ms: Math.round((performance.now() - t0) * 100) / 100,
    });
    const seed = programSeed(this.opts.seed ?? 0, program);
    this.stats.programs++;
    let bootRetried = false;
    for (;;) {
      const b0 = performance.now();
      try {
        await this.start();
      } catch (e) {
        // A boot failed before the program ran (a worker's first boot in the adversarial suite,
        // twice on loaded machines: "Array buffer allocation failed", the cause not found): the
        // failed isolate is gone (boot discards it), and one more boot on a fresh one decides.
        if (!bootRetried) {
          bootRetried = true;
          this.stats.bootRetries++;
          continue;
        }
        return done('error', {
          error: `sandbox could not start a Python runtime: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
      // A boot is not the program's time (nor its wall time).
      const booted = performance.now() - b0;
      limits.exclude(booted);
      t0 += booted;
      onAttempt?.();
      const r = this.attempt(program, seed, limits.attempt(), done);
      if (!(r instanceof Overloaded)) return r;
      this.stats.recycles['overloaded-rerun'] = (this.stats.recycles['overloaded-rerun'] ?? 0) + 1;
      if (!limits.retry(r)) return done('timeout', { code: 'host_overloaded', error: limits.giveUpMessage(r) });
    }
  }

  /**
   * One attempt, synchronously on this thread under isolated-vm's wall timer (`meter`): the
   * program's result, or {@link Overloaded} when the timer stopped it with CPU time to spare. The
   * runtime is left pristine either way (memory restored in the isolate, recovered, or replaced),
   * so a re-run starts from the same state as the first attempt.
   */
  private attempt(
    program: PythonProgram,
    seed: number,
    meter: CpuMeter,
    done: (status: ExecStatus, extra?: Partial<PythonRunResult>) => PythonRunResult,
  ): PythonRunResult | Overloaded {
    const runRef = this.runRef!;
    const isolate = this.isolate!;
    const args = [
      program.code,
      program.tests ?? null,
      program.prompt ?? null,
      randomNonce(),
      seed,
      this.opts.verdict ?? 'strict',
      testsSeed(this.opts.seed ?? 0, program),
      clockOrigin(seed),
      meter.budgetMs,
    ];
    let r: InIsolateResult;
    meter.startClock();
    try {
      r = runRef.applySync(undefined, args as never, { timeout: meter.left(), result: { copy: true } }) as InIsolateResult;
    } catch (e) {
      // The host's own measures decide, never the error's text: the isolate disposed for memory,
      // or the attempt's wall limit passed.
      if (isolate.isDisposed) {
        this.recycle('oom', true);
        return done('oom', { error: 'out of memory: the runtime exceeded the isolate memory limit' });
      }
      if (meter.timedOut()) {
        const overloaded = meter.stopped();
        if (this.recover()) this.stats.recycles['timeout-recovered'] = (this.stats.recycles['timeout-recovered'] ?? 0) + 1;
        else this.recycle('timeout');
        return overloaded ?? done('timeout', { error: timeoutMessage(meter.budgetMs) });
      }
      const m = e instanceof Error ? e.message : String(e);
      this.recycle('error', true);
      return done('error', { error: `sandbox runtime error: ${m.slice(0, 2000)}` });
    }
    if (r.recycle)
      this.recycle(
        r.status === 'error' && /JavaScript side/.test(r.error) ? 'js-bridge' : r.status === 'oom' ? 'heap' : 'state',
        false,
      );
    const status = (STATUSES.has(r.status) ? r.status : 'error') as ExecStatus;
    // Ended within its wall limit but over its CPU budget (a stretched attempt allows it): an idle
    // machine would have stopped it first.
    if (status !== 'syntax_error' && meter.overBudget()) return done('timeout', { error: timeoutMessage(meter.budgetMs) });
    const out: PythonRunResult = done(status, { passed: r.passed, total: r.total, stdout: r.stdout });
    if (r.error) out.error = r.error;
    if (status === 'pass' && r.passed < this.opts.minAssertions) {
      out.status = 'fail';
      out.error = `no assertion ran (${r.passed} < min_assertions ${this.opts.minAssertions}): the tests did not execute`;
      out.code = 'tests_not_run';
    }
    return out;
  }

  /** In-isolate recovery after an isolated-vm timeout (memory restore + health check). */
  private recover(): boolean {
    const ref = this.recoverRef;
    if (!ref || !this.isolate || this.isolate.isDisposed) return false;
    try {
      return ref.applySync(undefined, [], { timeout: RECOVER_TIMEOUT_MS, result: { copy: true } }) === true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.discard(true);
  }
}

const WATCHDOG = 'anchor-python-watchdog';

function watched<T>(p: Promise<T>, ms: number, onHang: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onHang();
      reject(new Error(WATCHDOG));
    }, ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * A program's seed (its random sources: random, SystemRandom, os.urandom, uuid4, see
 * sandbox/python/shims.js, and the clock's origin): the run seed and the problem — the tests' and
 * prompt's text — never the program's own text, so its verdict is the same in every worker and on
 * every run, and no edit of a comment redraws it (drawn from a hash of the program, a policy could
 * vary a comment until a coin-flipping answer met a lucky stream: red-team rt61 B10). Every
 * completion of a problem meets the same draws.
 */
function programSeed(runSeed: number, program: PythonProgram): number {
  return seedOf(['anchor-program', String(runSeed), program.tests ?? '\u0001', program.prompt ?? '\u0001', ...draw(program)]);
}

/**
 * The tests' seed (their `random`, in the tests' interpreter): the run seed and the tests' and
 * prompt's text, never the program's. Mixed with the program's seed, the tests' random cases
 * changed with every edit of the program, so a policy could vary a comment until the tests drew
 * only cases it gets right; now every completion of a problem meets the same cases.
 */
function testsSeed(runSeed: number, program: PythonProgram): number {
  return seedOf(['anchor-tests', String(runSeed), program.tests ?? '\u0001', program.prompt ?? '\u0001', ...draw(program)]);
}

/** The draw's part of a seed (nothing for draw 0, so draw 0 keeps the seeds it always had). */
function draw(program: PythonProgram): string[] {
  return program.draw ? [`draw:${program.draw}`] : [];
}

/** A non-zero 32-bit seed from a SHA-256 of `parts`, NUL-separated. */
function seedOf(parts: string[]): number {
  return createHash('sha256').update(parts.join('\0')).digest().readInt32LE(0) || 1;
}

/** Unpredictable per-run nonce (the verdict must echo it). */
function randomNonce(): string {
  return randomBytes(16).toString('hex');
}
