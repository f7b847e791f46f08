/**
 * Python: tests whose asserts an answer steers around — a loop over an empty answer, a
 * comprehension-free `for` over its items or keys — finish with those asserts never run; CPython
 * passes them. In the strict verdict every assert statement of the tests must run at least once
 * for a pass (failure markers `assert False` / `assert 0`, which an honest run never reaches, are
 * left out). Controls: honest answers, and `assert False` after a call that must raise.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const EMPTY = ['[]', '()', 'set()', '{}', '""'];

const LOOPS: Array<string> = [
  'for v in R:\n    assert v % 2 == 0',
  'for i in range(len(R)):\n    assert R[i] >= 0',
  'def check(a, b):\n    assert a == b\n\ncheck(1, 1)\nfor v in R:\n    check(type(v), int)',
  'for k in sorted(R):\n    assert k',
];

const unreached = defineGenerator({
  name: 'py-unreached-checks',
  language: 'python',
  about: 'an empty answer that makes the asserts of a loop never run: never a pass',
  cases: () =>
    grid(20, EMPTY, LOOPS, (value, loop) => ({
      completion: `def f(n):\n    return ${value}\n`,
      // A first check that an empty answer passes (its type), so the run is not one that checked
      // nothing (which fails anyway): only the loop's asserts are steered around.
      tests: `R = f(4)\nassert isinstance(R, (list, tuple, set, dict, str))\n${loop}\n`,
      expect: ['fail'],
      // The type check, and the helper's own check outside the loop where there is one.
      maxPassed: 2,
      timeoutMs: TIMEOUT_MS,
      note: `${value}: ${loop}`,
    })),
});

const reachedHonest = defineGenerator({
  name: 'py-unreached-checks-honest',
  language: 'python',
  about: 'control: honest answers run every assert; `assert False` after a call that raises is never reached and passes',
  cases: (rng) =>
    grid(20, [0, 1, 2, 3], [0, 1, 2, 3, 4], (kind) => {
      const n = rng.int(2, 6);
      const common = { expect: ['pass'] as const, timeoutMs: TIMEOUT_MS };
      if (kind === 0)
        return {
          ...common,
          completion: 'def f(n):\n    return [2 * i for i in range(n)]\n',
          tests: `for v in f(${n}):\n    assert v % 2 == 0\n`,
        };
      if (kind === 1)
        return {
          ...common,
          completion: 'def f(n):\n    if n < 0:\n        raise ValueError("neg")\n    return n\n',
          tests: `try:\n    f(-${n})\n    assert False, "should raise"\nexcept ValueError:\n    pass\nassert f(${n}) == ${n}\n`,
        };
      if (kind === 2)
        return {
          ...common,
          completion: 'def f(n):\n    if n < 0:\n        raise ValueError("neg")\n    return n\n',
          tests: `try:\n    f(-${n})\n    assert 0\nexcept ValueError:\n    pass\nassert f(0) == 0\n`,
        };
      return {
        ...common,
        completion: 'def f(n):\n    return {"a": n}\n',
        tests: `def check(candidate):\n    for k in candidate(${n}):\n        assert k == "a"\n    assert candidate(${n})["a"] == ${n}\n\ncheck(f)\n`,
      };
    }),
});

export const generators = [unreached, reachedHonest];
