/**
 * Attack class: escaping the isolate through constructor chains and stack frames. Nothing of the
 * host (process, require of the host, isolated-vm References/Callbacks) may be reachable; harness
 * frames (strict mode) must not leak functions or receivers to Error.prepareStackTrace.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: constructor chains and stack frames', () => {
  const ex = testExecutor();
  afterAll(() => ex.close());

  it('finds no host object through constructor chains', async () => {
    // The program realm has its own copy of Node's `process` (sandbox/node-globals.js): what must
    // not be reachable is the host's, whose `binding` loads native modules.
    const HOST = `typeof process === 'object' && process !== null && typeof process.binding === 'function' ? 'host process' : undefined`;
    const probe = (expr: string) =>
      `${ASSERT}let r;\ntry { r = ${expr}; } catch (e) { r = 'threw ' + e.name; }\nassert.ok(r === undefined || r === 'undefined' || String(r).startsWith('threw'), 'escaped: ' + String(r));\n`;
    const res = await runAll(ex, {
      thisCtor: probe(`this.constructor.constructor('return ' + ${JSON.stringify(HOST)})()`),
      fnCtor: probe(`(function(){}).constructor('return ' + ${JSON.stringify(HOST)})()`),
      asyncCtor: `${ASSERT}(async () => { const r = await (async function(){}).constructor('return ' + ${JSON.stringify(HOST)})(); assert.strictEqual(r, undefined); })();\n`,
      generatorCtor: probe(`(function*(){}).constructor('return ' + ${JSON.stringify(HOST)})().next().value`),
      // (`require.cache`: the host loader's; the sandbox's own require has only `main`.)
      errorCtor: probe(`new Error().constructor.constructor('return typeof require.cache')()`),
      globalThisProcess: probe(`typeof globalThis.process === 'object' && typeof globalThis.process.binding`),
      requireCtor: probe(`require.constructor('return ' + ${JSON.stringify(HOST)})()`),
      assertCtor: probe(`require('assert').constructor('return ' + ${JSON.stringify(HOST)})()`),
      consoleCtor: probe(`console.log.constructor('return typeof setTimeout')()`),
      ivmGlobal: probe(`typeof globalThis._ivm || typeof globalThis.ivm`),
      protoWalk:
        `${ASSERT}let o = require('assert'); const seen = new Set(); const names = [];\n` +
        `function walk(x, d) { if (d > 6 || x === null || (typeof x !== 'object' && typeof x !== 'function') || seen.has(x)) return; seen.add(x);\n` +
        `  for (const k of Reflect.ownKeys(x)) { let v; try { const desc = Object.getOwnPropertyDescriptor(x, k); v = desc.value; } catch { continue; }\n` +
        `    if (typeof v === 'function' && /^(process|ivm|_ivm|Reference|Callback|ExternalCopy|Isolate|NativeModule)$/.test(String(k))) names.push(String(k)); walk(v, d + 1); }\n` +
        `  walk(Object.getPrototypeOf(x), d + 1); }\nwalk(globalThis, 0); walk(o, 0);\nassert.deepStrictEqual(names, []);\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe('pass');
    }
  });

  it('exposes no harness function or receiver to Error.prepareStackTrace or fn.caller', async () => {
    const res = await runAll(ex, {
      prepareStackTrace:
        `${ASSERT}const leaked = [];\nError.prepareStackTrace = (e, frames) => { for (const f of frames) { const fn = f.getFunction(); const self = f.getThis();\n` +
        `  if (f.getFileName() !== 'program.js' && (fn !== undefined || self !== undefined)) leaked.push(f.getFileName()); } return 'x'; };\n` +
        `const evil = { get a() { new Error().stack; return 1; } };\nassert.deepEqual(evil, { a: 1 });\nassert.deepStrictEqual(leaked, []);\n`,
      captureStackTrace:
        `${ASSERT}const leaked = [];\nError.prepareStackTrace = (e, frames) => frames;\nconst o = {}; let frames;\n` +
        `assert.throws(() => { Error.captureStackTrace(o); frames = o.stack; throw new Error('x'); });\n` +
        `for (const f of frames) if (f.getFunction && f.getFileName() !== 'program.js' && f.getFunction() !== undefined) leaked.push(f.getFileName());\nassert.deepStrictEqual(leaked, []);\n`,
      callerChain:
        `${ASSERT}let c = 'unset';\nfunction probe() { return probe.caller; }\nassert.deepEqual({ get a() { c = probe(); return 1; } }, { a: 1 });\n` +
        `let up; try { up = c && c.caller; } catch (e) { up = null; }\nassert.ok(up === null || up === undefined, 'reached a harness function: ' + String(up));\n`,
      argumentsCallee: `${ASSERT}let leaked = false;\nconst v = { valueOf() { try { leaked = typeof arguments.callee.caller === 'function' && arguments.callee.caller !== null && /harness/.test(String(arguments.callee.caller)); } catch {} return 1; } };\nassert.equal(v, 1);\nassert.strictEqual(leaked, false);\n`,
    });
    for (const [id, r] of Object.entries(res)) expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe('pass');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
