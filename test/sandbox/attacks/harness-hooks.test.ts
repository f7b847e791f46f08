/**
 * Attack class: hooks the harness would consult after the program ran — a throwing
 * `Promise[Symbol.species]`, patched `RegExp.prototype.source`/`flags` getters, an emptied
 * `Array.prototype[Symbol.iterator]` that makes a `for...of` test loop run no case. The tests
 * compare, iterate and await in a realm the program cannot touch, and a test file that runs no
 * case never passes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const PAD = "require('assert').ok(1);\n";

describe('attack: hooks the harness consults', () => {
  const ex = testExecutor({ timeoutMs: 1500 });
  afterAll(() => ex.close());

  it('does not let a throwing species getter hide a never-settling answer', async () => {
    const tests = `${ASSERT}async function test() {\n  let candidate = later;\n  assert.deepEqual(await candidate(1), 2);\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('later', 'function later(x) {\n', tests), {
      species: `  Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('no'); } });\n  return new Promise(() => {});\n}\n${PAD}`,
      constructorGetter: `  const p = new Promise(() => {});\n  Object.defineProperty(p, 'constructor', { get() { throw undefined; } });\n  return p;\n}\n${PAD}`,
      thenPatched: `  Promise.prototype.then = function (ok) { ok(x + 1); return this; };\n  return new Promise(() => {});\n}\n${PAD}`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).not.toBe('pass');
      expect(r.gold, id).toBe(0);
    }
    expect(res.species!.status).toBe('timeout');
    expect(res.thenPatched!.status).toBe('timeout');
  });

  it('compares regular expressions with pristine getters', async () => {
    const tests = `${ASSERT}function test() {\n  let candidate = re;\n  assert.deepEqual(candidate(), /ab+c/i);\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('re', 'function re() {\n', tests), {
      patchedGetters: `  Object.defineProperty(RegExp.prototype, 'source', { get() { return 'ab+c'; } });\n  Object.defineProperty(RegExp.prototype, 'flags', { get() { return 'i'; } });\n  return /zzz/g;\n}\n`,
      right: `  return new RegExp('ab+c', 'i');\n}\n`,
    });
    expect(res.patchedGetters!.status, JSON.stringify(res.patchedGetters)).toBe('fail');
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
  });

  it('runs every case of a for...of test loop', async () => {
    const tests = `${ASSERT}function test() {\n  for (const [x, y] of [[1, 2], [2, 4], [3, 6]]) assert.deepEqual(double(x), y);\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('double', 'function double(x) {\n', tests), {
      emptiedIterator: `  return 0;\n}\nArray.prototype[Symbol.iterator] = function* () {};\n${PAD}`,
      emptiedEntries: `  return 0;\n}\nArray.prototype.entries = function* () {}; Array.prototype.forEach = () => {};\n${PAD}`,
      right: `  return 2 * x;\n}\nArray.prototype[Symbol.iterator] = function* () {};\n`,
    });
    expect(res.emptiedIterator!.status).toBe('fail');
    expect(res.emptiedIterator!.gold).toBe(0);
    expect(res.emptiedEntries!.status).toBe('fail');
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
    // One assertion site (docs/sandbox.md, "What counts"): it passed on every case.
    expect(res.right!.passed).toBe(1);
    expect(res.right!.total).toBe(1);
  });

  it('never passes a test file that runs no case, whatever min_assertions says', async () => {
    const lax = testExecutor({ timeoutMs: 1500, workers: 1, minAssertions: 0 });
    try {
      const tests = `${ASSERT}function test() {\n  for (const c of []) assert.ok(c);\n}\ntest();\n`;
      const res = await runTraining(lax, jsProblem('f', 'function f() {\n', tests), { any: '  return 1;\n}\n' });
      expect(res.any!.status).toBe('fail');
      expect(res.any!.error).toMatch(/ran no check/);
    } finally {
      await lax.close();
    }
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
