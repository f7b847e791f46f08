/**
 * Python: handlers that never finish, and handlers that run the skipped check again. A tests
 * generator paused for good at a `yield` in its `except` (the consumer stops at the first failure
 * and keeps the generator), a hand-driven coroutine paused at an `await` in its handler, a
 * recursive runner carrying on with the next cases from inside the handler (so the check the
 * exception skipped records again, for another case), and a `finally` that jumps out of the loop
 * (`continue`, `break`, `return`) with no handler at all. A program right on the easy cases and
 * raising on the rest passed each of these where a wrong value failed. A handler still open when
 * the tests end is judged then, and a handler is judged only by its own checks other than the ones
 * the exception skipped (sandbox/python/harness.py, `_skip_hooks`). Controls: the same tests on an
 * honest program.
 */
import { honestFact, raisingFact } from './fact-programs.ts';

const CASES = '[(0, 1), (1, 1), (5, 120), (6, 720)]';
const HARD_FIRST = '[(5, 120), (6, 720), (0, 1), (1, 1)]';

/** Tests shapes; the passes an honest wrong value gets. */
const STYLES: Array<[string, number]> = [
  [
    `def outcomes():\n    for n, w in ${CASES}:\n        try:\n            got = fact(n)\n            assert got == w\n            yield n, True\n        except Exception as e:\n            yield n, repr(e)\n\ngen = outcomes()\nfor n, res in gen:\n    if res is not True:\n        print('FAIL at', n, res)\n        break\n`,
    0,
  ],
  [
    `class Pause:\n    def __await__(self):\n        yield 'paused'\n\nasync def cases():\n    for n, w in ${CASES}:\n        try:\n            got = fact(n)\n            assert got == w\n        except Exception as e:\n            print('FAIL', n, e)\n            await Pause()\n\nco = cases()\ntry:\n    co.send(None)\nexcept StopIteration:\n    pass\n`,
    0,
  ],
  [
    `CASES = ${HARD_FIRST}\ndef run(i):\n    if i == len(CASES):\n        return\n    n, w = CASES[i]\n    try:\n        got = fact(n)\n        assert got == w, (n, got)\n    except Exception as e:\n        print('FAIL', n, e)\n        run(i + 1)\n        return\n    run(i + 1)\nrun(0)\n`,
    0,
  ],
  [`for n, w in ${CASES}:\n    try:\n        got = fact(n)\n        assert got == w\n    finally:\n        continue\n`, 0],
  [
    `for n, w in ${HARD_FIRST}:\n    try:\n        got = fact(n)\n        assert got == w\n    finally:\n        if n > 1:\n            break\n`,
    0,
  ],
  [
    `def all_ok():\n    ok = True\n    for n, w in ${CASES}:\n        try:\n            got = fact(n)\n            assert got == w\n        finally:\n            if n > 1:\n                return ok\n    return ok\n\nall_ok()\n`,
    0,
  ],
];
const attacks = raisingFact(
  'python',
  'py-open-handlers',
  'a handler paused for good, a recursive runner in the handler, a finally that jumps out: never a pass',
  24,
  STYLES,
);

// (Not the recursive runner on the honest program: its call in the handler is a check an honest
// run never reaches, docs/python.md "Known limits".)
const honest = honestFact(
  'python',
  'py-open-handlers-honest',
  'controls: the same tests shapes on an honest program (but the recursive runner)',
  20,
  STYLES.filter(([t]) => !t.includes('run(i + 1)')).map(([t]) => t),
);

export const generators = [attacks, honest];
