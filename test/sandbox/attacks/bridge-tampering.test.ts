/**
 * Attack class: tampering with what the bridge between the program realm and the tests realm
 * might use — JSON, defineProperty, array and Map methods of the program's realm, and index
 * getters on Array.prototype that would fill the holes of a wrong answer. The bridge decodes and
 * encodes with intrinsics captured before the program ran and reads only own properties. (The
 * one-realm harness before it resisted these too: this file guards the bridge, which would fail
 * it if it used the program realm's JSON, defineProperty or array methods.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const TESTS = `${ASSERT}function test() {\n  let candidate = pair;\n  assert.deepEqual(candidate([1, 2]), [2, 1]);\n  assert.deepEqual(candidate([3, 4]), [4, 3]);\n}\ntest();\n`;

describe('attack: tampering with the bridge', () => {
  const ex = testExecutor({ timeoutMs: 2000 });
  afterAll(() => ex.close());

  it('answers are read with the intrinsics captured before the program ran', async () => {
    const res = await runTraining(ex, jsProblem('pair', 'function pair(a) {\n', TESTS), {
      patchBridgeTools: `  return [0, 0];\n}\nObject.defineProperty = () => {}; JSON.parse = () => [[2, 1]]; JSON.stringify = () => '[2,1]';\nArray.prototype.push = function () {}; Map.prototype.set = function () { return this; };\n`,
      holeGetters: `  const r = [];\n  r.length = 2;\n  Object.defineProperty(Array.prototype, 0, { get() { return a[1]; }, configurable: true });\n  Object.defineProperty(Array.prototype, 1, { get() { return a[0]; }, configurable: true });\n  return r;\n}\n`,
      right: `  return [a[1], a[0]];\n}\nObject.defineProperty = () => {}; JSON.parse = () => 0; Array.prototype.push = function () {};\n`,
    });
    for (const id of ['patchBridgeTools', 'holeGetters']) {
      expect(res[id]!.status, `${id}: ${JSON.stringify(res[id])}`).toBe('fail');
      expect(res[id]!.gold, id).toBe(0);
    }
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
    expect(res.right!.passed).toBe(2);
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
