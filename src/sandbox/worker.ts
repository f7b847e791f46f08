/**
 * Sandbox worker process (forked by the local executor). Hosts one isolated-vm isolate and runs
 * batches of programs in it, each in a fresh context.
 *
 * Per program: new context → run the harness (compiled once per isolate) which returns the
 * controller → compile the program (and its tests, as a second script) → run with a timeout →
 * ask the controller for the verdict. The verdict comes from the in-isolate recorder, never from
 * the program's output. Nothing of this process is put into the context.
 *
 * User code runs synchronously under isolated-vm's timeout (an asynchronous run's thread handoff
 * cost more CPU than most programs). Between programs the worker reports progress to the parent,
 * which kills it if a program outlives its timeout by the grace period — isolated-vm can hang
 * outside its own timeout, e.g. while copying a hostile thrown Proxy — and re-runs what it lost.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import ivm from 'isolated-vm';
import { CpuBudget, CpuMeter, Overloaded, timeoutMessage } from './cpu-budget.ts';
import { HOST_GLOBALS } from './host-globals.ts';
import type { ExecStatus, VerdictMode } from './types.ts';
import { guardSource, instrumentScript, planTests, type TestPlan } from './test-plan.ts';
import {
  internalErrorResult,
  sendToParent,
  serveWorker,
  type WireProgram,
  type WireResult,
  type WorkerOptions,
} from './protocol.ts';
import { clockOrigin } from './virtual-clock.ts';

// The program's `Function`, `AsyncFunction`, `GeneratorFunction` and indirect `eval` run while the
// tests realm is the isolate's entered context (the tests call the program's controller directly).
// V8 then checks that context's access to the program realm, which fails (each context has its own
// security token): `Function` threw a TypeError made in the *tests* realm, whose
// `constructor.constructor` was the tests realm's `Function` (the program could patch the tests'
// intrinsics and assert module), and indirect `eval` returned undefined. Without the check, each
// builds its function in its own realm, as under Node (test/sandbox/adversarial/js-entered-realm.ts).
setFlagsFromString('--allow-unsafe-function-constructor');

const HARNESS_FILES = [
  'primordials.js',
  'comparisons.js',
  'inspect.js',
  'assert.js',
  'snapshot.js',
  'node-globals.js',
  'node-crypto.js',
  'harness.js',
];

/** The @noble/hashes modules `require('crypto')` is built on (sandbox/node-crypto.js), in load order. */
const NOBLE_FILES = ['utils.js', '_md.js', '_u64.js', 'sha2.js', 'sha3.js', 'legacy.js', 'hmac.js'];

/**
 * `function nobleHashes()`: @noble/hashes's CommonJS files, each wrapped as a module function,
 * returning the modules sandbox/node-crypto.js uses. Nothing runs until a realm first requires
 * `crypto` (a fresh context only creates the outer function). Its `crypto` module (the host's
 * random source) is replaced by an empty one: random bytes come from the realm's seeded generator.
 */
function nobleSource(): string {
  const dir = dirname(createRequire(import.meta.url).resolve('@noble/hashes/sha2'));
  const modules = NOBLE_FILES.map(
    (f) => `${JSON.stringify(`./${f}`)}: function (exports, require) {\n${readFileSync(resolve(dir, f), 'utf8')}\n}`,
  );
  return `function nobleHashes() {
  'use strict';
  const sources = { __proto__: null, ${modules.join(',\n')} };
  const loaded = { __proto__: null, '@noble/hashes/crypto': { crypto: undefined } };
  function require(id) {
    if (loaded[id] === undefined) {
      loaded[id] = {};
      sources[id](loaded[id], require);
    }
    return loaded[id];
  }
  return { sha2: require('./sha2.js'), sha3: require('./sha3.js'), legacy: require('./legacy.js'), hmac: require('./hmac.js') };
}`;
}
/** How often the worker reports progress while a batch runs, ms. */
const PROGRESS_MS = 50;
/** Isolate heap use (fraction of the limit) above which the isolate is replaced between programs. */
const HEAP_RECYCLE_FRACTION = 0.5;
/** Isolate memory in use (fraction of the limit) at which a failed run counts as out of memory. */
const OOM_FRACTION = 0.8;
const MAX_ERROR = 4000;
/** Cached compiled test wrappers per isolate. */
const SCRIPT_CACHE_LIMIT = 256;
/** Tests only: a program containing this string makes the worker kill itself (a simulated crash). */
const CRASH_MARKER = process.env.ANCHOR_SANDBOX_TEST_CRASH_MARKER || undefined;

/**
 * A self-contained script that can make a promise: only then is its completion tracked (setting the
 * tracking up in each fresh context costs time, and adds the global `__anchorHooks`). One that makes
 * them from code built at run time (`eval('asy' + 'nc …')`) is not tracked — it shares the realm
 * with its tests and could undo the tracking anyway (docs/sandbox.md, "Self-contained programs").
 */
const CAN_MAKE_PROMISES = /\b(?:async|await|Promise|then)\b/;

/** Controller operations of sandbox/harness.js. */
const OP_SEED = 3;
const OP_RUN = 5;
const OP_VERDICT = 6;
const OP_COMPLETION = 7;
const OP_COPIER = 8;
const OP_TIMER = 9;
/** See `settle`: how far apart (ms) the deadlines of one run's timer calls are spread. */
const SETTLE_DEADLINE_SPREAD_MS = 1024;
/** See `settle`: the timer callbacks one run may make before it is a `timeout`. */
const MAX_TIMER_CALLBACKS = 20_000;

