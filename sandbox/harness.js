// Runs INSIDE the isolate, once per fresh context, before any code of that context's program or
// tests. A program with separate tests runs in TWO realms (contexts) of one isolate:
//   - the program realm (role `program`): the solution (setup + prompt + completion) runs here. It
//     gets `require('assert')` (which throws but is never counted), a capturing `console`, and
//     deterministic `Math.random`/`Date`. Its controller hands the tests snapshots of the names
//     they use, and runs calls to the solution's functions for them (sandbox/snapshot.js).
//   - the tests realm (role `tests`): the tests run here, in strict mode, with their own counting
//     `assert`. The program cannot reach this realm: only strings cross between the two, so the
//     tests' intrinsics, source, globals and assertion counter are out of its reach, and an answer
//     is compared as the one copy the bridge made of it.
// A program without separate tests (role `combined`, `sandbox run` on a self-contained script)
// is one script in one realm whose own assertions are its verdict.
//
// The controller lives only in this closure; nothing of the host is put into a context. All
// harness code is strict mode, so stack-frame walking (Error.prepareStackTrace CallSite
// getFunction/getThis, fn.caller) cannot reach it.
//
// The worker wraps the files of this directory as:
//   (function () { 'use strict'; <primordials.js> <comparisons.js> <inspect.js> <assert.js>
//     <snapshot.js> <harness.js> return setupHarness(createPrimordials(globalThis), CONFIG); })()

