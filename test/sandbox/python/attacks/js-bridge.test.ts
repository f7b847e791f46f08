/**
 * Attack class: reaching the JavaScript side of Pyodide — the `js` / `pyodide_js` modules,
 * `pyodide.ffi`, the `_pyodide_core` extension (re-created through `_imp`), JsProxy classes found
 * by walking `object.__subclasses__()` — and from there constructor chains to `Function`. Imports
 * are denied; any JS object that does reach Python marks the run (error) and the runtime is thrown
 * away, so nothing done on the JS side can affect a later program.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_OK, ADD_TESTS, expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: JS bridge', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('no route to JavaScript passes, and the next program sees a pristine runtime', async () => {
    const attacks: Record<string, string> = {
      'import-js': 'import js\n',
      'import-pyodide-js': 'import pyodide_js\npyodide_js.constructor.constructor("globalThis.hacked = 1")()\n',
      'pyodide-ffi': 'from pyodide.ffi import to_js\nto_js([1]).constructor.constructor("return 1")()\n',
      'dunder-import': '__import__("importlib").import_module("pyodide_js")\n',
      'sys-modules': 'import sys\nsys.modules["pyodide_js"].runPython("1")\n',
      'create-builtin':
        [
          'import _imp, importlib.machinery as m',
          'core = _imp.create_builtin(m.ModuleSpec("_pyodide_core", None))',
          'proxy = core.create_proxy(len)',
          'F = proxy.constructor.constructor',
          'F("Array.prototype.push = function () { return 0 }; globalThis.pwned = 1")()',
        ].join('\n') + '\n',
      'subclasses-walk':
        [
          'names = [c for c in object.__subclasses__() if "Js" in c.__name__]',
          'for c in names:',
          '    for v in vars(c).values():',
          '        try:',
          '            v(None)',
          '        except Exception:',
          '            pass',
          'raise RuntimeError("walked")',
        ].join('\n') + '\n',
    };
    const specs: Array<[string, string, string]> = [];
    for (const [id, code] of Object.entries(attacks)) {
      specs.push([id, code + ADD_OK, ADD_TESTS]);
      // A correct program right after each attack must pass on the same worker.
      specs.push([`${id}-next`, ADD_OK, ADD_TESTS]);
    }
    const rs = await runPy(ex, specs);
    for (const id of Object.keys(attacks)) {
      expectNotPass(rs[id], ['error']);
      expect(rs[`${id}-next`]!.status, JSON.stringify(rs[`${id}-next`])).toBe('pass');
    }
    expect(rs['import-js']!.error).toMatch(/not available/);
    // _imp re-creates the _pyodide_core extension: the JsProxy it yields is caught by the guard.
    expect(rs['create-builtin']!.error).toMatch(/reached the JavaScript side/);
    await expectStillWorks(ex);
  });
});
