/**
 * Attack class: reaching host modules and host globals. Only `assert`, `crypto` (the realm's own
 * hashing and seeded random bytes, sandbox/node-crypto.js) and `timers` (the realm's own timer
 * functions, where it has timers) are served by `require`; there is no process, filesystem,
 * network or module loader.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, js, runAll, testExecutor } from '../helpers.ts';

describe('attack: host modules and globals', () => {
  const ex = testExecutor();
  afterAll(() => ex.close());

  it('refuses every module but assert and crypto, with a clear message', async () => {
    const mods = [
      'fs',
      'node:fs',
      'child_process',
      'node:child_process',
      'net',
      'http',
      'os',
      'vm',
      'worker_threads',
      'crypto/promises',
      'timers/promises',
      'module',
      'isolated-vm',
      '../../src/sandbox/worker.ts',
      '/etc/passwd',
    ];
    const programs = Object.fromEntries(mods.map((m) => [m, `require(${JSON.stringify(m)});`]));
    const res = await runAll(ex, programs);
    for (const m of mods) {
      expectStatus(res[m], 'error');
      expect(res[m]!.error).toContain(`Cannot find module '${m}'`);
      expect(res[m]!.error).toContain("provides only 'assert'");
    }
  });

  it("has no host process, timers, module loader or network globals (the program realm's Node globals are its own copies)", async () => {
    const names = [
      'setTimeout',
      'setInterval',
      'setImmediate',
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'importScripts',
      'WebAssembly',
      'Deno',
      'Bun',
      '__dirname',
      '__filename',
    ];
    const res = await runAll(ex, {
      typeofs: `${ASSERT}assert.deepStrictEqual([${names.map((n) => `typeof ${n}`).join(', ')}], ${JSON.stringify(names.map(() => 'undefined'))});\n`,
      // Node's host globals are the realm's own copies, built inside it (sandbox/node-globals.js):
      // nothing of the host process behind them.
      nodeCopies:
        `${ASSERT}assert.deepStrictEqual([typeof process, typeof Buffer, typeof queueMicrotask, global === globalThis], ['object', 'function', 'function', true]);\n` +
        `assert.deepStrictEqual([process.binding, process.dlopen, process.mainModule, process._linkedBinding, process.getBuiltinModule].map((x) => typeof x), ['undefined', 'undefined', 'undefined', 'undefined', 'undefined']);\n` +
        `assert.deepStrictEqual(Object.getOwnPropertyNames(process.env), []);\n`,
      processExit: `process.exit(0);`,
      processBinding: `${ASSERT}assert.ok(true);\nprocess.binding('fs');`,
      globalKeys:
        `${ASSERT}const own = Object.getOwnPropertyNames(globalThis).filter((k) => /^[a-z_$]/.test(k));\n` +
        `assert.deepStrictEqual(own.sort(), ['atob', 'btoa', 'console', 'crypto', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'exports', 'global', 'globalThis', 'isFinite', 'isNaN', 'module', 'parseFloat', 'parseInt', 'performance', 'process', 'queueMicrotask', 'require', 'structuredClone', 'undefined', 'unescape'].sort());\n`,
      // The sandbox's own require: `main` (the script is the main module, as under `node file.js`)
      // and nothing of the host's loader (cache, resolve).
      requireProps: `${ASSERT}assert.deepStrictEqual(Object.keys(require), ['main']);\nassert.strictEqual(require.main, module);\nassert.strictEqual(typeof require.cache, 'undefined');\nassert.strictEqual(typeof require.resolve, 'undefined');\n`,
      moduleExports: `${ASSERT}function f() { return 1; }\nmodule.exports = f;\nexports.g = 2;\nassert.strictEqual(module.exports(), 1);\n`,
    });
    expectStatus(res.typeofs, 'pass');
    expectStatus(res.nodeCopies, 'pass');
    expectStatus(res.processExit, 'error');
    expect(res.processExit!.error).toMatch(/exits never passes/);
    // An assertion passed, then the program crashed: not a pass.
    expectStatus(res.processBinding, 'error');
    expectStatus(res.globalKeys, 'pass');
    expectStatus(res.requireProps, 'pass');
    expectStatus(res.moduleExports, 'pass');
  });

  it("serves `timers` as the realm's own timer functions, which the program's replacing a global does not reach", async () => {
    const results = await ex.run([
      // (A self-contained script that names no timer has none: nor its module.)
      js('noTimers', "require('timers');"),
      js(
        'honest',
        "function f() {\n  const t = require('timers');\n  return new Promise((r) => t.setTimeout(() => r(5), 1));\n}\n",
        `${ASSERT}const timers = require('node:timers');\n(async () => {\n  assert.strictEqual(await f(), 5);\n  let n = 0;\n  timers.setImmediate(() => { n = 1; });\n  await new Promise((r) => setTimeout(r, 2));\n  assert.strictEqual(n, 1);\n  assert.strictEqual(require('timers'), timers);\n})();\n`,
      ),
      // Under Node the tests' `require('timers').setTimeout` is the module's own: the timer has not
      // fired when the last check runs, whatever the program did to the global.
      js(
        'replacedGlobal',
        'function f() {\n  globalThis.setTimeout = (fn) => fn();\n  return 1;\n}\n',
        `${ASSERT}const t = require('timers');\nassert.strictEqual(f(), 1);\nlet n = 0;\nt.setTimeout(() => { n = 1; }, 5);\nassert.strictEqual(n, 1);\n`,
      ),
    ]);
    const res = Object.fromEntries(results.map((r) => [r.id, r]));
    expectStatus(res.noTimers, 'error');
    expect(res.noTimers!.error).toContain("Cannot find module 'timers'");
    expectStatus(res.honest, 'pass');
    expectStatus(res.replacedGlobal, 'fail');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