function setupHarness(P, config) {
  'use strict';
  const {
    ObjectDefineProperty,
    ObjectFreeze,
    String,
    StringPrototypeCharCodeAt,
    StringPrototypeSlice,
    TypeError,
    Error,
    ReflectConstruct,
    globalThis: g,
  } = P;
  const role = config.role;
  const counting = role !== 'program';
  // Comparison and formatting code is only instantiated when first needed (it only closes over
  // the captured primordials, so building it after the program started is safe).
  let comparisons;
  let inspector;
  const getC = () => comparisons || (comparisons = createComparisons(P));
  // The brand checks the snapshot and the bridge need: the comparisons' own when they exist, else
  // built alone (a program realm that only snapshots answers never builds the comparison code).
  let typeChecks;
  const getT = () => (comparisons ? comparisons : typeChecks || (typeChecks = createTypeChecks(P)));
  const getI = () => inspector || (inspector = createInspect(P, getC()));
  const I = {
    __proto__: null,
    inspect: (v, budget) => getI().inspect(v, budget),
    format: (args, budget) => getI().format(args, budget),
    errorText: (e) => getI().errorText(e),
  };

  // ---- assertion recorder (unreachable from the program) ----------------------------------
  // Counts are of assertion *sites*: where in the tests' source a check is made, read from the
  // stack as the chain of the realm's own frames (script:line:column, innermost first) — the
  // check's line and the lines that called the tests' helper it sits in. A loop repeats the same
  // chain, so a check inside it counts once however often it runs; one helper called from five
  // lines of the tests is five sites. A site passes only if every execution of it passed.
  let sites = new P.Map();
  let passed = 0;
  let failed = 0;
  let pending = 0;
  let firstFailure = '';
  const ErrorCaptureStackTrace = P.Error.captureStackTrace;
  // The script whose checks count (the worker's file names: src/sandbox/worker.ts).
  const ownScript = role === 'tests' ? 'tests.js' : 'program.js';
  const harnessScript = 'sandbox-harness-' + role + '.js';
  // Tests realm: while the program calls a function of the tests (a callback it was given), the
  // chain of the tests' frames where that function crossed to the program (see `serving`): its
  // checks' sites are the callback's own frames plus that chain, whatever stack the program calls
  // it from — synchronously, from a microtask or deep in its own recursion (each was a new site,
  // red-team M01–M04). '' outside such calls.
  let servingChain = '';
  const servingChains = new P.Array();
  const structuredStack = (_, frames) => frames;
  function site() {
    const own = frameChain(servingChain !== '');
    return servingChain !== '' ? own + '< ' + servingChain : own;
  }
  // How deep a stack that filled the first capture is read again (see frameChain).
  const kDeepFrames = 1024;
  // The chain of this realm's script frames on the stack (innermost first), or '?' when there is
  // none; with `callbackOnly`, only up to the harness frame that called the callback.
  function frameChain(callbackOnly) {
    const E = P.Error;
    const saved = E.prepareStackTrace;
    const limit = E.stackTraceLimit;
    E.prepareStackTrace = structuredStack;
    E.stackTraceLimit = 32;
    const holder = { __proto__: null, stack: undefined };
    let key = '';
    try {
      ErrorCaptureStackTrace(holder, frameChain);
      // A stack as deep as the limit may have lost its outer frames, and a chain without them
      // is a site of its own: a recursive checker of the tests walking a deep answer then minted
      // one more group of sites past that depth (rt6 R01). Such a stack is read again, deeper;
      // only past kDeepFrames does the extra group come back, once, whatever the depth.
      if (P.ArrayIsArray(holder.stack) && holder.stack.length >= 32) {
        E.stackTraceLimit = kDeepFrames;
        ErrorCaptureStackTrace(holder, frameChain);
      }
      const frames = holder.stack;
      if (P.ArrayIsArray(frames)) {
        for (let i = 0; i < frames.length; i++) {
          const f = frames[i];
          const file = f.getFileName();
          // Only the realm's own script counts: not the harness, builtins (forEach, Promise jobs),
          // or the program's frames when the program calls back into a tests' function.
          if (file === ownScript) {
            // A frame already on the chain (the tests' recursion following the answer's shape)
            // adds nothing: depth mints no sites, so a deep wrong answer cannot pass a check at
            // thirty depths and fail it at one (red-team rt6 R01).
            const at = f.getLineNumber() + ':' + f.getColumnNumber() + ' ';
            if (P.StringPrototypeIndexOf(' ' + key, ' ' + at) === -1) key += at;
          } else if (callbackOnly && key !== '' && file === harnessScript) break;
        }
      }
    } catch {
      /* no stack: one anonymous site */
    } finally {
      E.prepareStackTrace = saved;
      E.stackTraceLimit = limit;
    }
    return key === '' ? '?' : key;
  }
  function record(key, ok) {
    openCheck = -1;
    inAssertBody = false;
    // After a comparison guard fired (hooks.cmp), no check passes: the value it compared flows
    // into this check or steered the run to it, so the check that consumes it fails — and with
    // it every later one, which an honest failing run would not have reached either.
    if (guardTripped) ok = false;
    // The check whose arguments just ran (hooks.reach) records here: its sites, for a refusal.
    if (pendingCheck !== -1) {
      P.SetPrototypeAdd(checkSites[pendingCheck], key);
      if (recordedAt !== null) recordedAt[pendingCheck] = ++skipClock;
      // A check an error skipped earlier, recording its first site only now (a concurrent case
      // finishing after the error was swallowed): that site fails too, and stands for the one
      // site the skip had to make up.
      if (doomed !== null && P.MapPrototypeHas(doomed, pendingCheck)) {
        ok = false;
        const stand = P.MapPrototypeGet(doomed, pendingCheck);
        if (stand !== '' && P.MapPrototypeHas(sites, stand)) {
          P.MapPrototypeDelete(sites, stand);
          failed--;
        }
        P.MapPrototypeSet(doomed, pendingCheck, '');
      }
      pendingCheck = -1;
    }
    tally(key, ok);
  }
  // A site's outcome: it passes only if every execution of it passed.
  function tally(key, ok) {
    const was = P.MapPrototypeGet(sites, key);
    if (was === undefined) {
      P.MapPrototypeSet(sites, key, ok ? 1 : 2);
      if (ok) passed++;
      else failed++;
    } else if (was === 1 && !ok) {
      P.MapPrototypeSet(sites, key, 2);
      passed--;
      failed++;
    }
  }
  const kMaxMessage = 4000;
  // Error and failure text is capped, and says so.
  function cap(text) {
    return text.length > kMaxMessage
      ? StringPrototypeSlice(text, 0, kMaxMessage) + ' … [truncated: messages are capped at ' + kMaxMessage + ' characters]'
      : text;
  }
  // In the program realm `assert` still throws, but nothing is counted: only the tests' own
  // checks decide a verdict.
  const R = counting
    ? {
        __proto__: null,
        pass(at) {
          record(at === undefined ? site() : at, true);
        },
        fail(at) {
          record(at === undefined ? site() : at, false);
        },
        site,
        seen(p) {
          markSeen(p);
        },
        note(msg) {
          if (firstFailure !== '') return;
          firstFailure = typeof msg === 'string' && msg !== '' ? cap(msg) : 'assertion failed';
        },
        pendingStart() {
          pending++;
        },
        pendingEnd() {
          pending--;
        },
      }
    : { __proto__: null, pass() {}, fail() {}, note() {}, pendingStart() {}, pendingEnd() {}, site() {}, seen() {} };

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
  function budget() {
    return limit - outBytes + 1;
  }
  // Program realm: while the tests call the program and have replaced their console (or one of
  // its methods), what the program logs goes to the tests' console with its arguments (as
  // snapshots), as in one realm: tests capturing `console.log` see the program's lines. `consoleTo`:
  // the tests realm's forwarder's handle for the call being served, -1 in a call with the tests'
  // own console, -2 outside any call. Outside a call (an `async` program after its first `await`,
  // a timer) the last handle a call brought is used, as in one realm the program then logs on the
  // tests' console as it is at that moment (the tests realm checks that it is still replaced).
  let consoleTo = -2;
  let consoleLast = -1;
  function forwarded(method, args) {
    const to = consoleTo === -2 ? consoleLast : consoleTo;
    if (to === -1) return false;
    // (An array literal: no spread through the program's array iterator.) Arguments that cannot
    // cross (a getter, a huge array) are written here instead, as the run's output: a log line
    // must not end an honest run.
    try {
      return getBridge().consoleStub(to)(method, args) === true;
    } catch {
      return false;
    }
  }
  function logger(method) {
    return function (...args) {
      if (forwarded(method, args) || (role === 'tests' && writeStdio(method, args)) || truncated) return;
      write(indented(I.format(args, budget())) + '\n');
    };
  }
  // `console.group` indents what this realm's console prints by two spaces a level, every line
  // (as Node's does; its label goes through `console.log`, as Node's `this.log`).
  let groupIndent = '';
  function indented(text) {
    if (groupIndent === '') return text;
    let outText = groupIndent;
    let last = 0;
    for (let i = 0; i < text.length; i++)
      if (StringPrototypeCharCodeAt(text, i) === 10) {
        outText += StringPrototypeSlice(text, last, i + 1) + groupIndent;
        last = i + 1;
      }
    return outText + StringPrototypeSlice(text, last);
  }
  function grouper(method) {
    return function (...args) {
      if (forwarded(method, args)) return;
      if (args.length > 0) P.ReflectApply(consoleObject.log, consoleObject, args);
      groupIndent += '  ';
    };
  }
  const counts = new P.Map();
  const noop = function () {};
  const consoleObject = {
    log: logger('log'),
    info: logger('info'),
    debug: logger('debug'),
    error: logger('error'),
    warn: logger('warn'),
    trace: logger('trace'),
    dir(...args) {
      if (forwarded('dir', args) || (role === 'tests' && writeStdio('dir', args)) || truncated) return;
      write(indented(I.inspect(args[0], budget())) + '\n');
    },
    table(...args) {
      if (forwarded('table', args) || (role === 'tests' && writeStdio('table', args)) || truncated) return;
      write(indented(I.inspect(args[0], budget())) + '\n');
    },
    assert(cond, ...args) {
      if (cond || truncated) return;
      write('Assertion failed' + (args.length ? ': ' + I.format(args, budget()) : '') + '\n');
    },
    // Through `console.log`, as Node's `this.log`: tests that replaced it (or process.stdout.write)
    // see the count (red-team rt60 K6).
    count(label) {
      const key = label === undefined ? 'default' : String(label);
      const n = (P.MapPrototypeGet(counts, key) || 0) + 1;
      P.MapPrototypeSet(counts, key, n);
      P.ReflectApply(consoleObject.log, consoleObject, [key + ': ' + n]);
    },
    countReset(label) {
      P.MapPrototypeDelete(counts, label === undefined ? 'default' : String(label));
    },
    group: grouper('group'),
    groupCollapsed: grouper('groupCollapsed'),
    groupEnd() {
      if (forwarded('groupEnd', [])) return;
      groupIndent = StringPrototypeSlice(groupIndent, 0, groupIndent.length - 2);
    },
    time: noop,
    timeEnd: noop,
    timeLog: noop,
  };
  // The methods a program's console forwards (see `forwarded`), and the realm's own of them.
  const FORWARDED = ['log', 'info', 'debug', 'error', 'warn', 'trace', 'dir', 'table', 'group', 'groupCollapsed', 'groupEnd'];
  // What the program's `process.stdout.write`/`stderr.write` forward as (not console methods).
  const STDOUT = '\u0000stdout';
  const STDERR = '\u0000stderr';
  // The console methods Node writes to stderr.
  const TO_STDERR = { __proto__: null, error: true, warn: true, trace: true };
  const ownConsole = { __proto__: null };
  for (let i = 0; i < FORWARDED.length; i++) ownConsole[FORWARDED[i]] = consoleObject[FORWARDED[i]];
  // Tests realm: whether the tests have replaced their console or one of its forwarded methods.
  function consoleReplaced() {
    if (g.console !== consoleObject || stdioWrite(false) !== undefined || stdioWrite(true) !== undefined) return true;
    for (let i = 0; i < FORWARDED.length; i++) {
      const k = FORWARDED[i];
      if (consoleObject[k] !== ownConsole[k]) return true;
    }
    return false;
  }
  // Tests realm: a program's console call during a call of the tests, on their console as it is
  // now; false (the program writes its own output) when that method is still the realm's own.
  // A program's `process.stdout.write(s)` goes to the tests' replaced one. A console method the
  // tests left as it was writes, as Node's console does, to `process.stdout.write` (`error`,
  // `warn`, `trace`: stderr): tests capturing output by replacing that see the program's lines
  // (red-team rt58 F4: they saw nothing, and honest programs failed).
  function forwardConsole(method, args) {
    if (!P.ArrayIsArray(args)) return false;
    if (method === STDOUT || method === STDERR) {
      const w = stdioWrite(method === STDERR);
      if (w === undefined) return false;
      P.ReflectApply(w[1], w[0], [args[0]]);
      return true;
    }
    if (typeof method !== 'string' || ownConsole[method] === undefined) return false;
    const c = g.console;
    if (c === undefined || c === null) return false;
    const f = c[method];
    if (typeof f !== 'function') return false;
    if (c === consoleObject && f === ownConsole[method]) {
      // A group of the program's indents what the tests realm prints next, as in one console.
      if (method === 'group' || method === 'groupCollapsed' || method === 'groupEnd') {
        P.ReflectApply(f, c, args);
        return true;
      }
      return writeStdio(method, args);
    }
    P.ReflectApply(f, c, args);
    return true;
  }
  // Tests realm: the realm's own `process` and its streams' own `write`s (see stdioWrite).
  let ownProcess;
  let ownWrites;
  // Tests realm: [stream, write] when the tests replaced `process.stdout.write` (`err`: stderr)
  // or `process` itself, else undefined.
  function stdioWrite(err) {
    if (ownProcess === undefined) return undefined;
    const proc = g.process;
    if (proc === null || (typeof proc !== 'object' && typeof proc !== 'function')) return undefined;
    const stream = err ? proc.stderr : proc.stdout;
    if (stream === null || (typeof stream !== 'object' && typeof stream !== 'function')) return undefined;
    const w = stream.write;
    if (typeof w !== 'function' || w === ownWrites[err ? 1 : 0]) return undefined;
    return [stream, w];
  }
  // Tests realm: a console line (of the program's, or the tests' own) on the tests' replaced
  // `process.stdout.write`; false when they have none.
  function writeStdio(method, args) {
    const w = stdioWrite(TO_STDERR[method] === true);
    if (w === undefined) return false;
    const text = method === 'dir' || method === 'table' ? I.inspect(args[0], budget()) : I.format(args, budget());
    P.ReflectApply(w[1], w[0], [indented(text) + '\n']);
    return true;
  }
  // Tests realm: a new run starts with the realm's own console (the tests realm outlives runs).
  function restoreConsole() {
    // (The tests' console.count labels are this run's: a count that went on from an earlier
    // program's run made the same program's output depend on what ran before.)
    P.MapPrototypeClear(counts);
    try {
      defineConsole();
      for (let i = 0; i < FORWARDED.length; i++) consoleObject[FORWARDED[i]] = ownConsole[FORWARDED[i]];
      if (ownProcess !== undefined) {
        ObjectDefineProperty(g, 'process', {
          __proto__: null,
          value: ownProcess,
          writable: true,
          enumerable: false,
          configurable: true,
        });
        ownProcess.stdout.write = ownWrites[0];
        ownProcess.stderr.write = ownWrites[1];
      }
    } catch {
      // Tests that froze their console keep it as they left it (tests are trusted).
    }
  }

  // ---- require ------------------------------------------------------------------------------
  let modules;
  // `require('crypto')` (sandbox/node-crypto.js), built on first use; the tests realm builds a new
  // one for each run, so what one run's tests set on it is not there for the next.
  let cryptoModule;
  function require(id) {
    if (typeof id !== 'string') {
      throw new TypeError('The "id" argument must be of type string. Received ' + I.inspect(id, 200));
    }
    if (id === 'assert' || id === 'node:assert' || id === 'assert/strict' || id === 'node:assert/strict') {
      if (modules === undefined) modules = createAssert(P, getC(), I, R, role === 'tests' ? config.verdict : 'parity');
      return id === 'assert' || id === 'node:assert' ? modules.loose : modules.getStrict();
    }
    if (id === 'crypto' || id === 'node:crypto') {
      if (cryptoModule === undefined) {
        timers.build();
        cryptoModule = createNodeCrypto(P, nobleHashes, NodeBuffer, () => (nextRandom() * 256) | 0, NodeCrypto);
      }
      return cryptoModule;
    }
    if ((id === 'timers' || id === 'node:timers') && timers.module() !== undefined) return timers.module();
    const err = new Error(
      "Cannot find module '" +
        id +
        "': the sandbox provides only 'assert' ('node:assert', 'assert/strict'), 'crypto' " +
        "(hashes and random bytes) and 'timers'; there is no filesystem, network or process module",
    );
    ObjectDefineProperty(err, 'code', {
      __proto__: null,
      value: 'MODULE_NOT_FOUND',
      writable: true,
      enumerable: true,
      configurable: true,
    });
    throw err;
  }
  // The script is the main module, as `node file.js` runs it: `if (require.main === module)`
  // guards run (the tests' own checks behind one never ran, and every program failed them).
  const module = { exports: {} };
  require.main = module;
  ObjectFreeze(require);

  // Non-writable and non-configurable: `require = fake` is ignored (TypeError in strict code),
  // `function require` / `let require` at top level are errors by spec (restricted global).
  ObjectDefineProperty(g, 'require', {
    __proto__: null,
    value: require,
    writable: false,
    enumerable: false,
    configurable: false,
  });
  function defineConsole() {
    ObjectDefineProperty(g, 'console', {
      __proto__: null,
      value: consoleObject,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
  defineConsole();
  ObjectDefineProperty(g, 'module', { __proto__: null, value: module, writable: true, enumerable: false, configurable: true });
  ObjectDefineProperty(g, 'exports', {
    __proto__: null,
    value: module.exports,
    writable: true,
    enumerable: false,
    configurable: true,
  });
  // Not needed by tests, and the one way to reserve memory outside the isolate's accounting.
  delete g.WebAssembly;
  // Both schedule callbacks as isolate tasks that could run while a *later* program (in another
  // context of the same isolate) executes, charging it for this program's CPU time.
  delete g.FinalizationRegistry;
  if (g.Atomics) delete g.Atomics.waitAsync;

  // ---- deterministic clock and random numbers ---------------------------------------------
  // A verdict must be a pure function of the program: Math.random is a seeded generator (sfc32)
  // and the clock starts at a fixed instant and advances 1 ms per reading, both reset per program
  // from a seed the host derives from the run seed and the program's text.
  let ra = 0;
  let rb = 0;
  let rc = 0;
  let rd = 0;
  function nextRandom() {
    const t = (((ra + rb) | 0) + rd) | 0;
    rd = (rd + 1) | 0;
    ra = rb ^ (rb >>> 9);
    rb = (rc + (rc << 3)) | 0;
    rc = (rc << 21) | (rc >>> 11);
    rc = (rc + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  // The clock's origin is seeded too (the host's src/sandbox/virtual-clock.ts): a fixed instant let
  // a constant answer "what day is it". Program and tests share one clock: the tests realm starts
  // at the program realm's reading (OP_CLOCK), and every call across the bridge carries the
  // caller's reading in and the callee's back (the later of the two wins), as one process's clock
  // would — time the program spends (reads, `Atomics.wait`) is time the tests see, and the reverse.
  let epoch = 1704067200000; // until the host seeds the realm
  let clock = epoch;
  // The latest instant a sleep (`Atomics.wait`) may reach: the origin plus the program's time
  // limit. A virtual sleep costs nothing, so without it a program could move the clock to an
  // instant it chose (2040-01-01) and answer "now" with a constant; under Node such a sleep
  // outlives the time limit. The tests realm (trusted) has none.
  let sleepsUntil = Infinity;
  // When the "process" started (`performance.timeOrigin`; `performance.now()`, `process.hrtime`
  // and `uptime()` count from it): some tens of ms to ten seconds before the origin, drawn with
  // it, so an uptime is no constant either (from 0 it was 1 at the program's first reading).
  let started = epoch - 1000;
  function reseed(seed, origin, limitMs) {
    ra = 0x9e3779b9 | 0;
    rb = 0x243f6a88 | 0;
    rc = 0xb7e15162 | 0;
    rd = (seed ^ 0x5bd1e995) | 0;
    for (let i = 0; i < 15; i++) nextRandom();
    if (typeof origin === 'number') setOrigin(origin);
    else clock = epoch;
    if (typeof limitMs === 'number') sleepsUntil = epoch + limitMs;
  }
  function setOrigin(origin) {
    epoch = clock = origin;
    started = origin - (27 + (origin % 9973));
  }
  reseed(0);
  /** The bridge's view of the clock (see createBridge): read, and move on to another realm's reading. */
  const bridgeClock = {
    __proto__: null,
    now: () => clock,
    advanceTo(t) {
      if (typeof t === 'number' && t > clock) clock = t;
    },
  };
  const random = function random() {
    return nextRandom();
  };
  const RealDate = P.Date;
  const tick = () => clock++;
  const Date = function Date(...args) {
    if (new.target === undefined) return P.DatePrototypeToString(ReflectConstruct(RealDate, [tick()]));
    return ReflectConstruct(RealDate, args.length === 0 ? [tick()] : args, new.target);
  };
  // Plain assignments (all these properties are writable data properties, and no program code has
  // run yet): defineProperty on the realm's Date.prototype would turn it into a slow object and cost
  // a fifth of the sandbox's throughput.
  Date.prototype = P.DatePrototype;
  Date.now = function now() {
    return tick();
  };
  Date.UTC = P.DateUTC;
  Date.parse = P.DateParse;
  P.DatePrototype.constructor = Date;
  g.Math.random = random;
  g.Date = Date;

  // ---- allocations the engine refuses --------------------------------------------------------
  // `oom` is the host's measure (src/sandbox/worker.ts): the run ended on the engine's "Array
  // buffer allocation failed" while the isolate's memory is nearly exhausted — and this realm saw
  // the engine refuse an allocation. A RangeError's name, message, prototype or constructor can
  // all be forged (`Reflect.construct(Error, [text], RangeError)`, a caught TypeError given
  // RangeError.prototype), so what is observed is the refusal itself: the buffer and typed-array
  // constructors are wrapped, and a call of one with only primitive arguments — no code of the
  // program runs inside it — that throws the realm's own RangeError with that message is one,
  // when the size asked for is one an unlimited engine could give (at most 4 GiB): a terabyte is
  // refused at any memory level, so holding memory and then asking for one chose `oom` for what
  // Node reports as an error.
  let allocationRefusals = 0;
  // The Proxies this harness puts in the program realm (the watched constructors below): the
  // snapshot's check for a Proxy takes them as the ordinary objects they stand for.
  const ownProxies = [];
  if (role !== 'tests') {
    const RangeErrorPrototype = g.RangeError.prototype;
    const refused = (e) => {
      if (typeof e !== 'object' || e === null || P.ObjectGetPrototypeOf(e) !== RangeErrorPrototype) return false;
      const d = P.ObjectGetOwnPropertyDescriptor(e, 'message');
      return d !== undefined && d.value === 'Array buffer allocation failed';
    };
    const names = [
      'ArrayBuffer',
      'SharedArrayBuffer',
      'Int8Array',
      'Uint8Array',
      'Uint8ClampedArray',
      'Int16Array',
      'Uint16Array',
      'Int32Array',
      'Uint32Array',
      'Float32Array',
      'Float64Array',
      'BigInt64Array',
      'BigUint64Array',
    ];
    const MAX_PLAUSIBLE_BYTES = 2 ** 32;
    for (let i = 0; i < names.length; i++) {
      const Real = g[names[i]];
      if (typeof Real !== 'function') continue;
      const unit = i < 2 ? 1 : Real.BYTES_PER_ELEMENT;
      const Watched = new g.Proxy(Real, {
        __proto__: null,
        construct(target, args, newTarget) {
          let plain = newTarget === Watched;
          for (let j = 0; plain && j < args.length; j++) {
            const a = args[j];
            plain = (typeof a !== 'object' || a === null) && typeof a !== 'function';
          }
          if (plain && typeof args[0] === 'number' && args[0] * unit > MAX_PLAUSIBLE_BYTES) plain = false;
          try {
            return ReflectConstruct(target, args, newTarget === Watched ? target : newTarget);
          } catch (e) {
            if (plain && refused(e)) allocationRefusals++;
            throw e;
          }
        },
      });
      // A buffer's `slice` makes its copy through `this.constructor` (its species): the buffer
      // prototypes name the watched constructor, so a copy the engine refuses is seen. The typed
      // arrays' prototypes keep the real one: writing them costs every typed array of the isolate
      // its fast species path (their `slice`/`map` refusals go unseen: `error`). A program
      // reaching a real constructor only hides a refusal of its own — `error`, never a forged `oom`.
      if (i < 2) Real.prototype.constructor = Watched;
      g[names[i]] = Watched;
      ownProxies[ownProxies.length] = Watched;
    }
  }

  // ---- Node's host globals, this realm's own (sandbox/node-globals.js) ----------------------
  // exited: the realm called process.exit/abort/kill (never a pass, whatever it did next).
  let exited = '';
  // This realm's `Buffer` class once built (the program realm builds it on first use).
  let NodeBuffer;
  // This realm's DOMException: its brand check and factory (see installNodeGlobals), for the snapshot.
  let NodeDOMException;
  // …and its `crypto` global (Node's `require('crypto').webcrypto` is that object).
  let NodeCrypto;
  // Program realm: its timers live in the tests realm's queue (node-globals.js, programTimers), so
  // both realms' timers run in one order on one clock, as one process's do (the program realm had
  // no timers, and honest programs using them ended as `error`). `timerRemote`: the tests realm's
  // control once it connected (`bindings`); timers armed before that (the program's top level)
  // wait in `earlyTimers`, in the order they were armed. What the tests realm's control throws
  // is its realm's value: never handed to the program.
  let timerRemote;
  const earlyTimers = new P.Map();
  function timerCall(kind, x, ms, repeat) {
    let answer;
    try {
      answer = timerRemote(OP_TIMERS, kind, x, ms, repeat, clock);
    } catch {
      throw new Error('the timer could not be set');
    }
    return typeof answer === 'number' ? answer : -1;
  }
  const timerPort = {
    __proto__: null,
    set(r) {
      if (timerRemote === undefined) {
        P.MapPrototypeSet(earlyTimers, r.id, r);
        return;
      }
      r.remote = timerCall(1, getBridge().handOut(r.run), r.ms, r.repeat ? 1 : 0);
      if (!r.ref && r.remote >= 0) timerCall(3, r.remote, 0, 0);
    },
    clear(r) {
      if (timerRemote === undefined) P.MapPrototypeDelete(earlyTimers, r.id);
      else if (r.remote >= 0) timerCall(2, r.remote, 0, 0);
      r.remote = -1;
    },
    ref(r, on) {
      if (timerRemote !== undefined && r.remote >= 0) timerCall(3, r.remote, on ? 1 : 0, 0);
    },
  };
  const timers = installNodeGlobals(
    P,
    g,
    {
      __proto__: null,
      get started() {
        return started;
      },
      now: bridgeClock.now,
      get sleepsUntil() {
        return sleepsUntil;
      },
      tick,
      advanceTo: bridgeClock.advanceTo,
      randomByte: () => (nextRandom() * 256) | 0,
      buffer(B, webcrypto) {
        NodeBuffer = B;
        NodeCrypto = webcrypto;
      },
      domException(d) {
        NodeDOMException = d;
      },
      exit(how) {
        if (exited === '') exited = how;
      },
      // `process.stdout.write`/`stderr.write` of this realm (`err`: stderr): a program's goes to the
      // tests' replaced `process.stdout.write` while they have one, as in one process (see
      // forwardConsole).
      write(text, err) {
        if (role === 'program' && forwarded(err === true ? STDERR : STDOUT, [text])) return;
        write(text);
      },
      // Tests realm: the program realm's function of handle `h`, for a timer the program armed.
      programFunction: (h) => getBridge().programFunction(h),
      // Tests realm: a callback of theirs a job runs is entered (see entering).
      entering: role === 'tests' ? entering : undefined,
      timerPort: role === 'program' ? timerPort : undefined,
    },
    role === 'tests',
  );
  // A WeakRef's target lives as long as the garbage collector decides: not deterministic.
  delete g.WeakRef;
  if (role === 'tests') {
    ownProcess = g.process;
    ownWrites = [ownProcess.stdout.write, ownProcess.stderr.write];
  }

  // ---- controller (host-only) ---------------------------------------------------------------
  /** Controller operations (the worker uses the same numbers). */
  const OP_CALL = 1;
  const OP_SETTLE = 2;
  const OP_SEED = 3;
  const OP_BINDINGS = 4;
  const OP_RUN = 5;
  const OP_VERDICT = 6;
  const OP_COMPLETION = 7;
  const OP_COPIER = 8;
  const OP_TIMER = 9;
  const OP_CLOCK = 10;
  const OP_SOURCE = 11;
  const OP_CONSTRUCT = 12;
  const OP_GET = 13;
  const OP_OWN = 14;
  const OP_TIMERS = 15;
  const OP_SYNC = 16;
  const OP_PULL = 17;
  let ExternalCopy;
  // Tests realm: the host's rewrite of source text with its ordering comparisons guarded (a
  // synchronous host call, `(text, guard bits) => text`), for what the tests evaluate at run time.
  let guardText;

  // asyncState: 0 = no completion value watched, 1 fulfilled, 2 rejected, 3 still pending after
  // the microtask queue drained (it can never settle: no timers, no I/O).
  let asyncState = 0;
  let asyncError = '';
  // What the watched completion value rejected with (asyncState 2): what the run may end on.
  let asyncReason;
  // The tests ended on an uncaught error: they threw out of their top level or a timer, or their
  // completion value rejected. Node stops there (an uncaught exception, an unhandled rejection),
  // so no timer of either realm runs after it (a wrong program's interval made a `fail` a
  // `timeout`: red-team rt58 F2), and no verdict counts on a finish the tests never reached.
  const endedUncaught = () => threw || asyncState === 2;
  // …or a promise of the tests rejected and nothing handled it by the end of the task that ran
  // (their top level or a timer): Node's unhandled rejection ends the process there, so no later
  // timer may run — a wrong program's interval made such a failure a `timeout` (red-team rt60
  // K5: a `.then` check, an un-awaited async `main()`). Read between tasks only: within one, a
  // handler may still come.
  const untilUnhandled = () => endedUncaught() || unhandledNow > 0;
  // The tests' script threw (a separate flag: any value, `undefined` included, can be thrown).
  let threw = false;
  let thrownError = '';
  // What the tests' script threw was the bridge's refusal of an answer too large or too deep to
  // snapshot (a harness verdict, never re-read as the program running out of memory).
  let refused = false;
  function describe(e) {
    try {
      if (isSnapshotRefusal(P, e)) {
        return 'the value could not be snapshotted: ' + e.snapshotRefused;
      }
      let s = typeof e === 'object' && e !== null ? I.errorText(e) : 'thrown value: ' + I.inspect(e, 2000);
      const at = P.StringPrototypeIndexOf(s, '\n    at ');
      if (at !== -1) s = StringPrototypeSlice(s, 0, at);
      return cap(s);
    } catch {
      return 'unknown error';
    }
  }
  // Awaiting (not `.then`) a completion value: a native promise is observed without consulting
  // its `then`, `constructor` or species; anything else settles at once.
  async function watch(value) {
    asyncState = 3;
    try {
      await value;
      asyncState = 1;
    } catch (e) {
      asyncState = 2;
      asyncReason = e;
      asyncError = describe(e);
    }
  }
  // ---- completion tracking (tests realm) ------------------------------------------------------
  // Every promise the tests create is tracked: async calls of the tests' own functions (the
  // worker instruments them: src/sandbox/test-plan.ts), `new Promise`/`Promise.*` (this realm's
  // `Promise` is wrapped), and the stand-ins for the solution's promises. At the verdict, one that
  // rejected without the tests handling it (awaiting it, `then`/`catch`, `assert.rejects`) is an
  // unhandled rejection, as under Node, and one that never settled fails the run when code of the
  // tests waits on it (`waits`): an async call of theirs (suspended at an `await`), a `then`/
  // `catch`/`finally` whose handler holds a check (which never ran) or whose handler ran and gave
  // back what never settled (settledSource), or a promise of the program.
  // A pending promise nothing of the tests waits on is no unfinished test: the deadline of the
  // usual `withTimeout` helper (`Promise.race([p, new Promise((_, no) => { t = setTimeout(no, ms)
  // })]).finally(() => clearTimeout(t))`), whose timer is cleared, stays pending under Node too,
  // and every honest program failed such tests (red-team rt60 K7). The reactions `Promise.race`/
  // `all` and `finally` attach are engine functions, which hold no check.
  let tracked = new P.Map();
  // Tracked promises rejected with no handler yet. Node ends the process on one still unhandled
  // once a task's microtasks have run: no timer runs after that (untilUnhandled).
  let unhandledNow = 0;
  // Strict verdict: which of the tests' checks ran (hooks.checks), and whether a comparison guard
  // fired: the run fails, and every check from then on fails (see record).
  let reached = null;
  let checkLines = null;
  let guardTripped = false;
  // Strict verdict: the bridge refused an answer of the program on its way into this realm
  // (refusedIn), or the tests read a binding that could not be snapshotted. Set here by the
  // harness where the refusal happens, never read back from an error: the tests may catch the
  // error that stands for it, and its text is the program's to shape. Such a run reports no passed
  // site (see verdict): the harness cannot tell which later check a refused value was meant for
  // (`const r = f(x)` outside the check, in a loop whose earlier cases passed).
  let answerRefused = false;
  // Strict verdict: the check whose arguments are being evaluated (hooks.reach marks it before
  // they run, and record ends it; -1: none), and the sites each check recorded (checkSites[k]).
  let pendingCheck = -1;
  let checkSites = null;
  // Strict verdict: the assert call whose arguments are being evaluated (hooks.reach with `open`;
  // record ends it; -1: none). Still set when the tests' script ends on an error: what the
  // arguments evaluated threw (the program raised on a loop's second case), so that execution of
  // the check never recorded, and its sites fail (see verdict) — as a wrong value would fail them.
  let openCheck = -1;
  // Strict verdict: the executions of assert calls whose arguments are being evaluated and report
  // when they are all evaluated (hooks.reach with `open` 2, until hooks.done), innermost last,
  // one entry per execution, and per check whether an error of the program crossed into this
  // realm while one of its executions was open (the innermost, for a call that threw; any, for a
  // promise that rejected). An execution still open and marked at the verdict was interrupted by
  // the program and the tests went on (a `try`/`catch` per case, a mini test runner that logs,
  // `.catch(console.error)`): it did not pass (see interruptedCheck).
  let argsOpen = new P.Array();
  let thrownIn = null;
  // Strict verdict: an assert call is running its own body (from hooks.done to its record): an
  // error of the program there is one the check itself handles (`assert.throws(() => f(-1))`),
  // never an interruption of an execution still open below it.
  let inAssertBody = false;
  // Strict verdict: the guard bits of these tests (hooks.guard: 1 NaN, 2 infinities they never
  // mention), for the comparisons the realm's sorts make on their behalf (see guardSorts).
  let sortGuard = 0;
  // Strict verdict: checks an error skipped (src/sandbox/test-plan.ts, skipScopes). `skipClock` stamps
  // scope entries, reaches and records; `recordedAt[k]`, when check k last recorded; `skipTable[id]`,
  // a scope's [tight, loose] check ids; `unwinding`, per error still travelling (or handled
  // outside the tests' own `catch`: a promise's `.catch(console.error)`), the checks it skipped.
  let skipClock = 0;
  let recordedAt = null;
  // When check k was last reached (hooks.reach): a handler whose own check ran judged its error.
  let reachedAt = null;
  // Checks an error skipped (skippedCheck): every later record of them fails. The value is the key
  // of the site made up for a check that had recorded none ('' once a real one replaced it).
  let doomed = null;
  let skipTable = null;
  let lastEnter = null;
  let unwinding = null;
  // The handlers `caught` opened that have not ended or rethrown yet.
  let openHandlers = null;
  // Per check, the checks in the body of the helper it calls (a skipped helper call skips them).
  let innerChecks = null;
  // Strict verdict: the tests' loops ([first line, last line, checks], src/sandbox/test-plan.ts
  // LoopEntry), the wrapper's lines before the tests' first, and each error of the program that
  // came in, with the tests' stack lines where it came in (see interruptedLoops): a call's throw
  // where the call was made, a promise's rejection where the tests received the promise.
  let loopTable = null;
  // Strict verdict: the checks that run where they are written, in source order (see passedOver).
  let orderedChecks = null;
  // Strict verdict: per loop of loopTable, when its current pass started (hooks.pass, on skipClock)
  // and when an error of the program came in during that pass (0: none; see caughtInPass), and at
  // which line of the tests in the loop.
  let passStart = null;
  let passErr = null;
  let passErrLine = null;
  // …and whether what came in was a promise of the program losing the tests' race (raced).
  let passLost = null;
  // Strict verdict: when an error of the program was swallowed in a quiet loop of the tests (see
  // swallowedIn; 0: none), and that loop's first line.
  let swallowedAt = 0;
  let swallowedLoop = 0;
  // The value the tests' run ended on (a throw out of their top level or out of a timer callback);
  // `noEnd` while it has not.
  const noEnd = { __proto__: null };
  let endedWith = noEnd;
  let linesBefore = 0;
  // The tests' stack lines of the call whose error is coming in (programThrew, then came).
  let cameChain = '';
  let cameAt = null;
  // Tests realm: bound functions the tests made, and what they bind (see scopeOf).
  const boundTargets = new P.WeakMap();
  function trip(why) {
    guardTripped = true;
    if (firstFailure === '') firstFailure = 'strict verdict: ' + why;
  }
  // ToPrimitive(v, hint number), as the ordering operators call it: the tests' comparison guard
  // (hooks.cmp) converts each operand once and then compares the primitives, so an operand whose
  // conversion answers differently on each call (a `toString` that alternates) cannot show the
  // guard one value and the operator another. Property reads and calls happen in the engine's
  // order (Symbol.toPrimitive, then valueOf, then toString), so traps see what they would.
  const kToPrimitive = P.Symbol.toPrimitive;
  function toPrimitive(v) {
    if ((typeof v !== 'object' || v === null) && typeof v !== 'function') return v;
    const exotic = v[kToPrimitive];
    if (exotic !== undefined && exotic !== null) {
      if (typeof exotic !== 'function') throw new TypeError('Symbol.toPrimitive is not a function');
      const r = P.ReflectApply(exotic, v, ['number']);
      if ((typeof r === 'object' && r !== null) || typeof r === 'function')
        throw new TypeError('Cannot convert object to primitive value');
      return r;
    }
    const names = ['valueOf', 'toString'];
    for (let i = 0; i < 2; i++) {
      const m = v[names[i]];
      if (typeof m === 'function') {
        const r = P.ReflectApply(m, v, []);
        if ((typeof r !== 'object' || r === null) && typeof r !== 'function') return r;
      }
    }
    throw new TypeError('Cannot convert object to primitive value');
  }
  // ToNumeric, as the bitwise operators call it: ToPrimitive (hint number), then a BigInt stays
  // one and anything else is ToNumber (a Symbol throws, as in the operator).
  function toNumeric(v) {
    const p = toPrimitive(v);
    return typeof p === 'bigint' ? p : P.Number(p);
  }
  // Which guarded non-finite value (guard bits: 1 NaN, 2 the infinities) two converted operands
  // hold: 1 for NaN, 2 for an infinity, 0 for none (a BigInt or a string is neither).
  function nonFinite(guard, x, y) {
    if (guard & 1 && ((typeof x === 'number' && P.NumberIsNaN(x)) || (typeof y === 'number' && P.NumberIsNaN(y)))) return 1;
    if (guard & 2 && (x === Infinity || x === -Infinity || y === Infinity || y === -Infinity)) return 2;
    return 0;
  }
  // The numeric value an ordering compares a primitive as, when the other side is not a string
  // too: NaN for a BigInt against a string that is no integer (the operator's "undefined" result,
  // false whatever the order), else ToNumeric (a BigInt stays one: it is never NaN or infinite).
  function numericOf(x, other) {
    if (typeof x === 'bigint') return x;
    if (typeof x === 'string' && typeof other === 'bigint') {
      try {
        return P.BigInt(x);
      } catch {
        return NaN;
      }
    }
    return P.Number(x);
  }
  function track(p, waits) {
    if (typeof p !== 'object' || p === null) return p;
    const had = P.MapPrototypeGet(tracked, p);
    if (had !== undefined) {
      if (waits) had.waits = true;
      return p;
    }
    const rec = { __proto__: null, state: 0, reason: undefined, handled: false, waits, source: undefined };
    try {
      P.PromisePrototypeThen(
        p,
        () => {
          rec.state = 1;
        },
        (e) => {
          rec.state = 2;
          rec.reason = e;
          if (!rec.handled) unhandledNow++;
        },
      );
    } catch {
      return p; // not a native promise
    }
    P.MapPrototypeSet(tracked, p, rec);
    return p;
  }
  function markSeen(p) {
    if (typeof p !== 'object' || p === null) return;
    const rec = P.MapPrototypeGet(tracked, p);
    if (rec === undefined) return;
    if (rec.state === 2 && !rec.handled) unhandledNow--;
    rec.handled = true;
  }
  function asyncOutcome() {
    let never = 0;
    let unhandled = 0;
    let firstUnhandled = '';
    const it = P.MapPrototypeEntries(tracked);
    for (let r = P.MapIteratorNext(it); !r.done; r = P.MapIteratorNext(it)) {
      const rec = r.value[1];
      if (rec.state === 0) {
        if (rec.waits || settledSource(rec.source)) never++;
      } else if (rec.state === 2 && !rec.handled) {
        unhandled++;
        if (firstUnhandled === '') firstUnhandled = describe(rec.reason);
      }
    }
    return { never, unhandled, firstUnhandled };
  }
  // A promise derived with `then` from `source`, which settled: its handler ran and returned
  // something that never settled (a thenable that never calls back), on which the tests wait.
  function settledSource(source) {
    if (source === undefined) return false;
    const rec = P.MapPrototypeGet(tracked, source);
    return rec === undefined || rec.state !== 0;
  }
  // A stand-in for a promise of the program: the tests wait on the program's answer.
  function trackProgramPromise(p) {
    track(p, true);
  }
  // A handler of the tests that holds one of their checks (or is an assert function): a promise
  // it never ran for left that check unfinished. (A handler without checks that never ran, such as
  // `deadline.catch(() => {})`, skipped nothing; one calling a helper that checks leaves the
  // helper's checks unreached, which the verdict fails on its own.)
  function holdsCheck(f) {
    return scopeOf(f) !== undefined;
  }
  const hooks = {
    __proto__: null,
    // An async function of the tests: its calls are tracked.
    async(fn) {
      const w = function (...args) {
        return track(P.ReflectApply(fn, this, args), true);
      };
      // rt6 E: the wrapper stands for fn when given to then (scopeOf follows boundTargets).
      if (typeof fn === 'function') P.WeakMapPrototypeSet(boundTargets, w, fn);
      return w;
    },
    // The promise of a call of an async method of the tests (rewritten as a tracked async arrow).
    track(p) {
      return track(p, true);
    },
    // The operand of an `await` in the tests (or of a `yield` in their async generator): handled.
    seen(x) {
      markSeen(x);
      return x;
    },
    // What an `await` of the tests gave, as they resume: the program's changes made meanwhile are
    // pulled first (pullChanges).
    resumed(v) {
      if (pullDue) pullChanges();
      return v;
    },
    // The iterable of a `for await` in the tests: each value a sync iterable gives is awaited by
    // the engine, so handled (an async iterable awaits its own).
    seenEach(it) {
      if (it === null || it === undefined) return it;
      const asyncIterator = it[P.SymbolAsyncIterator];
      if (asyncIterator !== undefined && asyncIterator !== null) return it;
      const sync = it[P.SymbolIterator];
      if (typeof sync !== 'function') return it;
      return {
        __proto__: null,
        [P.SymbolIterator]() {
          const inner = P.ReflectApply(sync, it, []);
          const next = inner.next;
          return {
            __proto__: null,
            next(v) {
              const r = P.ReflectApply(next, inner, [v]);
              if (r !== null && typeof r === 'object' && !r.done) markSeen(r.value);
              return r;
            },
            return(v) {
              const f = inner.return;
              return typeof f === 'function' ? P.ReflectApply(f, inner, [v]) : { __proto__: null, done: true, value: v };
            },
          };
        },
      };
    },
    // The tests realm's copy of the prompt's classes: answers of those classes are rebuilt as them.
    classes(table) {
      getSnapshot().setClasses(table);
    },
    // Strict verdict (src/sandbox/test-plan.ts): the lines of the tests' checks, each of which must
    // be reached for a pass (but the `optional` ones: checkers called through an alias or a
    // parameter), and a check reaching itself.
    checks(lines, scopes, optional, inner, loops, before, ordered) {
      innerChecks = inner;
      loopTable = loops;
      orderedChecks = ordered;
      passStart = new P.Array(loops.length);
      passErr = new P.Array(loops.length);
      passErrLine = new P.Array(loops.length);
      passLost = new P.Array(loops.length);
      for (let i = 0; i < loops.length; i++) {
        passStart[i] = 0;
        passErr[i] = 0;
        passErrLine[i] = 0;
        passLost[i] = false;
      }
      linesBefore = before;
      checkLines = lines;
      skipTable = scopes;
      lastEnter = new P.Array(scopes.length);
      unwinding = new P.Map();
      openHandlers = new P.Set();
      recordedAt = new P.Array(lines.length);
      reachedAt = new P.Array(lines.length);
      doomed = new P.Map();
      for (let i = 0; i < lines.length; i++) {
        recordedAt[i] = 0;
        reachedAt[i] = 0;
      }
      reached = new P.Array(lines.length);
      checkSites = new P.Array(lines.length);
      thrownIn = new P.Array(lines.length);
      for (let i = 0; i < lines.length; i++) {
        reached[i] = false;
        checkSites[i] = new P.Set();
        thrownIn[i] = false;
      }
      for (let i = 0; i < optional.length; i++) reached[optional[i]] = true;
    },
    // A pass of loop j of the tests starts: the previous one is judged (see caughtInPass).
    pass: startPass,
    // The callback of an array iteration that is loop j: each call of it is a pass.
    passes(j, fn) {
      if (typeof fn !== 'function') return fn;
      return function (...args) {
        startPass(j);
        return P.ReflectApply(fn, this, args);
      };
    },
    reach(k, open) {
      if (pullDue) pullChanges();
      if (reached !== null && k < reached.length) {
        reached[k] = true;
        if (reachedAt !== null) reachedAt[k] = ++skipClock;
        pendingCheck = k;
        if (open >= 1) openCheck = k;
        // Every execution is its own entry: concurrent async cases (`Promise.all(cases.map(async
        // …))`) each hold one open while they await, so one finishing never closes another's.
        if (open === 2) argsOpen[argsOpen.length] = k;
      }
    },
    // Strict verdict: the arguments of assert call k were all evaluated (its last one, returned).
    // It records next: its sites are k's, even when a check nested in its arguments (a tests
    // callback the program called) recorded in between.
    done(k, v) {
      if (thrownIn !== null && k < thrownIn.length) {
        // The mark stays while another execution of k is still open (the program's error may be
        // that one's).
        if (closeArgs(k) && openAt(k) === -1) thrownIn[k] = false;
        pendingCheck = k;
        inAssertBody = true;
      }
      return v;
    },
    // Strict verdict (src/sandbox/test-plan.ts, skipScopes): function scope `id` of the tests is
    // entered; the stamp its checks' records are compared with. (A `try` scope's is `enterTry`:
    // scopeOf finds a function's scope by the text `__anchorHooks.enter(` its body opens with.)
    enter: enterScope,
    enterTry: enterScope,
    // An error `x` leaves function scope `id` (entered at `since`): the checks it skipped there
    // travel with it. Returns `x`, which is rethrown.
    unwound(id, since, x) {
      if (unwinding !== null) carry(x, skippedIn(id, openSince(id, since)));
      return x;
    },
    // The tests' `catch` of `try` scope `id` (entered at `since`) took `x`: the checks skipped on
    // the way, decided when the handler is left (hooks.left).
    caught(id, since, x, swallows) {
      // An error of the program caught inside a pass of the tests' loops — also a rejection
      // received before the pass and awaited in it (`const ps = cases.map(f)`, then `try { v =
      // await ps[i] } catch { continue }`): an error came in during that pass.
      if (cameAt !== null && passErr !== null && P.MapPrototypeHas(cameAt, x)) {
        markPasses(frameChain(false));
        if (swallows === 1 && swallowedAt === 0) swallowedIn(P.MapPrototypeGet(cameAt, x));
      }
      const c = catching(skippedIn(id, openSince(id, since)), x, skipTable !== null ? skipTable[id][2] : undefined);
      if (cameAt !== null && P.MapPrototypeHas(cameAt, x)) c.came = P.MapPrototypeGet(cameAt, x);
      return c;
    },
    // Strict verdict: a promise handler of the tests written in place that only leaves or logs
    // (`.catch(() => {})`, `.then(ok, (e) => console.log(e))`: src/sandbox/test-plan.ts,
    // droppingHandler) swallows an error of the program it takes as such a `catch` clause does
    // (swallowedIn). Returns the handler, told first.
    dropping(fn) {
      return function (x) {
        dropped(x);
        return P.ReflectApply(fn, this, arguments);
      };
    },
    // Strict verdict: `x` leaves the block of a `try` with no `catch` whose `finally` jumps out
    // (src/sandbox/test-plan.ts, finallyJumps): dropped as a swallowing handler drops it.
    dropped(x) {
      dropped(x);
      return x;
    },
    // The handler of `caught` rethrew (`x`): the next `catch`, or the end of the run, decides.
    rethrew(c, x) {
      if (openHandlers !== null) P.SetPrototypeDelete(openHandlers, c);
      // An error the handler of a program's error throws in its place (`catch (e) { throw new
      // Skip(e.message) }`) came in where the program's did: a handler that swallows it further
      // out drops the program's error.
      if (c.came !== undefined && typeof x === 'object' && x !== null && !P.MapPrototypeHas(cameAt, x))
        P.MapPrototypeSet(cameAt, x, c.came);
      if (!c.rethrown) {
        c.rethrown = true;
        if (unwinding !== null) {
          carry(x, c.list);
          // rt6 P: what the error carried into the handler travels on with it.
          carry(x, c.carried);
        }
      }
      return x;
    },
    // The handler of `caught` ended: without recording a check or rethrowing, it swallowed the
    // error, and the checks that error skipped did not pass.
    left(c) {
      if (openHandlers !== null) P.SetPrototypeDelete(openHandlers, c);
      if (c.rethrown) return;
      // Decided once (the end-of-run sweep of open handlers may come after): as if it rethrew.
      c.rethrown = true;
      // Judged: one of the handler's own checks ran (another task's records during an `await` in
      // it, or a check the program's code ran from inside it, are not the handler's judgement). A
      // thrown primitive is no identity: what it carried may be another task's, never discharged.
      const judged = ranSince(c.judges, c.since);
      if (!judged) for (let i = 0; i < c.list.length; i++) skippedCheck(c.list[i]);
      if (!judged || c.primitive) for (let i = 0; i < c.carried.length; i++) skippedCheck(c.carried[i]);
    },
    // Strict verdict: the guard bits of these tests' comparisons (src/sandbox/test-plan.ts), for
    // the sorts of this realm (guardSorts).
    guard(mode) {
      sortGuard = mode;
    },
    // Strict verdict: text the tests evaluate (the argument of an `eval` call): its comparisons
    // are guarded like the tests' own (src/sandbox/test-plan.ts `runtimeCode`). Not text: as is.
    source(x) {
      if (typeof x !== 'string' || sortGuard === 0 || guardText === undefined) return x;
      return guardText(x, sortGuard);
    },
    // Strict verdict: what the tests call or construct as `Function`: the realm's `Function` is
    // replaced by one that builds the same function from its guarded source text. The text is the
    // one CreateDynamicFunction assembles; it is evaluated in the global scope (where the
    // realm's __anchorHooks is bound, see below), as a function made by `Function` is.
    func(F) {
      if (F !== OriginalFunction || sortGuard === 0 || guardText === undefined) return F;
      return guardedFunction;
    },

    // compared exactly as the operator does, after refusing the non-finite values the tests never
    // mention (k >> 2: 1 NaN, 2 infinities). NaN makes every ordering false, so a check written as
    // a negation (`!(Math.abs(x - e) > eps)`) would hold; an infinity makes a relative tolerance
    // scaled by the answer (`Math.abs(x - e) <= eps * Math.abs(x)`) hold. Wherever the value came
    // from — an answer, bytes the tests reinterpret as floats, a string they parse, their own
    // arithmetic — the comparison sees it here. A number against a non-number is compared as the
    // number the other side converts to (what the operator does).
    cmp(a, b, k) {
      // Each operand is converted once, left first (as the operator does for every one of the
      // four), and the primitives are what the guard checks and what is compared.
      const pa = toPrimitive(a);
      const pb = toPrimitive(b);
      const guard = k >> 2;
      if (guard !== 0 && !guardTripped && (typeof pa !== 'string' || typeof pb !== 'string')) {
        // Symbols throw in the comparison below, as they do in the operator.
        const x = typeof pa === 'symbol' ? 0 : numericOf(pa, pb);
        const y = typeof pb === 'symbol' ? 0 : numericOf(pb, pa);
        const met = nonFinite(guard, x, y);
        // Not a site of its own: the check this comparison belongs to runs after it (its
        // arguments are evaluated first) and fails in record, so a negated check that holds for
        // NaN cannot count as passed next to one extra failed site (1/2 instead of 0/1).
        if (met === 1)
          trip(
            'a comparison of the tests met NaN, which they never mention (an ordering with NaN is always false, so a negated check would hold)',
          );
        else if (met === 2)
          trip(
            'a comparison of the tests met an infinity, which they never mention (a relative tolerance scaled by it would hold)',
          );
      }
      switch (k & 3) {
        case 0:
          return pa < pb;
        case 1:
          return pa <= pb;
        case 2:
          return pa > pb;
        default:
          return pa >= pb;
      }
    },
    // A bitwise operation of the tests (`a | b`, `~a`; k: the operator's code + 8 × the guard
    // bits; src/sandbox/test-plan.ts BITWISE). Each operand is converted once, left first, as the
    // operator does (ToNumeric), and the guard checks the numbers: the operator reads NaN and the
    // infinities as 0, so `((x - e) * 1e9) | 0` would be 0 for an answer that is NaN. The result is
    // the operator's on the converted values (a BigInt mixed with a number throws, as it does).
    bit(a, b, k) {
      const pa = toNumeric(a);
      const pb = toNumeric(b);
      const guard = k >> 3;
      if (guard !== 0 && !guardTripped) {
        const met = nonFinite(guard, pa, pb);
        if (met === 1) trip('a bitwise operation of the tests met NaN, which they never mention (it reads NaN as 0)');
        else if (met === 2)
          trip('a bitwise operation of the tests met an infinity, which they never mention (it reads an infinity as 0)');
      }
      switch (k & 7) {
        case 0:
          return pa | pb;
        case 1:
          return pa & pb;
        case 2:
          return pa ^ pb;
        case 3:
          return pa << pb;
        case 4:
          return pa >> pb;
        case 5:
          return pa >>> pb;
        default:
          return ~pa;
      }
    },
  };
  // Promises are tracked in the tests realm, and in a self-contained script (its tests are in it)
  // whose text can make them (the worker asks, OP_SEED): installed per context, so only there.
  let tracking = false;
  function installTracking() {
    tracking = true;
    const OriginalPromise = g.Promise;
    const originalThen = OriginalPromise.prototype.then;
    ObjectDefineProperty(OriginalPromise.prototype, 'then', {
      __proto__: null,
      value: function then(onFulfilled, onRejected) {
        markSeen(this);
        // Strict verdict: a fulfilment handler of the tests that holds checks is skipped when this
        // promise rejects (`candidate(n).then((r) => assert…(r, w)).catch(console.error)`): the
        // rejection carries its checks to whatever handles it.
        if (unwinding !== null && typeof onRejected === 'function') onRejected = rejectionHandler(onRejected, onFulfilled);
        else if (unwinding !== null && typeof onFulfilled === 'function') {
          const skipped = scopeOf(onFulfilled);
          if (skipped !== undefined)
            try {
              P.PromisePrototypeThen(this, undefined, (x) => {
                if (unwinding !== null) carry(x, skippedIn(skipped, Infinity));
              });
            } catch {
              // not a native promise: the call below throws as the engine's `then` does
            }
        }
        // The derived promise is the tests' too (`then`, `catch`, `finally`, and the reactions
        // `Promise.all` and friends attach), tracked with its source: left pending, it is an
        // unfinished test when a handler holds a check, or when its source settled (a handler
        // ran and gave back what never settles, e.g. a thenable that never calls back): see track.
        const holds = holdsCheck(onFulfilled) || holdsCheck(onRejected);
        if (role === 'tests') {
          onFulfilled = pulling(onFulfilled);
          onRejected = pulling(onRejected);
        }
        const derived = track(P.ReflectApply(originalThen, this, [onFulfilled, onRejected]), holds);
        const rec = P.MapPrototypeGet(tracked, derived);
        if (rec !== undefined && rec.source === undefined) rec.source = this;
        return derived;
      },
      writable: true,
      enumerable: false,
      configurable: true,
    });
    if (role === 'tests') {
      // Strict verdict: a record of `Promise.allSettled` holding a rejection of the program's.
      // Reading its `status` or `reason` inside a pass of the tests' loops is that error coming
      // in during the pass (`for (const r of rs) { if (r.status !== 'fulfilled') continue;
      // assert… }`), as a caught throw is (caughtInPass): a pass that then runs none of the
      // loop's checks fails them.
      const originalAllSettled = OriginalPromise.allSettled;
      const trackedThen = OriginalPromise.prototype.then;
      const markRejections = (records) => {
        if (cameAt !== null && P.ArrayIsArray(records))
          for (let i = 0; i < records.length; i++) {
            const r = records[i];
            if (r !== null && typeof r === 'object' && r.status === 'rejected' && P.MapPrototypeHas(cameAt, r.reason)) {
              settledRead(r, 'status');
              settledRead(r, 'reason');
            }
          }
        return records;
      };
      ObjectDefineProperty(OriginalPromise, 'allSettled', {
        __proto__: null,
        value: function allSettled(iterable) {
          return P.ReflectApply(trackedThen, P.ReflectApply(originalAllSettled, this, [iterable]), [markRejections]);
        },
        writable: true,
        enumerable: false,
        configurable: true,
      });
      // Strict verdict: a promise of the program that loses a `Promise.race` (or `Promise.any`) to
      // one of the tests' own (their timer: `Promise.race([f(n), sleep(100)])`) was not answered
      // when the tests went on. Its answer comes in then as an error of the program does in the
      // pass that received it (markPasses): a pass that runs none of the loop's checks after it
      // fails them (caughtInPass), as when the promise never settles (unansweredLoops). A program
      // answering only after the tests' deadline passed there as if it had answered (red-team
      // rt58 F1). Honest tests that judge what the race gave (`assert.equal(r, 'early')` for a
      // delay) run a check after it.
      for (const [name, fulfilledOnly] of [
        ['race', false],
        ['any', true],
      ]) {
        const original = OriginalPromise[name];
        const wrapped = {
          [name](iterable) {
            return raced(original, this, iterable, fulfilledOnly);
          },
        }[name];
        ObjectDefineProperty(OriginalPromise, name, {
          __proto__: null,
          value: wrapped,
          writable: true,
          enumerable: false,
          configurable: true,
        });
      }
      // Strict verdict: a bound function remembers what it binds, so `then(check.bind(null, w))`
      // is known to hold the checks of `check` (scopeOf).
      const originalBind = g.Function.prototype.bind;
      ObjectDefineProperty(g.Function.prototype, 'bind', {
        __proto__: null,
        value: function bind(thisArg, ...args) {
          const bound = P.ReflectApply(originalBind, this, [thisArg, ...args]);
          if (typeof this === 'function') P.WeakMapPrototypeSet(boundTargets, bound, this);
          return bound;
        },
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
    // `finally` reaches the wrapped `then` with engine closures around its handler: the derived
    // promise waits on the tests when the handler is theirs.
    const originalFinally = OriginalPromise.prototype.finally;
    ObjectDefineProperty(OriginalPromise.prototype, 'finally', {
      __proto__: null,
      // A method, so the wrapper is named `finally` as the original is.
      value: {
        finally(onFinally) {
          const derived = P.ReflectApply(originalFinally, this, [onFinally]);
          if (holdsCheck(onFinally)) track(derived, true);
          return derived;
        },
      }.finally,
      writable: true,
      enumerable: false,
      configurable: true,
    });
    const TrackedPromise = new g.Proxy(OriginalPromise, {
      construct(target, args, newTarget) {
        return track(ReflectConstruct(target, args, newTarget === TrackedPromise ? target : newTarget), false);
      },
    });
    g.Promise = TrackedPromise;
    if (role === 'combined' || role === 'tests') {
      // A self-contained script is instrumented like separate tests (src/sandbox/test-plan.ts) and
      // reaches the hooks through this global. The script can reach it too: it is in the same realm
      // as its own tests anyway (docs/sandbox.md, "Self-contained programs"). Separate tests get
      // the hooks as a parameter; code they evaluate in the global scope (hooks.func, an indirect
      // `eval`) reaches them here (the tests realm holds only trusted code: the program never gets
      // a reference into it).
      ObjectDefineProperty(g, '__anchorHooks', {
        __proto__: null,
        value: ObjectFreeze(hooks),
        writable: false,
        enumerable: false,
        configurable: false,
      });
    }
  }
  // Strict verdict: `Promise.race`/`any` of the tests (see where they are wrapped). The entries
  // are taken as the original would take them; the one that settles first (fulfils, for `any`) is
  // seen through a reaction attached before the original's own, so it runs first.
  const ArrayFrom = g.Array.from;
  function raced(original, C, iterable, fulfilledOnly) {
    if (passErr === null || bridge === undefined) return P.ReflectApply(original, C, [iterable]);
    let items;
    try {
      items = P.ReflectApply(ArrayFrom, g.Array, [iterable]);
    } catch {
      return P.ReflectApply(original, C, [iterable]);
    }
    let first = -1;
    const ignore = () => {};
    for (let i = 0; i < items.length; i++) {
      const won = () => {
        if (first === -1) first = i;
      };
      try {
        // (For `any` a rejection wins nothing, but is handled here all the same: a reaction left
        // without a handler is a rejection nothing handled, which isolated-vm throws from the call.)
        P.PromisePrototypeThen(items[i], won, fulfilledOnly ? ignore : won);
      } catch {
        // not a native promise: the original adopts it; it is not told apart
      }
    }
    const result = P.ReflectApply(original, C, [items]);
    const lost = () => {
      if (first === -1 || getBridge().programPromise(items[first]) !== undefined) return;
      for (let i = 0; i < items.length; i++) {
        const rec = getBridge().programPromise(items[i]);
        if (rec !== undefined && !rec.settled && rec.at !== '') markPasses(rec.at, rec.when, true);
      }
    };
    try {
      P.PromisePrototypeThen(result, lost, lost);
    } catch {
      // a subclass's promise that is not native
    }
    return result;
  }
  // A record's `key` becomes an accessor that marks the passes on the tests' stack as it is read
  // (markRejections); writing it makes it plain data again.
  function settledRead(r, key) {
    const v = r[key];
    ObjectDefineProperty(r, key, {
      __proto__: null,
      get() {
        if (passErr !== null) markPasses(frameChain(false));
        return v;
      },
      set(x) {
        ObjectDefineProperty(this, key, { __proto__: null, value: x, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    });
  }
  if (role === 'tests') installTracking();

  // Tests realm: `Function` and indirect `eval` as the guard needs them (hooks.func, hooks.source),
  // captured before any tests run.
  const OriginalFunction = g.Function;
  const globalEval = g.eval;
  function guardedFunction(...args) {
    const n = args.length;
    let params = '';
    for (let i = 0; i < n - 1; i++) params += (i === 0 ? '' : ',') + String(args[i]);
    const body = n === 0 ? '' : String(args[n - 1]);
    return globalEval(guardText('(function anonymous(' + params + '\n) {\n' + body + '\n})', sortGuard));
  }

  // Strict verdict: a sort compares through the tests' comparator, and the engine reads a NaN it
  // returns as "equal" — so an array holding a NaN the tests made (`f().map(Number)`) comes back in
  // whatever order insertion leaves it, and `deepStrictEqual(xs, [...xs].sort((a, b) => a - b))`
  // passes an unsorted answer. The realm's sorts (Array and typed-array `sort`/`toSorted`) refuse
  // that as the tests' own `<` would: a comparator result NaN fails the run when the tests never
  // mention NaN. `Infinity - Infinity` is NaN too, from two equal infinities: where the tests
  // mention Infinity, only a NaN operand counts. The result is converted to a number here, once
  // (ToNumber, as the sort does: a BigInt throws), and the sort gets that number, so a result
  // whose conversion answers differently on each call cannot show the guard one value and the
  // sort another. Installed in the tests realm only; the program's realm keeps its own sorts.
  function guardComparator(cmp) {
    return function (a, b) {
      const p = toPrimitive(cmp(a, b));
      if (typeof p === 'bigint') throw new TypeError('Cannot convert a BigInt value to a number');
      const r = P.Number(p);
      if (sortGuard & 1 && !guardTripped && P.NumberIsNaN(r)) {
        if (sortGuard & 2 || P.NumberIsNaN(a) || P.NumberIsNaN(b))
          trip(
            'a sort comparator of the tests returned NaN, which they never mention (a sort reads it as "equal", so an unsorted array can come back unchanged)',
          );
      }
      return r;
    };
  }
  // A typed array's default sort (no comparator) orders numerically and puts NaN last (the
  // spec's order, which V8 keeps): an answer `[1, 2, NaN]` would read as sorted to tests that
  // never mention NaN, where their own `<` or a comparator sort would refuse it. So, as those do,
  // a NaN among the elements fails the run when the tests never mention NaN.
  function guardDefaultTypedSort(ta) {
    if (!(sortGuard & 1) || guardTripped) return;
    let tag;
    try {
      tag = P.TypedArrayPrototypeGetSymbolToStringTag(ta);
    } catch {
      return; // not a typed array: the original sort throws
    }
    if (tag !== 'Float32Array' && tag !== 'Float64Array') return;
    const n = P.TypedArrayPrototypeGetLength(ta);
    for (let i = 0; i < n; i++) {
      if (P.NumberIsNaN(ta[i])) {
        trip(
          'a typed-array sort of the tests met NaN, which they never mention (it puts NaN last, so an answer holding one can read as sorted)',
        );
        return;
      }
    }
  }
  function guardSorts(proto, typed) {
    const names = ['sort', 'toSorted'];
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const original = proto[name];
      if (typeof original !== 'function') continue;
      const wrapped = {
        [name](cmp) {
          if (typed && cmp === undefined && sortGuard !== 0) guardDefaultTypedSort(this);
          return P.ReflectApply(original, this, [sortGuard !== 0 && typeof cmp === 'function' ? guardComparator(cmp) : cmp]);
        },
      }[name];
      ObjectDefineProperty(proto, name, {
        __proto__: null,
        value: wrapped,
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
  }
  if (role === 'tests') {
    guardSorts(g.Array.prototype, false);
    guardSorts(P.ObjectGetPrototypeOf(g.Uint8Array.prototype), true);
  }

  // Tests realm: the program realm's controller while its tests run, so the verdict can carry the
  // program's console output (one host call instead of two).
  let programCtl;
  // Tests realm: the program realm can run after its last crossing with no crossing of its own
  // (a promise job, a `queueMicrotask` callback, an async function resumed): what it changes then
  // of its copies of the tests' objects reached the tests under Node, and here it did not (a
  // program emptying the tests' array in a microtask after it answered passed: red-team rt66
  // J61). Once a microtask turn has passed since the last crossing (`turnPassed`: a microtask
  // queued after the crossing, so after what the program queued during it), the next check site
  // or `await` of the tests as it resumes (hooks.reach, hooks.resumed) first asks the program realm
  // for its changed copies (OP_PULL: syncCopies, which sends them back as any crossing does).
  // Synchronous tests never pay for it: the mark runs after them.
  let pullDue = false;
  let turnMarked = false;
  function turnPassed() {
    turnMarked = false;
    pullDue = true;
  }
  function crossed() {
    pullDue = false;
    if (turnMarked) return;
    turnMarked = true;
    P.PromisePrototypeThen(P.ReflectApply(P.PromiseResolve, P.Promise, [undefined]), turnPassed);
  }
  function pullChanges() {
    if (!pullDue || programCtl === undefined) return;
    crossed();
    try {
      programCtl(OP_PULL);
    } catch {
      /* the program realm is gone: nothing to bring in line */
    }
  }
  // A handler of the tests that a job runs (a promise reaction, a `queueMicrotask` callback, a
  // timer of theirs) enters after a turn: it pulls first, as a check site does, so a value it reads
  // and checks only later is the one Node's tests would read (red-team rt68 J35: `.then(() =>
  // xs.length).then((n) => assert…(n, 3))` read the length before the program's microtask emptied
  // the array).
  function entering() {
    if (pullDue) pullChanges();
  }
  function pulling(f) {
    if (typeof f !== 'function') return f;
    return function (v) {
      entering();
      return f(v);
    };
  }
  // The program realm's controller as the bridge calls it: each crossing back marks the turn.
  function crossing(pctl) {
    return function (op, a, b, c, d) {
      try {
        return pctl(op, a, b, c, d);
      } finally {
        crossed();
      }
    };
  }
  function programOutput() {
    if (programCtl === undefined) return undefined;
    try {
      const pv = programCtl(OP_VERDICT);
      return {
        __proto__: null,
        stdout: typeof pv.stdout === 'string' ? pv.stdout : '',
        truncated: pv.truncated === true,
        exited: typeof pv.exited === 'string' ? pv.exited : '',
      };
    } catch {
      return undefined;
    }
  }
  // Node's exit, at the end of a run: the tests' 'exit' listeners run with the exit code (what they
  // schedule never runs), and a non-zero `process.exitCode` they set is a failed run (tests that
  // report their failures that way, or assert a call count in an 'exit' listener, as Node's own
  // tests do, passed a wrong program or failed an honest one: red-team rt60 K4).
  let beforeExitDone = false;
  function emit(event) {
    const set = timers.exitCode();
    const code = untilUnhandled() ? 1 : set === undefined || set === null ? 0 : set;
    try {
      timers.emit(event, code);
    } catch (e) {
      if (!threw) {
        threw = true;
        endedWith = e;
        thrownError = 'a ' + event + ' listener of the tests threw: ' + describe(e);
      }
    }
  }
  function exitCodeFailure() {
    if (role === 'program') return '';
    const code = timers.exitCode();
    if (code === undefined || code === null || code === 0 || code === '0') return '';
    const shown = typeof code === 'number' || typeof code === 'string' ? code : typeof code;
    return 'the tests set process.exitCode to ' + shown + ': Node exits with it, a failed run';
  }
  function verdict() {
    const a = tracking ? asyncOutcome() : { never: 0, unhandled: 0, firstUnhandled: '' };
    const exitFailure = exitCodeFailure();
    if (exitFailure !== '' && firstFailure === '') firstFailure = exitFailure;
    // The program's own `process.exit` (its realm's copy) only throws there, and the program may
    // catch that: its call is recorded all the same, and a run whose program exited never passes.
    const program = programOutput();
    const ended = exited !== '' ? exited : program !== undefined ? program.exited : '';
    // An assert call interrupted by what its arguments threw, in a run that ended on that error:
    // the sites its check passed on earlier cases fail (the interrupted execution is not one it
    // passed). A first execution interrupted had passed nothing: the error's status says enough.
    let interrupted = 0;
    let unranZeroes = false;
    const endedOnError = openCheck !== -1 && (endedUncaught() || a.unhandled > 0);
    if (endedOnError) {
      const before = passed;
      failCheckSites(openCheck);
      interrupted = before - passed;
    }
    interrupted += interruptedLoops(a);
    unansweredLoops(a);
    if (passErr !== null) for (let j = 0; j < passErr.length; j++) if (passErr[j] !== 0) caughtInPass(j);
    if (swallowedAt !== 0) swallowedChecks();
    // Executions still open that an error of the program crossed: interrupted, and the tests went
    // on (the one the run ended on is counted above).
    if (thrownIn !== null)
      for (let i = 0; i < argsOpen.length; i++) {
        const k = argsOpen[i];
        if (thrownIn[k] && !(endedOnError && k === openCheck)) {
          thrownIn[k] = false;
          interruptedCheck(k, 'by an error of the program while its arguments were evaluated, and the tests went on');
        }
      }
    // Errors that skipped checks and were handled outside the tests' own `catch` (a promise's
    // `.catch(console.error)`, `Promise.allSettled`): those checks did not pass. A run that ended
    // on an error already says so in its status.
    if (unwinding !== null && !endedUncaught() && !ended && a.unhandled === 0) {
      if (openHandlers !== null) {
        const open = P.SetPrototypeValues(openHandlers);
        for (let r = P.SetIteratorNext(open); !r.done; r = P.SetIteratorNext(open)) hooks.left(r.value);
        openHandlers = null;
      }
      const it = P.MapPrototypeValues(unwinding);
      for (let r = P.MapIteratorNext(it); !r.done; r = P.MapIteratorNext(it))
        for (let i = 0; i < r.value.length; i++) skippedCheck(r.value[i]);
      unwinding = null;
    }
    // Strict verdict: tests that finished with checks they never reached showed nothing about
    // those (a loop over an empty answer, a branch the answer steered around): each such check is
    // a failed site. Only for a run judged by its counts (one that threw, never settled or exited
    // keeps the status that says so; one with no passed check is already "ran no check").
    if (
      reached !== null &&
      passed > 0 &&
      !endedUncaught() &&
      !ended &&
      asyncState !== 3 &&
      a.never === 0 &&
      a.unhandled === 0 &&
      pending === 0
    ) {
      let first = -1;
      let missed = 0;
      for (let i = 0; i < reached.length; i++)
        if (!reached[i]) {
          missed++;
          if (first === -1) first = i;
        }
      // A check the tests handed to the program, which it never called for one of the times it
      // was handed over (snapshot.js, uncalledCheck): that case's check never ran.
      const handed = bridge !== undefined ? bridge.uncalledCheck() : -1;
      if (handed !== -1 && reached[handed]) {
        missed++;
        if (firstFailure === '')
          firstFailure =
            'the check at tests line ' +
            checkLines[handed] +
            ' was handed to the program and never called for one of the times it was handed over: a check the run never reached does not show the answer is right';
      }
      if (missed > 0) {
        failed += missed;
        // The run went on past a check that never ran, where a wrong value's failed check would
        // have ended it: the later checks' passes show nothing a failing answer could not
        // (an empty answer scored 2/3 where a wrong one scored 0/1, red-team rt7-js U01–U04).
        unranZeroes = true;
        if (firstFailure === '')
          firstFailure =
            'the check at tests line ' +
            checkLines[first] +
            ' never ran: a check the run never reached does not show the answer is right';
      }
      reached = null;
    } else if (reached !== null && passed > 0 && orderedChecks !== null) {
      // A run that did not finish went on past a check written before one it reached, in code
      // that runs in the order it is written (a loop over an empty answer, then checks that pass
      // until one fails): the same steering, the same zero (rt7-js U04 scored 2/3 where a wrong
      // answer's run, ended by that first check, scored 0).
      const k = passedOver();
      if (k !== -1) {
        unranZeroes = true;
        if (firstFailure === '')
          firstFailure =
            'the check at tests line ' +
            checkLines[k] +
            ' never ran although the run went on past it: a check the run never reached does not show the answer is right';
      }
      reached = null;
    }
    // A refused answer (strict) fails every site: the sites that passed count as failed, so the
    // total is unchanged and the run scores no more than an honest wrong answer (0 passed).
    // So does a run with a check it never reached (above).
    const zeroed = (answerRefused || unranZeroes) && config.verdict === 'strict' ? passed : 0;
    return {
      __proto__: null,
      passed: passed - zeroed,
      // A guard that fired fails the run: through the checks after it (see record), or, when none
      // ran after it, as one failed site of its own (a failed run never shows every site passed).
      failed: (failed === 0 && (guardTripped || exitFailure !== '') ? 1 : failed) + zeroed,
      neverSettled: a.never,
      unhandled: a.unhandled,
      unhandledError: a.firstUnhandled,
      exited: ended,
      allocationRefusals,
      unsettled: pending,
      failure: firstFailure,
      stdout: out,
      truncated,
      asyncState,
      asyncError,
      threw,
      thrownError,
      refused,
      interrupted,
      program,
    };
  }

  // The bridge between the two realms (programs with separate tests only).
  let bridge;
  let snapshot;
  // A host global the snapshot needs (`read()`), the host globals built first when `create`.
  const hostBuilt = (read) => (create) => {
    if (create && read() === undefined) timers.build();
    return read();
  };
  const nodeBuffer = hostBuilt(() => NodeBuffer);
  const nodeDOMException = hostBuilt(() => NodeDOMException);
  const getSnapshot = () =>
    snapshot ||
    (snapshot = createSnapshot(
      P,
      getT(),
      role === 'program' && config.verdict === 'strict',
      nodeBuffer,
      role === 'tests' && config.verdict === 'strict',
      nodeDOMException,
      ownProxies,
    ));
  const getBridge = () =>
    bridge ||
    (bridge = createBridge(
      P,
      getSnapshot(),
      describe,
      getT(),
      role === 'tests' ? trackProgramPromise : undefined,
      role === 'tests' ? refusedIn : undefined,
      role === 'tests' ? serving : undefined,
      bridgeClock,
      role === 'tests' ? () => (consoleReplaced() ? getBridge().consoleHandle(forwardConsole) : -1) : undefined,
    ));
  // Tests realm: a value refused on its way in fails the run, whether or not the tests catch the
  // error that stands for it (see createBridge).
  // The refused value was an argument of the check being evaluated (hooks.reach), which now never
  // records this execution: its sites fail — a check in a loop that passed on earlier cases must
  // not keep that pass (1/2 where an honest wrong answer scores 0/1). With none (its first
  // execution, or the call sat outside a check: `const r = f(x)`), the refusal is one failed site
  // of its own. Either way no check passes after it (the tests may catch the refusal's error).
  function refusedIn(why) {
    const failedSites = pendingCheck !== -1 ? failCheckSites(pendingCheck) : 0;
    if (failedSites === 0) failed++;
    guardTripped = true;
    answerRefused = true;
    if (firstFailure === '') firstFailure = cap('strict verdict: ' + why);
  }

  // Tests realm: a function of the tests the program calls (a callback passed to the candidate).
  // A check in it whose arguments threw has not recorded this execution, and the error now goes to
  // the program, which may catch it and return as if the check had run: so its sites fail here, as
  // a wrong value would fail them (with none recorded yet, one failed site stands for it). The
  // check open around the call (the candidate's call sat in an assert's arguments) is restored,
  // unless the callback returned with a check of its own still open (an async callback: what its
  // check's arguments threw rejects its promise), which stays open for the verdict to see.
  const serving = {
    __proto__: null,
    // A promise of the tests handed to the program (an async callback's answer, an argument): the
    // program awaits or handles it on its side, where the tests cannot see it (its stand-in's
    // handlers are the program's), so it is no unhandled rejection of the tests. An honest
    // `try { return await fn(); } catch {…}` over a rejecting callback of the tests ended as `error`.
    handedOut(p) {
      markSeen(p);
    },
    // Where a function of the tests crosses to the program (its calls' sites hang from here).
    chain() {
      return frameChain(false);
    },
    enter(chain) {
      servingChains[servingChains.length] = servingChain;
      servingChain = typeof chain === 'string' ? chain : '?';
      const outer = openCheck;
      openCheck = -1;
      return outer;
    },
    threw(all) {
      programThrew(all);
    },
    // The value the program's error came in as (after threw): what the run may end on. `chain`:
    // where the tests received the promise that rejected with it (promised), else the call's.
    came(v, chain, when) {
      const at = chain !== undefined ? chain : cameChain;
      cameChain = '';
      if (at === '') return;
      if (cameAt === null) cameAt = new P.Map();
      P.MapPrototypeSet(cameAt, v, at);
      // A rejection of a promise the tests received inside a loop's pass that is still going on
      // (they await it there, `try { r = await f(n) } catch { continue }`): an error of the
      // program came in during that pass, as a call's throw does.
      if (when !== undefined) markPasses(at, when);
    },
    // The step count (see skipClock), taken as a promise of the program reaches the tests.
    now() {
      return skipClock;
    },
    // Where the tests stand as a promise of the program reaches them ('' with no loops to place).
    promised() {
      return loopTable !== null && loopTable.length > 0 ? frameChain(false) : '';
    },
    leave(outer, threw) {
      servingChain = servingChains.length > 0 ? servingChains[servingChains.length - 1] : '';
      if (servingChains.length > 0) servingChains.length--;
      if (threw && openCheck !== -1) {
        interruptedCheck(openCheck, 'inside a callback the program called (its arguments threw)');
        openCheck = outer;
      } else if (openCheck === -1) openCheck = outer;
    },
  };

  // Strict verdict: where the innermost open execution of check k sits in argsOpen, or -1.
  function openAt(k) {
    for (let i = argsOpen.length - 1; i >= 0; i--) if (argsOpen[i] === k) return i;
    return -1;
  }
  // Strict verdict: removes the innermost open execution of check k from argsOpen; whether it had one.
  function closeArgs(k) {
    const i = openAt(k);
    if (i === -1) return false;
    const n = argsOpen.length - 1;
    for (let j = i; j < n; j++) argsOpen[j] = argsOpen[j + 1];
    argsOpen.length = n;
    return true;
  }
  // Strict verdict: an execution of check k that was interrupted (`how`) and never recorded, while
  // the run went on. It is not one the check passed: its sites fail, as a wrong value would fail
  // them (one failed site stands for a check that had recorded none).
  function interruptedCheck(k, how) {
    if (failCheckSites(k) === 0) failed++;
    if (firstFailure === '')
      firstFailure = cap(
        'the check at tests line ' + checkLines[k] + ' was interrupted ' + how + ': an execution that did not pass',
      );
  }
  // Tests realm: an error of the program crossed into this realm (a call of the candidate threw,
  // or a promise of the program rejected: then every open check may be the one awaiting it).
  function programThrew(all) {
    // Where the tests stood when a call's error came in (a rejection arrives from a job: no stack).
    if (!all && loopTable !== null && loopTable.length > 0) {
      cameChain = frameChain(false);
      // An error an assert call judges itself (`assert.throws`) is no error of the pass.
      if (!inAssertBody) markPasses(cameChain);
    }
    if (thrownIn === null || inAssertBody) return;
    const n = argsOpen.length;
    if (all) for (let i = 0; i < n; i++) thrownIn[argsOpen[i]] = true;
    else if (n > 0) thrownIn[argsOpen[n - 1]] = true;
  }

  // Strict verdict: the run ended on an error of the program that came in from inside a pass of
  // one or more of the tests' loops (a line of the tests' stack then lies in the loop): that pass
  // was interrupted, so the checks in those loops that passed on earlier passes fail, as the one
  // a wrong value reached would have (src/sandbox/test-plan.ts, LoopEntry). The run ends on an
  // error by a throw out of the tests' top level or a timer callback, by the rejection of their
  // completion value, or by an unhandled rejection of a promise they made (`await` in an async
  // function passes the program's rejection on as the same value). How many passed sites failed.
  function interruptedLoops(a) {
    if (cameAt === null || loopTable === null) return 0;
    const before = passed;
    if (endedWith !== noEnd) failLoopsAround(endedWith);
    if (asyncState === 2) failLoopsAround(asyncReason);
    if (a.unhandled > 0) {
      const it = P.MapPrototypeValues(tracked);
      for (let r = P.MapIteratorNext(it); !r.done; r = P.MapIteratorNext(it))
        if (r.value.state === 2 && !r.value.handled) failLoopsAround(r.value.reason);
    }
    return before - passed;
  }
  function startPass(j) {
    if (passErr === null || j >= passErr.length) return;
    if (passErr[j] !== 0) caughtInPass(j);
    passStart[j] = ++skipClock;
  }
  // Strict verdict: the loops of the tests holding a line of `chain` (where a call's error of the
  // program came in) had an error come in during their current pass — with `since` (a rejection:
  // `chain` is where the promise was received, at step `since`), only those whose current pass
  // began before then, i.e. the pass that received it. `lost`: a promise of the program that lost
  // the tests' race (raced), not an error.
  function markPasses(chain, since, lost) {
    if (passErr === null) return;
    const at = ++skipClock;
    const lines = chainLines(chain);
    for (let j = 0; j < loopTable.length; j++)
      if (passErr[j] === 0 && (since === undefined || passStart[j] <= since)) {
        const line = lineInLoop(lines, loopTable[j]);
        if (line !== 0) {
          passErr[j] = at;
          passErrLine[j] = line;
          passLost[j] = lost === true;
        }
      }
  }
  // The tests' lines of `chain` ("line:column line:column …", frameChain), read once per chain.
  function chainLines(chain) {
    const out = [];
    for (let i = 0; i < chain.length; ) {
      let n = 0;
      let c = P.StringPrototypeCharCodeAt(chain, i);
      for (; c >= 48 && c <= 57; c = P.StringPrototypeCharCodeAt(chain, ++i)) n = n * 10 + (c - 48);
      while (i < chain.length && P.StringPrototypeCharCodeAt(chain, i) !== 32) i++;
      i++;
      const line = n - linesBefore;
      if (line > 0) out[out.length] = line;
    }
    return out;
  }
  // Whether one of `lines` (chainLines) lies in `loop`.
  function linesInLoop(lines, loop) {
    return lineInLoop(lines, loop) !== 0;
  }
  // The first (innermost) of `lines` that lies in `loop`, or 0.
  function lineInLoop(lines, loop) {
    for (let i = 0; i < lines.length; i++) if (lines[i] >= loop[0] && lines[i] <= loop[1]) return lines[i];
    return 0;
  }
  // Strict verdict: a pass of loop j in which a call of the program threw and the tests caught it
  // (the run went on) has ended. If none of the loop's checks ran in that pass, the tests skipped
  // the case the error was the answer to (`const r = attempt(() => f(n)); if (!r.ok) continue;`,
  // red-team rt6 X03): the loop's checks fail, as the one a wrong value reached would have. A pass
  // that ran one of them after the error came in judged its case (a check in the `catch`, or of a
  // flag the `catch` set). One that ran checks only before it judged the case only if it skipped
  // no check written after where the error came in: `assert.ok(n >= 0)`, then `try { r = f(n) }
  // catch { continue }` past `assert.strictEqual(r, w)`, skipped the case all the same.
  function caughtInPass(j) {
    const since = passStart[j];
    const came = passErr[j];
    const line = passErrLine[j];
    const lost = passLost[j];
    passErr[j] = 0;
    passLost[j] = false;
    const ks = loopTable[j][2];
    let before = false;
    let skippedAfter = false;
    for (let m = 0; m < ks.length; m++) {
      const k = ks[m];
      // Reached after the error came in, or recorded after it (the error came in while its own
      // arguments were evaluated: `assert.strictEqual(rs[i].status, 'rejected')`).
      if (reachedAt[k] > came || recordedAt[k] > came) return;
      if (reachedAt[k] > since) before = true;
      else if (checkLines[k] > line) skippedAfter = true;
    }
    if (before && !skippedAfter) return;
    if (failLoopChecks(j) > 0 && firstFailure === '')
      firstFailure = lost
        ? 'a promise of the program received inside a pass of the loop at tests line ' +
          loopTable[j][0] +
          " lost the tests' race against their own promise (it had not answered when they went on), and that pass ran none of the loop's checks after it: the case was not checked"
        : 'an error of the program came in inside a pass of the loop at tests line ' +
          loopTable[j][0] +
          ' and the tests went on without running its checks after it in that pass: the case it answered was not checked';
  }
  // Strict verdict: an error of the program came in (`chain`: where) and a handler of the tests
  // that only leaves or logs took it (src/sandbox/test-plan.ts, swallowing). When it came in inside
  // a quiet loop of the tests (no check, failure marker or `throw` in it: `for (const n of ns) try
  // { got.push([f(n), want(n)]) } catch { continue }`), the case it answered is missing from what
  // the loop collected, and the checks that ran afterwards judged the rest (swallowedChecks).
  function dropped(x) {
    if (cameAt !== null && loopTable !== null && swallowedAt === 0 && P.MapPrototypeHas(cameAt, x))
      swallowedIn(P.MapPrototypeGet(cameAt, x));
  }
  function swallowedIn(chain) {
    const lines = chainLines(chain);
    for (let j = 0; j < loopTable.length; j++)
      if (loopTable[j][2].length === 0 && lineInLoop(lines, loopTable[j]) !== 0) {
        swallowedAt = ++skipClock;
        swallowedLoop = loopTable[j][0];
        return;
      }
  }
  // Strict verdict: the checks that recorded after an error of the program was swallowed in a
  // quiet loop (swallowedIn) fail, as the check its case would have reached with a wrong value.
  function swallowedChecks() {
    let n = 0;
    for (let k = 0; k < recordedAt.length; k++) if (recordedAt[k] > swallowedAt) n += failCheckSites(k);
    if (n > 0 && firstFailure === '')
      firstFailure =
        'an error of the program came in inside the loop (or collecting try) at tests line ' +
        swallowedLoop +
        ', which holds no check, and a handler of the tests swallowed it: the checks that ran afterwards judged what it kept without its case';
  }
  // Strict verdict: a promise of the program that never settled, received inside a pass of one of
  // the tests' loops, left that pass without its answer (the tests raced it against their own
  // timer and went on): the loop's checks fail as for an error that ended the run there. The
  // run's status already says it never finished; this is its passed count.
  function unansweredLoops(a) {
    if (a.never === 0 || loopTable === null || loopTable.length === 0) return;
    const unsettled = getBridge().unsettled();
    for (let i = 0; i < unsettled.length; i++)
      failLoopsOn(unsettled[i], 'a promise of the program received inside the loop at tests line ', ' never settled');
  }
  // Fails the checks of the loops around where error `v` of the program came in (if it did).
  function failLoopsAround(v) {
    const chain = P.MapPrototypeGet(cameAt, v);
    if (chain === undefined) return;
    P.MapPrototypeDelete(cameAt, v);
    failLoopsOn(chain, 'the run ended on an error of the program inside the loop at tests line ', '');
  }
  // Fails the checks of the loops holding a line of `chain` (the tests' stack lines somewhere);
  // the first failure's text is `why` + the loop's line + `after`.
  function failLoopsOn(chain, why, after) {
    const lines = chainLines(chain);
    for (let j = 0; j < loopTable.length; j++) {
      if (!linesInLoop(lines, loopTable[j])) continue;
      if (firstFailure === '')
        firstFailure = why + loopTable[j][0] + after + ': that pass of the loop was interrupted, so its checks did not pass';
      failLoopChecks(j);
    }
  }
  // Fails the sites of loop j's checks and of the checks in the helpers they call; how many.
  function failLoopChecks(j) {
    const ks = loopTable[j][2];
    let n = 0;
    for (let m = 0; m < ks.length; m++) {
      n += failCheckSites(ks[m]);
      const inner = innerChecks !== null ? innerChecks[ks[m]] : undefined;
      if (inner !== undefined) for (let q = 0; q < inner.length; q++) n += failCheckSites(inner[q]);
    }
    return n;
  }
  // Strict verdict: the first check that runs where it is written that the run never reached
  // although it reached one written after it, or -1.
  function passedOver() {
    for (let g = 0; g < orderedChecks.length; g++) {
      const group = orderedChecks[g];
      let last = -1;
      for (let i = group.length - 1; i >= 0 && last === -1; i--) if (reached[group[i]]) last = i;
      for (let i = 0; i < last; i++) if (!reached[group[i]]) return group[i];
    }
    return -1;
  }
  // Strict verdict: the checks of skip scope `id` an error leaving it (entered at `since`) skipped:
  // its tight checks that did not record since, and all its loose ones.
  function skippedIn(id, since) {
    const out = new P.Array();
    // A function of the assert module given to `then`: itself one check, skipped.
    if (id === -1) {
      out[0] = -1;
      return out;
    }
    const scope = skipTable !== null ? skipTable[id] : undefined;
    if (scope === undefined) return out;
    const tight = scope[0];
    for (let i = 0; i < tight.length; i++) if (recordedAt[tight[i]] < since) out[out.length] = tight[i];
    const loose = scope[1];
    for (let i = 0; i < loose.length; i++) out[out.length] = loose[i];
    return out;
  }
  // Skip scope `id` is entered: the stamp, also kept as the scope's last entry (see openSince).
  function enterScope(id) {
    const s = ++skipClock;
    if (lastEnter !== null) lastEnter[id] = s;
    return s;
  }
  // The stamp an activation of scope `id` entered at `since` compares its checks with: none
  // counts (Infinity) when the scope was entered again while this one was open — recursion by any
  // name (an alias, a method, mutual recursion, a `try` inside the walker: red-team rt6 C, rt7 C),
  // whose nested activation's records prove nothing for this one.
  function openSince(id, since) {
    return lastEnter !== null && lastEnter[id] !== undefined && lastEnter[id] > since ? Infinity : since;
  }
  // Strict verdict: a handler of the tests took error `x`, which skipped the checks in `list` where
  // it was caught (and those it carried): what hooks.left decides on.
  function catching(list, x, judges) {
    let carried = new P.Array();
    if (unwinding !== null && P.MapPrototypeHas(unwinding, x)) {
      carried = P.MapPrototypeGet(unwinding, x);
      P.MapPrototypeDelete(unwinding, x);
    }
    const c = {
      __proto__: null,
      list,
      carried,
      // A thrown primitive is no identity; neither is the program's instance, whose one stand-in
      // arrives again for each error it is thrown as (red-team rt6 F02).
      primitive: (typeof x !== 'object' && typeof x !== 'function') || x === null || (bridge !== undefined && bridge.standsIn(x)),
      since: ++skipClock,
      // The checks whose running judges the error (src/sandbox/test-plan.ts, skipEntry).
      judges,
      rethrown: false,
      // Where `x` came in, when it is an error of the program (hooks.caught).
      came: undefined,
    };
    // Open until it ends or rethrows: a handler paused for good (a tests generator kept at a
    // `yield` in its `catch`) is judged when the run ends.
    if (openHandlers !== null) P.SetPrototypeAdd(openHandlers, c);
    return c;
  }
  // Whether one of the checks `ks` was reached after `since`.
  function ranSince(ks, since) {
    if (ks === undefined || reachedAt === null) return false;
    for (let i = 0; i < ks.length; i++) if (reachedAt[ks[i]] > since) return true;
    return false;
  }
  // Tests realm: the skip scope of a function of the tests (-1: a function of the assert module,
  // itself a check), found through what it binds (`check.bind(null, w)`) and the scope id its
  // instrumented text opens with (`__anchorHooks.enter(id)`, src/sandbox/test-plan.ts); undefined
  // for any other function.
  const kEnterText = '__anchorHooks.enter(';
  function scopeOf(f) {
    for (let i = 0; i < 8 && typeof f === 'function'; i++) {
      const target = P.WeakMapPrototypeGet(boundTargets, f);
      if (target === undefined) break;
      f = target;
    }
    if (typeof f !== 'function' || skipTable === null) return undefined;
    if (isAssertFunction(f)) return -1;
    let text;
    try {
      text = P.FunctionPrototypeToString(f);
    } catch {
      return undefined;
    }
    const at = P.StringPrototypeIndexOf(text, kEnterText);
    if (at === -1) return undefined;
    let id = 0;
    let i = at + kEnterText.length;
    for (let c = P.StringPrototypeCharCodeAt(text, i); c >= 48 && c <= 57; c = P.StringPrototypeCharCodeAt(text, ++i))
      id = id * 10 + (c - 48);
    return i > at + kEnterText.length && id < skipTable.length ? id : undefined;
  }
  let assertFunctions;
  function isAssertFunction(f) {
    if (modules === undefined) return false;
    if (assertFunctions === undefined) {
      assertFunctions = new P.Set();
      const mods = [modules.loose, modules.getStrict()];
      for (let m = 0; m < 2; m++) {
        P.SetPrototypeAdd(assertFunctions, mods[m]);
        const names = P.ReflectOwnKeys(mods[m]);
        for (let i = 0; i < names.length; i++) {
          const d = P.ObjectGetOwnPropertyDescriptor(mods[m], names[i]);
          if (d !== undefined && typeof d.value === 'function') P.SetPrototypeAdd(assertFunctions, d.value);
        }
      }
    }
    return P.SetPrototypeHas(assertFunctions, f);
  }
  // Strict verdict: a rejection handler given to `then` (or `catch`, or `Promise.all` and friends)
  // is a `catch` of the tests: it judges the rejection, rethrows it or swallows it (hooks.left).
  // `skipped`: the skip scope of the fulfilment handler beside it, which the rejection skipped.
  // Both scopes are looked up only when the promise rejects (reading a function's text is the
  // costly part, and most promises fulfil).
  function rejectionHandler(onRejected, onFulfilled) {
    return function (x) {
      const skipped = scopeOf(onFulfilled);
      const own = scopeOf(onRejected);
      const list = skipped !== undefined ? skippedIn(skipped, Infinity) : new P.Array();
      const c = catching(list, x, own !== undefined && own >= 0 ? skipTable[own][2] : undefined);
      try {
        return P.ReflectApply(onRejected, undefined, [x]);
      } catch (r) {
        hooks.rethrew(c, r);
        throw r;
      } finally {
        hooks.left(c);
      }
    };
  }
  // Strict verdict: error `x` carries the checks in `list` onward (a Map: a thrown primitive too).
  function carry(x, list) {
    if (list.length === 0) return;
    const was = P.MapPrototypeGet(unwinding, x);
    if (was === undefined) P.MapPrototypeSet(unwinding, x, list);
    else for (let i = 0; i < list.length; i++) was[was.length] = list[i];
  }
  // Strict verdict: check k was skipped by an error the tests went on from: not an execution it
  // passed. Its sites fail (one site of its own stands for a check that recorded none, however
  // often it is skipped). No state of a check in progress changes (a handler may run inside one).
  function skippedCheck(k) {
    if (k < 0) {
      // An assert function the engine calls as a reaction has none of the tests' frames under it:
      // its site is the anonymous one, which fails.
      tally('?', false);
      if (firstFailure === '')
        firstFailure =
          'a check the tests gave to a promise was skipped: the promise rejected, and the tests went on without checking why';
      return;
    }
    const it = P.SetPrototypeValues(checkSites[k]);
    let n = 0;
    for (let r = P.SetIteratorNext(it); !r.done; r = P.SetIteratorNext(it)) {
      tally(r.value, false);
      n++;
    }
    const stand = n === 0 ? 'skipped check ' + k : '';
    if (stand !== '') tally(stand, false);
    if (firstFailure === '')
      firstFailure = cap(
        'the check at tests line ' +
          checkLines[k] +
          ' was skipped: an error left the tests before it ran, and they went on without checking that error',
      );
    if (doomed !== null && !P.MapPrototypeHas(doomed, k)) {
      P.MapPrototypeSet(doomed, k, stand);
      // A helper call: the checks in the helper's body were skipped with it.
      const inner = innerChecks !== null ? innerChecks[k] : undefined;
      if (inner !== undefined) for (let i = 0; i < inner.length; i++) skippedCheck(inner[i]);
    }
  }

  // Every site check k recorded fails, as an execution of it that failed (record); how many it had.
  function failCheckSites(k) {
    const it = P.SetPrototypeValues(checkSites[k]);
    pendingCheck = -1;
    let n = 0;
    for (let r = P.SetIteratorNext(it); !r.done; r = P.SetIteratorNext(it)) {
      record(r.value, false);
      n++;
    }
    return n;
  }

  // Program realm: snapshot the names the tests use (functions become handles).
  function bindings(resolved, names, remote, copier) {
    const B = getBridge();
    B.connect(remote, copier);
    if (role === 'program' && timerRemote === undefined) {
      timerRemote = remote;
      const it = P.MapPrototypeValues(earlyTimers);
      for (let x = P.MapIteratorNext(it); !x.done; x = P.MapIteratorNext(it)) timerPort.set(x.value);
      P.MapPrototypeClear(earlyTimers);
    }
    // The prompt's classes as the program left their names (keys with a leading NUL, plan.resolver).
    if (role === 'program') {
      const table = { __proto__: null };
      const keys = P.ReflectOwnKeys(resolved);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        if (typeof k !== 'string' || k.length < 2 || P.StringPrototypeCharCodeAt(k, 0) !== 0) continue;
        const d = P.ObjectGetOwnPropertyDescriptor(resolved, k);
        if (d !== undefined && P.ObjectPrototypeHasOwnProperty(d, 'value')) table[P.StringPrototypeSlice(k, 1)] = d.value;
      }
      getSnapshot().setPromptClasses(table);
    }
    let out = '[';
    let first = true;
    const list = P.JSONParse(names);
    for (let i = 0; i < list.length; i++) {
      const name = list[i];
      const d = P.ObjectGetOwnPropertyDescriptor(resolved, name);
      if (d === undefined || !P.ObjectPrototypeHasOwnProperty(d, 'value')) continue;
      let enc;
      try {
        // A class crosses as a class handle: `new`, statics and its instances forward (see the bridge).
        const cls = B.bindClass(d.value);
        enc = cls !== -1 ? '[2,' + cls + ']' : '[1,' + B.encode(d.value) + ']';
      } catch (e) {
        enc = '[0,' + P.JSONStringify(describe(e)) + ']';
      }
      out += (first ? '' : ',') + '[' + P.JSONStringify(name) + ',' + enc + ']';
      first = false;
    }
    return out + ']';
  }

  // Tests realm: connect to the program realm, bind the names, run the tests' function.
  // `nanExpected`: the tests mention NaN (see the bridge); always true outside the strict verdict.
  function runTests(fn, pctl, resolved, names, seed, nanExpected) {
    sites = new P.Map();
    reached = null;
    checkLines = null;
    guardTripped = false;
    answerRefused = false;
    sortGuard = 0;
    pendingCheck = -1;
    openCheck = -1;
    linesBefore = 0;
    checkSites = null;
    thrownIn = null;
    argsOpen = new P.Array();
    inAssertBody = false;
    skipClock = 0;
    recordedAt = null;
    reachedAt = null;
    doomed = null;
    skipTable = null;
    lastEnter = null;
    unwinding = null;
    openHandlers = null;
    innerChecks = null;
    loopTable = null;
    orderedChecks = null;
    passStart = null;
    passErr = null;
    passErrLine = null;
    passLost = null;
    swallowedAt = 0;
    swallowedLoop = 0;
    cameChain = '';
    cameAt = null;
    endedWith = noEnd;
    asyncReason = undefined;
    servingChain = '';
    servingChains.length = 0;
    tracked = new P.Map();
    unhandledNow = 0;
    beforeExitDone = false;
    getSnapshot().setClasses(null);
    timers.reset();
    exited = '';
    passed = 0;
    failed = 0;
    pending = 0;
    firstFailure = '';
    out = '';
    outBytes = 0;
    truncated = false;
    asyncState = 0;
    asyncError = '';
    threw = false;
    thrownError = '';
    refused = false;
    reseed(seed);
    programCtl = pctl;
    pullDue = false;
    // (A mark left queued by a run that ended mid-turn must not keep this run from marking.)
    turnMarked = false;
    restoreConsole();
    groupIndent = '';
    cryptoModule = undefined;
    const B = getBridge();
    B.reset();
    B.connect(crossing(pctl));
    B.expectNaN(config.verdict !== 'strict' || nanExpected !== false);
    const scope = { __proto__: null };
    try {
      // One clock (see reseed): the program's origin, and on from where the program left it.
      const origin = pctl(OP_CLOCK, 1);
      if (typeof origin === 'number') setOrigin(origin);
      bridgeClock.advanceTo(pctl(OP_CLOCK));
      const list = P.JSONParse(pctl(OP_BINDINGS, resolved, names, control, ExternalCopy));
      for (let i = 0; i < list.length; i++) {
        const name = list[i][0];
        const entry = list[i][1];
        if (entry[0] !== 0) {
          ObjectDefineProperty(scope, name, {
            __proto__: null,
            value: entry[0] === 2 ? B.classStub(entry[1], name) : B.decodeNode(entry[1]),
            writable: true,
            enumerable: true,
            configurable: true,
          });
        } else {
          // A name whose value cannot be snapshotted: reading it in the tests throws the reason.
          const why = entry[1];
          ObjectDefineProperty(scope, name, {
            __proto__: null,
            get() {
              answerRefused = true;
              throw new Error(why);
            },
            enumerable: true,
            configurable: true,
          });
        }
      }
    } catch (e) {
      threw = true;
      thrownError = 'the program realm did not answer: ' + describe(e);
      return;
    }
    let result;
    try {
      result = fn(scope, hooks);
    } catch (e) {
      threw = true;
      endedWith = e;
      thrownError = describe(e);
      refused = B.refused(e);
      return;
    }
    markSeen(result);
    void watch(result);
  }

  function control(op, a, b, c, d) {
    switch (op) {
      case OP_CALL:
      case OP_CONSTRUCT:
        // Program realm: `d` is the tests' console forwarder's handle for this call, or -1.
        if (role === 'program') {
          const before = consoleTo;
          consoleTo = typeof d === 'number' ? d : -1;
          if (consoleTo !== -1) consoleLast = consoleTo;
          try {
            return getBridge().entry(op, a, b, c);
          } finally {
            consoleTo = before;
          }
        }
        if (op === OP_CALL) return getBridge().entry(op, a, b, c);
        return '0the tests realm does not forward this';
      case OP_SETTLE:
      case OP_SOURCE:
        // The solution's source, for the tests' `String(candidate)`. Never the other way: the
        // tests' callbacks' text holds their expected values (`(p) => assert.equal(p, 29)`).
        if (op === OP_SOURCE && role !== 'program') return 'function () { [native code] }';
        return getBridge().entry(op, a, b, c);
      case OP_SYNC:
        // What the other realm changed of the objects both realms hold (snapshot.js, syncCopies).
        if (role !== 'tests' && role !== 'program') return '';
        return getBridge().entry(op, a, b, c);
      case OP_PULL:
        // Program realm: the tests ask for the copies changed since the last crossing (pullChanges).
        if (role !== 'program') return '';
        return getBridge().entry(op, a, b, c);
      case OP_GET:
      case OP_OWN:
        // Only the program's classes and instances are forwarded: the program constructing a
        // tests' callback, or reading into a tests' object through a handle, gets nothing.
        if (role !== 'program') return '0the tests realm does not forward this';
        return getBridge().entry(op, a, b, c);
      case OP_SEED:
        reseed(a, c, d);
        // `b`: a self-contained script that can make promises (its completion is tracked).
        if (b === true && role === 'combined' && !tracking) installTracking();
        return undefined;
      case OP_BINDINGS:
        return bindings(a, b, c, d);
      case OP_COPIER:
        // Tests realm, once: isolated-vm's ExternalCopy, handed to program realms with their bindings.
        if (role === 'tests' && ExternalCopy === undefined) ExternalCopy = a.ExternalCopy;
        // `b`: the host's guardSource (src/sandbox/test-plan.ts), for text the tests evaluate.
        if (role === 'tests' && guardText === undefined && typeof b === 'function') guardText = b;
        return undefined;
      case OP_RUN:
        runTests(a, b, c, d, arguments[5], arguments[6]);
        // The host runs the timers the tests armed (OP_TIMER) until none is left — none after the
        // tests ended on an uncaught error (endedUncaught).
        return endedUncaught() ? -1 : timers.nextDue();
      case OP_COMPLETION:
        // A primitive completion value settles nothing: the verdict is ready now (one host call).
        if ((typeof a !== 'object' || a === null) && typeof a !== 'function') return verdict();
        markSeen(a);
        void watch(a);
        return undefined;
      case OP_TIMER:
        // Run this realm's next due timer (virtual time); the next one's instant, or -1 (none after
        // an uncaught error: endedUncaught).
        if (untilUnhandled()) return -1;
        try {
          timers.runNext();
        } catch (e) {
          if (!threw) {
            threw = true;
            endedWith = e;
            thrownError = 'a timer callback threw: ' + describe(e);
          }
        }
        return endedUncaught() ? -1 : timers.nextDue();
      case OP_TIMERS:
        // Tests realm: a timer the program realm arms, clears or unrefs (kept in this realm's
        // queue, on this clock, which first moves on to the program's reading).
        if (role !== 'tests') return -1;
        bridgeClock.advanceTo(arguments[5]);
        return timers.program(a, b, c, d);
      case OP_CLOCK:
        // `a === 1`: the clock's origin (the tests realm takes the program's), else its reading.
        return a === 1 ? epoch : clock;
      case OP_VERDICT: {
        // `a === 1` (the host, after the tests' run and their timers): a timer armed by the last
        // call's microtasks is still to run — its instant instead of the verdict.
        if (a === 1 && !untilUnhandled()) {
          const due = timers.nextDue();
          if (due >= 0) return due;
          // The loop is empty: 'beforeExit', once; what its listeners arm or queue runs before
          // the verdict is asked for again (the host runs the timers, then calls here).
          if (role !== 'program' && !beforeExitDone && timers.listens('beforeExit')) {
            beforeExitDone = true;
            emit('beforeExit');
            return clock;
          }
        }
        if (a === 1 && role !== 'program') emit('exit');
        const v = verdict();
        programCtl = undefined;
        if (bridge) bridge.reset();
        return v;
      }
      default:
        return undefined;
    }
  }
  return control;
}
