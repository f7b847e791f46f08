/**
 * Attack class: fooling the verdict. The completion (untrusted) is followed by honest tests; it
 * computes the wrong answer and then tries to make the run look like a pass: patching the assert
 * module, builtins the comparison relies on, swallowing AssertionErrors, faking `require`,
 * printing pass-looking lines. None of it may yield `pass`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, js, testExecutor } from '../helpers.ts';

const PROMPT = 'function add(x, y) {\n';
const WRONG = '  return 0;\n}\n';
const TESTS = `${ASSERT}function test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, 2), 3);\n  assert.deepEqual(candidate([1], [2]), '12');\n  assert.strictEqual(candidate(2, 2), 4);\n}\ntest();\n`;

/** Attacks: code placed after the wrong solution, before the tests. */
const ATTACKS: Record<string, string> = {
  patchAssertMethods: `const a = require('assert'); a.deepEqual = () => {}; a.strictEqual = () => {}; a.strict.deepEqual = () => {};`,
  definePropertyOnAssert: `try { Object.defineProperty(require('node:assert'), 'deepEqual', { value: () => {} }); } catch {}`,
  setPrototypeOfAssert: `try { Object.setPrototypeOf(require('node:assert'), { deepEqual() {} }); } catch {}`,
  patchObjectKeys: `Object.keys = () => []; Reflect.ownKeys = () => []; Object.getOwnPropertyNames = () => [];`,
  patchObjectIs: `Object.is = () => true; Number.isNaN = () => true;`,
  patchToString: `Object.prototype.toString = () => '[object Object]';`,
  patchArray: `Array.isArray = () => false; Array.prototype[Symbol.iterator] = function* () {}; Array.prototype.push = () => 0;`,
  patchIndexSetter: `Object.defineProperty(Array.prototype, '0', { set() {}, get() { return 3; }, configurable: true });`,
  patchCallApplyBind: `Function.prototype.call = function () { return true; }; Function.prototype.apply = function () { return true; }; Function.prototype.bind = function () { return () => true; };`,
  patchReflect: `Reflect.apply = () => true; Reflect.getPrototypeOf = () => null;`,
  patchJSON: `JSON.stringify = () => '"ok"'; JSON.parse = () => ({ status: 'pass' });`,
  patchMapSet: `Map.prototype.get = () => 1; Map.prototype.has = () => true; Set.prototype.has = () => true; Set.prototype.add = function () { return this; };`,
  patchDescriptors: `Object.defineProperty(Object.prototype, 'get', { get() { return () => 1; }, configurable: true }); Object.defineProperty(Object.prototype, 'value', { get() { return 1; }, configurable: true });`,
  patchPromise: `Promise.prototype.then = function () { return this; }; Promise.resolve = (x) => x;`,
  patchErrors: `Error = function () { return { message: 'ok' }; }; TypeError = Error; Error.prototype.name = 'ok';`,
  prototypeGetters: `for (const k of ['passed', 'failed', 'status', 'pending', 'failure', 'asyncState']) Object.defineProperty(Object.prototype, k, { get() { return k === 'status' ? 'pass' : 0; }, configurable: true });`,
  toJSONHijack: `Object.prototype.toJSON = () => ({ status: 'pass', passed: 3, total: 3 });`,
  fakeRequireAssign: `require = () => ({ deepEqual() {}, strictEqual() {} });`,
  fakeRequireVar: `var require = () => ({ deepEqual() {}, strictEqual() {} });`,
  fakeRequireGlobal: `globalThis.require = () => ({ deepEqual() {}, strictEqual() {} });`,
  fakeRequireDefine: `try { Object.defineProperty(globalThis, 'require', { value: () => ({ deepEqual() {}, strictEqual() {} }) }); } catch {}`,
  fakeAssertGlobal: `var assert = { deepEqual() {}, strictEqual() {} };`,
  printPass: `console.log('PASS'); console.log('ok 1 - all tests passed'); console.log('# pass 3\\n# fail 0'); console.log(JSON.stringify({ status: 'pass' }));`,
  overrideTestFn: `var test = () => { require('assert').ok(true); };`,
  overrideTestFnDefine: `Object.defineProperty(globalThis, 'test', { get() { return () => require('assert').ok(true); }, set() {}, configurable: false });`,
  freezeWorld: `Object.freeze(Object.prototype); Object.freeze(Array.prototype); Object.freeze(Function.prototype);`,
  proxyResult: `const realAdd = add; add = (...a) => new Proxy({}, { ownKeys: () => [], getPrototypeOf: () => Object.prototype, get: () => 3 });`,
  valueOfTrick: `add = () => ({ valueOf() { return 3; }, toString() { return '3'; } });`,
  prepareStackTrace: `Error.prepareStackTrace = () => 'PASS'; Error.stackTraceLimit = 0;`,
  symbolHasInstance: `Object.defineProperty(Function.prototype, Symbol.hasInstance, { value: () => true });`,
};

/** Attacks that also wrap the tests' effects: swallow whatever the tests throw. */
const SWALLOWING: Record<string, string> = {
  swallowAll: `try {\n${TESTS}} catch (e) {}\nconsole.log('PASS');\n`,
  swallowAsync: `(async () => {\n${TESTS}})().catch(() => {});\n`,
  swallowThenAssertOk: `try {\n${TESTS}} catch (e) {}\nrequire('assert').ok(true);\n`,
};

describe('attack: harness tampering', () => {
  const ex = testExecutor({ timeoutMs: 3000 });
  afterAll(() => ex.close());

  it('an honest control passes and a wrong solution fails', async () => {
    const [good, bad] = await ex.run([js('good', PROMPT + '  return x + y;\n}\n', TESTS), js('bad', PROMPT + WRONG, TESTS)]);
    expectStatus(good, 'pass');
    expect(good!.passed).toBe(3);
    expectStatus(bad, 'fail');
  });

  it.each(['joined', 'split'] as const)('no tampering completion passes (%s program)', async (mode) => {
    const specs = Object.entries(ATTACKS).map(([id, attack]) => {
      const code = PROMPT + WRONG + attack + '\n';
      return mode === 'joined' ? js(id, code + TESTS) : js(id, code, TESTS);
    });
    const results = await ex.run(specs);
    for (const r of results) {
      // Known limit of the joined form (shared with Node/MultiPL-E): a completion can reassign
      // the tests' own `test` function. Split programs close it; see ProgramSpec.tests.
      if (mode === 'joined' && r.id === 'overrideTestFn') continue;
      expect(r.status, `${r.id}: ${JSON.stringify(r)}`).not.toBe('pass');
      expect(['fail', 'error', 'syntax_error'], `${r.id}: ${JSON.stringify(r)}`).toContain(r.status);
    }
  });

  it('a swallowed AssertionError still fails', async () => {
    const results = await ex.run(Object.entries(SWALLOWING).map(([id, rest]) => js(id, PROMPT + WRONG + rest)));
    for (const r of results) {
      expectStatus(r, 'fail');
      expect(r.error).toMatch(/loosely deep-equal/);
    }
    expect(results[0]!.stdout).toBe('PASS\n');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
