/**
 * Python: tests that run their TestCases with `unittest.main(exit=False)` and assert on the
 * result. In the tests' interpreter `unittest.main` looked in the image's own `__main__`, found no
 * TestCase ("Ran 0 tests"), and `assert res.result.wasSuccessful()` held for every program (a fresh
 * hostile pass, 2026-12-06). The tests' namespace is now the `__main__` module's, as a script's
 * is. Controls: honest programs pass; attacks: wrong programs fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const CASES =
  'import unittest\n\n\nclass TestAdd(unittest.TestCase):\n    def test_small(self):\n        self.assertEqual(add(1, 2), 3)\n\n    def test_more(self):\n        self.assertEqual(add(20, 22), 42)\n        self.assertTrue(add(0, 0) == 0)\n\n\n';

/** How the tests run their TestCases and judge the result. */
const RUNS: readonly string[] = [
  "res = unittest.main(argv=['t'], exit=False)\nassert res.result.wasSuccessful()\n",
  "res = unittest.main(argv=['t'], exit=False, verbosity=0)\nassert not res.result.failures and not res.result.errors\n",
  "res = unittest.main(module='__main__', argv=['t'], exit=False)\nassert res.result.testsRun == 2 and res.result.wasSuccessful()\n",
  "if __name__ == '__main__':\n    res = unittest.main(argv=['t'], exit=False)\n    assert res.result.wasSuccessful(), res.result.failures\n",
  "prog = unittest.main(argv=['t', 'TestAdd'], exit=False)\nassert prog.result.wasSuccessful()\n",
];

/** Wrong programs: each fails at least one of the TestCase's checks. */
const WRONG: readonly string[] = [
  'def add(a, b):\n    return a - b\n',
  'def add(a, b):\n    return a + b + (a == 20)\n',
  'def add(a, b):\n    return 3\n',
  'def add(a, b):\n    raise ValueError(a)\n',
];

export const generators = [
  defineGenerator({
    name: 'py-unittest-main',
    language: 'python',
    about: 'wrong programs under tests that run unittest.main(exit=False) and assert on its result: fail',
    cases: () =>
      grid(20, RUNS, WRONG, (run, program) => ({
        prompt: '',
        completion: program,
        tests: CASES + run,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-unittest-main-honest',
    language: 'python',
    about: 'controls: honest programs under the same tests pass',
    cases: () =>
      grid(20, RUNS, [0, 1, 2, 3], (run, i) => ({
        prompt: '',
        completion: `def add(a, b):\n    return a + b\n${'\n'.repeat(i)}`,
        tests: CASES + run,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
