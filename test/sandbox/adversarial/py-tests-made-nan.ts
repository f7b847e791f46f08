/**
 * Python: stdlib functions that order on the tests' behalf — heapq, bisect, statistics,
 * operator.lt/le/gt/ge, functools.cmp_to_key — compare in C (or with the module's own sorted()),
 * where the tests' comparison guard never looks. A NaN the program answers crosses as a stand-in
 * and is refused wherever it is used; these cases make the NaN on the tests' side, from an answer
 * that is text the tests parse with float() ("nan") or an infinity they subtract from itself, and
 * hand it to those functions, which skip it or leave it in place: the largest error reads as 0,
 * an unsorted list as sorted, a median as right. In tests that never mention NaN the tests get
 * copies of these modules built from their pure-Python source through the tests' own comparison
 * guard (sandbox/python/harness.py), which refuse the NaN where they compare it.
 * Controls: honest uses of every function (heaps of tuples, bisect on sorted lists, medians,
 * cmp_to_key sorts, operator comparisons) and tests that mention nan keep their verdicts.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** How a wrong answer becomes NaN on the tests' side: its completion and the tests' line that parses it into `vals`. */
const SOURCES: Array<{ completion: string; parse: string; note: string }> = [
  {
    completion: 'def f(x):\n    return ["2.5", "n" + "an", "2.5"]\n',
    parse: 'vals = [float(v) for v in f(3)]\n',
    note: 'text parsed by float()',
  },
  {
    completion: 'def f(x):\n    return [2.5, 1e308 * 10, 2.5]\n',
    // No ordering of the infinity itself (the tests' guard would refuse it there): only == and -.
    parse: 'R = f(3)\nvals = [v if v - v == 0.0 else v - v for v in R]\n',
    note: 'an infinity the tests subtract from itself',
  },
];

/** Checks over `vals` (expected [2.5, 2.5, 2.5]) that a NaN in the middle passes unguarded. */
const CHECKS: Array<{ tests: string; note: string }> = [
  {
    tests: 'import heapq\nassert heapq.nlargest(1, [abs(v - 2.5) for v in vals])[0] <= 1e-9\n',
    note: 'heapq.nlargest of errors',
  },
  { tests: 'import heapq\nassert not heapq.nsmallest(1, vals)[0] < 2.5\n', note: 'heapq.nsmallest' },
  {
    tests: 'import heapq\nh = []\nfor v in vals:\n    heapq.heappush(h, (-v, len(h)))\nassert -h[0][0] <= 2.5\n',
    note: 'heapq.heappush of tuples',
  },
  {
    tests: 'import heapq\nh = [abs(v - 2.5) for v in vals]\nheapq.heapify(h)\nassert max(h[:1]) <= 1e-9\n',
    note: 'heapq.heapify',
  },
  // merge compares only while two inputs are live, so the NaN meets the other input's 2.5 here.
  { tests: 'from heapq import merge\nassert list(merge(vals, [2.5]))[-1] <= 2.5\n', note: 'heapq.merge' },
  {
    tests: 'import bisect\nout = []\nfor v in vals:\n    bisect.insort(out, v)\nassert out[0] >= 2.5 - 1e-9\n',
    note: 'bisect.insort',
  },
  { tests: 'import bisect\nassert bisect.bisect_right([2.5], vals[1]) == 1\n', note: 'bisect_right of an item' },
  { tests: 'import statistics\nassert not abs(statistics.median(vals) - 2.5) > 1e-9\n', note: 'statistics.median' },
  { tests: 'from statistics import median_high\nassert median_high(vals) == 2.5\n', note: 'statistics.median_high' },
  { tests: 'import operator\nassert all(not operator.gt(abs(v - 2.5), 1e-9) for v in vals)\n', note: 'operator.gt' },
  {
    tests:
      'import functools\nys = sorted(vals, key=functools.cmp_to_key(lambda a, b: a - b))\nassert ys[0] == 2.5 and ys[-1] == 2.5\n',
    note: 'functools.cmp_to_key',
  },
];

