/**
 * Python, beside js-passed-over.ts (red-team rt7-js U04): an answer keeps an assert from running
 * (a loop over an empty answer, a branch it steers around), the asserts after it pass, and a later
 * one fails. The run ended on that failure and kept the passes in between (2/3 where a wrong
 * answer, failing the first assert, scored 0). Now a run that went on past an assert written
 * before one it reached, outside the tests' functions, passes no site. See unran-checks.ts.
 */
import { DIVISORS_PROBLEM } from './py-unran-gold.ts';
import { someOf, type UnranProblem, unranGenerators } from './unran-checks.ts';

const PRIMES = 'def primes(n):\n';
const HONEST_PRIMES = '    return [p for p in range(2, n + 1) if all(p % d for d in range(2, int(p ** 0.5) + 1))]\n';
const COUNTS = 'def counts(s):\n';
const HONEST_COUNTS = '    m = {}\n    for c in s:\n        m[c] = m.get(c, 0) + 1\n    return m\n';

export const PROBLEMS: readonly UnranProblem[] = [
  {
    // Dodges whose answer the last assert can measure (`len` of an iterator raises instead).
    ...DIVISORS_PROBLEM,
    dodges: DIVISORS_PROBLEM.dodges.slice(0, 3),
    tests: (rng) => `${DIVISORS_PROBLEM.tests(rng)}assert len(divisors(12)) == 6\n`,
  },
  {
    honest: PRIMES + HONEST_PRIMES,
    dodges: [
      `${PRIMES}    if n >= 10:\n        return []\n${HONEST_PRIMES}`,
      `${PRIMES}    if n == 10:\n        return ''\n${HONEST_PRIMES}`,
    ],
    wrong: `${PRIMES}    if n >= 10:\n        return [3, 5]\n${HONEST_PRIMES}`,
    tests: (rng) =>
      `r = primes(10)\nif r:\n    assert r[0] == 2\n${someOf(rng, [
        'assert primes(2) == [2]',
        'assert primes(5) == [2, 3, 5]',
        'assert primes(1) == []',
      ])}\nassert list(primes(${rng.pick([10, 12, 13])}))[:4] == [2, 3, 5, 7]\n`,
  },
  {
    honest: COUNTS + HONEST_COUNTS,
    dodges: [`${COUNTS}    if len(s) > 3:\n        return {}\n${HONEST_COUNTS}`],
    wrong: `${COUNTS}    if len(s) > 3:\n        return {'a': 1}\n${HONEST_COUNTS}`,
    tests: (rng) => {
      const s = rng.pick(['aabc', 'abcab', 'zzzy']);
      return `s = '${s}'\nm = counts(s)\nfor c in m:\n    assert m[c] == s.count(c)\n${someOf(rng, [
        "assert counts('ab') == {'a': 1, 'b': 1}",
        "assert counts('') == {}",
      ])}\nassert len(m) == len(set(s))\n`;
    },
  },
];

export const generators = unranGenerators('py-passed-over', 'python', PROBLEMS);
