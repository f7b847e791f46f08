/**
 * JavaScript (red-team rt62 P01–P03): js-passed-over.ts's first problem with its loop's check
 * written in a function that runs in place — the callback of `Array.from(xs, fn)` or of
 * `Array.prototype.forEach.call(xs, fn)`, or an arrow called at once inside the loop. Each such
 * function was a group of its own for the written-order rule, so an empty answer skipped the check
 * and the run kept the passes after it (2/3 where a wrong answer scored 0/1). Now they belong to
 * the code around them (src/sandbox/test-plan.ts, `runsInPlace`).
 */
import { JS_ASSERT } from './framework.ts';
import { PROBLEMS } from './js-passed-over.ts';
import { someOf, unranGenerators } from './unran-checks.ts';

const LOOPS: readonly string[] = [
  'Array.from(divisors(12), (d) => assert.strictEqual(12 % d, 0));',
  'Array.prototype.forEach.call(divisors(12), (d) => {\n  assert.strictEqual(12 % d, 0);\n});',
  'for (const d of divisors(12)) ((x) => assert.strictEqual(12 % x, 0))(d);',
  '[].map.call(divisors(12), function (d) {\n  assert.ok(12 % d === 0);\n});',
];

const divisors = PROBLEMS[0]!;

export const generators = unranGenerators(
  'js-passed-over-in-place',
  'javascript',
  LOOPS.map((loop) => ({
    ...divisors,
    tests: (rng) =>
      `${JS_ASSERT}${loop}\n${someOf(rng, [
        'assert.deepStrictEqual(divisors(1), [1]);',
        'assert.deepStrictEqual(divisors(7), [1, 7]);',
        'assert.deepStrictEqual(divisors(9), [1, 3, 9]);',
      ])}\nassert.strictEqual(divisors(12).length, 6);\n`,
  })),
);
