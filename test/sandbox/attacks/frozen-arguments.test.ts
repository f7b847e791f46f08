/**
 * Attack class: mutating an argument the tests froze. Under Node an in-place write to a frozen
 * (or sealed, or non-extensible) argument throws or is dropped; the program realm receives a
 * copy, so the copy must keep the argument's integrity level, or a program that sorts its input in
 * place would pass tests written to forbid exactly that. The level also crosses back with an
 * answer, so tests that check `Object.isFrozen` of a right answer see it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const PROMPT = 'function sortedCopy(xs) {\n';
// The tests freeze their input: a right answer leaves it alone and returns a sorted copy.
const FROZEN_INPUT = `${ASSERT}function test() {\n  let candidate = sortedCopy;\n  const input = Object.freeze([3, 1, 2]);\n  assert.deepStrictEqual(candidate(input), [1, 2, 3]);\n  assert.deepStrictEqual(input, [3, 1, 2]);\n}\ntest();\n`;
const LEVELS = `${ASSERT}function test() {\n  let candidate = sortedCopy;\n  const sealed = Object.seal([3, 1, 2]);\n  const fixed = Object.preventExtensions([3, 1, 2]);\n  assert.deepStrictEqual(candidate(sealed), [1, 2, 3]);\n  assert.deepStrictEqual(candidate(fixed), [1, 2, 3]);\n}\ntest();\n`;
const FROZEN_ANSWER = `${ASSERT}function test() {\n  let candidate = sortedCopy;\n  const r = candidate([3, 1, 2]);\n  assert.deepStrictEqual(r, [1, 2, 3]);\n  assert.ok(Object.isFrozen(r));\n  const o = candidate({ b: 2, a: 1 });\n  assert.ok(Object.isSealed(o) && !Object.isFrozen(o));\n}\ntest();\n`;

describe('attack: mutating an argument the tests froze', () => {
  const ex = testExecutor({ timeoutMs: 3000 });
  afterAll(() => ex.close());

  it('an in-place write to a frozen argument fails as under Node; a copy passes', async () => {
    const res = await runTraining(ex, jsProblem('sortedCopy', PROMPT, FROZEN_INPUT), {
      sortInPlace: '  return xs.sort((a, b) => a - b);\n}\n',
      strictSortInPlace: "  'use strict';\n  xs.sort((a, b) => a - b);\n  return xs;\n}\n",
      // Sloppy-mode index writes to a frozen array are silently dropped: the answer stays unsorted.
      swapByIndex: '  const t = xs[0]; xs[0] = xs[1]; xs[1] = t;\n  return xs;\n}\n',
      pushOnto: '  xs.push(4);\n  return [1, 2, 3];\n}\n',
      copy: '  return [...xs].sort((a, b) => a - b);\n}\n',
    });
    for (const id of ['sortInPlace', 'strictSortInPlace', 'swapByIndex', 'pushOnto']) {
      expect(res[id]!.status, `${id}: ${JSON.stringify(res[id])}`).not.toBe('pass');
      expect(res[id]!.gold, id).toBe(0);
    }
    expect(res.sortInPlace!.error).toMatch(/read only property/);
    expect(res.pushOnto!.error).toMatch(/not extensible/);
    expect(res.copy!.status, JSON.stringify(res.copy)).toBe('pass');
  });

  it('sealed and non-extensible arguments keep their level: growing them fails, sorting a sealed copy works', async () => {
    const res = await runTraining(ex, jsProblem('sortedCopy', PROMPT, LEVELS), {
      // Sorting rewrites existing elements: allowed on sealed and non-extensible arrays, as under Node.
      sortInPlace: '  return xs.sort((a, b) => a - b);\n}\n',
      growThenCut: '  xs.push(0);\n  xs.pop();\n  return [...xs].sort((a, b) => a - b);\n}\n',
    });
    expect(res.sortInPlace!.status, JSON.stringify(res.sortInPlace)).toBe('pass');
    expect(res.growThenCut!.status).not.toBe('pass');
    expect(res.growThenCut!.error).toMatch(/not extensible/);
  });

  it("a program's writes to a sealed or non-extensible argument reach the tests' object (red-team rt71 JT04, JT05)", async () => {
    // Such an argument was not brought in line after the call: the program's in-place writes were
    // lost, so tests requiring the input untouched passed a program that changed it, and tests
    // requiring an in-place update failed an honest one. Now it is updated in place.
    const untouched = `${ASSERT}function test() {\n  const input = Object.seal([3, 1, 2]);\n  const fixed = Object.preventExtensions({ a: 1, b: 2 });\n  assert.deepStrictEqual(sortedCopy(input), [1, 2, 3]);\n  assert.deepStrictEqual(sortedCopy(fixed), [1, 2, 3]);\n  assert.deepStrictEqual(input, [3, 1, 2]);\n  assert.deepStrictEqual(Object.keys(fixed), ['a', 'b']);\n}\ntest();\n`;
    const res = await runTraining(ex, jsProblem('sortedCopy', PROMPT, untouched), {
      sortsInput: '  if (!Array.isArray(xs)) { delete xs.a; return [1, 2, 3]; }\n  return xs.sort((a, b) => a - b);\n}\n',
      copies: '  if (!Array.isArray(xs)) return [1, 2, 3];\n  return [...xs].sort((a, b) => a - b);\n}\n',
    });
    expect(res.sortsInput!.status, JSON.stringify(res.sortsInput)).toBe('fail');
    expect(res.copies!.status, JSON.stringify(res.copies)).toBe('pass');
    const inPlace = `${ASSERT}function test() {\n  const input = Object.seal([3, 1, 2]);\n  sortedCopy(input);\n  assert.deepStrictEqual(input, [1, 2, 3]);\n}\ntest();\n`;
    const honest = await runTraining(ex, jsProblem('sortedCopy', PROMPT, inPlace), {
      sortsInput: '  return xs.sort((a, b) => a - b);\n}\n',
    });
    expect(honest.sortsInput!.status, JSON.stringify(honest.sortsInput)).toBe('pass');
  });

  it("an answer's integrity level crosses to the tests", async () => {
    const res = await runTraining(ex, jsProblem('sortedCopy', PROMPT, FROZEN_ANSWER), {
      frozen:
        '  if (!Array.isArray(xs)) return Object.seal({ ...xs });\n  return Object.freeze([...xs].sort((a, b) => a - b));\n}\n',
      plain: '  if (!Array.isArray(xs)) return { ...xs };\n  return [...xs].sort((a, b) => a - b);\n}\n',
    });
    expect(res.frozen!.status, JSON.stringify(res.frozen)).toBe('pass');
    expect(res.plain!.status).toBe('fail');
  });
});
