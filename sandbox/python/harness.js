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
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  let py;
  let M;
  let stagePtr = 0;
  let runPtr = 0;
  let compilePtr = 0;
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
  let image;
  let imageTop = 0;
  let sbrkAddr = 0;
  let savedStack = 0;
  let fsDirty = false;
  let broken = '';
  let out = [];
  let outBytes = 0;
  let truncated = false;
  const stdoutLimit = config.stdoutLimit;

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
  function watchFs(FS) {
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
        // Writes to character devices (stdout/stderr) are how print works: not state.
        if (guard.watching && !(name === 'write' && target && target.node && FS.isChrdev(target.node.mode))) {
          fsDirty = true;
          if (config.debug) guard.logs.push('fs mutation: ' + name + ' ' + String(target && target.path ? target.path : target));
        }
        return Reflect.apply(f, this, arguments);
      };
    }
  }

  function heap() {
    return new U8(M.HEAPU8.buffer);
  }

  function sbrkTop() {
    return new U32(M.HEAPU8.buffer)[sbrkAddr >>> 2];
  }

  /** New Python str from a JS string (a new reference), via exports only. */
  function pyStr(s) {
    const bytes = enc.encode(s);
    const p = M._malloc(bytes.length + 1);
    if (!p) return 0;
    heap().set(bytes, p);
    const o = M._PyUnicode_FromStringAndSize(p, bytes.length);
    M._free(p);
    return o;
  }

  function bytesOf(o) {
    const p = M._PyBytes_AsString(o);
    const n = M._PyBytes_Size(o);
    return dec.decode(heap().subarray(p, p + n));
  }

  /** Call a Python callable by pointer with str/null arguments; returns the result pointer (0 on exception). */
  function callPy(fn, args) {
    const t = M._PyTuple_New(args.length);
    for (let i = 0; i < args.length; i++) {
      let o;
      if (args[i] === null) {
        o = noneRef;
        M._Py_IncRef(o);
      } else o = pyStr(args[i]);
      M._PyTuple_SetItem(t, i, o);
    }
    const r = M._PyObject_CallObject(fn, t);
    M._Py_DecRef(t);
    return r;
  }
  let noneRef = 0;

  async function boot() {
    const t0 = Date.now();
    const mark = (what) => {
      if (config.debug) guard.logs.push('boot ' + what + ' ' + (Date.now() - t0) + ' ms');
    };
    py = await g.loadPyodide({
      indexURL: '/pyodide/',
      createPyodideModule: g.__createPyodideModule,
      jsglobals: Object.create(null),
      env: { HOME: '/home/pyodide', PYTHONHASHSEED: '0' },
      fullStdLib: false,
      checkAPIVersion: true,
    });
    M = py._module;
    mark('loadPyodide');
    py.setStdout({ write: capture });
    py.setStderr({ write: capture });
    // Programs read an empty stdin (EOF), as under a test runner with no input.
    py.setStdin({ stdin: () => null });
    watchFs(M.FS);
    const harnessSrc = files['/anchor/harness.py'];
    py.runPython(harnessSrc);
    mark('harness.py');
    const ids = py
      .runPython(
        [
          'import sys',
          '_anchor_keep = (_anchor_stage, _anchor_run, _anchor_compile_tests)',
          '_anchor_ids = (id(_anchor_stage), id(_anchor_run), id(None), id(_anchor_compile_tests))',
          'del _anchor_stage, _anchor_run, _anchor_compile_tests',
          // Warm the modules tests commonly import, so programs do not pay for it every time.
          // Drop the JS bridge modules: re-importing them is denied by the audit hook.
          'for _m in [m for m in sys.modules if m.split(".")[0] in ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core")]: del sys.modules[_m]',
          'sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__.split(".")[0] not in ("_pyodide", "pyodide")]',
          'del _m',
          '_anchor_ids',
        ].join('\n'),
      )
      .toJs();
    mark('cleanup');
    freezeTypes(py.runPython('_anchor_mutable_types').toJs());
    mark('freezeTypes');
    py.runPython('del _anchor_mutable_types');
    stagePtr = ids[0];
    runPtr = ids[1];
    noneRef = ids[2];
    compilePtr = ids[3];
    M._Py_IncRef(stagePtr);
    M._Py_IncRef(runPtr);
    M._Py_IncRef(compilePtr);
    py.runPython('del _anchor_ids, _anchor_keep; import gc; gc.collect()');
    sbrkAddr = M._emscripten_get_sbrk_ptr();
    // Warm-up programs so lazily created state (caches, interned strings) is in the image.
    for (let i = 0; i < 3; i++)
      runOnce(
        'def f(x):\n    return sorted(set(x))\n',
        'assert f([3, 1, 3]) == [1, 3]\nassert 3 in f([3])\nprint("warm")\n',
        null,
        'warm',
        0,
        i === 0 ? 'parity' : 'strict',
        false,
      );
    out = [];
    outBytes = 0;
    truncated = false;
    mark('warm-up');
    takeImage();
    mark('image');
    return true;
  }

  /** Set Py_TPFLAGS_IMMUTABLETYPE on the standard library's classes (in the image, for every program). */
  function freezeTypes(list) {
    const IMMUTABLE = 1 << 8;
    if (!list.length) return;
    // Find tp_flags' offset in PyTypeObject from the first type: the word equal to its __flags__.
    const [addr0, flags0] = list[0];
    let off = -1;
    const u32 = new U32(M.HEAPU8.buffer);
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
    const ok = py.runPython(
      'import collections\ntry:\n    collections.Counter.anchor_probe = 1\n    r = False\nexcept TypeError:\n    r = True\nr',
    );
    if (ok !== true) throw new Error('sandbox: could not make standard classes immutable');
  }

  function takeImage() {
    savedStack = M.stackSave();
    imageTop = sbrkTop();
    image = heap().slice(0, imageTop);
  }

  /** Restore linear memory to the pristine image; zero what the program allocated beyond it. */
  function restore() {
    const h = heap();
    const top = MathMin(sbrkTop() >>> 0, h.length);
    if (top > imageTop) h.fill(0, imageTop, top);
    h.set(image, 0);
    M.stackRestore(savedStack);
  }

  /**
   * The tests' compiled parts as text when the cache holds them; otherwise compiled now (on the
   * pristine heap: no program has run since the last restore), kept, and null returned — stage
   * then takes the parts compile_tests left for it, or compiles the tests itself and reports why
   * they do not compile.
   */
  function compiledTests(tests, prompt, verdict) {
    const key = verdict + '\0' + tests + '\0' + (prompt === null ? '\u0001' : prompt);
    const hit = testsCache.get(key);
    if (hit !== undefined) {
      testsCache.delete(key);
      testsCache.set(key, hit);
      return hit;
    }
    const r = callPy(compilePtr, [tests, prompt, tag, verdict]);
    if (!r) {
      M._PyErr_Clear();
      return null;
    }
    const text = r === noneRef ? null : bytesOf(r);
    M._Py_DecRef(r);
    if (text === null) return null;
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

  function runOnce(code, tests, prompt, nonce, seed, verdict, watch) {
    fsDirty = false;
    guard.tainted = false;
    guard.heapRefused = false;
    // Per-program random source and clocks (see shims.js): a verdict is a function of the program.
    guard.rng = seed | 0;
    guard.ticks = 0;
    const compiled = tests === null ? null : compiledTests(tests, prompt, verdict);
    guard.watching = watch;
    let staged;
    let result;
    try {
      staged = callPy(stagePtr, [code, tests, prompt, nonce, String(seed | 0), verdict, tag, compiled]);
      if (!staged) {
        if (config.debug) M._PyErr_Print();
        M._PyErr_Clear();
        return { raw: '', fault: 'the sandbox harness failed while compiling the program' };
      }
      if (staged !== noneRef) {
        const s = bytesOf(staged);
        M._Py_DecRef(staged);
        return { raw: s };
      }
      M._Py_DecRef(staged);
      result = M._PyObject_CallObject(runPtr, 0);
      if (!result) {
        M._PyErr_Clear();
        return { raw: '', fault: 'the program broke the sandbox harness (no verdict)' };
      }
      const s = bytesOf(result);
      M._Py_DecRef(result);
      return { raw: s };
    } finally {
      guard.watching = false;
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

  /**
   * Run one program. Returns a plain object of primitives; `recycle` tells the host the runtime
   * must not be reused.
   */
  function run(code, tests, prompt, nonce, seed, verdict) {
    if (broken)
      return { status: 'error', passed: 0, total: 0, stdout: '', error: 'sandbox runtime unavailable: ' + broken, recycle: true };
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
      );
    } catch (e) {
      // A JS exception through wasm: emscripten exit (os._exit), abort, or something we did not
      // expect. The runtime's JS state cannot be trusted afterwards.
      let what = '';
      try {
        what =
          e && typeof e === 'object' && e.name === 'ExitStatus'
            ? 'the program exited the interpreter (os._exit / exit status ' + e.status + ')'
            : String(e && e.message ? e.message : e);
      } catch {
        what = 'unknown error';
      }
      thrown = what;
    }
    const stdout = stdoutText();
    const tainted = guard.tainted === true;
    const heapRefused = guard.heapRefused === true;
    const dirty = fsDirty;
    let grown = false;
    // A native stack overflow inside wasm (deep recursion with a raised recursion limit) leaves
    // only linear memory to repair, like a timeout: recover in place when it did not hit an import.
    const overflow = /Maximum call stack size exceeded/.test(thrown);
    let recycle = tainted || dirty || (thrown !== '' && !(overflow && recover()));
    try {
      grown = M.HEAPU8.buffer.byteLength > config.recycleHeapBytes;
      if (!thrown) restore();
      else if (!recycle) guard.watching = false;
    } catch (_e) {
      recycle = true;
    }
    if (grown) recycle = true;
    if (tainted) {
      return {
        status: 'error',
        passed: 0,
        total: 0,
        stdout,
        error: 'the program reached the JavaScript side of the runtime (JS objects are not available to sandboxed Python)',
        recycle: true,
      };
    }
    if (thrown) {
      if (heapRefused || /out of memory|Cannot allocate|memory access out of bounds/i.test(thrown))
        return { status: 'oom', passed: 0, total: 0, stdout, error: 'out of memory: ' + thrown, recycle: true };
      if (overflow)
        return {
          status: 'error',
          passed: 0,
          total: 0,
          stdout,
          error: 'RecursionError: the native stack overflowed (recursion too deep)',
          recycle,
        };
      return { status: 'error', passed: 0, total: 0, stdout, error: thrown, recycle: true };
    }
    if (r.fault) return { status: 'error', passed: 0, total: 0, stdout, error: r.fault, recycle };
    const parts = r.raw.split('\x1f');
    if (parts.length < 5 || parts[0] !== nonce) {
      return {
        status: 'error',
        passed: 0,
        total: 0,
        stdout,
        error: 'the sandbox harness returned no valid verdict',
        recycle: true,
      };
    }
    let status = KINDS[parts[1]];
    let error = parts.slice(4).join('\x1f');
    if (parts[1] === 'memory') {
      status = heapRefused ? 'oom' : 'error';
      if (heapRefused) error = 'MemoryError: the program exceeded the sandbox memory limit';
    }
    return {
      status: status || 'error',
      passed: Number(parts[2]) | 0,
      total: Number(parts[3]) | 0,
      stdout,
      error,
      recycle,
    };
  }

  function stats() {
    return { imageBytes: imageTop, heapBytes: M ? M.HEAPU8.buffer.byteLength : 0, logs: guard.logs.slice(-20).join('\n') };
  }

  /**
   * After a timeout: if the program was stopped inside wasm (not inside a JS import), only linear
   * memory can be affected, so restore it and prove the interpreter works with a known program.
   * Returns false when the runtime must be replaced instead.
   */
  function recover() {
    guard.watching = false;
    if (guard.inImport !== 0 || fsDirty || guard.tainted) return false;
    try {
      restore();
      const r = runOnce('x = 1\n', 'assert x == 1\n', null, 'health', 0, 'strict', false);
      restore();
      out = [];
      outBytes = 0;
      truncated = false;
      return !r.fault && r.raw.startsWith('health\x1fcompleted\x1f1\x1f1\x1f');
    } catch {
      return false;
    }
  }

  /** Heap cap for programs (image + budget) and the size past which the runtime is replaced. */
  function setLimits(heapMax, recycleAt) {
    guard.heapMax = heapMax;
    config.recycleHeapBytes = recycleAt;
  }

  return { boot, run, recover, stats, setLimits, module: () => guard.module };
}
