/**
 * Python: a NaN (or an infinity the tests never mention) through a comparison the standard
 * library makes on the tests' behalf. The tests' own `<` and their min/max/sorted are guarded, but
 * `heapq`, `bisect` and `statistics` compare in C (or in their own unguarded Python), as do
 * `operator.lt/le/gt/ge` and a `functools.cmp_to_key` comparator; a tuple or list ordered against
 * another compares the NaN inside it itself; and a Decimal infinity is no float. Each lets a wrong
 * answer (a NaN in place of an item, an infinity in place of a number) pass: `bisect_left(xs, 2.0)
 * == 1` over `[1, nan, 3]`, `nsmallest(len(xs), xs) == xs` over `[3, nan, 1]`, a relative
 * tolerance scaled by `Decimal('Infinity')`. Controls: right answers; tests that mention NaN or
 * an infinity; honest heapq/bisect/statistics/operator use, however the module is imported.
 */
import { type AdversarialCase, scoredPair } from './framework.ts';

const TIMEOUT_MS = 8000;

/**
 * How the program writes an answer item (a number's text), an item that reads as NaN, one that
 * reads as an infinity, and how the tests read `v` (never naming either value).
 */
interface Source {
  item: (n: string) => string;
  nan: string;
  inf: string;
  read: (v: string) => string;
}

const SOURCES: Source[] = [
  { item: (n) => `"${n}"`, nan: '"nan"', inf: '"inf"', read: (v) => `float(${v})` },
  { item: (n) => `" ${n} "`, nan: '" NaN "', inf: '" Infinity "', read: (v) => `float(${v})` },
  { item: (n) => `"${n}"`, nan: '"-nan"', inf: '"-inf"', read: (v) => `float(${v}.strip())` },
  {
    item: (n) => `struct.pack("<d", ${n})`,
    nan: 'struct.pack("<d", float("n" + "an"))',
    inf: 'struct.pack("<d", float("i" + "nf"))',
    read: (v) => `struct.unpack("<d", ${v})[0]`,
  },
  { item: (n) => `"${n}"`, nan: '"+NaN"', inf: '"+INF"', read: (v) => `float(${v}) * 1.0` },
];

/**
 * Tests over `xs` (the answer's items as the tests read them) that the right answer passes and
 * the wrong one (`wrong`, `B` the bad item) passes only through an unguarded comparison.
 */
interface Shape {
  family: string;
  head: string;
  tests: string;
  right: string[];
  wrong: string[];
  /** The bad item is an infinity, read as a Decimal. */
  decimal?: boolean;
  note: string;
  passed: number;
  gold: number;
}

const shape = (s: Omit<Shape, 'passed' | 'gold'>): Shape => ({ ...s, passed: 0, gold: 0 });
const UP = ['1.0', '2.0', '3.0'];

