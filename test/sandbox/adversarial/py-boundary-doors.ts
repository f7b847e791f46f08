/**
 * Python generators for doors the plain-data boundary left open: a complex NaN (its `abs(z - e)`
 * is a NaN, so a negated tolerance check holds), a StopIteration raised by the program that ends
 * the tests' own iteration around the call (`all(map(...))` holds when nothing was checked), and
 * honest value types whose state lives outside the dict underneath (an OrderedDict's order,
 * `typing.NamedTuple` classes) that must keep passing.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** Complex answers holding a NaN part, and how the tests reach the number (`R` = the answer). */
const COMPLEX_NANS: Array<[string, string]> = [
  ['complex(float("nan"), 0)', 'R'],
  ['complex(6, float("nan"))', 'R'],
  ['[cmath.nan + 0j]', 'R[0]'],
  ['(complex("nan+1j"), 1)', 'R[0]'],
  ['{"z": complex(0, cmath.inf) * 0}', 'R["z"]'],
  ['{complex("nan"): 1}', 'list(R)[0]'],
  ['[[cmath.nanj]]', 'R[0][0]'],
];

/** Tolerance checks written as negations (they forget NaN); `X` is the number read. */
const NEGATED: Array<(x: string) => string> = [
  (x) => `assert not abs(${x} - 6) > 1e-9`,
  (x) => `assert not (abs(${x} - 6) >= 1e-6)`,
  (x) => `assert not abs(6 - ${x}) > 1e-9 * abs(6)`,
];

const complexNan = defineGenerator({
  name: 'py-complex-nan',
  language: 'python',
  about: 'a complex answer with a NaN part against tolerance checks written as negations: never a pass',
  cases: () =>
    grid(21, COMPLEX_NANS, NEGATED, ([value, read], check) => ({
      completion: `import cmath\n\ndef f(x):\n    return ${value}\n`,
      tests: `def check(candidate):\n    R = candidate(3)\n    ${check(read)}\n\ncheck(f)\n`,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: value,
    })),
});

const complexHonest = defineGenerator({
  name: 'py-complex-honest',
  language: 'python',
  about: 'control: complex answers (finite, and NaN where the tests ask with cmath.isnan) pass',
  cases: (rng) =>
    grid(20, [0, 1, 2, 3], [0, 1, 2, 3, 4], (kind, k, i) => {
      const a = rng.int(1, 9);
      const b = rng.int(1, 9);
      if (kind === 0)
        return {
          completion: `def f(x):\n    return complex(x, ${b})\n`,
          tests: `def check(candidate):\n    assert abs(candidate(${a}) - complex(${a}, ${b})) < 1e-9\n    assert candidate(${a}) == ${a} + ${b}j\n\ncheck(f)\n`,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        };
      if (kind === 1)
        return {
          completion: `import cmath\n\ndef f(x):\n    return [cmath.sqrt(-x * x)] * ${k + 1}\n`,
          tests: `def check(candidate):\n    r = candidate(${a})\n    assert len(r) == ${k + 1}\n    assert abs(r[0] - ${a}j) < 1e-9\n\ncheck(f)\n`,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        };
      if (kind === 2)
        return {
          completion: `def f(x):\n    return complex(float("nan"), x)\n`,
          tests: `import cmath\n\ndef check(candidate):\n    assert cmath.isnan(candidate(${a}))\n    assert candidate(${a}).imag == ${a}\n\ncheck(f)\n`,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        };
      return {
        completion: `def f(x):\n    return {"re": x, "z": complex(x, -x)}\n`,
        tests: `def check(candidate):\n    assert candidate(${a + i}) == {"re": ${a + i}, "z": complex(${a + i}, -${a + i})}\n\ncheck(f)\n`,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      };
    }),
});

/** What the program raises to stop the tests' iteration. */
const STOPS: Array<[string, string]> = [
  ['StopIteration', 'raise StopIteration'],
  ['StopIteration(0)', 'raise StopIteration(0)'],
  ['subclass', 'raise Done()'],
  ['after one right answer', 'if x > 1:\n        raise StopIteration\n    return x * 2'],
];

/** Tests whose iteration around the call a StopIteration would end early (`C` = candidate). */
const ITERATIONS = [
  'assert all(map(lambda t: candidate(t[0]) == t[1], CASES))',
  'assert not any(map(lambda t: candidate(t[0]) != t[1], CASES))',
  'assert sum(map(lambda t: candidate(t[0]) != t[1], CASES)) == 0',
  'assert list(filter(lambda t: candidate(t[0]) != t[1], CASES)) == []',
  'assert len(list(zip(map(candidate, [t[0] for t in CASES]), [t[1] for t in CASES]))) >= 0 and all(map(lambda t: candidate(t[0]) == t[1], CASES))',
  'assert max(map(lambda t: int(candidate(t[0]) != t[1]), CASES), default=0) == 0',
];

