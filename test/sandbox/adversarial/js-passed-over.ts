/**
 * JavaScript (red-team rt7-js U04): an answer keeps a check from running (a loop over an empty
 * answer, a branch it steers around), the checks after it pass, and a later one fails. The run
 * ended on that failure, so the never-run rule for finished runs did not apply, and it kept the
 * passes in between: 2/3 where a wrong answer, failing the first check, ended the run at 0/1.
 * Now a run that went on past a check written before one it reached, in code that runs in the
 * order it is written, passes no site (src/sandbox/test-plan.ts, `ordered`). See unran-checks.ts
 * for the three generators' shape.
 */
import { JS_ASSERT } from './framework.ts';
import { someOf, type UnranProblem, unranGenerators } from './unran-checks.ts';

const divisors = (rest: string) => `function divisors(n) {\n${rest}}\n`;
const primes = (rest: string) => `function primes(n) {\n${rest}}\n`;
const counts = (rest: string) => `function counts(s) {\n${rest}}\n`;

const HONEST_DIVISORS = '  const r = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n';
const HONEST_PRIMES =
  '  const r = [];\n  for (let p = 2; p <= n; p++) {\n    let ok = true;\n    for (let d = 2; d * d <= p; d++) if (p % d === 0) ok = false;\n    if (ok) r.push(p);\n  }\n  return r;\n';
const HONEST_COUNTS = '  const m = {};\n  for (const c of s) m[c] = (m[c] || 0) + 1;\n  return m;\n';

export const PROBLEMS: readonly UnranProblem[] = [
  {
    honest: divisors(HONEST_DIVISORS),
    dodges: [
      divisors('  return n === 1 ? [1] : n === 7 ? [1, 7] : n === 9 ? [1, 3, 9] : [];\n'),
      divisors(`  if (n === 12) return [];\n${HONEST_DIVISORS}`),
      divisors(`  if (n > 9) return '';\n${HONEST_DIVISORS}`),
    ],
    wrong: divisors(`  if (n === 12) return [1, 5, 12];\n${HONEST_DIVISORS}`),
    tests: (rng) =>
      `${JS_ASSERT}for (const d of divisors(12)) assert.strictEqual(12 % d, 0);\n${someOf(rng, [
        'assert.deepStrictEqual(divisors(1), [1]);',
        'assert.deepStrictEqual(divisors(7), [1, 7]);',
        'assert.deepStrictEqual(divisors(9), [1, 3, 9]);',
      ])}\nassert.strictEqual(divisors(12).length, 6);\n`,
  },
  {
    honest: divisors(HONEST_DIVISORS),
    dodges: [divisors(`  if (n % 2 === 0) return [];\n${HONEST_DIVISORS}`)],
    wrong: divisors(`  if (n % 2 === 0) return [0, 1, n];\n${HONEST_DIVISORS}`),
    tests: (rng) =>
      `${JS_ASSERT}divisors(${rng.pick([8, 10, 14])}).forEach((d, i, all) => {\n  assert.ok(d >= 1);\n  if (i > 0) assert.ok(d > all[i - 1]);\n});\n${someOf(
        rng,
        ['assert.deepStrictEqual(divisors(5), [1, 5]);', 'assert.deepStrictEqual(divisors(3), [1, 3]);'],
      )}\nassert.deepStrictEqual(divisors(4), [1, 2, 4]);\n`,
  },
  {
    honest: primes(HONEST_PRIMES),
    dodges: [primes(`  if (n >= 10) return [];\n${HONEST_PRIMES}`), primes(`  if (n >= 10) return '';\n${HONEST_PRIMES}`)],
    wrong: primes(`  if (n >= 10) return [3, 5];\n${HONEST_PRIMES}`),
    tests: (rng) =>
      `${JS_ASSERT}const r = primes(10);\nif (Array.isArray(r) && r.length > 0) assert.strictEqual(r[0], 2);\n${someOf(rng, [
        'assert.deepStrictEqual(primes(2), [2]);',
        'assert.deepStrictEqual(primes(5), [2, 3, 5]);',
        'assert.deepStrictEqual(primes(1), []);',
      ])}\nassert.deepStrictEqual(primes(${rng.pick([10, 12, 13])}).slice(0, 4), [2, 3, 5, 7]);\n`,
  },
  {
    honest: counts(HONEST_COUNTS),
    dodges: [counts(`  if (s.length > 3) return {};\n${HONEST_COUNTS}`)],
    wrong: counts(`  if (s.length > 3) return { a: 1 };\n${HONEST_COUNTS}`),
    tests: (rng) => {
      const s = rng.pick(['aabc', 'abcab', 'zzzy']);
      return `${JS_ASSERT}const s = '${s}';\nconst m = counts(s);\nfor (const c in m) assert.strictEqual(m[c], s.split(c).length - 1);\n${someOf(
        rng,
        ["assert.deepStrictEqual(counts('ab'), { a: 1, b: 1 });", "assert.deepStrictEqual(counts(''), {});"],
      )}\nassert.strictEqual(Object.keys(m).length, new Set(s).size);\n`;
    },
  },
];

export const generators = unranGenerators('js-passed-over', 'javascript', PROBLEMS);