/** The realm a harness sets up: see sandbox/harness.js. */
export type HarnessRole = 'combined' | 'program' | 'tests';

/** Source of the in-isolate harness script (the files of top-level `sandbox/`) for one realm role. */
export function harnessSource(stdoutLimit: number, role: HarnessRole = 'combined', verdict: VerdictMode = 'strict'): string {
  const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../sandbox');
  const parts = HARNESS_FILES.map((f) => readFileSync(resolve(dir, f), 'utf8'));
  parts.push(nobleSource());
  parts.unshift(`const HOST_GLOBAL_NAMES = ${JSON.stringify(HOST_GLOBALS)};`);
  const config = JSON.stringify({ stdoutLimit, role, verdict });
  return `(function () {\n'use strict';\n${parts.join('\n')}\nreturn setupHarness(createPrimordials(globalThis), ${config});\n})()`;
}

/** 32-bit FNV-1a of `seed` and texts `a` and `b`. */
function fnvSeed(seed: number, a: string, b: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  const feed = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193);
  };
  feed(a);
  feed(b);
  return h >>> 0;
}

/**
 * The program realm's seed (its `Math.random`, `crypto`, and the clock's origin): the run seed and
 * the problem — the tests' and prompt's text — never the program's own text. Drawn from a hash of
 * the program, the draws were a function of its comments: a policy could vary a comment until a
 * coin-flipping or hard-coded answer met a lucky stream or a clock origin on the right weekday, and
 * keep that pass (red-team rt61 B10, B11). Every completion of a problem now meets the same draws and
 * the same clock, so an answer right by chance is right for all of them or for none. A program with
 * the tests inside it (no separate tests) gets the run seed's stream.
 */
export function programSeed(runSeed: number, tests: string | undefined, prompt: string | undefined): number {
  return fnvSeed(runSeed, tests ?? '', prompt ?? '');
}

/**
 * The tests realm's seed: the run seed and the tests' and prompt's text, never the program's (with
 * the program's, the tests' random cases changed with every edit of the program, so a policy could
 * vary a comment until the tests drew only cases it gets right). Salted apart from
 * {@link programSeed}: the program's stream is never the tests' (a program could draw the secret a
 * test draws, or its `crypto.randomUUID()`).
 */
export function testsSeed(runSeed: number, tests: string, prompt: string): number {
  return fnvSeed((runSeed ^ 0x7e575eed) >>> 0, tests, prompt);
}

/**
 * `seed` for draw `draw` of its problem (ProgramSpec.draw): itself for draw 0, else mixed with the
 * draw (a 32-bit finalizer), so each training step brings other streams and clocks.
 */
