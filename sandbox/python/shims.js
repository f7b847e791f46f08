// Runs INSIDE the isolate (one fresh context per Python runtime), before Pyodide's glue.
//
// Makes the bare isolate look like a d8-style "shell" to Pyodide's loader: `read`/`readbuffer`
// over an in-isolate file map (filled by copying the Pyodide files in; nothing of the host is
// referenced), TextEncoder/TextDecoder, performance.now, crypto.getRandomValues, and synchronous
// WebAssembly instantiation (async compilation never settles inside the isolate).
//
// It also installs the two guards the Python harness relies on:
//  - taint: every function the wasm module imports is wrapped; while a program runs, a JS
//    object or function returned into wasm means Python reached the JS side (JsProxy), which no
//    test needs. The flag is sticky and lives only in this closure.
//  - heap cap: `emscripten_resize_heap` refuses to grow linear memory past the cap, so a memory
//    bomb ends as Python MemoryError instead of growing the worker without bound; a refusal
//    while a program runs sets guard.heapRefused, the only thing that makes a program `oom`.
//  - determinism: virtual clocks and a seeded random source (reset per program by harness.js).
//
// Wrapped by the host as: (function (files, config) { 'use strict'; <shims.js> <harness.js> })
// and evaluated once per context; see src/sandbox/python/runtime.ts.

