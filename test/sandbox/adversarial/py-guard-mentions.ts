/**
 * Python: what counts as the tests mentioning NaN or an infinity. The guard on the tests' ordering
 * comparisons is off for a value the tests or the prompt mention (they may ask for it), so a
 * mention must be a word, not a substring: tests that hold `banana`, `info` or `infer` (common in
 * string problems) once switched the guard off and let a NaN or infinite answer pass negated and
 * relative checks. Controls: tests that do name the value — `math.inf`, `float('-inf')`,
 * `math.isnan`, `neg_inf`, a prompt's docstring — keep the language's semantics and pass.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** Lines that hold a near-miss word, never the word itself. */
const NEAR_MISSES = [
  'W = "banana"',
  '# see the info in the prompt',
  'NAME = "Nancy"',
  '# we infer the result',
  'UNITS = "nanoseconds"',
  'TAG = "infix"',
  '# finance problem',
  'KEY = "infinite_loop_guard"',
];

const WRONG: Array<[string, string]> = [
  ['float("n" + "an")', 'assert not abs(R - 2.5) > 1e-9'],
  ['1e308 * 10', 'assert abs(R - 2.5) <= 1e-9 * max(abs(R), 2.5)'],
  ['-(1e308 * 10)', 'assert not abs(R - 2.5) / abs(R) > 1e-9'],
];

const hostile = defineGenerator({
  name: 'py-guard-mentions',
  language: 'python',
  about: 'tests holding a near-miss word (banana, info, infer, …) never switch the guard off: a non-finite wrong answer fails',
  cases: () =>
    grid(24, NEAR_MISSES, WRONG, (line, [value, check]) => ({
      completion: `def f(x):\n    return ${value}\n`,
      tests: `${line}\nR = f(3)\n${check}\n`,
      expect: ['fail'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${line}: ${value}`,
    })),
});

/** [answer, tests] pairs where the tests name the non-finite value they ask for. */
const NAMED: Array<[string, string]> = [
  ['float("inf")', 'import math\nR = f(3)\nassert R == math.inf\nassert R > 1e308\n'],
  ['float("-inf")', "R = f(3)\nassert R == float('-inf')\nassert R < -1e308\n"],
  ['float("inf")', "neg_inf = -float('Infinity')\nR = f(3)\nassert -R == neg_inf\nassert R > 0\n"],
  ['float("nan")', 'import math\nR = f(3)\nassert math.isnan(R)\nassert str(R) == "nan"\n'],
  ['float("nan")', "R = f(3)\nassert R != R\nassert float('NaN') != R\n"],
  ['float("inf")', 'import math\nR = f(3)\nassert not math.isfinite(R)\nassert R > 10\n'],
  ['float("inf")', 'import math\nR = f(3)\nassert math.isinf(R) and R > 0\n'],
  ['float("nan")', 'def is_nan(v):\n    return v != v\nR = f(3)\nassert is_nan(R)\n'],
];

const honest = defineGenerator({
  name: 'py-guard-mentions-honest',
  language: 'python',
  about: 'control: tests (or the prompt) that name NaN or an infinity as a word keep the semantics and pass a right answer',
  cases: () =>
    grid(24, NAMED, [0, 1, 2], ([value, tests], where) => {
      // where 0: as is; 1: plus a near-miss line; 2: the mention moved into the prompt's docstring
      // (tests then say nothing about the value: `abs(R) > 1e308` for an infinity, `R != R` for NaN).
      if (where === 2) {
        const nan = value.includes('nan');
        return {
          prompt: `def f(x):\n    """Returns ${nan ? 'NaN' : 'inf'} for x = 3."""\n`,
          completion: `    return ${value}\n`,
          tests: nan ? 'R = f(3)\nassert R != R\n' : 'R = f(3)\nassert abs(R) > 1e308\n',
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        };
      }
      return {
        completion: `def f(x):\n    return ${value}\n`,
        tests: where === 1 ? `W = "banana"\n${tests}` : tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      };
    }),
});

export const generators = [hostile, honest];
