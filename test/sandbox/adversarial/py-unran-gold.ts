/**
 * Python, beside js-unran-gold.ts: a check an answer keeps from running — a loop over an empty
 * answer, a callback the answer never calls — followed by asserts that pass. The run fails ("the
 * assertion … never ran") and now passes no site, as a wrong value's run does (it scored the later
 * asserts before). See unran-checks.ts.
 */
import { someOf, type UnranProblem, unranGenerators } from './unran-checks.ts';

const DIVISORS = 'def divisors(n):\n';
const HONEST_DIVISORS = '    return [d for d in range(1, n + 1) if n % d == 0]\n';
const EACH = 'def each_prime(n, cb):\n';
const COUNT = 'def word_count(s):\n';

/** A loop over the divisors first (py-passed-over.ts adds a failing assert after it). */
export const DIVISORS_PROBLEM: UnranProblem = {
  honest: DIVISORS + HONEST_DIVISORS,
  dodges: [
    `${DIVISORS}    return {1: [1], 7: [1, 7], 9: [1, 3, 9]}.get(n, [])\n`,
    `${DIVISORS}    if n == 12:\n        return ''\n${HONEST_DIVISORS}`,
    `${DIVISORS}    if n > 9:\n        return set()\n${HONEST_DIVISORS}`,
    `${DIVISORS}    if n > 9:\n        return iter(())\n${HONEST_DIVISORS}`,
  ],
  wrong: `${DIVISORS}    if n == 12:\n        return [1, 5, 12]\n${HONEST_DIVISORS}`,
  tests: (rng) =>
    `for d in divisors(12):\n    assert 12 % d == 0\n${someOf(rng, [
      'assert divisors(1) == [1]',
      'assert divisors(7) == [1, 7]',
      'assert divisors(9) == [1, 3, 9]',
    ])}\n`,
};

const PROBLEMS: readonly UnranProblem[] = [
  DIVISORS_PROBLEM,
  {
    honest: `${EACH}    for p in range(2, n + 1):\n        if all(p % d for d in range(2, int(p ** 0.5) + 1)):\n            cb(p)\n    return n\n`,
    dodges: [
      `${EACH}    return n\n`,
      `${EACH}    if n > 100:\n        cb(101)\n    return n\n`,
      `${EACH}    list(map(cb, []))\n    return n\n`,
    ],
    wrong: `${EACH}    for p in range(2, n + 1):\n        cb(p)\n    return n\n`,
    tests: (rng) =>
      `def check(p):\n    for d in range(2, int(p ** 0.5) + 1):\n        assert p % d != 0\neach_prime(${rng.pick([10, 20, 30])}, check)\n${someOf(
        rng,
        ['assert each_prime(5, lambda p: None) == 5', 'assert each_prime(0, lambda p: None) == 0'],
      )}\n`,
  },
  {
    honest: `${COUNT}    m = {}\n    for w in s.split():\n        m[w] = m.get(w, 0) + 1\n    return m\n`,
    dodges: [`${COUNT}    return {}\n`, `${COUNT}    m = dict.fromkeys(s.split(), 0)\n    m.clear()\n    return m\n`],
    wrong: `${COUNT}    return {w: 1 for w in s.split()}\n`,
    tests: (rng) => {
      const s = rng.pick(['a b a c b a', 'x y x', 'to be or not to be']);
      return `s = '${s}'\nm = word_count(s)\nfor w, c in m.items():\n    assert c == s.split().count(w)\n${someOf(rng, [
        'assert isinstance(m, dict)',
        'assert word_count(s) is not m',
        'assert len(m) >= 0',
      ])}\n`;
    },
  },
];

export const generators = unranGenerators('py-unran-gold', 'python', PROBLEMS);
