/**
 * JavaScript (issue 25): partial credit from a comparison guard. In `strict`, an ordering
 * comparison of the tests that meets a NaN or an infinity they never mention fails the run — but
 * the value it returns still flows on: a negated tolerance (`!(Math.abs(x - e) > eps)`) holds for
 * NaN, a relative one (`|x - e| <= eps * max(|x|, e)`) for Infinity. When the guard counted as a
 * failed site of its own, the check consuming that value passed next to it (1/2 where an honest
 * wrong answer scores 0/1). Here every shape of such tests — the comparison inside the check,
 * outside it (`const ok = …; assert.ok(ok)`), in a loop whose first cases are right, in a helper,
 * before a later check, or steering a `throw` after every check passed — must score no more than
 * an honest failing answer would. Controls: right answers pass the same tests, and tests that
 * mention NaN keep the language's semantics.
 */
import { type AdversarialCase, JS_ASSERT, type NonFiniteSource, type SourcedShape, scoredPair } from './framework.ts';

const SOURCES: NonFiniteSource[] = [
  { good: (k) => `String(${k} * 1.25)`, bad: '"n/a"', read: (r) => `parseFloat(${r})`, kind: 'nan' },
  { good: (k) => `${k} * 1.25`, bad: 'undefined', read: (r) => r, kind: 'nan' },
  { good: (k) => `{ v: ${k} * 1.25 }`, bad: '{ v: {} }', read: (r) => `${r}.v`, kind: 'nan' },
  {
    good: (k) => `new Uint8Array(new Float64Array([${k} * 1.25]).buffer)`,
    bad: 'new Uint8Array(new Float64Array([0 / 0]).buffer)',
    read: (r) => `new Float64Array(${r}.buffer)[0]`,
    kind: 'nan',
  },
  { good: (k) => `${k} * 1.25`, bad: '1 / 0', read: (r) => r, kind: 'inf' },
];

/** The tolerance check of `x` against `e`, as the tests write it. */
function close(s: NonFiniteSource, x: string, e: string): string {
  return s.kind === 'nan' ? `!(Math.abs(${x} - ${e}) > 1e-9)` : `Math.abs(${x} - ${e}) <= 1e-9 * Math.max(Math.abs(${x}), ${e})`;
}

/**
 * A shape of tests, and the most a wrong answer at case 3 may score on it (passed, gold): what an
 * honest wrong answer scores, except where the guard steers a `throw` after every check passed —
 * there an honest wrong answer is an `error` whose passed sites gold still counts (1/1), and the
 * guard's failed run counts the guard as one failed site (1/2).
 */
const SHAPES: SourcedShape[] = [
  { tests: (s) => `assert.ok(${close(s, s.read('f(3)'), '3.75')});\n`, passed: 0, gold: 0, note: 'inside the check' },
  {
    tests: (s) => `const ok = ${close(s, s.read('f(3)'), '3.75')};\nassert.ok(ok);\n`,
    passed: 0,
    gold: 0,
    note: 'outside the check',
  },
  {
    tests: (s) => `for (const k of [1, 2, 3]) assert.ok(${close(s, s.read('f(k)'), 'k * 1.25')});\n`,
    passed: 0,
    gold: 0,
    note: 'a loop whose first cases are right',
  },
  {
    tests: (s) => `function near(a, b) {\n  return ${close(s, 'a', 'b')};\n}\nassert.ok(near(${s.read('f(3)')}, 3.75));\n`,
    passed: 0,
    gold: 0,
    note: 'in a helper the check calls',
  },
  {
    tests: (s) =>
      `assert.ok(${close(s, s.read('f(1)'), '1.25')});\nassert.strictEqual(${close(s, s.read('f(3)'), '3.75')}, true);\n`,
    passed: 1,
    gold: 0.5,
    note: 'after a right case',
  },
  {
    tests: (s) =>
      `assert.ok(${close(s, s.read('f(1)'), '1.25')});\nif (!(${close(s, s.read('f(3)'), '3.75')})) throw new Error('wrong');\n`,
    passed: 1,
    gold: 0.5,
    note: 'steering a throw after every check passed',
  },
  {
    tests: (s) =>
      `let good = 0;\nfor (const k of [1, 2, 3]) if (${close(s, s.read('f(k)'), 'k * 1.25')}) good++;\nassert.strictEqual(good, 3);\n`,
    passed: 0,
    gold: 0,
    note: 'counted, then checked once',
  },
  {
    tests: (s) => `for (const k of [1, 2, 3]) {\n  const ok = ${close(s, s.read('f(k)'), 'k * 1.25')};\n  assert.ok(ok);\n}\n`,
    passed: 0,
    gold: 0,
    note: 'outside the check, in a loop whose first cases are right',
  },
];

function program(s: NonFiniteSource, right: boolean): string {
  return `function f(k) {\n  return k === 3 ? ${right ? s.good('k') : s.bad} : ${s.good('k')};\n}\n`;
}

/** Tests that mention NaN ask for it: a comparison with it keeps the language's meaning. */
const MENTIONED: AdversarialCase[] = [
  {
    completion: 'function f(k) { return "n/a"; }\n',
    tests: `${JS_ASSERT}const x = parseFloat(f(3));\nassert.ok(Number.isNaN(x));\nassert.ok(!(x > 0));\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f(k) { return undefined; }\n',
    tests: `${JS_ASSERT}const ok = !(Math.abs(f(3) - 3.75) > 1e-9);\nassert.strictEqual(ok, true); // NaN is the answer\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f(k) { return 1 / 0; }\n',
    tests: `${JS_ASSERT}for (const k of [1, 2]) assert.ok(f(k) >= Number.MAX_VALUE && !isFinite(f(k)));\n`,
    expect: ['pass'],
  },
];

export const generators = scoredPair({
  name: 'js-guard-sites',
  language: 'javascript',
  about: 'a NaN or infinity through a guarded comparison scores no more than an honest failing answer',
  aboutHonest: 'control: right answers pass every shape; tests that mention NaN or Infinity keep the semantics',
  n: 40,
  sources: SOURCES,
  shapes: SHAPES,
  build: (s, shape, right) => ({
    completion: program(s, right),
    tests: JS_ASSERT + shape.tests(s),
    note: right ? s.good('k') : `${s.bad} (${s.kind})`,
  }),
  controls: MENTIONED,
});