const SHAPES: Shape[] = [
  // heapq
  shape({
    family: 'heapq',
    head: 'import heapq',
    tests: 'assert heapq.nsmallest(len(xs), xs) == xs',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'heapq.nsmallest: sorted',
  }),
  shape({
    family: 'heapq',
    head: 'from heapq import heapify, heappop',
    tests: 'h = list(xs)\nheapify(h)\nout = [heappop(h) for _ in xs]\nassert len(out) == 3 and out[0] == 0.5 and out[-1] == 1.0',
    right: ['1.0', '0.75', '0.5'],
    wrong: ['1.0', 'B', '0.5'],
    note: 'heapify + heappop: ends',
  }),
  shape({
    family: 'heapq',
    head: 'import heapq as hq',
    tests: 'assert hq.nsmallest(1, xs) == [0.5]',
    right: ['1.0', '0.75', '0.5'],
    wrong: ['1.0', 'B', '0.5'],
    note: 'heapq.nsmallest(1): least',
  }),
  shape({
    family: 'heapq',
    head: 'import importlib\nheapq = importlib.import_module("heapq")',
    tests: 'assert heapq.nlargest(1, xs) == [3.0]',
    right: ['3.0', '2.0', '1.0'],
    wrong: ['3.0', 'B', '1.0'],
    note: 'importlib heapq.nlargest(1): greatest',
  }),
  // bisect
  shape({
    family: 'bisect',
    head: 'import bisect',
    tests: 'assert bisect.bisect_left(xs, 2.0) == 1',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    note: 'bisect_left',
  }),
  shape({
    family: 'bisect',
    head: 'from bisect import bisect_right',
    tests: 'assert bisect_right(xs, 2.5) == 2',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    note: 'bisect_right',
  }),
  shape({
    family: 'bisect',
    head: 'import bisect',
    tests: 'ys = []\nfor x in xs:\n    bisect.insort(ys, x)\nassert ys == xs',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    note: 'insort: sorted',
  }),
  shape({
    family: 'bisect',
    head: 'bisect = __import__("bisect")',
    tests: 'assert bisect.bisect_left(xs, 2.0, key=lambda v: v * 1) == 1',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    note: '__import__ bisect_left with a key',
  }),
  // statistics
  shape({
    family: 'statistics',
    head: 'import statistics',
    tests: 'assert statistics.median(xs) == 3.0',
    right: ['1.0', '3.0', '4.0'],
    wrong: ['1.0', '3.0', 'B'],
    note: 'median',
  }),
  shape({
    family: 'statistics',
    head: 'from statistics import median_low',
    tests: 'assert median_low(xs) == 3.0',
    right: ['1.0', '3.0', '4.0'],
    wrong: ['1.0', '3.0', 'B'],
    note: 'median_low',
  }),
  shape({
    family: 'statistics',
    head: 'import statistics as st',
    tests: 'assert st.median_high(xs) <= 1.0',
    right: ['0.5', '1.0', '3.0'],
    wrong: ['B', '1.0', '3.0'],
    note: 'median_high in range',
  }),
  shape({
    family: 'statistics',
    head: 'import statistics',
    tests: 'm = statistics.median_low(xs)\nassert not m > 1.0 and len(xs) == 3',
    right: ['0.5', '1.0', '3.0'],
    wrong: ['B', '1.0', '3.0'],
    note: 'median_low, negated',
  }),
  // operator / cmp_to_key
  shape({
    family: 'operator',
    head: 'import operator',
    tests: 'assert not any(operator.gt(a, b) for a, b in zip(xs, xs[1:]))',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'operator.gt: sorted',
  }),
  shape({
    family: 'operator',
    head: 'from operator import lt',
    tests: 'assert not any(lt(b, a) for a, b in zip(xs, xs[1:]))',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'operator.lt: sorted',
  }),
  shape({
    family: 'operator',
    head: 'import functools',
    tests: 'assert sorted(xs, key=functools.cmp_to_key(lambda a, b: a - b)) == xs',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'cmp_to_key: sorted',
  }),
  shape({
    family: 'operator',
    head: 'from functools import cmp_to_key\nimport operator as op',
    tests:
      'ys = list(xs)\nys.sort(key=cmp_to_key(op.sub))\nassert ys == xs and not [a for a, b in zip(xs, xs[1:]) if op.ge(a, b)]',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'cmp_to_key(operator.sub) and operator.ge',
  }),
  // NaN nested in a tuple or list
  shape({
    family: 'nested',
    head: '',
    tests: 'ps = [(1, x) for x in xs]\nassert not any(p > q for p, q in zip(ps, ps[1:]))',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'tuples: sorted',
  }),
  shape({
    family: 'nested',
    head: '',
    tests: 'ps = [[x, 0] for x in xs]\nassert all(not p >= q for p, q in zip(ps, ps[1:])) or len(ps) < 3',
    right: UP,
    wrong: ['3.0', 'B', '3.0'],
    note: 'lists: strictly sorted',
  }),
  shape({
    family: 'nested',
    head: '',
    tests: 'ps = [(x, i) for i, x in enumerate(xs)]\nassert sorted(ps) == ps',
    right: UP,
    wrong: ['3.0', 'B', '1.0'],
    note: 'tuples: sorted()',
  }),
  shape({
    family: 'nested',
    head: '',
    tests: 'ps = [(1, x) for x in xs]\nassert max(ps) == (1, 3.0)',
    right: ['3.0', '2.0', '1.0'],
    wrong: ['3.0', 'B', '1.0'],
    note: 'tuples: max',
  }),
  // a Decimal infinity
  shape({
    family: 'decimal',
    head: 'from decimal import Decimal',
    tests: 'assert all(abs(d - e) <= Decimal("1e-9") * abs(d) for d, e in zip(xs, [1, 2, 3]))',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    decimal: true,
    note: 'Decimal: relative tolerance',
  }),
  shape({
    family: 'decimal',
    head: 'import decimal',
    tests: 'assert not any(abs(d - e) > abs(d) / 1000 for d, e in zip(xs, [1, 2, 3]))',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    decimal: true,
    note: 'Decimal: negated relative tolerance',
  }),
  shape({
    family: 'decimal',
    head: 'from decimal import Decimal',
    tests: 'assert all(d >= 1 for d in xs) and len(xs) == 3',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    decimal: true,
    note: 'Decimal: lower bound',
  }),
  shape({
    family: 'decimal',
    head: 'import decimal',
    tests: 'assert sum(xs) >= 6 and abs(sum(xs) - 6) <= sum(xs) / 10**9',
    right: UP,
    wrong: ['1.0', 'B', '3.0'],
    decimal: true,
    note: 'Decimal: a sum, relative',
  }),
];