const hostile = defineGenerator({
  name: 'py-tests-made-nan',
  language: 'python',
  about: 'a NaN the tests make from a wrong answer, handed to heapq, bisect, statistics, operator or cmp_to_key: refused',
  cases: () =>
    grid(
      SOURCES.length * CHECKS.length,
      SOURCES,
      CHECKS,
      (src, check): AdversarialCase => ({
        completion: src.completion,
        tests: src.parse + check.tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
        note: `${check.note}: ${src.note}`,
      }),
    ),
});

/** Honest answers and honest uses of the same functions. */
const HONEST: Array<{ completion: string; tests: string; note: string }> = [
  ...CHECKS.map((c) => ({
    completion: 'def f(x):\n    return ["2.5", "2.5", "2.5"]\n',
    tests: `vals = [float(v) for v in f(3)]\n${c.tests}`,
    note: `the right answer: ${c.note}`,
  })),
  {
    completion: 'def f(x):\n    return [5, 1, 4, 2, 3]\n',
    tests: 'import heapq\nh = list(f(3))\nheapq.heapify(h)\nassert [heapq.heappop(h) for _ in range(5)] == [1, 2, 3, 4, 5]\n',
    note: 'heapsort',
  },
  {
    completion: 'def f(x):\n    return [(2, "b"), (1, "a"), (3, "c")]\n',
    tests:
      'import heapq\nh = []\nfor item in f(3):\n    heapq.heappush(h, item)\nassert heapq.heappop(h) == (1, "a")\nassert heapq.nlargest(1, f(3), key=lambda t: t[0]) == [(3, "c")]\n',
    note: 'a heap of tuples and a key',
  },
  {
    completion: 'def f(x):\n    return [1, 3, 5, 7]\n',
    tests:
      'import bisect\nR = f(3)\nassert bisect.bisect_left(R, 5) == 2\nbisect.insort(R, 4)\nassert R == [1, 3, 4, 5, 7]\nassert bisect.bisect(R, 100, key=lambda v: v * 10) == 5\n',
    note: 'bisect and insort',
  },
  {
    completion: 'def f(x):\n    return [1.0, 2.0, 3.0, 4.0]\n',
    tests:
      'import statistics\nR = f(3)\nassert statistics.median(R) == 2.5\nassert statistics.quantiles(R, n=2) == [2.5]\nassert statistics.median_low(R) == 2.0\n',
    note: 'medians and quantiles',
  },
  {
    completion: 'def f(x):\n    return ["bb", "a", "ccc"]\n',
    tests:
      'import functools\nys = sorted(f(3), key=functools.cmp_to_key(lambda a, b: len(a) - len(b)))\nassert ys == ["a", "bb", "ccc"]\n',
    note: 'cmp_to_key on lengths',
  },
  {
    completion: 'def f(x):\n    return 3\n',
    tests: 'import operator\nfrom operator import lt\nassert operator.ge(f(3), 3) and lt(f(3), 4) and operator.__gt__(f(3), 2)\n',
    note: 'operator comparisons',
  },
  {
    completion: 'def f(x):\n    return ["nan", "1.0"]\n',
    tests:
      'import heapq, math\nvals = [float(v) for v in f(3)]\nassert math.isnan(vals[0])\nassert len(heapq.nsmallest(2, vals)) == 2\n',
    note: 'tests that mention nan hand one to heapq',
  },
  {
    completion: 'def f(x):\n    return ["nan", "2.5"]\n',
    tests:
      'import statistics\nvals = [float(v) for v in f(3)]\nassert any(v != v for v in vals)  # nan\nassert len(statistics.quantiles(vals + [1.0], n=2)) == 1\n',
    note: 'tests that mention nan hand one to statistics',
  },
  {
    completion: 'def f(x):\n    return [3, 1, 2]\n',
    tests: 'from heapq import merge\nassert list(merge(sorted(f(3)), [0, 4])) == [0, 1, 2, 3, 4]\n',
    note: 'heapq.merge',
  },
];

const honest = defineGenerator({
  name: 'py-tests-made-nan-honest',
  language: 'python',
  about: 'control: right answers and honest heapq, bisect, statistics, cmp_to_key and operator uses pass',
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
