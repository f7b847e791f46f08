/**
 * Attack class: reaching host modules and host globals. Only `assert` and `crypto` (the realm's own
 * hashing and seeded random bytes, sandbox/node-crypto.js) are served by `require`; there is no
 * process, filesystem, network, timers or module loader.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

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

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