const f = (items: string[]) => `def f():\n    return [${items.map((s) => `"${s}"`).join(', ')}]\n`;
const ok = (completion: string, tests: string): AdversarialCase => ({
  completion,
  tests,
  expect: ['pass'],
  timeoutMs: TIMEOUT_MS,
});

const CONTROLS: AdversarialCase[] = [
  // The tests mention NaN or an infinity: the language's own semantics.
  ok(
    f(['1', 'nan', '0.5']),
    'import math, heapq\nxs = [float(v) for v in f()]\nassert math.isnan(xs[1]) and heapq.nsmallest(1, xs) == [0.5]\n',
  ),
  ok(
    f(['1', 'nan', '3']),
    'import bisect, math\nxs = [float(v) for v in f()]\nassert bisect.bisect_left(xs, 2.0) == 1 and math.isnan(xs[1])\n',
  ),
  ok(
    f(['nan', '3', '1']),
    'import statistics, math\nxs = [float(v) for v in f()]\nassert math.isnan(statistics.fmean(xs)) and statistics.median_low(xs[1:]) == 1.0\n',
  ),
  ok(
    f(['3', 'nan', '1']),
    'import operator\nxs = [float(v) for v in f()]\nassert not operator.lt(xs[1], 0) and str(xs[1]) == "nan"\n',
  ),
  ok(f(['1', 'nan']), 'xs = [float(v) for v in f()]\nassert not (1, xs[1]) < (1, 0) and xs[1] != xs[1]  # nan\n'),
  ok(
    f(['1', 'inf']),
    'import heapq, math\nxs = [float(v) for v in f()]\nassert heapq.nlargest(1, xs) == [math.inf] and heapq.nsmallest(1, xs) == [1.0]\n',
  ),
  ok(
    f(['1', 'inf']),
    'import bisect, math\nxs = [float(v) for v in f()]\nassert bisect.bisect_left(xs, math.inf) == 1 and xs[1] > 1e308\n',
  ),
  ok(
    f(['1', 'Infinity']),
    'from decimal import Decimal\nxs = [Decimal(v) for v in f()]\nassert xs[1] == Decimal("Infinity") and xs[1] > 10**9 and sorted(xs) == xs\n',
  ),
  ok(
    f(['-inf', '2']),
    'import statistics\nxs = [float(v) for v in f()]\nassert statistics.median_high(xs) == 2.0 and xs[0] < -1e308  # -inf\n',
  ),
  ok(f(['1', 'inf']), 'xs = [float(v) for v in f()]\nassert [0, xs[1]] > [0, 5] and (xs[1],) >= (float("inf"),)\n'),
  // Honest stdlib use in tests that mention neither value, however the module is imported.
  ok(
    'def f(xs):\n    return sorted(xs)\n',
    'import heapq\nh = [5, 3, 8, 1]\nheapq.heapify(h)\nassert [heapq.heappop(h) for _ in range(4)] == f([5, 3, 8, 1])\n',
  ),
  ok(
    'def f(xs):\n    return sorted(xs)\n',
    'from heapq import heappush, heappop, nsmallest, nlargest, merge\nh = []\nfor x in [2.5, 0.5, 1.5]:\n    heappush(h, x)\nassert heappop(h) == 0.5 and nsmallest(2, f([3, 1, 2])) == [1, 2] and nlargest(1, [1, 4]) == [4] and list(merge([1, 3], [2])) == [1, 2, 3]\n',
  ),
  ok(
    'def f(xs):\n    return sorted(xs)\n',
    'import bisect\nys = []\nfor x in [3.5, 1.25, 2.0]:\n    bisect.insort(ys, x)\nassert ys == f([2.0, 3.5, 1.25]) and bisect.bisect_left(ys, 2.0) == 1 and bisect.bisect_right(["a", "c"], "b") == 1\n',
  ),
  ok(
    'def f(xs):\n    return xs\n',
    'import importlib\nb = importlib.import_module("bisect")\nh = __import__("heapq")\nassert b.bisect(f([1, 2, 3]), 2) == 2 and h.nsmallest(1, f([(2, "b"), (1, "a")])) == [(1, "a")]\n',
  ),
  ok(
    'def f(xs):\n    return sum(xs) / len(xs)\n',
    'import statistics\nxs = [1.0, 2.0, 4.0]\nassert abs(statistics.mean(xs) - f(xs)) < 1e-9 and statistics.median(xs) == 2.0 and statistics.stdev(xs) > 1 and statistics.mode([1, 1, 2]) == 1\n',
  ),
  ok(
    'def f(xs):\n    return sorted(xs, key=lambda s: (len(s), s))\n',
    'import functools\nws = ["bb", "a", "ccc"]\nassert f(ws) == sorted(ws, key=functools.cmp_to_key(lambda a, b: len(a) - len(b)))\n',
  ),
  ok(
    'def f(a, b):\n    return a < b\n',
    'import operator\nfrom operator import le, gt, itemgetter\nassert f(1, 2) == operator.lt(1, 2) and le(2.5, 2.5) and not gt("a", "b") and sorted([(2, 1), (1, 2)], key=itemgetter(1))[0] == (2, 1)\n',
  ),
  ok(
    'def f(xs):\n    return sorted(xs)\n',
    'ps = f([(1, 2.5), (1, 0.5), (0, 9.0)])\nassert ps[0] < ps[1] < ps[2] and [1, 0.5] <= [1, 0.5] and max(ps) == (1, 2.5)\n',
  ),
  ok(
    'from decimal import Decimal\n\ndef f(a):\n    return Decimal(a) * 2\n',
    'from decimal import Decimal\nassert abs(f("1.25") - Decimal("2.5")) <= Decimal("1e-9") and f("3") > 5 and sorted([f("2"), f("1")])[0] == 2\n',
  ),
  ok(
    'def f(xs):\n    return sorted(xs)\n',
    'from heapq import *\nfrom bisect import *\nh = [3, 1, 2]\nheapify(h)\nassert heappop(h) == 1 and bisect_left(f([3, 1, 2]), 2) == 1\n',
  ),
  ok(
    'def f():\n    return [1.5, 0.5]\n',
    'import heapq, bisect, statistics\nxs = f()\ntry:\n    heapq.heappush(list(xs), "a")\nexcept TypeError:\n    pass\nassert statistics.median(xs + [1.0]) == 1.0 and bisect.bisect(sorted(xs), 1.0) == 1\n',
  ),
];

export const generators = scoredPair({
  name: 'py-stdlib-orderings',
  language: 'python',
  about: 'a NaN through heapq/bisect/statistics/operator/cmp_to_key or nested in a tuple, or a Decimal infinity: never a pass',
  aboutHonest: 'control: right answers pass; NaN or infinities where the tests mention them; honest stdlib orderings',
  n: SOURCES.length * SHAPES.length,
  sources: SOURCES,
  shapes: SHAPES,
  build: (src, s, right) => {
    const items = (right ? s.right : s.wrong).map((n) => (n === 'B' ? (s.decimal ? src.inf : src.nan) : src.item(n)));
    const read = s.decimal ? `Decimal(${src.read('v')})` : src.read('v');
    const head = s.decimal && !s.head.includes('from decimal import Decimal') ? `${s.head}\nfrom decimal import Decimal` : s.head;
    return {
      completion: `import struct\n\ndef f():\n    return [${items.join(', ')}]\n`,
      tests: `import struct\n${head}\nxs = [${read} for v in f()]\n${s.tests}\n`,
      note: `${s.family}: ${right ? 'right' : s.decimal ? src.inf : src.nan}`,
    };
  },
  common: { timeoutMs: TIMEOUT_MS },
  controls: CONTROLS,
});
