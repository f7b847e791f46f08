/**
 * Python (issue 25): a run in which the boundary refused an answer passes no site. In `strict`, an
 * answer that is not plain data (a program-defined object, `object()`) or a NaN the tests never ask
 * for is refused where the tests receive or use it: a violation raised into the tests. When that
 * happened outside the assert it feeds (`r = f(x)` / `d = abs(r - x)` / `assert d < 1e-9` in a
 * loop), the assert's passes on the earlier cases stood next to the failed run (1/2 where an honest
 * wrong answer scores 0/1), and a `try` in the tests could swallow it before right asserts. The
 * harness records the refusal where it raises it — the tests catching the violation cannot take
 * the record back — and such a run reports 0 passed sites. Controls: right answers pass every
 * shape; a NaN the tests ask for (math.isnan) is no refusal.
 */
import { type AdversarialCase, scoredPair } from './framework.ts';

const TIMEOUT_MS = 8000;

/** An answer for case 2 that the boundary refuses (when received, or when the tests use it). */
const REFUSED = [
  { def: '', bad: 'float("n" + "an")' },
  { def: '', bad: 'complex(float("n" + "an"), 0)' },
  {
    def: 'class Two:\n    def __sub__(self, other):\n        return 0\n    def __eq__(self, other):\n        return True\n\n',
    bad: 'Two()',
  },
  { def: '', bad: 'object()' },
];

const SHAPES = [
  {
    tests: 'for x in [0, 1, 2]:\n    r = f(x)\n    d = abs(r - x)\n    assert d < 1e-9\n',
    note: 'a loop, the answer used outside the assert',
  },
  {
    tests:
      'for x in [0, 1, 2]:\n    try:\n        d = abs(f(x) - x)\n    except Exception:\n        d = 0\n    assert d < 1e-9\n',
    note: 'the refusal caught and replaced by a right distance',
  },
  {
    tests:
      'ds = []\nfor x in [0, 1, 2]:\n    try:\n        ds.append(abs(f(x) - x))\n    except AssertionError:\n        ds.append(0)\nfor d in ds:\n    assert d < 1e-9\n',
    note: 'distances collected, then checked',
  },
  {
    tests: 'assert f(0) == 0\nd = abs(f(2) - 2)\nassert d < 1e-9\n',
    note: 'a right case before the refused answer',
  },
  {
    tests: 'try:\n    abs(f(2) - 2)\nexcept BaseException:\n    pass\nfor x in [0, 1]:\n    assert f(x) == x\n',
    note: 'the refusal swallowed before right asserts',
  },
  {
    tests: 'for x in [0, 1]:\n    assert f(x) == x\ntry:\n    abs(f(2) - 2)\nexcept BaseException:\n    pass\n',
    note: 'the refusal swallowed after every assert passed',
  },
].map((s) => ({ ...s, passed: 0, gold: 0 }));

const CONTROLS: AdversarialCase[] = [
  {
    // A NaN the tests ask for crosses: no refusal, every assert passes.
    completion: 'def f(x):\n    return x if x < 2 else float("n" + "an")\n',
    tests:
      'import math\nfor x in [0, 1, 2]:\n    r = f(x)\n    if x < 2:\n        d = abs(r - x)\n        assert d < 1e-9\n    else:\n        assert math.isnan(r)\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
  {
    completion: 'def f(x):\n    return [x, float("n" + "an")]\n',
    tests: 'import math\nassert f(0)[0] == 0\nr = f(2)\nassert r[0] == 2 and math.isnan(r[1])\n',
    expect: ['pass'],
    timeoutMs: TIMEOUT_MS,
  },
  {
    // An honest wrong answer in the same shape keeps its ordinary count (the first assert passes).
    completion: 'def f(x):\n    return 7 if x == 2 else x\n',
    tests: 'assert f(0) == 0\nd = abs(f(2) - 2)\nassert d < 1e-9\n',
    expect: ['fail'],
    timeoutMs: TIMEOUT_MS,
    note: 'honest wrong answer: 1/2, as before',
  },
];

export const generators = scoredPair({
  name: 'py-refused-runs',
  language: 'python',
  about: 'a run with a refused answer passes no assert, wherever the refusal happened',
  aboutHonest: 'control: right answers pass every shape; a NaN the tests ask for is no refusal',
  n: 24,
  sources: REFUSED,
  shapes: SHAPES,
  build: (bad, shape, right) => ({
    completion: `${right ? '' : bad.def}def f(x):\n    return ${right ? 'x' : `x if x < 2 else ${bad.bad}`}\n`,
    tests: shape.tests,
    note: right ? 'right' : bad.bad,
  }),
  common: { timeoutMs: TIMEOUT_MS },
  controls: CONTROLS,
});
