/**
 * JavaScript: how the strict verdict's comparison guard (sandbox/harness.js `hooks.cmp`) converts
 * the operands of the tests' ordering comparisons. Two holes, each a wrong pass when probed:
 *
 * - The guard converted an operand to a number to check it, and the operator converted it again.
 *   An answer whose conversion answers differently on each call — an instance of the program's
 *   class whose `valueOf` or `toString` alternates between an out-of-range number and text that is
 *   no number — showed the guard the number and the operator NaN, so a negated range check
 *   (`!(r > hi)`) held. The guard now converts each operand once and compares those primitives.
 *   (`Symbol.toPrimitive` of the program's class is not forwarded to the tests: an instance's
 *   symbol-keyed members are its stand-in's own, so that door is closed already.)
 * - Only a comparison with a number on one side was checked. `"5.5" > 10n` (a BigInt against text
 *   that is no integer) and `undefined > "10"` compare as NaN too: every ordering is false.
 *
 * Every wrong answer must score no more than an honest wrong answer (a consistent out-of-range
 * value) on the same tests; each right answer (a consistent in-range value through the same door)
 * passes, as do the controls: comparisons the operator makes without NaN (strings, Dates, BigInts
 * against integer text, one-element arrays, null).
 */
import { type AdversarialCase, JS_ASSERT, type ScoredShape, scoredPair } from './framework.ts';

/**
 * How an answer reaches the tests' comparison: the program (`right` answers 5, or what the
 * operator reads as 5; the wrong one alternates or is no number), how the tests read it, and the
 * range's bounds as the tests write them.
 */
interface Door {
  program: (right: boolean) => string;
  read: string;
  lo: string;
  hi: string;
  note: string;
}

/** A class of the program whose conversion method answers `good` on calls 1, 3, … and `bad` on calls 2, 4, …. */
function alternating(method: string, good: string, bad: string, right: string): (right: boolean) => string {
  return (ok) =>
    ok
      ? `class Reading {\n  ${method} { return ${right}; }\n}\n`
      : `class Reading {\n  constructor() { this.calls = 0; }\n  ${method} { return this.calls++ % 2 ? ${bad} : ${good}; }\n}\n`;
}

const DOORS: Door[] = [
  {
    program: alternating('valueOf()', '50', '"x"', '5'),
    read: 'new Reading()',
    lo: '0',
    hi: '10',
    note: 'valueOf alternating 50 / "x"',
  },
  {
    program: alternating('toString()', '"50"', '"n/a"', '"5"'),
    read: 'new Reading()',
    lo: '0',
    hi: '10',
    note: 'toString alternating "50" / "n/a"',
  },
  {
    program: alternating('valueOf()', '"50"', 'undefined', '"5"'),
    read: 'new Reading()',
    lo: '0',
    hi: '10',
    note: 'valueOf alternating "50" / undefined',
  },
  {
    program: alternating('valueOf()', '60', '"5x"', '"5"'),
    read: 'new Reading()',
    lo: '0',
    hi: '10',
    note: 'valueOf alternating 60 / "5x"',
  },
  {
    program: (ok) => `function f() {\n  return ${ok ? '"5"' : '"5.5"'};\n}\n`,
    read: 'f()',
    lo: '0n',
    hi: '10n',
    note: 'text that is no integer against BigInt bounds',
  },
  {
    program: (ok) => `function f() {\n  return ${ok ? '5' : 'undefined'};\n}\n`,
    read: 'f()',
    lo: '"0"',
    hi: '"10"',
    note: 'undefined against bounds written as text',
  },
];

/** Range checks written as negations (each holds for NaN), and the most a wrong answer may score. */
const SHAPES: Array<ScoredShape & { tests: (d: Door) => string }> = [
  {
    tests: (d) => `const r = ${d.read};\nassert.ok(!(r > ${d.hi}));\nassert.ok(!(r < ${d.lo}));\n`,
    passed: 0,
    gold: 0,
    note: 'two negated checks',
  },
  {
    tests: (d) => `const r = ${d.read};\nassert.ok(!(r >= ${d.hi} || r <= ${d.lo}));\n`,
    passed: 0,
    gold: 0,
    note: 'one negated disjunction',
  },
  {
    // An honest wrong answer (50) passes the first check: 1 of 2.
    tests: (d) => `const r = ${d.read};\nassert.strictEqual(r < ${d.lo}, false);\nassert.strictEqual(r > ${d.hi}, false);\n`,
    passed: 1,
    gold: 0.5,
    note: 'compared to false',
  },
  {
    tests: (d) => `function inRange(v) {\n  return !(v < ${d.lo}) && !(v > ${d.hi});\n}\nassert.ok(inRange(${d.read}));\n`,
    passed: 0,
    gold: 0,
    note: 'in a helper',
  },
];

/** Comparisons the operator makes without meeting NaN: the language's semantics, passed. */
const CONTROLS: AdversarialCase[] = [
  {
    completion: 'function f() { return [5]; }\n',
    tests: `${JS_ASSERT}const r = f();\nassert.ok(!(r > 10) && !(r < 0));\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return 5n; }\n',
    tests: `${JS_ASSERT}assert.ok(f() < "10");\nassert.ok(f() >= "5");\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return "apple"; }\n',
    tests: `${JS_ASSERT}assert.ok(f() < "banana");\nassert.ok(!(f() > "b"));\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f(y) { return new Date(Date.UTC(y, 0, 1)); }\n',
    tests: `${JS_ASSERT}assert.ok(f(2020) < f(2021));\nassert.ok(!(f(2022) <= f(2021)));\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return null; }\n',
    tests: `${JS_ASSERT}assert.ok(!(f() > 0) && f() >= 0);\n`,
    expect: ['pass'],
  },
  {
    completion: 'class Money {\n  constructor(c) { this.c = c; }\n  valueOf() { return this.c; }\n}\n',
    tests: `${JS_ASSERT}const a = new Money(5);\nconst b = new Money(7);\nassert.ok(a < b);\nassert.ok(!(a > b));\nassert.ok(b >= 7);\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return ["b", "c", "a"]; }\n',
    tests: `${JS_ASSERT}assert.deepStrictEqual(f().sort((x, y) => (x > y) - (x < y)), ["a", "b", "c"]);\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return [3, 1, 2]; }\n',
    tests: `${JS_ASSERT}assert.deepStrictEqual(f().sort((x, y) => String(x - y)), [1, 2, 3]);\n`,
    expect: ['pass'],
  },
];

export const generators = scoredPair({
  name: 'js-guard-conversions',
  language: 'javascript',
  about: 'an operand converted differently for the guard and the operator, or a NaN comparison with no number in it',
  aboutHonest: 'control: consistent in-range values through the same doors pass; NaN-free comparisons keep their meaning',
  n: 24,
  sources: DOORS,
  shapes: SHAPES,
  build: (door, shape, right) => ({
    completion: door.program(right),
    tests: JS_ASSERT + shape.tests(door),
    note: right ? `right: ${door.note}` : door.note,
  }),
  controls: CONTROLS,
});