function installShims(g, files, guard) {
  'use strict';
  const ObjectFreeze = Object.freeze;
  const U8 = Uint8Array;
  const ArrayBufferIsView = ArrayBuffer.isView;
  const StringFromCharCode = String.fromCharCode;
  const ReflectApply = Reflect.apply;

  function fileOf(p) {
    const f = files[p];
    if (f === undefined) throw new Error('sandbox: no such file ' + p);
    return f;
  }
  g.read = function read(p, mode) {
    const f = fileOf(p);
    if (mode === 'binary') return new U8(f);
    if (typeof f === 'string') return f;
    return new TextDecoder().decode(new U8(f));
  };
  g.readbuffer = function readbuffer(p) {
    const f = fileOf(p);
    return typeof f === 'string' ? new TextEncoder().encode(f).buffer : f;
  };
  g.load = function load(p) {
    throw new Error('sandbox: load(' + p + ') is not available');
  };

  // Virtual clocks: every read advances 1 µs from an origin the host draws from the program's
  // seed (src/sandbox/virtual-clock.ts: a fixed instant let a constant answer "what day is it"),
  // and the harness resets the count and the origin before each program (guard.ticks,
  // guard.origin), so time.time(), perf_counter() and datetime.now() are a function of the
  // program (a verdict must not depend on when or where it ran). Both interpreters read this one
  // clock. A read costs about a microsecond of real time, so busy-waits (time.sleep,
  // `while time.time() < t`) still take roughly as long as they say and long ones still time out.
  // `performance.now()` (CPython's monotonic clocks: perf_counter, monotonic) counts from when the
  // "process" started, some tens of ms to ten seconds before the origin (drawn with it), so it is
  // no constant either.
  guard.origin = 1704067200000; // milliseconds, until the harness seeds a program
  guard.ticks = 0;
  const tick = () => ++guard.ticks / 1000;
  const uptime = () => 27 + (guard.origin % 9973);
  g.performance = {
    now: () => uptime() + tick(),
    get timeOrigin() {
      return guard.origin - uptime();
    },
  };
  g.Date.now = () => guard.origin + tick();

  // os.urandom / SystemRandom / secrets / uuid4: xorshift32 from guard.rng, which the harness
  // sets to the program's seed before each program. Not a security primitive here.
  guard.rng = guard.seed | 0 || 0x2545f491;
  g.crypto = {
    getRandomValues(a) {
      const b = new U8(a.buffer, a.byteOffset, a.byteLength);
      let s0 = guard.rng | 0 || 0x2545f491;
      for (let i = 0; i < b.length; i++) {
        s0 ^= s0 << 13;
        s0 ^= s0 >>> 17;
        s0 ^= s0 << 5;
        b[i] = s0 & 255;
      }
      guard.rng = s0;
      return a;
    },
  };

  class TextEncoder {
    get encoding() {
      return 'utf-8';
    }
    encode(str = '') {
      str = String(str);
      const out = new U8(str.length * 3);
      let n = 0;
      for (let i = 0; i < str.length; i++) {
        let c = str.charCodeAt(i);
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < str.length) {
          const d = str.charCodeAt(i + 1);
          if (d >= 0xdc00 && d < 0xe000) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
          } else c = 0xfffd;
        } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
        if (c < 0x80) out[n++] = c;
        else if (c < 0x800) {
          out[n++] = 0xc0 | (c >> 6);
          out[n++] = 0x80 | (c & 63);
        } else if (c < 0x10000) {
          out[n++] = 0xe0 | (c >> 12);
          out[n++] = 0x80 | ((c >> 6) & 63);
          out[n++] = 0x80 | (c & 63);
        } else {
          out[n++] = 0xf0 | (c >> 18);
          out[n++] = 0x80 | ((c >> 12) & 63);
          out[n++] = 0x80 | ((c >> 6) & 63);
          out[n++] = 0x80 | (c & 63);
        }
      }
      return out.slice(0, n);
    }
    encodeInto(str, dest) {
      const b = this.encode(str);
      const n = Math.min(b.length, dest.length);
      dest.set(b.subarray(0, n));
      return { read: str.length, written: n };
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8') {
      this.enc = String(label).toLowerCase();
    }
    get encoding() {
      return this.enc;
    }
    decode(buf) {
      if (buf === undefined) return '';
      const b =
        buf instanceof U8 ? buf : ArrayBufferIsView(buf) ? new U8(buf.buffer, buf.byteOffset, buf.byteLength) : new U8(buf);
      let r = '';
      const parts = [];
      if (this.enc === 'utf-16le') {
        for (let i = 0; i + 1 < b.length; i += 2) {
          parts.push(b[i] | (b[i + 1] << 8));
          if (parts.length > 8192) {
            r += ReflectApply(StringFromCharCode, null, parts);
            parts.length = 0;
          }
        }
        return r + ReflectApply(StringFromCharCode, null, parts);
      }
      let i = 0;
      while (i < b.length) {
        const c = b[i];
        let cp;
        if (c < 0x80) {
          cp = c;
          i++;
        } else if (c >= 0xc2 && c < 0xe0 && i + 1 < b.length && (b[i + 1] & 0xc0) === 0x80) {
          cp = ((c & 31) << 6) | (b[i + 1] & 63);
          i += 2;
        } else if (c >= 0xe0 && c < 0xf0 && i + 2 < b.length && (b[i + 1] & 0xc0) === 0x80 && (b[i + 2] & 0xc0) === 0x80) {
          cp = ((c & 15) << 12) | ((b[i + 1] & 63) << 6) | (b[i + 2] & 63);
          i += 3;
          if (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)) cp = 0xfffd;
        } else if (
          c >= 0xf0 &&
          c < 0xf5 &&
          i + 3 < b.length &&
          (b[i + 1] & 0xc0) === 0x80 &&
          (b[i + 2] & 0xc0) === 0x80 &&
          (b[i + 3] & 0xc0) === 0x80
        ) {
          cp = ((c & 7) << 18) | ((b[i + 1] & 63) << 12) | ((b[i + 2] & 63) << 6) | (b[i + 3] & 63);
          i += 4;
          if (cp < 0x10000 || cp > 0x10ffff) cp = 0xfffd;
        } else {
          cp = 0xfffd;
          i++;
        }
        if (cp >= 0x10000) {
          cp -= 0x10000;
          parts.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 1023));
        } else parts.push(cp);
        if (parts.length > 8192) {
          r += ReflectApply(StringFromCharCode, null, parts);
          parts.length = 0;
        }
      }
      return r + ReflectApply(StringFromCharCode, null, parts);
    }
  }
  g.TextEncoder = TextEncoder;
  g.TextDecoder = TextDecoder;

  // Pyodide logs through console; keep the last lines for start-up diagnostics only.
  const logs = [];
  const log = (...a) => {
    if (logs.length < 200) logs.push(a.map(String).join(' '));
  };
  g.console = { log, warn: log, error: log, info: log, debug: log };
  guard.logs = logs;

  // ---- synchronous wasm instantiation with wrapped imports ----------------------------------
  const WA = g.WebAssembly;
  const WModule = WA.Module;
  const WInstance = WA.Instance;
  const moduleImports = WModule.imports;

  // Imports that keep no JavaScript state a timeout could leave half-updated, so they are not
  // counted in `inImport` and a timeout landing in them is recovered in place: the trampoline
  // CPython uses for indirect calls (a pass-through back into wasm: a loop of builtin calls, such
  // as `any(iter(int, 1))`, is nearly always stopped inside it), the signal-buffer poll (there is
  // no buffer) and the clocks (one increment of the virtual clock, reset for every program; what
  // they write is in linear memory, which recovery restores).
  const STATELESS_IMPORTS = new Set([
    '_PyEM_TrampolineCall_JS',
    '_Py_CheckEmscriptenSignals_Helper',
    'emscripten_get_now',
    'emscripten_date_now',
    'clock_time_get',
  ]);

  // `ig` is the guard of the interpreter being instantiated (the harness boots two and sets
  // guard.next before each): heap cap, taint and import depth are per interpreter.
  function wrapImports(mod, imports, ig) {
    const out = {};
    for (const { module: ns, name, kind } of moduleImports(mod)) {
      const src = imports[ns];
      if (!Object.prototype.hasOwnProperty.call(out, ns)) out[ns] = {};
      const v = src[name];
      if (kind !== 'function' || typeof v !== 'function') {
        out[ns][name] = v;
        continue;
      }
      if (name === 'emscripten_resize_heap') {
        out[ns][name] = function (requested) {
          if (requested >>> 0 > ig.heapMax) {
            // The host's own memory signal: only a refused growth makes a program `oom`.
            if (ig.watching) ig.heapRefused = true;
            return 0;
          }
          return ReflectApply(v, this, arguments);
        };
        continue;
      }
      if (STATELESS_IMPORTS.has(name)) {
        out[ns][name] = function () {
          const r = ReflectApply(v, this, arguments);
          if (ig.watching && r !== null && (typeof r === 'object' || typeof r === 'function')) ig.tainted = true;
          return r;
        };
        continue;
      }
      out[ns][name] = function () {
        // Depth of JS imports in progress: a timeout (uncatchable termination, no finally) that
        // lands inside one leaves it > 0, meaning the JS side may be half-updated.
        ig.inImport++;
        let r;
        try {
          r = ReflectApply(v, this, arguments);
        } finally {
          ig.inImport--;
        }
        if (ig.watching && r !== null && (typeof r === 'object' || typeof r === 'function')) ig.tainted = true;
        return r;
      };
    }
    return out;
  }

  // A module compiled in an earlier context of this isolate: give it this context's prototype so
  // the glue's `instanceof WebAssembly.Module` checks recognise it.
  if (guard.module && !(guard.module instanceof WModule)) Object.setPrototypeOf(guard.module, WModule.prototype);

  function instantiate(src, imports) {
    const mod = src instanceof WModule ? src : (guard.module ?? new WModule(src));
    guard.module = mod;
    return new WInstance(mod, wrapImports(mod, imports, guard.next || guard));
  }
  WA.instantiate = function (src, imports) {
    return new Promise((resolve, reject) => {
      try {
        const instance = instantiate(src, imports);
        resolve(src instanceof WModule ? instance : { module: guard.module, instance });
      } catch (e) {
        reject(e);
      }
    });
  };
  WA.instantiateStreaming = undefined;
  WA.compile = function (src) {
    return new Promise((resolve, reject) => {
      try {
        resolve(new WModule(src));
      } catch (e) {
        reject(e);
      }
    });
  };
  return ObjectFreeze({ logs });
}
