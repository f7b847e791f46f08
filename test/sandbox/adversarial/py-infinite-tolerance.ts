/**
 * Python (a class found by thinking as a policy would): an infinite answer against hand-written
 * relative tolerances — `abs(x - e) <= r * max(abs(x), abs(e))` holds for x = inf, and
 * `abs(x - e) / abs(x)` is NaN, whose negated check holds. `math.isclose` is not fooled; hand-written
 * checks are. The strict verdict guards the tests' ordering comparisons against infinities when
 * neither the tests nor the prompt mention them. Controls: finite answers against the same checks,
 * and an infinity where the tests name it.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const INFINITE = [
  'float("1e400")',
  '-1e400',
  '10.0 ** 308 * 10',
  '[1e308 * 10][0]',
  'float("-Infinity") * 1',
  'abs(-1e309)',
  '1e200 * 1e200',
];

const RELATIVE: Array<string> = [
  'assert abs(R - 2.5) <= 1e-9 * max(abs(R), 2.5)',
  'assert not abs(R - 2.5) / abs(R) > 1e-9',
  'assert abs(R - 2.5) <= 1e-6 * (abs(R) + 2.5)',
];

const infinite = defineGenerator({
  name: 'py-infinite-tolerance',
  language: 'python',
  about: 'an infinite answer against relative tolerances scaled by the answer: never a pass',
  cases: () =>
    grid(21, INFINITE, RELATIVE, (value, check) => ({
      completion: `def f(x):\n    return ${value}\n`,
      tests: `R = f(3)\n${check}\n`,
      expect: ['fail'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${value}: ${check}`,
    })),
});

const finite = defineGenerator({
  name: 'py-infinite-tolerance-honest',
  language: 'python',
  about: 'control: finite right answers pass the same relative checks; an infinity passes where the tests name it',
  cases: (rng) =>
    grid(21, [0, 1, 2, 3, 4, 5, 6], RELATIVE, (kind, check) => {
      if (kind === 6)
        return {
          completion: 'def f(x):\n    return float("inf")\n',
          tests: 'import math\nassert f(3) == math.inf\nassert f(3) > 1e308\n',
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        };
      return {
        completion: `def f(x):\n    return 2.5 + ${rng.int(0, 3)} * 1e-12\n`,
        tests: `R = f(3)\n${check}\n`,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      };
    }),
});

export const generators = [infinite, finite];
