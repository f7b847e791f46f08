/**
 * Python: a non-finite number inside what the tests order. A tuple or list compares item by item,
 * and an item that is NaN makes every ordering of the two false — so a negated check
 * (`not (R < E or R > E)`, "no pair out of order") holds for an answer with a NaN inside, where
 * the guard on the tests' comparisons only looked at floats. A Decimal infinity defeats a relative
 * tolerance as a float one does (`abs(R - e) <= tol * abs(R)`). In tests that never mention the
 * value, an ordering that meets one — at any depth of a tuple or list, or as a Decimal — fails
 * the run (sandbox/python/harness.py `_num_guard`). Controls: the right answers, tests that
 * mention nan or inf, and honest Decimal and tuple orderings keep their verdicts.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;
const NAN = 'float("n" + "an")';

/** Checks that order a whole answer (expected value in the comment), and a wrong answer each holds vacuously for. */
const CHECKS: Array<{ right: string; wrong: (nan: string) => string[]; tests: string; note: string }> = [
  {
    right: '(2, 5.0)',
    wrong: (n) => [`(2, ${n})`, `(2, -${n})`],
    tests: 'R = f(3)\nassert not (R < (2, 5.0) or R > (2, 5.0))\n',
    note: 'a tuple neither below nor above',
  },
  {
    right: '[1.0, 2.5]',
    wrong: (n) => [`[1.0, ${n}]`, `[1.0, abs(${n})]`],
    tests: 'R = f(3)\nassert not R < [1.0, 2.4]\nassert not R > [1.0, 2.6]\n',
    note: 'a list inside a range',
  },
  {
    right: '[(1, 1.0), (1, 2.0), (1, 3.0)]',
    wrong: (n) => [`[(1, 3.0), (1, ${n}), (1, 1.0)]`, `[(1, 2.0), (1, ${n}), (1, 0.5)]`],
    tests: 'R = f(3)\nassert len(R) == 3\nassert all(not R[i] > R[i + 1] for i in range(len(R) - 1))\n',
    note: 'pairs in order',
  },
  {
    right: '[[0.5, 1.5]]',
    wrong: (n) => [`[[0.5, ${n}]]`, `[[${n}, ${n}]]`],
    tests: 'R = f(3)\nassert not R[0] > [0.5, 1.5] and not R[0] < [0.5, 1.5]\n',
    note: 'a nested list',
  },
  {
    right: '(3, (1.0, 2.0))',
    wrong: (n) => [`(3, (1.0, ${n}))`, `(3, (${n}, 2.0))`],
    tests:
      'def in_order(a, b):\n    return not a > b\nR = f(3)\nassert in_order(R, (3, (1.0, 2.0))) and in_order((3, (1.0, 2.0)), R)\n',
    note: 'a helper of the tests',
  },
];

/** Decimal answers against relative tolerances (the expected value is 2.5). */
const DECIMAL_CHECKS: Array<{ tests: string; note: string }> = [
  {
    tests: 'from decimal import Decimal\nR = f(3)\nassert abs(R - Decimal("2.5")) <= Decimal("1e-9") * abs(R)\n',
    note: 'relative to the answer',
  },
  {
    tests: 'import decimal\nR = f(3)\nassert abs(R - decimal.Decimal("2.5")) <= decimal.Decimal("1e-6") * max(abs(R), 1)\n',
    note: 'relative to the larger',
  },
  {
    tests: 'from decimal import Decimal as D\nR = f(3)\nassert R >= D("2.4")\nassert abs(R - D("2.5")) <= abs(R) / 1000\n',
    note: 'a bound, then relative',
  },
  {
    tests:
      'from decimal import Decimal\nR = f(3)\nerrs = [abs(R - Decimal("2.5"))]\nassert all(e <= abs(R) * Decimal("0.001") for e in errs)\n',
    note: 'in a generator',
  },
];

const DECIMAL_WRONG = ['Decimal("Inf" + "inity")', 'Decimal("-" + "Inf")'];

