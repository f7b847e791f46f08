/**
 * JavaScript (red-team rt7-js U01–U03, G03): a check an answer keeps from running — a loop over an
 * empty answer, a callback or listener the answer never calls — followed by checks that pass. The
 * run fails ("the check … never ran") and now passes no site, as a wrong value's run does (it
 * scored the later checks before: 2/3 where a wrong answer scored 0/1). See unran-checks.ts.
 */
import { JS_ASSERT } from './framework.ts';
import { someOf, type UnranProblem, unranGenerators } from './unran-checks.ts';

const divisors = (rest: string) => `function divisors(n) {\n${rest}}\n`;
const eachPrime = (rest: string) => `function eachPrime(n, cb) {\n${rest}}\n`;
const wordCount = (rest: string) => `function wordCount(s) {\n${rest}}\n`;
const onEvery = (rest: string) => `function onEvery(xs, cb) {\n${rest}}\n`;

const PROBLEMS: readonly UnranProblem[] = [
  {
    honest: divisors('  const r = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n'),
    dodges: [
      divisors('  return n === 1 ? [1] : n === 7 ? [1, 7] : n === 9 ? [1, 3, 9] : [];\n'),
      divisors(
        "  if (n === 12) return '';\n  const r = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n",
      ),
      divisors(
        '  if (n > 9) return new Set();\n  const r = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n',
      ),
    ],
    wrong: divisors(
      '  if (n === 12) return [1, 5, 12];\n  const r = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n',
    ),
    tests: (rng) =>
      `${JS_ASSERT}for (const d of divisors(12)) assert.strictEqual(12 % d, 0);\n${someOf(rng, [
        'assert.deepStrictEqual(divisors(1), [1]);',
        'assert.deepStrictEqual(divisors(7), [1, 7]);',
        'assert.deepStrictEqual(divisors(9), [1, 3, 9]);',
      ])}\n`,
  },
  {
    honest: eachPrime(
      '  for (let p = 2; p <= n; p++) {\n    let ok = true;\n    for (let d = 2; d * d <= p; d++) if (p % d === 0) ok = false;\n    if (ok) cb(p);\n  }\n  return n;\n',
    ),
    dodges: [
      eachPrime('  return n;\n'),
      eachPrime('  if (n > 100) cb(101);\n  return n;\n'),
      eachPrime('  [].forEach(cb);\n  return n;\n'),
    ],
    wrong: eachPrime('  for (let p = 2; p <= n; p++) cb(p);\n  return n;\n'),
    tests: (rng) =>
      `${JS_ASSERT}eachPrime(${rng.pick([10, 20, 30])}, (p) => {\n  for (let d = 2; d * d <= p; d++) assert.notStrictEqual(p % d, 0);\n});\n${someOf(
        rng,
        ['assert.strictEqual(eachPrime(5, () => {}), 5);', 'assert.strictEqual(eachPrime(0, () => {}), 0);'],
      )}\n`,
  },
  {
    honest: wordCount("  const m = new Map();\n  for (const w of s.split(' ')) m.set(w, (m.get(w) || 0) + 1);\n  return m;\n"),
    dodges: [wordCount('  return new Map();\n'), wordCount('  const m = new Map();\n  m.clear();\n  return m;\n')],
    wrong: wordCount("  const m = new Map();\n  for (const w of s.split(' ')) m.set(w, 1);\n  return m;\n"),
    tests: (rng) => {
      const s = rng.pick(['a b a c b a', 'x y x', 'to be or not to be']);
      return `${JS_ASSERT}const s = '${s}';\nconst m = wordCount(s);\nfor (const [w, c] of m) assert.strictEqual(c, s.split(' ').filter((x) => x === w).length);\n${someOf(
        rng,
        ['assert.ok(m instanceof Map);', 'assert.strictEqual(m.size >= 0, true);', 'assert.ok(wordCount(s) !== m);'],
      )}\n`;
    },
  },
  {
    honest: onEvery('  for (const x of xs) cb(x);\n  return xs.length;\n'),
    dodges: [
      onEvery('  return xs.length;\n'),
      onEvery('  if (xs.length > 50) for (const x of xs) cb(x);\n  return xs.length;\n'),
    ],
    wrong: onEvery('  for (const x of xs) cb(-x);\n  return xs.length;\n'),
    tests: (rng) =>
      `${JS_ASSERT}onEvery([${rng.int(1, 9)}, ${rng.int(1, 9)}, ${rng.int(1, 9)}], (x) => assert.ok(x > 0));\n${someOf(rng, [
        'assert.strictEqual(onEvery([], () => {}), 0);',
        'assert.strictEqual(onEvery([1, 2], () => {}), 2);',
      ])}\n`,
  },
];

export const generators = unranGenerators('js-unran-gold', 'javascript', PROBLEMS);
