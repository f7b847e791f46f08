/**
 * JavaScript (a class found by thinking as a policy would): a non-number answer — `undefined`, a
 * plain object, a word, an array of two numbers — against checks written as negated orderings
 * (`!(f(x) > hi)`, `!(f(x) < lo)`): the operator converts the answer to NaN, every ordering is
 * false, and the negation holds without the answer being a number at all. The strict verdict's
 * guard on the tests' ordering comparisons sees the number the operator compares. Controls:
 * numbers, numeric strings and one-element arrays in range pass (as the operator compares them).
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const NON_NUMBERS = ['undefined', '{}', '"many"', '[1, 2]', '{ n: 5 }', 'function () {}', 'new Date(NaN).getTime()'];

const NEGATED_RANGE: Array<string> = [
  'assert.ok(!(R > 10));\nassert.ok(!(R < 0));',
  'assert.ok(!(R >= 10 || R <= 0));',
  'assert.strictEqual(R < 0, false);\nassert.strictEqual(R > 10, false);',
];

const nonNumbers = defineGenerator({
  name: 'js-non-numbers',
  language: 'javascript',
  about: 'answers that are not numbers against negated range checks: never a pass',
  cases: () =>
    grid(21, NON_NUMBERS, NEGATED_RANGE, (value, check) => ({
      completion: `function f(x) {\n  return ${value};\n}\n`,
      tests: `${JS_ASSERT}const R = f(3);\n${check}\n`,
      expect: ['fail'],
      note: `${value}: ${check}`,
    })),
});

const numbersHonest = defineGenerator({
  name: 'js-non-numbers-honest',
  language: 'javascript',
  about: 'control: numbers (and what the operator reads as numbers) in range pass the same checks',
  cases: (rng) =>
    grid(21, ['N', '"N"', '[N]', 'N + 0.5', 'BigInt(N)', 'true', '"N.25"'], NEGATED_RANGE, (shape, check) => ({
      completion: `function f(x) {\n  return ${shape.replace('N', String(rng.int(1, 8)))};\n}\n`,
      tests: `${JS_ASSERT}const R = f(3);\n${check}\n`,
      expect: ['pass'],
      note: shape,
    })),
});

export const generators = [nonNumbers, numbersHonest];
