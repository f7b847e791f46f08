/**
 * Python (red-team rt7-py F01, F03–F07): a `finally` that returns, breaks or continues, on a
 * `try` *with* typed handlers. An exception none of the handlers matches still runs the
 * `finally`, whose jump drops it: a program right on the easy cases and raising on the rest
 * passed (`except AssertionError: … finally: return ok`), where a wrong value failed. The rewrite
 * gives such a `try` one more handler that notes what the exception skipped and re-raises
 * (sandbox/python/harness.py `_skip_edits`). Attacks: the raising `fact` (fact-programs.ts) fails
 * with no site passed; controls: the same tests on an honest `fact` pass.
 */
import { honestFact, raisingShapes } from './fact-programs.ts';
import { defineGenerator, type Rng } from './framework.ts';

/** One to three hard cases after one or two easy ones. */
const cases = (rng: Rng) =>
  `[${[
    ...[
      [0, 1],
      [1, 1],
    ].slice(0, rng.int(1, 2)),
    ...[
      [3, 6],
      [4, 24],
      [5, 120],
      [6, 720],
    ].slice(0, rng.int(1, 3)),
  ]
    .map(([n, w]) => `(${n}, ${w})`)
    .join(', ')}]`;

const SHAPES: ReadonlyArray<(rng: Rng) => string> = [
  // A helper whose `finally` returns its flag.
  (rng) =>
    `def check(n, w):\n    ok = False\n    try:\n        got = fact(n)\n        assert got == w\n        ok = True\n    except AssertionError:\n        print('wrong', n)\n    finally:\n        return ok\nresults = [check(n, w) for n, w in ${cases(rng)}]\nprint(results)\n`,
  // `continue` in the loop's `finally`.
  (rng) =>
    `for n, w in ${cases(rng)}:\n    try:\n        got = fact(n)\n        assert got == w, n\n    except AssertionError as e:\n        print('bad', e)\n    finally:\n        continue\n`,
  // `break` in a `finally` after a flag.
  (rng) =>
    `blew = False\nfor n, w in ${cases(rng)}:\n    try:\n        blew = True\n        got = fact(n)\n        blew = False\n        assert got == w\n    except (AssertionError, TypeError):\n        print('fail', n)\n    finally:\n        if blew:\n            break\n`,
  // A method: except/else/finally returning None.
  (rng) =>
    `class Suite:\n    def case(self, n, w):\n        try:\n            got = fact(n)\n        except ZeroDivisionError:\n            print('div')\n        else:\n            assert got == w\n        finally:\n            return None\ns = Suite()\nfor n, w in ${cases(rng)}:\n    s.case(n, w)\n`,
  // A `check(candidate)` helper, HumanEval style.
  (rng) =>
    `def check(candidate):\n    try:\n        for n, w in ${cases(rng)}:\n            got = candidate(n)\n            assert got == w\n    except AssertionError:\n        print('assertion failed')\n        raise\n    finally:\n        return True\ncheck(fact)\n`,
  // `except*` with a returning `finally`.
  (rng) =>
    `def run():\n    try:\n        for n, w in ${cases(rng)}:\n            got = fact(n)\n            assert got == w\n    except* AssertionError:\n        print('failed')\n    finally:\n        return\nrun()\n`,
];

const NAME = 'py-finally-jumps';

export const generators = [
  // Every shape with each of the four ways of raising (fact-programs.ts), no site passed.
  raisingShapes(
    'python',
    NAME,
    'a finally that returns, breaks or continues on a try with typed handlers drops an unmatched exception: fail',
    SHAPES,
  ),
  defineGenerator({
    name: `${NAME}-honest`,
    language: 'python',
    about: 'controls: the same tests on an honest fact pass',
    cases: (rng) => {
      const tests = [...SHAPES, ...SHAPES].map((shape) => shape(rng));
      return honestFact('python', `${NAME}-honest`, '', tests.length * 2, tests).cases(rng);
    },
  }),
];