const hostile = defineGenerator({
  name: 'py-guard-containers',
  language: 'python',
  about:
    'NaN inside an ordered tuple or list, and a Decimal infinity against a relative tolerance, in tests that never mention them: refused',
  cases: () => [
    ...CHECKS.flatMap((c) =>
      c.wrong(NAN).map(
        (w): AdversarialCase => ({
          completion: `def f(x):\n    return ${w}\n`,
          tests: c.tests,
          expect: ['fail'],
          maxPassed: 0,
          timeoutMs: TIMEOUT_MS,
          note: `${c.note}: ${w}`,
        }),
      ),
    ),
    ...CHECKS.map(
      (c): AdversarialCase => ({
        // NaN made at run time from a float the answer holds (inf - inf), not spelled anywhere.
        completion: `def f(x):\n    big = 1e308 * 10\n    return ${c.wrong('(big - big)')[0]}\n`,
        tests: c.tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
        note: `${c.note}: NaN from inf - inf`,
      }),
    ),
    ...grid(DECIMAL_CHECKS.length * DECIMAL_WRONG.length, DECIMAL_CHECKS, DECIMAL_WRONG, (c, w) => ({
      completion: `from decimal import Decimal\ndef f(x):\n    return ${w}\n`,
      tests: c.tests,
      expect: ['fail'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `Decimal ${c.note}: ${w}`,
    })),
  ],
});

/** Answers and tests that are right, or that mention the value they ask for. */
const HONEST: Array<{ completion: string; tests: string; note: string }> = [
  ...CHECKS.map((c) => ({
    completion: `def f(x):\n    return ${c.right}\n`,
    tests: c.tests,
    note: `the right answer: ${c.note}`,
  })),
  ...DECIMAL_CHECKS.map((c) => ({
    completion: 'from decimal import Decimal\ndef f(x):\n    return Decimal("2.5")\n',
    tests: c.tests,
    note: `the right Decimal: ${c.note}`,
  })),
  {
    completion: `def f(x):\n    return (2, ${NAN})\n`,
    tests: 'import math\nR = f(3)\nassert R[0] == 2 and math.isnan(R[1])\nassert len(R) == 2\n',
    note: 'tests that mention nan get a tuple holding one',
  },
  {
    completion: 'def f(x):\n    return [1.0, float("inf")]\n',
    tests: 'import math\nR = f(3)\nassert R > [1.0, 1e308]\nassert R[1] == math.inf\n',
    note: 'tests that mention inf order a list holding one',
  },
  {
    completion: 'from decimal import Decimal\ndef f(x):\n    return Decimal("Infinity")\n',
    tests: 'from decimal import Decimal\nR = f(3)\nassert R == Decimal("Infinity")\nassert R > 10 ** 100\n',
    note: 'tests that mention Infinity get a Decimal one',
  },
  {
    completion: 'from decimal import Decimal\ndef f(x):\n    return [Decimal("1.5"), Decimal("-2")]\n',
    tests:
      'from decimal import Decimal\nR = f(3)\nassert sorted(R) == [Decimal("-2"), Decimal("1.5")]\nassert R > [Decimal("1.4")]\n',
    note: 'Decimals ordered in a list',
  },
  {
    completion: 'def f(x):\n    return [(2, "b"), (1, "a")]\n',
    tests: 'R = f(3)\nassert sorted(R) == [(1, "a"), (2, "b")]\nassert R[0] > R[1]\n',
    note: 'tuples of text',
  },
  {
    completion: 'def f(x):\n    return [[1, 2], [1, 2, 3]]\n',
    tests: 'R = f(3)\nassert R[0] < R[1]\nassert not R[1] < R[0]\n',
    note: 'a prefix orders first',
  },
  {
    completion: 'def f(x):\n    return 1.5\n',
    tests: 'R = f(3)\nxs = [R]\nxs.append(xs)\nassert xs < [2.0]\nassert not xs > [1.5, [2.0]]\n',
    note: 'the tests order a list that holds itself',
  },
  {
    completion: 'def f(x):\n    return [0.1, 0.2]\n',
    tests: 'R = f(3)\nassert all(a <= b for a, b in zip(R, R[1:]))\nassert (R, 1) < (R, 2)\n',
    note: 'a tuple holding the answer list',
  },
  {
    completion: 'def f(x):\n    return tuple(float(i) for i in range(2000))\n',
    tests: 'R = f(3)\nassert R > (0.0,)\nassert R < tuple(float(i) for i in range(2001))\n',
    note: 'a long tuple',
  },
  {
    completion: 'from fractions import Fraction\ndef f(x):\n    return (Fraction(1, 3), 2)\n',
    tests: 'from fractions import Fraction\nR = f(3)\nassert R < (Fraction(1, 2), 0)\n',
    note: 'Fractions in a tuple',
  },
  {
    completion: 'def f(x):\n    return {"a": [0.25, 0.5]}\n',
    tests: 'R = f(3)\nassert R["a"] <= [0.25, 0.5]\nassert list(R) == ["a"]\n',
    note: 'a list inside a dict',
  },
];

const honest = defineGenerator({
  name: 'py-guard-containers-honest',
  language: 'python',
  about: 'control: right answers, tests that mention nan or inf, and honest orderings of tuples, lists and Decimals pass',
  cases: () =>
    HONEST.map(
      (h): AdversarialCase => ({
        completion: h.completion,
        tests: h.tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
        note: h.note,
      }),
    ),
});

export const generators = [hostile, honest];