export function drawSeed(seed: number, draw: number | undefined): number {
  if (!draw) return seed;
  let h = (seed ^ Math.imul(draw, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

interface Verdict {
  /** Assertion sites whose every execution passed. */
  passed: number;
  /** Assertion sites with a failed execution. */
  failed: number;
  /** Tracked promises / async calls of the tests that never settled. */
  neverSettled: number;
  /** Tracked promises that rejected without the tests handling them, and the first reason. */
  unhandled: number;
  unhandledError: string;
  /** The realm called process.exit/abort/kill ('' if not): never a pass. */
  exited: string;
  /** Allocations the program realm saw the engine refuse (sandbox/harness.js): `oom` needs one. */
  allocationRefusals: number;
  unsettled: number;
  failure: string;
  stdout: string;
  truncated: boolean;
  asyncState: number;
  asyncError: string;
  threw: boolean;
  thrownError: string;
  /** What the tests threw was the snapshot's refusal of an answer (too large, too deep, a Proxy). */
  refused: boolean;
  /** Sites failed because the error that ended the run interrupted their check's next execution. */
  interrupted?: number;
  /** Tests realm: the program realm's console output, read in the same call (absent if not connected). */
  program?: { stdout: string; truncated: boolean };
}

type Controller = ivm.Reference<(...args: unknown[]) => unknown>;
type RunOutcome = { kind: 'ok'; value: ivm.Reference | undefined } | { kind: 'error'; error: unknown };

/**
 * One attempt at a program: its clocks (a {@link CpuMeter}: the time limit is a budget of CPU
 * time, `p.timeoutMs`, counted from the program's first statement — context and harness set-up,
 * and compiling, are not charged — and the attempt's wall limit only decides when the host looks,
 * see {@link Host.run}), the references to release, and whether to replace the isolate.
 */
class ProgramRun extends CpuMeter {
  readonly refs: Array<{ release(): void }> = [];
  isolate: ivm.Isolate | undefined;
  /** The program realm's controller (asked whether a RangeError may be the program's own). */
  program: Controller | undefined;
  recycle = false;
  /** Timer callbacks run so far (see Host.settle). */
  timerCalls = 0;

  /**
   * @param started when the program's first attempt started (its reported `ms` counts every attempt)
   * @param wallMs this attempt's wall-clock limit, ms
   */
  constructor(
    readonly p: WireProgram,
    readonly started: number,
    wallMs: number,
  ) {
    super(p.timeoutMs, wallMs);
  }

  /** The program's result with `status` (zero counts unless given). */
  readonly done = (status: ExecStatus, extra: Partial<WireResult> = {}): WireResult => ({
    i: this.p.i,
    passed: 0,
    total: 0,
    stdout: '',
    ...extra,
    status,
    ms: Math.round((performance.now() - this.started) * 100) / 100,
  });

  release(): void {
    for (const r of this.refs.reverse()) {
      try {
        r.release();
      } catch {
        /* isolate gone */
      }
    }
  }
}

class Host {
  private isolate: ivm.Isolate | undefined;
  private harness = new Map<HarnessRole, ivm.Script>();
  /** The tests realm: one per isolate (only strings from programs ever reach it). */
  private testsRealm: { ctx: ivm.Context; ctl: Controller } | undefined;
  private wrappers = new Map<string, ivm.Reference>();
  /** The tests realm's seed per test plan (one problem's tests and prompt), hashed once. */
  private testsSeeds = new WeakMap<TestPlan, number>();
  /** Compiled readers of the names the tests use, per problem (plan.resolver), per isolate. */
  private resolvers = new Map<string, ivm.Script>();
  private used = 0;
  private readonly sources = new Map<HarnessRole, string>();

  constructor(private readonly opts: WorkerOptions) {}

  private source(role: HarnessRole): string {
    let s = this.sources.get(role);
    if (s === undefined) {
      s = harnessSource(this.opts.stdoutLimit, role, this.opts.verdict ?? 'strict');
      this.sources.set(role, s);
    }
    return s;
  }

  private ensure(): ivm.Isolate {
    if (!this.isolate || this.isolate.isDisposed) {
      this.isolate = new ivm.Isolate({ memoryLimit: this.opts.memoryMb });
      this.harness.clear();
      this.wrappers.clear();
      this.resolvers.clear();
      this.testsRealm = undefined;
      this.used = 0;
    }
    return this.isolate;
  }

  private harnessScript(isolate: ivm.Isolate, role: HarnessRole): ivm.Script {
    let h = this.harness.get(role);
    if (!h) {
      h = isolate.compileScriptSync(this.source(role), { filename: `sandbox-harness-${role}.js` });
      this.harness.set(role, h);
    }
    return h;
  }

  /** Forget the tests realm and what was compiled into it; the next program builds a new one. */
  private dropTestsRealm(): void {
    const realm = this.testsRealm;
    this.testsRealm = undefined;
    for (const w of this.wrappers.values()) {
      try {
        w.release();
      } catch {
        /* isolate gone */
      }
    }
    this.wrappers.clear();
    try {
      realm?.ctl.release();
      realm?.ctx.release();
    } catch {
      /* isolate gone */
    }
  }

  /** Dispose the isolate (after a timeout/OOM, or to bound heap growth). */
  recycle(): void {
    const iso = this.isolate;
    this.isolate = undefined;
    this.harness.clear();
    this.wrappers.clear();
    this.resolvers.clear();
    this.testsRealm = undefined;
    if (iso && !iso.isDisposed) {
      try {
        iso.dispose();
      } catch {
        /* already gone */
      }
    }
  }

  /** Warm up: create the isolate and prove both realms' harnesses run. */
  warm(): void {
    const isolate = this.ensure();
    const ctx = isolate.createContextSync();
    const ctl = this.harnessScript(isolate, 'program').runSync(ctx, { reference: true, timeout: 5000 });
    ctl.release();
    ctx.release();
    this.tests(isolate);
  }

  /** The isolate's tests realm, created on first use. */
  private tests(isolate: ivm.Isolate): { ctx: ivm.Context; ctl: Controller } {
    if (!this.testsRealm) {
      const ctx = isolate.createContextSync();
      const ctl = this.harnessScript(isolate, 'tests').runSync(ctx, { reference: true, timeout: 5000 }) as Controller;
      // The tests' run-time code (eval, new Function) is guarded by the same rewrite as their text.
      const guard = new ivm.Callback((src: string, bits: number) => guardSource(String(src), Number(bits)), { sync: true });
      ctl.applySync(undefined, [OP_COPIER, ivm, guard], { timeout: 5000 });
      this.testsRealm = { ctx, ctl };
    }
    return this.testsRealm;
  }

  /** A fresh context with the role's harness installed and seeded. */
  private prepare(
    isolate: ivm.Isolate,
    role: HarnessRole,
    seed: number,
    refs: Array<{ release(): void }>,
    track: boolean,
    limitMs: number,
  ): [ivm.Context, Controller] {
    const ctx = isolate.createContextSync();
    refs.push(ctx);
    const controller = this.harnessScript(isolate, role).runSync(ctx, { reference: true, timeout: 5000 }) as Controller;
    refs.push(controller);
    // The clock's origin comes with the seed (virtual-clock.ts; the tests realm takes the program
    // realm's clock), and the time limit: a sleep past it is a program that would be stopped.
    controller.applySync(undefined, [OP_SEED, seed, track, clockOrigin(seed), limitMs], { timeout: 5000 });
    return [ctx, controller];
  }

  run(p: WireProgram): WireResult {
    // Test hook: emulate a native crash of this process (tests cannot crash it from inside).
    if (CRASH_MARKER && p.code.includes(CRASH_MARKER)) process.kill(process.pid, 'SIGKILL');
    const started = performance.now();
    const budget = p.timeoutMs;
    const plan = p.tests === undefined ? undefined : planTests(p.tests, p.prompt, (this.opts.verdict ?? 'strict') === 'strict');
    // Tests that do not parse mean nothing can run, as for a program that does not parse.
    if (plan && !plan.ok) return new ProgramRun(p, started, 0).done('syntax_error', { error: plan.error });
    // The limit is CPU time (cpu-budget.ts), so the verdict does not depend on the machine's load.
    // The wall clock only decides when to look: an attempt whose wall limit passes with the budget
    // used is a `timeout`; one the load slowed is run again from scratch (a run is a pure function
    // of the program and its seed) with a wall limit scaled by the slowdown seen, until the budget
    // is used, the program finishes, or the wall-clock backstop passes (not a verdict: code
    // `host_overloaded`).
    const limits = new CpuBudget(budget);
    for (;;) {
      const run = new ProgramRun(p, started, limits.wallMs);
      try {
        const r = this.runIn(run, plan?.plan);
        // Ended (an answer, an error, out of memory…) but over its CPU budget, which an attempt whose
        // wall limit the load stretched allows: an idle machine would have stopped it first.
        if (r.status !== 'timeout' && r.status !== 'syntax_error' && run.overBudget()) {
          run.recycle = true;
          return run.done('timeout', { error: timeoutMessage(budget) });
        }
        return r;
      } catch (e) {
        if (!(e instanceof Overloaded)) throw e;
        run.recycle = true;
        if (!limits.retry(e)) return run.done('timeout', { code: 'host_overloaded', error: limits.giveUpMessage(e) });
      } finally {
        run.release();
        this.used++;
        if (run.recycle || this.used >= this.opts.recycleAfter || this.heapTooLarge()) this.recycle();
      }
    }
  }

  /** One program, from a fresh context to its status (`plan`: its separate tests, if any). */
  private runIn(run: ProgramRun, plan: TestPlan | undefined): WireResult {
    const p = run.p;
    const seed = drawSeed(programSeed(this.opts.seed ?? 0, p.tests, p.prompt), p.draw);
    // A self-contained script whose text can make promises gets its completion tracked.
    const track = !plan && CAN_MAKE_PROMISES.test(p.code);
    const started = this.startContext(run, plan ? 'program' : 'combined', seed, track);
    if ('status' in started) return started;
    const { ctx, controller } = started;
    run.program = controller;
    const program = this.compileProgram(run, plan);
    if ('status' in program) return program;
    const timeout = run.left();
    run.startClock();
    const r = this.timed(() => program.runSync(ctx, { reference: true, timeout }));
    if (r.kind === 'ok' && r.value) run.refs.push(r.value);
    if (!plan) return this.combinedVerdict(run, controller, r);
    return this.separateVerdict(run, plan, controller, this.readNames(run, ctx, plan, r));
  }

  /**
   * After the program ran, read the names the tests use (`plan.resolver`, a second script in the
   * program's context: it sees the program's top-level declarations, `let`/`const`/`class`
   * included). Compiled once per problem and isolate; a separate script, so the program is
   * compiled once and nothing appended to it can change how it parses. `r`: the program's run.
   */
  private readNames(run: ProgramRun, ctx: ivm.Context, plan: TestPlan, r: RunOutcome): RunOutcome {
    if (r.kind === 'error') return r;
    const isolate = run.isolate!;
    let script = this.resolvers.get(plan.resolver);
    if (!script) {
      try {
        script = isolate.compileScriptSync(plan.resolver, { filename: 'program.js' });
      } catch (error) {
        return { kind: 'error', error };
      }
      if (this.resolvers.size >= SCRIPT_CACHE_LIMIT) {
        const [k, old] = this.resolvers.entries().next().value as [string, ivm.Script];
        old.release();
        this.resolvers.delete(k);
      }
      this.resolvers.set(plan.resolver, script);
    }
    const reader = script;
    const timeout = run.left();
    const t = this.timed(() => reader.runSync(ctx, { reference: true, timeout }));
    if (t.kind === 'ok' && t.value) run.refs.push(t.value);
    return t;
  }

  /** A fresh context with the role's harness (retried once on a fresh isolate), or the failure. */
  private startContext(
    run: ProgramRun,
    role: HarnessRole,
    seed: number,
    track: boolean,
  ): { ctx: ivm.Context; controller: Controller } | WireResult {
    try {
      run.isolate = this.ensure();
    } catch (e) {
      this.recycle();
      return run.done('error', { error: `sandbox could not start an isolate: ${msg(e)}` });
    }
    try {
      const [ctx, controller] = this.prepare(run.isolate, role, seed, run.refs, track, run.p.timeoutMs);
      return { ctx, controller };
    } catch {
      // Not this program's fault (e.g. garbage of an earlier program still counted against the
      // limit): start over with a fresh isolate once.
      this.recycle();
      try {
        run.isolate = this.ensure();
        const [ctx, controller] = this.prepare(run.isolate, role, seed, run.refs, track, run.p.timeoutMs);
        return { ctx, controller };
      } catch (e) {
        run.recycle = true;
        return run.done('error', { error: `sandbox could not prepare a context: ${msg(e)}` });
      }
    }
  }

  /**
   * Compile the program before anything of it runs: a syntax error anywhere means nothing runs.
   * With separate tests, the names they use are read afterwards by a script of their own
   * (see readNames), never appended to the program: appending could make an incomplete program
   * (one ending in `if (x)`) valid.
   */
  private compileProgram(run: ProgramRun, plan: TestPlan | undefined): ivm.Script | WireResult {
    const isolate = run.isolate!;
    try {
      // A self-contained script carries its own tests: its async calls are tracked like theirs.
      const code = plan ? run.p.code : instrumentScript(run.p.code);
      const program = isolate.compileScriptSync(code, { filename: 'program.js' });
      run.refs.push(program);
      return program;
    } catch (e) {
      if (isolate.isDisposed) {
        run.recycle = true;
        return run.done('oom', { error: 'isolate memory limit reached while compiling' });
      }
      return run.done('syntax_error', { error: `${errName(e)}: ${errMessage(e)}` });
    }
  }

  /** The tests realm's seed for `plan`, whose tests and prompt are `p`'s (see {@link testsSeed}). */
  private testsSeedOf(plan: TestPlan, p: WireProgram): number {
    let seed = this.testsSeeds.get(plan);
    if (seed === undefined) {
      seed = testsSeed(this.opts.seed ?? 0, p.tests ?? '', p.prompt ?? '');
      this.testsSeeds.set(plan, seed);
    }
    return drawSeed(seed, p.draw);
  }

  /** The program ran; now its separate tests, in their own realm, and the verdict. */
  private separateVerdict(run: ProgramRun, plan: TestPlan, controller: Controller, r: RunOutcome): WireResult {
    const isolate = run.isolate!;
    const programOut = () => this.collect(isolate, controller, 50);
    if (r.kind === 'error') {
      const limit = this.limitStatus(run, r.error);
      if (limit) return limit;
      const v = programOut();
      return run.done('error', {
        stdout: stdoutOf(v),
        error: `the program failed before the tests ran: ${describeRunError(r.error)}`,
      });
    }
    let wrapper: ivm.Reference;
    // Creating the tests realm and compiling the tests happen once per isolate: never charged.
    const realm = this.testsRealm ?? run.uncharged(() => this.tests(isolate));
    try {
      wrapper = this.wrappers.get(plan.wrapper) ?? run.uncharged(() => this.wrapper(isolate, realm.ctx, plan.wrapper));
    } catch (e) {
      return run.done('error', { error: `the tests do not compile: ${errName(e)}: ${errMessage(e)}` });
    }
    // The reader's completion value: the names the tests use, read once.
    const resolved = r.value;
    if (!resolved)
      return run.done('error', { stdout: stdoutOf(programOut()), error: "reading the program's definitions failed" });
    const args = [
      OP_RUN,
      wrapper.derefInto(),
      controller.derefInto(),
      resolved.derefInto(),
      plan.namesJson,
      this.testsSeedOf(plan, run.p),
      plan.nanExpected,
    ];
    const runTimeout = run.left();
    const t = this.timed(() => realm.ctl.applySync(undefined, args as never[], { timeout: runTimeout }));
    // An error a call throws after it returned (isolated-vm throws the first rejection nothing
    // handled once the call's microtasks ran: a throw in a `queueMicrotask` or `process.nextTick`
    // callback, a rejection the program leaves unhandled after calling the tests' callback). Node
    // ends there; the run's checks so far are its verdict (escapedVerdict).
    let escaped: { error: unknown } | undefined;
    if (t.kind === 'error') {
      const limit = this.limitStatus(run, t.error);
      if (limit) return limit;
      escaped = { error: t.error };
    }
    // OP_RUN answers the tests realm's next timer (-1: none). The program realm has no timers.
    // The verdict call comes after the last call's microtasks ran, and answers the next timer
    // instead while one is left: a timer armed by a microtask (`await null; await sleep(5)`, the
    // continuation of an awaited timer) was not seen before (red-team rt7 W01–W04).
    let next: unknown = t.kind === 'error' ? -1 : t.value;
    let v: Verdict | undefined;
    while (escaped === undefined) {
      if (typeof next === 'number' && next >= 0) {
        const settled = this.settle(run, realm.ctl);
        if (settled && 'escaped' in settled) {
          escaped = { error: settled.escaped };
          break;
        }
        if (settled) return settled;
      }
      const got = this.collect(isolate, realm.ctl, run.left(), true);
      if (typeof got !== 'number') {
        v = got;
        break;
      }
      next = got;
    }
    if (escaped !== undefined) return this.escapedVerdict(run, isolate, realm.ctl, escaped.error, programOut);
    if (!v) {
      const limit = this.limitStatus(run);
      if (limit) return limit;
      run.recycle = true;
      return run.done('error', { error: 'the tests realm did not report a verdict' });
    }
    // Tests that evaluated text (an answer can be that text) may have changed their realm's
    // globals: the next program gets a new tests realm (E0/E1 of the 2026-12-04 red-team pass).
    if (plan.evaluatesText) this.dropTestsRealm();
    // The tests realm read the program realm's output in the same call (one host call fewer).
    const stdout = stdoutOf(v.program ?? programOut()) + stdoutOf(v);
    // The tests stopped on an error while the isolate's memory is nearly exhausted (a call of
    // the solution ran out of it): out of memory, by the host's measure. An answer the snapshot
    // refused is the program's wrong answer whatever the heap holds (a 30 MB answer fills much of
    // 64 MB, and whether it is collected yet must not decide the status).
    if (v.threw && !v.refused && v.failed === (v.interrupted ?? 0) && this.engineRefusedMemory(run, v.thrownError)) {
      run.recycle = true;
      return run.done('oom', {
        ...counts(v),
        stdout,
        error: `out of memory: the isolate's memory (${this.opts.memoryMb} MB limit) is nearly exhausted (${v.thrownError.slice(0, 200)})`,
      });
    }
    return this.recordedVerdict(run, v, stdout, true);
  }

  /**
   * Run the tests realm's timers in virtual-time order until none is left (the host's clock still
   * bounds it: a timer that re-arms forever ends as `timeout`). Microtasks run after each call.
   * Returns a result only when a limit ended the run.
   */
  private settle(run: ProgramRun, tests: Controller): WireResult | { escaped: unknown } | undefined {
    for (;;) {
      if (run.timedOut()) return this.limitStatus(run);
      const tick = run.timerCalls++;
      // One timer callback per call: the cap bounds the timers isolated-vm keeps for the calls
      // (below). A timer chain or an interval that reaches it ran at least 20 s of Node's wall
      // time (Node gives a timer at least 1 ms); as many timers armed at once also reach it
      // (Node would run them in well under a second: docs/sandbox.md, a limit that remains).
      if (tick >= MAX_TIMER_CALLBACKS)
        return run.done('timeout', {
          error: `timed out: the timers kept firing (${MAX_TIMER_CALLBACKS} timer callbacks in one run, the sandbox's cap)`,
        });
      // Every call with a timeout leaves isolated-vm a timer that stays queued until its deadline,
      // and every deadline of one run falls within a millisecond of the run's end (now + what is
      // left). An interval that never stops made ~470,000 calls in 2 s; when the load made
      // isolated-vm's timer thread late, it released the due ones recursively and overflowed its
      // stack (SIGSEGV: the worker lost, the run an `error` where it is a `timeout`). Besides the
      // cap above, the deadlines are spread over a second past the run's end (a timer callback
      // that never returns is stopped up to that much later).
      const timeout = run.left() + (tick % SETTLE_DEADLINE_SPREAD_MS);
      const t = this.timed(() => tests.applySync(undefined, [OP_TIMER], { timeout }));
      if (t.kind === 'error') return this.limitStatus(run, t.error) ?? { escaped: t.error };
      if (typeof t.value !== 'number' || t.value < 0) return undefined;
    }
  }

  /**
   * The verdict of a run an error escaped (see where `escaped` is set): the tests realm's checks so
   * far, read without running the timers left (Node ends at an uncaught error). A failed check
   * (the assertion that escaped was recorded as it failed) fails the run with its counts; else the
   * run is an `error` naming what escaped, with its counts. It was an `error` with no counts (a
   * wrong answer's failed check in a microtask: red-team rt59 G2).
   */
  private escapedVerdict(
    run: ProgramRun,
    isolate: ivm.Isolate,
    tests: Controller,
    error: unknown,
    programOut: () => Pick<Verdict, 'stdout' | 'truncated'> | undefined,
  ): WireResult {
    const v = this.collect(isolate, tests, run.left());
    if (!v) {
      run.recycle = true;
      return run.done('error', { error: `the tests realm failed: ${describeRunError(error)}` });
    }
    const stdout = stdoutOf(v.program ?? programOut()) + stdoutOf(v);
    if (v.failed > 0) return run.done('fail', { ...counts(v), stdout, error: v.failure });
    return run.done('error', { ...counts(v), stdout, error: `uncaught: ${describeRunError(error)}` });
  }

  /**
   * The status the host's own measurements give (timeout, out of memory), if any. `error` is what
   * the failed run threw: a RangeError (an allocation the engine refused) with the isolate's
   * memory measured near its limit is out of memory; its text is never read.
   */
  private limitStatus(run: ProgramRun, error?: unknown): WireResult | undefined {
    const isolate = run.isolate!;
    if (isolate.isDisposed) {
      run.recycle = true;
      return run.done('oom', { error: `out of memory: isolate memory limit (${this.opts.memoryMb} MB) reached` });
    }
    if (run.timedOut()) {
      run.recycle = true;
      // Stopped with CPU time to spare: the load, not the program, used the wall time.
      const overloaded = run.stopped();
      if (overloaded) throw overloaded;
      return run.done('timeout', { error: timeoutMessage(run.p.timeoutMs) });
    }
    if (errName(error) === 'RangeError' && this.engineRefusedMemory(run, `RangeError: ${msg(error)}`)) {
      run.recycle = true;
      return run.done('oom', {
        error: `out of memory: the isolate's memory (${this.opts.memoryMb} MB limit) is nearly exhausted`,
      });
    }
    return undefined;
  }

  /**
   * The status a realm's recorded verdict gives: separate tests (`separate`: only the tests
   * realm's checks count, a tests script that threw is an error, one that ran no check fails) or a
   * self-contained script (its own assertions count).
   */
  private recordedVerdict(run: ProgramRun, v: Verdict, stdout: string, separate: boolean): WireResult {
    const c = counts(v);
    const done = run.done;
    const min = this.opts.minAssertions;
    const who = separate ? "the tests'" : "the program's";
    // The error ended the run inside a check (its sites were failed for it): still an error.
    if (v.interrupted && !v.refused && !v.exited) {
      const error = v.threw ? v.thrownError : `unhandled rejection: ${v.asyncState === 2 ? v.asyncError : v.unhandledError}`;
      return done('error', { ...c, stdout, error });
    }
    if (v.failed > 0) return done('fail', { ...c, stdout, error: v.failure });
    // An answer the snapshot refused (a Proxy, a getter, over the caps) is not an answer: fail.
    if (separate && v.threw && v.refused) return done('fail', { ...c, stdout, error: v.thrownError });
    if (v.exited) return done('error', { ...c, stdout, error: exitMessage(v.exited) });
    if (v.threw) return done('error', { ...c, stdout, error: v.thrownError });
    if (v.asyncState === 3) {
      return done('timeout', {
        ...c,
        stdout,
        error: `${who} promise never settled (it awaits something that cannot happen: no timer or I/O is left)`,
      });
    }
    if (v.asyncState === 2) return done('error', { ...c, stdout, error: `unhandled rejection: ${v.asyncError}` });
    if (v.unhandled > 0) return done('error', { ...c, stdout, error: `unhandled rejection: ${v.unhandledError}` });
    if (v.neverSettled > 0)
      return done('fail', {
        ...c,
        stdout,
        error: `${v.neverSettled} promise(s) or async call(s) of the tests never settled: the tests did not finish`,
      });
    if (v.unsettled > 0)
      return done('fail', { ...c, stdout, error: `${v.unsettled} assert.rejects/doesNotReject call(s) never settled` });
    if (separate && v.passed === 0) {
      const error = 'the tests ran no check: a test file that runs no case never passes';
      return done('fail', { ...c, stdout, error, code: 'tests_not_run' });
    }
    if (v.passed < min) {
      const error = separate
        ? `only ${v.passed} check(s) ran (< min_assertions ${min})`
        : `no assertion ran (${v.passed} < min_assertions ${min}): the tests did not execute`;
      return done('fail', { ...c, stdout, error, code: 'tests_not_run' });
    }
    return done('pass', { ...c, stdout });
  }

  /** The verdict of a self-contained script (its own assertions count). */
  private combinedVerdict(run: ProgramRun, controller: Controller, r: RunOutcome): WireResult {
    const isolate = run.isolate!;
    const done = run.done;
    if (r.kind === 'error') {
      const limit = this.limitStatus(run, r.error);
      if (limit) {
        const v = this.collect(isolate, controller, 50);
        return { ...limit, ...counts(v), stdout: stdoutOf(v) };
      }
      const v = this.collect(isolate, controller, run.left());
      const c = counts(v);
      if (v && v.failed > 0) return done('fail', { ...c, stdout: stdoutOf(v), error: v.failure });
      if (v?.exited) return done('error', { ...c, stdout: stdoutOf(v), error: exitMessage(v.exited) });
      return done('error', { ...c, stdout: stdoutOf(v), error: describeRunError(r.error) });
    }
    const value = r.value;
    let v: Verdict | undefined;
    try {
      // A primitive completion value (the usual `test();`) gets the verdict in this one call.
      v = controller.applySync(undefined, [OP_COMPLETION, value ? value.derefInto() : undefined], {
        timeout: run.left(),
        result: { copy: true },
      }) as Verdict | undefined;
      if (v === undefined)
        v = controller.applySync(undefined, [OP_VERDICT], { timeout: run.left(), result: { copy: true } }) as Verdict;
    } catch (e) {
      const limit = this.limitStatus(run, e);
      if (limit) return limit;
      run.recycle = true;
      const v2 = this.collect(isolate, controller, run.left());
      if (v2 && v2.failed > 0) return done('fail', { ...counts(v2), stdout: stdoutOf(v2), error: v2.failure });
      return done('error', { ...counts(v2), stdout: stdoutOf(v2), error: describeRunError(e) });
    }
    return this.recordedVerdict(run, v, stdoutOf(v), false);
  }

  /** The tests' wrapper function in the tests realm, compiled once per isolate. */
  private wrapper(isolate: ivm.Isolate, ctx: ivm.Context, source: string): ivm.Reference {
    let w = this.wrappers.get(source);
    if (!w) {
      const script = isolate.compileScriptSync(source, { filename: 'tests.js' });
      w = script.runSync(ctx, { reference: true, timeout: 5000 }) as ivm.Reference;
      script.release();
      if (this.wrappers.size >= SCRIPT_CACHE_LIMIT) {
        const [k, old] = this.wrappers.entries().next().value as [string, ivm.Reference];
        old.release();
        this.wrappers.delete(k);
      }
      this.wrappers.set(source, w);
    }
    return w;
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

  /**
   * A RangeError (`thrown`, as "RangeError: message") just ended the run: whether it is the engine
   * refusing memory — the isolate's memory is near its limit (the host's measure), the error is the
   * one the engine throws when its allocator refuses a buffer, and the program realm saw the engine
   * refuse one (sandbox/harness.js: a RangeError's name, message and prototype can all be forged,
   * so one thrown with that text while holding memory is no refusal). The engine's other
   * RangeErrors (`new Array(-1)`, `toFixed(500)`, a stack overflow) say nothing about memory, so a
   * program holding most of it and then making one is an `error`, not `oom` (red-team D01–D03).
   */
  private engineRefusedMemory(run: ProgramRun, thrown: string): boolean {
    if (thrown !== ALLOCATION_FAILED || !this.nearMemoryLimit(run.isolate!)) return false;
    const v = run.program ? this.collect(run.isolate!, run.program, 50) : undefined;
    return v !== undefined && v.allocationRefusals > 0;
  }

  /** Whether the isolate's memory in use is near its limit (the host's measure, after a failure). */
  private nearMemoryLimit(isolate: ivm.Isolate): boolean {
    try {
      const h = isolate.getHeapStatisticsSync();
      return h.used_heap_size + h.externally_allocated_size >= OOM_FRACTION * this.opts.memoryMb * 1024 * 1024;
    } catch {
      return true;
    }
  }

  /**
   * Run a script or call a controller under isolated-vm's timeout, synchronously: an asynchronous
   * run hands the isolate to another thread and back, which cost more CPU than a short program
   * itself (a sixth of the sandbox's throughput). If isolated-vm ever hangs outside its timeout,
   * this process stops answering and the parent's watchdog kills it (local-executor.ts): the
   * program is judged `timeout` and the worker replaced.
   */
  private timed(call: () => unknown): RunOutcome {
    try {
      return { kind: 'ok', value: call() as ivm.Reference | undefined };
    } catch (error) {
      // A throw is an error whatever its value: `throw undefined` included.
      return { kind: 'error', error };
    }
  }

  /** Best-effort read of a realm's verdict and console buffer. */
  private collect(isolate: ivm.Isolate, controller: Controller, timeout: number): Verdict | undefined;
  /** With `orTimer`: the tests realm's next timer instead, while one is left to run. */
  private collect(isolate: ivm.Isolate, controller: Controller, timeout: number, orTimer: true): Verdict | number | undefined;
  private collect(isolate: ivm.Isolate, controller: Controller, timeout: number, orTimer = false): Verdict | number | undefined {
    if (isolate.isDisposed) return undefined;
    try {
      const args = orTimer ? [OP_VERDICT, 1] : [OP_VERDICT];
      return controller.applySync(undefined, args, { timeout: Math.max(10, timeout), result: { copy: true } }) as
        | Verdict
        | number;
    } catch {
      return undefined;
    }
  }
}

function exitMessage(how: string): string {
  return `process.${how} was called: a run that exits never passes`;
}

function counts(v: Verdict | undefined): { passed: number; total: number } {
  if (!v) return { passed: 0, total: 0 };
  return { passed: v.passed, total: v.passed + v.failed + v.unsettled };
}

function stdoutOf(v: Pick<Verdict, 'stdout' | 'truncated'> | undefined): string {
  if (!v) return '';
  return v.truncated ? v.stdout + '\n[output truncated at the sandbox stdout limit]\n' : v.stdout;
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The engine's RangeError when its array buffer allocator refuses an allocation. */
const ALLOCATION_FAILED = 'RangeError: Array buffer allocation failed';

function errName(e: unknown): string {
  try {
    const n = (e as { name?: unknown })?.name;
    return typeof n === 'string' && n ? n.slice(0, 200) : 'Error';
  } catch {
    return 'Error';
  }
}

/** Error text capped at MAX_ERROR characters, saying so when it was cut. */
function capText(s: string): string {
  return s.length > MAX_ERROR ? `${s.slice(0, MAX_ERROR)} … [truncated: messages are capped at ${MAX_ERROR} characters]` : s;
}

function errMessage(e: unknown): string {
  try {
    const m = (e as { message?: unknown })?.message;
    return capText(typeof m === 'string' ? m : String(e));
  } catch {
    return 'unknown error';
  }
}

/** "Name: message" of a value thrown out of the isolate; stack lines dropped, capped. */
function describeRunError(e: unknown): string {
  if (e === undefined || e === null || (typeof e !== 'object' && typeof e !== 'function')) {
    return `uncaught exception: thrown value ${String(e).slice(0, 200)}`;
  }
  const name = errName(e);
  let message = errMessage(e);
  if (message.startsWith('An object was thrown from supplied code within isolated-vm')) {
    message = 'the program threw a value that is not an Error';
    return `uncaught exception: ${message}`;
  }
  // isolated-vm copies custom errors (e.g. AssertionError) as plain Errors; the stack keeps the name.
  let stack: unknown;
  try {
    stack = (e as { stack?: unknown })?.stack;
  } catch {
    stack = undefined;
  }
  if (name === 'Error' && typeof stack === 'string') {
    const first = stack.slice(0, 300).split('\n', 1)[0] ?? '';
    const m = /^([A-Za-z_$][\w$]*): /.exec(first);
    if (m && m[1] !== 'Error') return capText(`${m[1]}: ${message}`);
  }
  return capText(`${name}: ${message}`);
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
  // Programs run synchronously, so no timer fires during a batch: progress goes out between
  // programs, at most every PROGRESS_MS, naming the program about to start (the parent times it
  // from there and blames it if this process then falls silent).
  const flush = (done: boolean, next?: number) => {
    const items = buffered;
    buffered = [];
    send({ type: 'progress', batch, items, done, ...(next !== undefined ? { running: next, elapsed: 0 } : {}) });
  };
  let lastFlush = performance.now();
  for (let k = 0; k < programs.length; k++) {
    const p = programs[k]!;
    const started = performance.now();
    let r: WireResult;
    try {
      r = host.run(p);
    } catch (e) {
      // A bug or an isolated-vm failure outside the per-program handling: never lose the program.
      host.recycle();
      r = internalErrorResult(p.i, started, e);
      if (process.env.ANCHOR_DEBUG) process.stderr.write(`sandbox worker: ${e instanceof Error ? e.stack : String(e)}\n`);
    }
    buffered.push(r);
    const now = performance.now();
    if (now - lastFlush >= PROGRESS_MS && k + 1 < programs.length) {
      flush(false, programs[k + 1]!.i);
      lastFlush = now;
    }
  }
  flush(true);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) void main();
