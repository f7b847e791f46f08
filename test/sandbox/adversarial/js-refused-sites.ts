/**
 * JavaScript (issue 25): partial credit around a refused value. In `strict`, a value that is not
 * plain data (a Proxy, a getter, an own `toString`, NaN or an invalid Date the tests never mention)
 * is refused on its way into the tests realm: an error thrown where the tests called the program,
 * so the check it was an argument of never records that execution. When the refusal counted as one
 * failed site of its own, a check in a loop that passed on the earlier cases kept its pass (1/2
 * where an honest wrong answer scores 0/1). Now it fails the sites of the check whose arguments it
 * interrupted (marked reached before they run), and no check passes after it. Shapes: a loop, a
 * helper called in a loop, a loop whose errors the tests catch, `forEach`, and a loop after a
 * separate right case. Controls: right answers, and NaN where the tests ask for it.
 */
import { type AdversarialCase, JS_ASSERT, scoredPair } from './framework.ts';

/** An answer `{ v: 2 }` for case 2 that the bridge refuses (also used by `js-refused-runs.ts`). */
export const REFUSED = [
  'new Proxy({ v: 2 }, {})',
  '{ get v() { return 2; } }',
  '{ v: 0 / 0 }',
  '{ v: 2, toString() { return "2"; } }',
  '{ v: new Date(0 / 0) }',
];

const SHAPES = [
  { tests: 'for (const x of [0, 1, 2]) assert.deepStrictEqual(f(x), { v: x });\n', passed: 0, gold: 0, note: 'a loop' },
  {
    tests: 'function check(x) {\n  assert.deepStrictEqual(f(x), { v: x });\n}\nfor (const x of [0, 1, 2]) check(x);\n',
    passed: 0,
    gold: 0,
    note: 'a helper called in a loop',
  },
  {
    tests: 'for (const x of [0, 1, 2]) {\n  try {\n    assert.deepStrictEqual(f(x), { v: x });\n  } catch {}\n}\n',
    passed: 0,
    gold: 0,
    note: 'a loop whose errors the tests catch',
  },
  { tests: '[0, 1, 2].forEach((x) => assert.deepStrictEqual(f(x), { v: x }));\n', passed: 0, gold: 0, note: 'forEach' },
  {
    tests: 'assert.deepStrictEqual(f(0), { v: 0 });\nfor (const x of [1, 2]) assert.deepStrictEqual(f(x), { v: x });\n',
    passed: 1,
    gold: 0.5,
    note: 'a loop after a right case',
  },
];

const CONTROLS: AdversarialCase[] = [
  {
    completion: 'function f(x) { return x < 2 ? { v: x } : { v: 0 / 0 }; }\n',
    tests: `${JS_ASSERT}for (const x of [0, 1]) assert.deepStrictEqual(f(x), { v: x });\nassert.ok(Number.isNaN(f(2).v));\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f(x) { return { v: x }; }\n',
    tests: `${JS_ASSERT}let n = 0;\nfor (const x of [0, 1, 2]) {\n  try {\n    assert.deepStrictEqual(f(x), { v: x });\n    n++;\n  } catch {}\n}\nassert.strictEqual(n, 3);\n`,
    expect: ['pass'],
  },
];

/** A case over `shape`: `f` answers `{ v: x }`, or `bad` at case 2 unless `right`. */
export function buildRefused(bad: string, shape: { tests: string }, right: boolean) {
  return {
    completion: `function f(x) {\n  return x === 2 ? ${right ? '{ v: x }' : bad} : { v: x };\n}\n`,
    tests: JS_ASSERT + shape.tests,
    note: right ? 'right' : bad,
  };
}

export const generators = scoredPair({
  name: 'js-refused-sites',
  language: 'javascript',
  about: 'a refused value in a loop scores no more than an honest failing answer',
  aboutHonest: 'control: right answers pass every shape; NaN where the tests ask for it',
  n: 25,
  sources: REFUSED,
  shapes: SHAPES,
  build: buildRefused,
  controls: CONTROLS,
});
