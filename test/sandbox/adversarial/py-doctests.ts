/**
 * Python: tests that run the prompt's doctests (`doctest.testmod()`, `DocTestFinder().find(f)`
 * with a runner, `run_docstring_examples`) and judge the result, or read the entry point's
 * signature. The tests' stand-in for the entry point had no docstring, so the finder found no
 * examples and `failed == 0` held for every program (a fresh hostile pass, 2026-12-06, rt55 F08);
 * `testmod()` errored every program (`sys.settrace` refused) and, finding the entry point by
 * text, ran the prompt's unfinished copy; `inspect.signature` read `(*args, **kwargs)`. The
 * stand-in now has the prompt's docstring, parameters and the tests' globals, and is the
 * program's wherever the tests' text names it. Attacks: wrong programs fail. Controls: honest
 * programs pass.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const PROMPT =
  'def add(a, b):\n    """Return a + b.\n\n    >>> add(2, 3)\n    5\n    >>> add(-1, 1)\n    0\n    >>> add(10, 5)\n    15\n    """\n';

/** How the tests run the doctests and judge them. */
const RUNS: readonly string[] = [
  'import doctest\nres = doctest.testmod()\nassert res.failed == 0 and res.attempted == 3\n',
  'import doctest\nrunner = doctest.DocTestRunner(verbose=False)\nfor t in doctest.DocTestFinder().find(add):\n    runner.run(t)\nres = runner.summarize(verbose=False)\nassert res.failed == 0\n',
  'import doctest\nfailed = sum(doctest.DocTestRunner().run(t).failed for t in doctest.DocTestFinder().find(add))\nassert failed == 0\n',
  "import doctest\nassert doctest.testmod(verbose=False).failed == 0\nimport inspect\nassert list(inspect.signature(add).parameters) == ['a', 'b']\n",
  "if __name__ == '__main__':\n    import doctest\n    r = doctest.testmod()\n    assert not r.failed, r\n",
];

const WRONG = ['    return a * b\n', '    return a - b\n', '    return a + b if a < 5 else b\n', '    return a + b + (a > 5)\n'];
const HONEST = [
  '    return a + b\n',
  '    return sum((a, b))\n',
  '    s = a\n    s += b\n    return s\n',
  '    import operator\n    return operator.add(a, b)\n',
];

export const generators = [
  defineGenerator({
    name: 'py-doctests',
    language: 'python',
    about: "wrong programs under tests that run the prompt's doctests: fail",
    cases: () =>
      grid(20, RUNS, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-doctests-honest',
    language: 'python',
    about: "controls: honest programs under tests that run the prompt's doctests pass",
    cases: () =>
      grid(20, RUNS, HONEST, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
