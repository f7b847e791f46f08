// Runs INSIDE the isolate, once per fresh context, before the untrusted program.
//
// Installs the program's environment (`require` serving only assert, a capturing `console`,
// CommonJS-ish `module`/`exports`) and returns the *controller*: a function the host keeps a
// Reference to and calls after the program has run, to read the verdict and captured output.
// The controller and the assertion recorder live only in this closure; nothing of the host is
// ever put into the context. All harness code is strict mode, so stack-frame walking
// (Error.prepareStackTrace CallSite.getFunction/getThis, fn.caller) cannot reach it.
//
// The worker wraps the files of this directory as:
//   (function () { 'use strict'; <primordials.js> <comparisons.js> <inspect.js> <assert.js>
//     <harness.js> return setupHarness(createPrimordials(globalThis), CONFIG); })()

function setupHarness(P, config) {
  'use strict';
  const { ObjectDefineProperty, ObjectFreeze, String, StringPrototypeCharCodeAt, StringPrototypeSlice,
    PromisePrototypeThen, TypeError, Error, globalThis: g } = P;
  // Comparison and formatting code is only instantiated when first needed (it only closes over
  // the captured primordials, so building it after the program started is safe).
  let comparisons;
  let inspector;
  const getC = () => comparisons || (comparisons = createComparisons(P));
  const getI = () => inspector || (inspector = createInspect(P, getC()));
  const I = {
    __proto__: null,
    inspect: (v, budget) => getI().inspect(v, budget),
    format: (args, budget) => getI().format(args, budget),
    errorText: (e) => getI().errorText(e),
  };

  // ---- assertion recorder (unreachable from the program) ----------------------------------
  let passed = 0;
  let failed = 0;
  let pending = 0;
  let firstFailure = '';
  const kMaxMessage = 4000;
  const R = {
    __proto__: null,
    pass() { passed++; },
    fail() { failed++; },
    note(msg) {
      if (firstFailure !== '') return;
      firstFailure = typeof msg === 'string' && msg !== '' ? StringPrototypeSlice(msg, 0, kMaxMessage) : 'assertion failed';
    },
    pendingStart() { pending++; },
    pendingEnd() { pending--; },
  };

  // ---- console capture, capped in UTF-8 bytes ----------------------------------------------
  const limit = config.stdoutLimit;
  let out = '';
  let outBytes = 0;
  let truncated = false;
  function write(s) {
    if (truncated) return;
    let bytes = 0;
    const room = limit - outBytes;
    for (let i = 0; i < s.length; i++) {
      const c = StringPrototypeCharCodeAt(s, i);
      let w;
      if (c < 0x80) w = 1;
      else if (c < 0x800) w = 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) w = 4;
      else w = 3;
      if (bytes + w > room) {
        out += StringPrototypeSlice(s, 0, i);
        outBytes += bytes;
        truncated = true;
        return;
      }
      bytes += w;
      if (w === 4) i++;
    }
    out += s;
    outBytes += bytes;
  }
  function budget() { return limit - outBytes + 1; }
  function logger() {
    return function (...args) {
      if (truncated) return;
      write(I.format(args, budget()) + '\n');
    };
  }
  const counts = new P.Map();
  const noop = function () {};
  const consoleObject = {
    log: logger(), info: logger(), debug: logger(), error: logger(), warn: logger(), trace: logger(),
    dir(v) { if (!truncated) write(I.inspect(v, budget()) + '\n'); },
    table(v) { if (!truncated) write(I.inspect(v, budget()) + '\n'); },
    assert(cond, ...args) {
      if (cond || truncated) return;
      write('Assertion failed' + (args.length ? ': ' + I.format(args, budget()) : '') + '\n');
    },
    count(label) {
      const key = label === undefined ? 'default' : String(label);
      const n = (P.MapPrototypeGet(counts, key) || 0) + 1;
      P.MapPrototypeSet(counts, key, n);
      if (!truncated) write(key + ': ' + n + '\n');
    },
    countReset(label) { P.MapPrototypeDelete(counts, label === undefined ? 'default' : String(label)); },
    group: logger(), groupCollapsed: logger(), groupEnd: noop, time: noop, timeEnd: noop, timeLog: noop,
  };

  // ---- require ------------------------------------------------------------------------------
  let modules;
  function require(id) {
    if (typeof id !== 'string') {
      throw new TypeError('The "id" argument must be of type string. Received ' + I.inspect(id, 200));
    }
    if (id === 'assert' || id === 'node:assert' || id === 'assert/strict' || id === 'node:assert/strict') {
      if (modules === undefined) modules = createAssert(P, getC(), I, R);
      return id === 'assert' || id === 'node:assert' ? modules.loose : modules.getStrict();
    }
    const err = new Error("Cannot find module '" + id + "': the sandbox provides only 'assert' " +
      "('node:assert', 'assert/strict'); there is no filesystem, network, process or timers");
    ObjectDefineProperty(err, 'code', { __proto__: null, value: 'MODULE_NOT_FOUND', writable: true, enumerable: true, configurable: true });
    throw err;
  }
  ObjectFreeze(require);

  // Non-writable and non-configurable: `require = fake` is ignored (TypeError in strict code),
  // `function require` / `let require` at top level are errors by spec (restricted global).
  ObjectDefineProperty(g, 'require', { __proto__: null, value: require, writable: false, enumerable: false, configurable: false });
  ObjectDefineProperty(g, 'console', { __proto__: null, value: consoleObject, writable: true, enumerable: false, configurable: true });
  const module = { exports: {} };
  ObjectDefineProperty(g, 'module', { __proto__: null, value: module, writable: true, enumerable: false, configurable: true });
  ObjectDefineProperty(g, 'exports', { __proto__: null, value: module.exports, writable: true, enumerable: false, configurable: true });
  // Not needed by tests, and the one way to reserve memory outside the isolate's accounting.
  delete g.WebAssembly;
  // Both schedule callbacks as isolate tasks that could run while a *later* program (in another
  // context of the same isolate) executes, charging it for this program's CPU time.
  delete g.FinalizationRegistry;
  if (g.Atomics) delete g.Atomics.waitAsync;

  // ---- controller (host-only) ---------------------------------------------------------------
  // asyncState: 0 = the program's completion value is not a promise, 1 fulfilled, 2 rejected,
  // 3 still pending after the microtask queue drained (it can never settle: no timers, no I/O).
  let asyncState = 0;
  let asyncError = '';
  function describe(e) {
    try {
      let s = (typeof e === 'object' && e !== null) ? I.errorText(e) : I.inspect(e, 2000);
      const at = P.StringPrototypeIndexOf(s, '\n    at ');
      if (at !== -1) s = StringPrototypeSlice(s, 0, at);
      return StringPrototypeSlice(s, 0, kMaxMessage);
    } catch {
      return 'unknown error';
    }
  }
  function verdict() {
    return {
      __proto__: null,
      pending: false,
      passed,
      failed,
      unsettled: pending,
      failure: firstFailure,
      stdout: out,
      truncated,
      asyncState,
      asyncError,
    };
  }
  return function control(op, value) {
    if (op === 1) {
      try {
        PromisePrototypeThen(value, () => { asyncState = 1; }, (e) => { asyncState = 2; asyncError = describe(e); });
        asyncState = 3;
        return { __proto__: null, pending: true };
      } catch {
        // not a promise
      }
    }
    return verdict();
  };
}
