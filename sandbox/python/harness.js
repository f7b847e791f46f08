// Runs INSIDE the isolate: boots Pyodide once per runtime, installs the Python harness
// (harness.py), takes the pristine memory image, and runs programs.
//
// Per program: stage + run are called by raw PyObject pointer through wasm exports with numeric
// arguments only, so no JS object ever has to enter Python; while the program runs the import
// guard (shims.js) watches for one. After the program the whole wasm linear memory is restored
// from the pristine image (a few MB memcpy), so every program starts from the same interpreter
// state: rebinding builtins, patching modules, leaving threads of state in caches — none of it
// survives. What memory restore cannot undo (JS-side state: the filesystem, objects reached
// through the JS bridge, a broken runtime after a timeout) is detected and reported to the host
// as `recycle`, and the host throws the whole context away.
//
// The host keeps References to the functions returned by createPythonRuntime; nothing of the
// host is reachable from here.

function createPythonRuntime(g, files, config, guard) {
  'use strict';
  const U8 = Uint8Array;
  const U32 = Uint32Array;
  const MathMin = Math.min;
  const MathMax = Math.max;
  const MathCeil = Math.ceil;
  // Longest sleep that moves the virtual clock (CPython refuses 2**63 ns and more).
  const MAX_SLEEP_S = 9223372036.854776;
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  // Two interpreters (harness.py, "Strict mode: two interpreters"): P runs the program, T the
  // prompt and the tests. Each has its own wasm instance and linear memory, its own pristine
  // image, and its own guard (heap cap, JS-bridge taint, import depth). Parity mode and programs
  // without separate tests use P alone, as the published harnesses run one interpreter.
  const P = { name: 'program' };
  const T = { name: 'tests' };
  // The tests' compiled parts (harness.py's compile_tests), by verdict mode, tests and prompt: a
  // GRPO group's completions, or an eval's samples, share one problem's tests. Kept here, out of
  // the program's reach (Python cannot touch JavaScript objects), least recently used first out.
  const testsCache = new Map();
  let testsCacheChars = 0;
  // A whole training set's problems fit (MBPP's 974; an entry is a few kB), well inside the
  // isolate's V8 heap; one entry over 64k characters is not kept.
  const TESTS_CACHE_ENTRIES = 1024;
  const TESTS_CACHE_CHARS = 8 * 1024 * 1024;
  const TESTS_ENTRY_MAX_CHARS = 65536;
  // The private names' tag (harness.py's _names): random per runtime, from the host, so a
  // program cannot know it in advance; fixed for the runtime, so cached tests stay valid.
  const tag = String(config.tag);
  let fsDirty = false;
  let broken = '';
  let out = [];
  let outBytes = 0;
  let truncated = false;
  const stdoutLimit = config.stdoutLimit;
  // The bridge: each interpreter's /dev/anchor is a channel (the request being written, the
  // answer being read). T's requests (calls of program names) are answered by P's prog_serve;
  // P's requests (calls of the tests' callbacks, made while a call of T's is out) by T's
  // tests_serve. `depth`/`cbDepth`: calls in progress each way; `fatal`: what went wrong (an
  // interpreter exit or a native stack overflow ends only that program); `tCorrupt`: a JS
  // exception went through T's own frames, so nothing T computes afterwards may be read.
  const newChannel = (limit) => ({ chunks: [], need: -1, got: 0, resp: null, pos: 0, limit });
  // P's channel is the program's to write: what it holds is capped (the isolate's JS heap is not
  // under the wasm heap cap), and a request past the cap is dropped unanswered.
  const P_REQUEST_MAX = 64 * 1024 * 1024;
  const bridge = {
    t: newChannel(Infinity),
    p: newChannel(P_REQUEST_MAX),
    depth: 0,
    cbDepth: 0,
    fatal: '',
    overflow: false,
    tCorrupt: false,
  };

  function newGuard() {
    return { heapMax: guard.heapMax, tainted: false, heapRefused: false, watching: false, inImport: 0 };
  }

  function capture(buf) {
    const n = buf.length;
    if (!truncated) {
      const room = stdoutLimit - outBytes;
      if (n <= room) {
        out.push(dec.decode(buf));
        outBytes += n;
      } else {
        if (room > 0) out.push(dec.decode(buf.subarray(0, room)));
        outBytes = stdoutLimit;
        truncated = true;
      }
    }
    return n;
  }

  // Any filesystem mutation outlives the memory restore (MEMFS lives in JS objects): flag it
  // so the host recycles the runtime after this program.
  function watchFs(FS, ig) {
    for (const name of [
      'write',
      'mknod',
      'unlink',
      'rename',
      'rmdir',
      'mkdir',
      'symlink',
      'chmod',
      'chown',
      'truncate',
      'ftruncate',
      'utime',
      'mount',
      'unmount',
      'writeFile',
      'link',
    ]) {
      const f = FS[name];
      if (typeof f !== 'function') continue;
      FS[name] = function (target) {
        // Writes to character devices (stdout/stderr, the bridge) are not state.
        if (ig.watching && !(name === 'write' && target && target.node && FS.isChrdev(target.node.mode))) {
          fsDirty = true;
          if (config.debug) guard.logs.push('fs mutation: ' + name + ' ' + String(target && target.path ? target.path : target));
        }
        return Reflect.apply(f, this, arguments);
      };
    }
  }

  function heap(I) {
    return new U8(I.M.HEAPU8.buffer);
  }

  function sbrkTop(I) {
    return new U32(I.M.HEAPU8.buffer)[I.sbrkAddr >>> 2];
  }

  /**
   * A new Python object (a new reference) from the bytes `u8`, made by `ctor`, one of I's
   * `(const char *, Py_ssize_t)` exports: `_PyUnicode_FromStringAndSize` (UTF-8 → str) or
   * `_PyBytes_FromStringAndSize`. No JS object enters Python; 0 when it could not be made.
   */
  function pyFromBuffer(I, u8, ctor) {
    const M = I.M;
    const p = M._malloc(u8.length + 1);
    if (!p) return 0;
    heap(I).set(u8, p);
    const o = ctor(p, u8.length);
    M._free(p);
    return o;
  }

  function bytesOf(I, o) {
    const p = I.M._PyBytes_AsString(o);
    const n = I.M._PyBytes_Size(o);
    return dec.decode(heap(I).subarray(p, p + n));
  }

  /** Call a Python callable by pointer with str/null arguments; returns the result pointer (0 on exception). */
  function callPy(I, fn, args) {
    const M = I.M;
    const t = M._PyTuple_New(args.length);
    for (let i = 0; i < args.length; i++) {
      let o;
      if (args[i] === null) {
        o = I.none;
        M._Py_IncRef(o);
      } else o = pyFromBuffer(I, enc.encode(args[i]), M._PyUnicode_FromStringAndSize);
      M._PyTuple_SetItem(t, i, o);
    }
    const r = M._PyObject_CallObject(fn, t);
    M._Py_DecRef(t);
    return r;
  }

  /** callPy, the result as text: null for None, '' with the exception cleared when it raised. */
  function callText(I, fn, args) {
    const r = callPy(I, fn, args);
    if (!r) {
      if (config.debug) I.M._PyErr_Print();
      I.M._PyErr_Clear();
      return '';
    }
    const s = r === I.none ? null : bytesOf(I, r);
    I.M._Py_DecRef(r);
    return s;
  }

  // ---- the bridge: T's requests answered by P ----------------------------------------------

  const EMPTY = new U8(8);

  /** Call `I`'s entry point `fn` with one bytes argument; its bytes answer framed for a read. */
  function callBytes(I, fn, req) {
    const M = I.M;
    const b = pyFromBuffer(I, req, M._PyBytes_FromStringAndSize);
    if (!b) return EMPTY;
    const t = M._PyTuple_New(1);
    M._PyTuple_SetItem(t, 0, b);
    const r = M._PyObject_CallObject(fn, t);
    M._Py_DecRef(t);
    if (!r) {
      M._PyErr_Clear();
      return EMPTY;
    }
    const p = M._PyBytes_AsString(r);
    const n = M._PyBytes_Size(r);
    const outBuf = new U8(n + 8);
    const dv = new DataView(outBuf.buffer);
    dv.setUint32(0, n >>> 0, true);
    dv.setUint32(4, Math.floor(n / 4294967296), true);
    outBuf.set(heap(I).subarray(p, p + n), 8);
    M._Py_DecRef(r);
    return outBuf;
  }

  function noteFatal(e) {
    if (bridge.fatal) return;
    bridge.fatal = describeThrown(e);
    if (/Maximum call stack size exceeded/.test(bridge.fatal)) bridge.overflow = true;
  }

  /**
   * One request from T (marshal bytes) answered by P's prog_serve; '' (unreadable in T) when P
   * failed. P may be inside a callback's write (its thread state released by os.write): the
   * call takes P's GIL state for its duration, as a C library calling back into Python does.
   */
  function serve(req) {
    if (bridge.fatal) return EMPTY;
    const M = P.M;
    bridge.depth++;
    try {
      const gil = M._PyGILState_Ensure();
      const out = callBytes(P, P.fns.serve, req);
      M._PyGILState_Release(gil);
      return out;
    } catch (e) {
      // A JS exception through T's frames deeper down: T must not go on either.
      if (bridge.tCorrupt) throw e;
      // A JS exception through P's wasm: os._exit (emscripten exit), a native stack overflow,
      // an abort. P cannot be trusted for the rest of this program; T gets no answer.
      noteFatal(e);
      return EMPTY;
    } finally {
      bridge.depth--;
    }
  }

  /**
   * One callback request from P (the program calling a function the tests passed it), answered
   * by T's tests_serve. Served only while a call of T's is out (T is then inside its own
   * request's write, its thread state released); at any other time P gets no answer.
   */
  function serveTests(req) {
    if (bridge.fatal || bridge.depth === 0 || bridge.cbDepth >= bridge.depth) return EMPTY;
    const M = T.M;
    bridge.cbDepth++;
    let out;
    try {
      const gil = M._PyGILState_Ensure();
      out = callBytes(T, T.fns.testsServe, req);
      M._PyGILState_Release(gil);
    } catch (e) {
      // Through T's own frames: unwind everything; the run ends with `fatal`.
      bridge.tCorrupt = true;
      noteFatal(e);
      throw e;
    } finally {
      bridge.cbDepth--;
    }
    // P died during a nested call: unwind P's frames back to the call of T's that is out.
    if (bridge.fatal) throw new Error('sandbox: the program interpreter died during a callback');
    return out;
  }

  function installBridge(I, ch, handle) {
    const FS = I.M.FS;
    const dev = FS.makedev(64, 0);
    FS.registerDevice(dev, {
      open() {},
      close() {},
      read(_stream, buffer, offset, length) {
        const r = ch.resp;
        if (!r) return 0;
        const n = MathMin(length, r.length - ch.pos);
        new U8(buffer.buffer, buffer.byteOffset + offset, n).set(r.subarray(ch.pos, ch.pos + n));
        ch.pos += n;
        if (ch.pos >= r.length) {
          ch.resp = null;
          ch.pos = 0;
        }
        return n;
      },
      write(_stream, buffer, offset, length) {
        if (ch.got + length > ch.limit) {
          resetChannel(ch);
          return length;
        }
        const chunk = new U8(buffer.buffer, buffer.byteOffset + offset, length).slice();
        ch.chunks.push(chunk);
        ch.got += length;
        if (ch.need < 0 && ch.got >= 8) {
          const all = concat(ch.chunks, ch.got);
          const dv = new DataView(all.buffer);
          ch.need = dv.getUint32(0, true) + dv.getUint32(4, true) * 4294967296 + 8;
          ch.chunks = [all];
        }
        if (ch.need >= 0 && ch.got >= ch.need) {
          const all = concat(ch.chunks, ch.got);
          resetChannel(ch);
          ch.resp = handle(all.subarray(8));
          ch.pos = 0;
        }
        return length;
      },
    });
    FS.mkdev('/dev/anchor', 0o666, dev);
  }

  /**
   * I's /dev/anchor-clock: each 8-byte write is a float64 of seconds (little-endian) that moves
   * the virtual clock on (harness.py's time.sleep writes it instead of busy-waiting), unless that
   * passes the time limit (0 bytes written). Other writes are ignored; the clock never goes back.
   */
  function installClock(I) {
    const FS = I.M.FS;
    const dev = FS.makedev(64, 1);
    FS.registerDevice(dev, {
      open() {},
      close() {},
      read() {
        return 0;
      },
      write(_stream, buffer, offset, length) {
        if (length === 8) {
          const secs = new DataView(buffer.buffer, buffer.byteOffset + offset, 8).getFloat64(0, true);
          if (secs > 0 && secs < MAX_SLEEP_S) {
            const us = MathCeil(secs * 1e6);
            // A sleep past the time limit is refused (nothing written: harness.py's sleep then
            // blocks until the host stops the program, as the sleep would outlive the limit under
            // CPython): a free virtual sleep must not move the clock, which the tests read too, to
            // an instant of the program's choosing.
            if (guard.ticks + us > guard.sleepsUntilUs) return 0;
            guard.ticks += us;
          }
        }
        return length;
      },
    });
    FS.mkdev('/dev/anchor-clock', 0o666, dev);
  }

  function concat(chunks, n) {
    if (chunks.length === 1 && chunks[0].length === n) return chunks[0];
    const all = new U8(n);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return all;
  }

  function resetChannel(ch) {
    ch.chunks = [];
    ch.need = -1;
    ch.got = 0;
    ch.resp = null;
    ch.pos = 0;
  }

  function resetBridge() {
    resetChannel(bridge.t);
    resetChannel(bridge.p);
    bridge.depth = 0;
    bridge.cbDepth = 0;
    bridge.tCorrupt = false;
  }

  function describeThrown(e) {
    try {
      return e && typeof e === 'object' && e.name === 'ExitStatus'
        ? 'the program exited the interpreter (os._exit / exit status ' + e.status + ')'
        : String(e && e.message ? e.message : e);
    } catch {
      return 'unknown error';
    }
  }

  // ---- boot ----------------------------------------------------------------------------------

  async function bootOne(I, ch, handle) {
    I.guard = newGuard();
    guard.next = I.guard;
    const py = await g.loadPyodide({
      indexURL: '/pyodide/',
      createPyodideModule: g.__createPyodideModule,
      jsglobals: Object.create(null),
      env: { HOME: '/home/pyodide', PYTHONHASHSEED: '0' },
      fullStdLib: false,
      checkAPIVersion: true,
    });
    guard.next = undefined;
    I.py = py;
    I.M = py._module;
    py.setStdout({ write: capture });
    py.setStderr({ write: capture });
    // Programs read an empty stdin (EOF), as under a test runner with no input.
    py.setStdin({ stdin: () => null });
    installBridge(I, ch, handle);
    installClock(I);
    watchFs(I.M.FS, I.guard);
    py.runPython(files['/anchor/harness.py']);
    const ids = py
      .runPython(
        [
          'import sys',
          '_anchor_ids = tuple(id(f) for f in _anchor_fns) + (id(None),)',
          // Drop the JS bridge modules: re-importing them is denied by the audit hook.
          'for _m in [m for m in sys.modules if m.split(".")[0] in ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core")]: del sys.modules[_m]',
          'sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__.split(".")[0] not in ("_pyodide", "pyodide")]',
          'del _m',
          '_anchor_ids',
        ].join('\n'),
      )
      .toJs();
    freezeTypes(I, py.runPython('_anchor_mutable_types').toJs());
    py.runPython('del _anchor_mutable_types');
    const names = ['stage', 'run', 'compile', 'progStage', 'progRun', 'serve', 'testsStage', 'testsRun', 'testsServe'];
    I.fns = {};
    for (let i = 0; i < names.length; i++) {
      I.fns[names[i]] = ids[i];
      I.M._Py_IncRef(ids[i]);
    }
    I.none = ids[names.length];
    py.runPython('del _anchor_ids, _anchor_fns; import gc; gc.collect()');
    I.sbrkAddr = I.M._emscripten_get_sbrk_ptr();
  }

  async function boot() {
    const t0 = Date.now();
    const mark = (what) => {
      if (config.debug) guard.logs.push('boot ' + what + ' ' + (Date.now() - t0) + ' ms');
    };
    await bootOne(P, bridge.p, serveTests);
    mark('program interpreter');
    await bootOne(T, bridge.t, serve);
    mark('tests interpreter');
    // Warm-up programs so lazily created state (caches, interned strings) is in the images.
    const warm = [
      ['def f(x):\n    return sorted(set(x))\n', 'assert f([3, 1, 3]) == [1, 3]\nassert 3 in f([3])\nprint("warm")\n', 'parity'],
      [
        'import collections\nclass Node:\n    def __init__(self, v):\n        self.v = v\n    def get(self):\n        return self.v\ndef f(x):\n    return sorted(set(x))\ndef g(n):\n    return collections.Counter("ab"), (1, [2.5, None]), {"k": {3}}\n',
        'def check(candidate):\n    assert candidate([3, 1, 3]) == [1, 3]\n    assert 3 in candidate([3])\ncheck(f)\nassert g(1)[1] == (1, [2.5, None])\nassert Node(2).get() == 2\n',
        'strict',
      ],
    ];
    for (let i = 0; i < 2; i++) for (const [code, tests, verdict] of warm) runOnce(code, tests, null, 'warm', 0, verdict, false);
    out = [];
    outBytes = 0;
    truncated = false;
    mark('warm-up');
    takeImage(P);
    takeImage(T);
    mark('image');
    return true;
  }

  /** Set Py_TPFLAGS_IMMUTABLETYPE on the standard library's classes (in the image, for every program). */
  function freezeTypes(I, list) {
    const IMMUTABLE = 1 << 8;
    if (!list.length) return;
    // Find tp_flags' offset in PyTypeObject from the first type: the word equal to its __flags__.
    const [addr0, flags0] = list[0];
    let off = -1;
    const u32 = new U32(I.M.HEAPU8.buffer);
    for (let o = 8; o < 256; o += 4) {
      if (u32[(addr0 + o) >>> 2] === flags0 >>> 0) {
        off = o;
        break;
      }
    }
    if (off < 0) throw new Error('sandbox: cannot locate tp_flags');
    for (const [addr, flags] of list) {
      if (u32[(addr + off) >>> 2] === flags >>> 0) u32[(addr + off) >>> 2] = (flags | IMMUTABLE) >>> 0;
    }
    const ok = I.py.runPython(
      'import collections\ntry:\n    collections.Counter.anchor_probe = 1\n    r = False\nexcept TypeError:\n    r = True\nr',
    );
    if (ok !== true) throw new Error('sandbox: could not make standard classes immutable');
  }

  function takeImage(I) {
    I.savedStack = I.M.stackSave();
    I.imageTop = sbrkTop(I);
    I.image = heap(I).slice(0, I.imageTop);
  }

  /** Restore linear memory to the pristine image; zero what the program allocated beyond it. */
  function restore(I) {
    I.entered = false;
    const h = heap(I);
    const top = MathMin(sbrkTop(I) >>> 0, h.length);
    if (top > I.imageTop) h.fill(0, I.imageTop, top);
    h.set(I.image, 0);
    I.M.stackRestore(I.savedStack);
  }

  /**
   * The tests' compiled parts as text when the cache holds them; otherwise compiled now by `I`
   * (on its pristine heap), kept, and null returned — the stage then takes the parts
   * compile_tests left for it, or compiles the tests itself and reports why they do not compile.
   */
  function compiledTests(I, tests, prompt, verdict) {
    const key = verdict + '\0' + tests + '\0' + (prompt === null ? '\u0001' : prompt);
    const hit = testsCache.get(key);
    if (hit !== undefined) {
      testsCache.delete(key);
      testsCache.set(key, hit);
      return hit;
    }
    const text = callText(I, I.fns.compile, [tests, prompt, tag, verdict]);
    if (!text) return null;
    const size = key.length + text.length;
    if (size <= TESTS_ENTRY_MAX_CHARS) {
      testsCache.set(key, text);
      testsCacheChars += size;
      while (testsCache.size > TESTS_CACHE_ENTRIES || testsCacheChars > TESTS_CACHE_CHARS) {
        const [k, v] = testsCache.entries().next().value;
        testsCache.delete(k);
        testsCacheChars -= k.length + v.length;
      }
    }
    return null;
  }

  function setWatching(on) {
    P.guard.watching = on;
    T.guard.watching = on;
  }

  function runOnce(code, tests, prompt, nonce, seed, verdict, watch, tseed, origin, limitMs) {
    fsDirty = false;
    for (const I of [P, T]) {
      I.guard.tainted = false;
      I.guard.heapRefused = false;
    }
    bridge.fatal = '';
    bridge.overflow = false;
    resetBridge();
    // Per-program random source and clocks (see shims.js): a verdict is a function of the program.
    guard.rng = seed | 0;
    guard.ticks = 0;
    if (typeof origin === 'number') guard.origin = origin;
    guard.sleepsUntilUs = typeof limitMs === 'number' ? limitMs * 1000 : Infinity;
    if (tests !== null && verdict === 'strict') return runTwo(code, tests, prompt, nonce, seed, watch, tseed);
    const compiled = tests === null ? null : compiledTests(P, tests, prompt, verdict);
    setWatching(watch);
    try {
      const staged = callText(P, P.fns.stage, [code, tests, prompt, nonce, String(seed | 0), verdict, tag, compiled]);
      if (staged === '') return { raw: '', fault: 'the sandbox harness failed while compiling the program' };
      if (staged !== null) return { raw: staged };
      const r = callText(P, P.fns.run, []);
      if (!r) return { raw: '', fault: 'the program broke the sandbox harness (no verdict)' };
      return { raw: r };
    } finally {
      setWatching(false);
    }
  }

  /**
   * Whether the completion goes on inside the definition the prompt ends with: the program starts
   * with the prompt and the first line after it that holds code (the prompt's unfinished last
   * line included) is indented. A comment or blank line says nothing (a comment may sit at column
   * 0 inside a body).
   */
  function continuesPrompt(code, prompt) {
    if (typeof prompt !== 'string' || !code.startsWith(prompt)) return false;
    const from = prompt.endsWith('\n') ? prompt.length : prompt.lastIndexOf('\n') + 1;
    for (const line of code.slice(from).split('\n')) {
      const t = line.trim();
      if (t === '' || t.startsWith('#')) continue;
      return line[0] === ' ' || line[0] === '\t';
    }
    return false;
  }

  /** Strict mode with separate tests: the program in P, the prompt and tests in T. */
  function runTwo(code, tests, prompt, nonce, seed, watch, tseed) {
    T.entered = true;
    const compiled = compiledTests(T, tests, prompt, 'strict');
    setWatching(watch);
    try {
      const tStaged = callText(T, T.fns.testsStage, [
        tests,
        prompt,
        nonce,
        String(tseed | 0),
        tag,
        compiled,
        continuesPrompt(code, prompt) ? '1' : '',
      ]);
      if (tStaged === '') return { raw: '', fault: 'the sandbox harness failed while compiling the tests' };
      if (tStaged !== null) return { raw: tStaged };
      // The prompt too: P records the classes its definitions make (by identity), so that T takes
      // a class of the program for the prompt's only when it is that class.
      let pre = callText(P, P.fns.progStage, [code, String(seed | 0), typeof prompt === 'string' ? prompt : null]);
      if (pre === null) pre = callText(P, P.fns.progRun, []);
      if (!pre) pre = 'error\x1fthe program broke its interpreter (no outcome)';
      const r = callText(T, T.fns.testsRun, [pre]);
      if (!r) return { raw: '', fault: 'the sandbox harness failed in the tests (no verdict)' };
      return { raw: r };
    } finally {
      setWatching(false);
    }
  }

  function stdoutText() {
    const s = out.join('');
    return truncated ? s + '\n[output truncated at the sandbox stdout limit]\n' : s;
  }

  // The harness's outcome kinds. `memory` (a MemoryError ended the program) is `oom` only when
  // the heap cap actually refused to grow linear memory during this program — a program that
  // raises MemoryError itself (or one Python raises for an impossible size without allocating)
  // is an `error`. `timeout` never comes from Python: only the host's watchdogs give it.
  const KINDS = { completed: 'pass', fail: 'fail', error: 'error', syntax: 'syntax_error' };

  function result(status, stdout, error, recycle, passed = 0, total = 0) {
    return { status, passed, total, stdout, error, recycle };
  }

  /**
   * Run one program. Returns a plain object of primitives; `recycle` tells the host the runtime
   * must not be reused.
   */
  function run(code, tests, prompt, nonce, seed, verdict, tseed, origin, limitMs) {
    if (broken) return result('error', '', 'sandbox runtime unavailable: ' + broken, true);
    out = [];
    outBytes = 0;
    truncated = false;
    let r;
    let thrown = '';
    try {
      r = runOnce(
        code,
        typeof tests === 'string' ? tests : null,
        typeof prompt === 'string' ? prompt : null,
        nonce,
        seed,
        verdict === 'parity' ? 'parity' : 'strict',
        true,
        tseed,
        origin,
        limitMs,
      );
    } catch (e) {
      // A JS exception through wasm: emscripten exit (os._exit), abort, or something we did not
      // expect. The runtime's JS state cannot be trusted afterwards.
      thrown = describeThrown(e);
    }
    const stdout = stdoutText();
    const tainted = P.guard.tainted || T.guard.tainted;
    const heapRefused = P.guard.heapRefused || T.guard.heapRefused;
    const dirty = fsDirty;
    const fatal = bridge.fatal;
    // A native stack overflow inside wasm (deep recursion with a raised recursion limit) leaves
    // only linear memory to repair, like a timeout: recover in place when it did not hit an import.
    const overflow = /Maximum call stack size exceeded/.test(thrown) || (bridge.overflow && !thrown);
    let recycle = tainted || dirty || ((thrown !== '' || fatal !== '') && !(overflow && recover()));
    let grown = false;
    try {
      grown = P.M.HEAPU8.buffer.byteLength > config.recycleHeapBytes || T.M.HEAPU8.buffer.byteLength > config.recycleHeapBytes;
      if (!thrown && !fatal) {
        restore(P);
        // T ran nothing in a one-interpreter run (parity, or no separate tests): its memory is
        // the image still, and a 30 MB copy is a third of such a run's cost.
        if (T.entered) restore(T);
      } else if (!recycle) setWatching(false);
    } catch (_e) {
      recycle = true;
    }
    if (grown) recycle = true;
    if (tainted)
      return result(
        'error',
        stdout,
        'the program reached the JavaScript side of the runtime (JS objects are not available to sandboxed Python)',
        true,
      );
    if (thrown || (fatal && !r)) {
      const what = thrown || fatal;
      if (heapRefused || /out of memory|Cannot allocate|memory access out of bounds/i.test(what))
        return result('oom', stdout, 'out of memory: ' + what, true);
      if (overflow) return result('error', stdout, 'RecursionError: the native stack overflowed (recursion too deep)', recycle);
      return result('error', stdout, what, true);
    }
    if (r.fault) return result('error', stdout, r.fault, recycle);
    const parts = r.raw.split('\x1f');
    if (parts.length < 5 || parts[0] !== nonce)
      return result('error', stdout, 'the sandbox harness returned no valid verdict', true);
    let status = KINDS[parts[1]];
    let error = parts.slice(4).join('\x1f');
    if (parts[1] === 'memory') {
      status = heapRefused ? 'oom' : 'error';
      if (heapRefused) error = 'MemoryError: the program exceeded the sandbox memory limit';
    }
    if (fatal) {
      // The program's interpreter died during a call from the tests: never a pass.
      status = heapRefused && /out of memory|Cannot allocate|memory access out of bounds/i.test(fatal) ? 'oom' : 'error';
      error = overflow ? 'RecursionError: the native stack overflowed (recursion too deep)' : fatal;
    }
    return result(status || 'error', stdout, error, recycle, Number(parts[2]) | 0, Number(parts[3]) | 0);
  }

  function stats() {
    return {
      // The larger image: each interpreter's heap cap is its image plus the program budget.
      imageBytes: MathMax(P.imageTop || 0, T.imageTop || 0),
      imagesBytes: (P.imageTop || 0) + (T.imageTop || 0),
      heapBytes: P.M && T.M ? P.M.HEAPU8.buffer.byteLength + T.M.HEAPU8.buffer.byteLength : 0,
      logs: guard.logs.slice(-20).join('\n'),
    };
  }

  /**
   * After a timeout: if the program was stopped inside wasm (not inside a JS import other than
   * the bridge's own call), only linear memory can be affected, so restore both interpreters and
   * prove they work with a known program. Returns false when the runtime must be replaced.
   */
  function recover() {
    setWatching(false);
    if (
      P.guard.inImport !== 0 ||
      T.guard.inImport !== bridge.depth ||
      bridge.depth > 1 ||
      fsDirty ||
      P.guard.tainted ||
      T.guard.tainted
    ) {
      if (config.debug)
        guard.logs.push('recover refused: imports ' + P.guard.inImport + '/' + T.guard.inImport + ' depth ' + bridge.depth);
      return false;
    }
    try {
      P.guard.inImport = 0;
      T.guard.inImport = 0;
      bridge.depth = 0;
      resetBridge();
      restore(P);
      restore(T);
      const r = runOnce(
        'x = 1\ndef f():\n    return x\n',
        'assert x == 1\nassert f() == 1\n',
        null,
        'health',
        0,
        'strict',
        false,
      );
      restore(P);
      restore(T);
      out = [];
      outBytes = 0;
      truncated = false;
      return !r.fault && r.raw.startsWith('health\x1fcompleted\x1f2\x1f2\x1f');
    } catch (e) {
      if (config.debug) guard.logs.push('recover failed: ' + describeThrown(e));
      return false;
    }
  }

  /** Heap cap for programs (image + budget, per interpreter) and the size past which the runtime is replaced. */
  function setLimits(heapMax, recycleAt) {
    guard.heapMax = heapMax;
    P.guard.heapMax = heapMax;
    T.guard.heapMax = heapMax;
    config.recycleHeapBytes = recycleAt;
  }

  return { boot, run, recover, stats, setLimits, module: () => guard.module };
}