const stopIteration = defineGenerator({
  name: 'py-stopiteration-escape',
  language: 'python',
  about: "the program raises StopIteration inside the tests' map/filter/all/any/sum: it arrives as RuntimeError, never a pass",
  cases: (rng) =>
    grid(24, STOPS, ITERATIONS, ([what, raise], check) => {
      const k = rng.int(2, 9);
      const cases = `[(1, ${2}), (2, 4), (${k}, ${2 * k})]`;
      return {
        completion: `class Done(StopIteration):\n    pass\n\ndef f(x):\n    ${raise}\n`,
        tests: `def check(candidate):\n    CASES = ${cases}\n    ${check}\n\ncheck(f)\n`,
        expect: ['fail', 'error'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
        note: `${what} / ${check.slice(7, 40)}`,
      };
    }),
});

/** Honest OrderedDict and typing.NamedTuple answers, and a class keeping an OrderedDict. */
const HONEST_VALUES: Array<{ completion: string; tests: string }> = [
  {
    completion:
      'from collections import OrderedDict\n\ndef f(xs):\n    d = OrderedDict((x, i) for i, x in enumerate(xs))\n    d.move_to_end(xs[0])\n    return d\n',
    tests:
      'from collections import OrderedDict\n\ndef check(candidate):\n    r = candidate(XS)\n    assert list(r) == XS[1:] + XS[:1]\n    assert r == OrderedDict([(x, i) for i, x in enumerate(XS)][1:] + [(XS[0], 0)])\n    r.move_to_end(XS[1])\n    assert r.popitem() == (XS[1], 1)\n\ncheck(f)\n',
  },
  {
    completion:
      'from collections import OrderedDict\n\ndef f(xs):\n    d = OrderedDict()\n    for x in reversed(xs):\n        d[x] = x * 2\n    d.move_to_end(xs[-1], last=False)\n    return d\n',
    tests:
      'def check(candidate):\n    r = candidate(XS)\n    assert list(r.keys())[0] == XS[-1]\n    assert r.popitem(last=False) == (XS[-1], XS[-1] * 2)\n\ncheck(f)\n',
  },
  {
    completion:
      'from typing import NamedTuple\n\nclass Pt(NamedTuple):\n    x: int\n    y: int = 0\n\ndef f(xs):\n    return [Pt(x, x * 2) for x in xs]\n',
    tests:
      'def check(candidate):\n    r = candidate(XS)\n    assert r == [(x, x * 2) for x in XS]\n    assert r[0].y == XS[0] * 2 and r[0]._fields == ("x", "y")\n\ncheck(f)\n',
  },
  {
    completion:
      'from typing import NamedTuple, Generic, TypeVar\nT = TypeVar("T")\n\nclass Box(NamedTuple, Generic[T]):\n    item: T\n    n: int\n\ndef f(xs):\n    return Box(xs[0], len(xs))\n',
    tests:
      'def check(candidate):\n    r = candidate(XS)\n    assert r == (XS[0], len(XS))\n    assert r.item == XS[0]\n\ncheck(f)\n',
  },
  {
    completion:
      'from collections import OrderedDict\n\nclass LRU:\n    def __init__(self, n):\n        self.n = n\n        self.d = OrderedDict()\n    def get(self, k):\n        if k not in self.d:\n            return -1\n        self.d.move_to_end(k)\n        return self.d[k]\n    def put(self, k, v):\n        self.d[k] = v\n        self.d.move_to_end(k)\n        if len(self.d) > self.n:\n            self.d.popitem(last=False)\n',
    tests:
      'def check():\n    c = LRU(2)\n    c.put(XS[0], 1)\n    c.put(XS[1], 2)\n    assert c.get(XS[0]) == 1\n    c.put(XS[2], 3)\n    assert c.get(XS[1]) == -1\n    assert c.get(XS[2]) == 3\n\ncheck()\n',
  },
];

const honestValues = defineGenerator({
  name: 'py-honest-ordered-values',
  language: 'python',
  about: 'control: OrderedDict order (move_to_end, popitem), typing.NamedTuple (generic too) and an LRU class pass',
  cases: (rng) =>
    grid(20, HONEST_VALUES, [0, 1, 2, 3], (h) => {
      const start = rng.int(1, 50);
      const xs = `[${[0, 1, 2, 3].map((j) => start + 3 * j).join(', ')}]`;
      return {
        completion: h.completion,
        tests: h.tests.replace(/XS/g, xs),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      };
    }),
});

export const generators = [complexNan, complexHonest, stopIteration, honestValues];
