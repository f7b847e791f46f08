/**
 * Locating and adapting the files the Python runtime copies into its isolate: the npm `pyodide`
 * package (wasm, stdlib zip, lock file, loader and emscripten glue) and the in-isolate harness of
 * top-level `sandbox/python/`. Read once per worker process.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Everything a runtime needs, as plain data (copied into each context, never referenced). */
export interface PyodideFiles {
  /** Virtual path → contents (ArrayBuffer for binaries, string for text). */
  files: Record<string, ArrayBuffer | string>;
  /** The emscripten glue adapted to run as a classic script (defines `__createPyodideModule`). */
  glue: string;
  /** Pyodide's loader (UMD build; defines `loadPyodide`). */
  loader: string;
  /** shims.js + harness.js wrapped as one function expression `(files, config, wasmModule) => runtime`. */
  harness: string;
  /** Pyodide version string of the package. */
  version: string;
}

/** Directory of the installed `pyodide` npm package. */
function pyodideDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('pyodide/package.json'));
}

function sandboxDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../sandbox/python');
}

function buffer(path: string): ArrayBuffer {
  const b = readFileSync(path);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

/**
 * Turn `pyodide.asm.mjs` (an ES module) into a classic script: `import.meta.url` becomes a
 * constant, the default export becomes a global, and the d8 random source (which shells out
 * through `os.system`) is replaced by `crypto.getRandomValues` from the shims. Each replacement
 * must hit exactly once, so a Pyodide upgrade that changes the glue fails loudly here.
 */
function adaptGlue(source: string): string {
  const edits: Array<[RegExp | string, string]> = [
    ['var initRandomFill=()=>{', 'var initRandomFill=()=>{return view=>crypto.getRandomValues(view);'],
    [/export default _createPyodideModule;?\s*$/, 'globalThis.__createPyodideModule=_createPyodideModule;\n'],
  ];
  let out = source;
  for (const [from, to] of edits) {
    const before = out;
    out = typeof from === 'string' ? out.replace(from, to) : out.replace(from, to);
    if (out === before)
      throw new Error(`pyodide glue adaptation failed: pattern ${String(from)} not found (unsupported pyodide version?)`);
  }
  if (!out.includes('import.meta.url')) throw new Error('pyodide glue adaptation failed: import.meta.url not found');
  out = out.replace(/import\.meta\.url/g, '"/pyodide/pyodide.asm.mjs"');
  return out;
}

/** Read and prepare the Pyodide files and the in-isolate harness. */
export function loadPyodideFiles(): PyodideFiles {
  const dir = pyodideDir();
  const sdir = sandboxDir();
  const pkg = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as { version: string };
  const files: Record<string, ArrayBuffer | string> = {
    '/pyodide/pyodide.asm.wasm': buffer(resolve(dir, 'pyodide.asm.wasm')),
    '/pyodide/python_stdlib.zip': buffer(resolve(dir, 'python_stdlib.zip')),
    '/pyodide/pyodide-lock.json': readFileSync(resolve(dir, 'pyodide-lock.json'), 'utf8'),
    '/anchor/harness.py': readFileSync(resolve(sdir, 'harness.py'), 'utf8'),
  };
  const glue = adaptGlue(readFileSync(resolve(dir, 'pyodide.asm.mjs'), 'utf8'));
  const loader = readFileSync(resolve(dir, 'pyodide.js'), 'utf8').replace(/\/\/# sourceMappingURL=.*$/m, '');
  const shims = readFileSync(resolve(sdir, 'shims.js'), 'utf8');
  const harnessJs = readFileSync(resolve(sdir, 'harness.js'), 'utf8');
  const harness =
    `(function (files, config, wasmModule) {\n'use strict';\n${shims}\n${harnessJs}\n` +
    `const guard = { module: wasmModule, heapMax: config.heapMaxBytes, seed: config.seed, tainted: false, heapRefused: false, watching: false, inImport: 0, ticks: 0, rng: 0, logs: [] };\n` +
    `installShims(globalThis, files, guard);\n` +
    `globalThis.__files = undefined;\n` +
    `return createPythonRuntime(globalThis, files, config, guard);\n})`;
  return { files, glue, loader, harness, version: pkg.version };
}
