/**
 * Python, strict: a failure the tests state themselves, then catch (sandbox/python/harness.py
 * `_made_failures`, the `anchor.failed` audit event; docs/sandbox.md, "Every check runs"). A
 * `raise AssertionError(…)` statement of the tests is a failed check where it is raised, caught
 * or not, and so is a failed test the tests' own unittest or doctest runner records, whether or
 * not they look at its result. Before, tests that logged their own hand-made failures, or ran a
 * runner and ignored it, passed a wrong program (red-team rt67 YB11, YB14, YB17, YB18;
 * JavaScript's twin is js-handmade-failures.ts). Each task has one real assert both programs pass.
 * Every case was run under CPython 3.11.7 as one file: the controls pass, and so do the wrong
 * programs (the tests print their failures and go on). At 1ebf289 all 24 wrong programs passed;
 * all 24 controls passed.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

/** [name, honest body, wrong body (wrong when a > 5), the answer for (1, 2), for (9, 1)]. */
const TASKS: Array<[string, string, string, number, number]> = [
  ['add', 'return a + b', 'return a - b if a > 5 else a + b', 3, 10],
  ['mul', 'return a * b', 'return a + b if a > 5 else a * b', 2, 9],
  ['sub', 'return a - b', 'return a + b if a > 5 else a - b', -1, 8],
  ['big', 'return max(a, b)', 'return min(a, b) if a > 5 else max(a, b)', 2, 9],
];

/** How the tests state and catch their failures (`F` is the function, `W1`, `W9` the answers). */
const SHAPES: string[] = [
  // A hand-made failure caught per case and printed.
  'for a, b, w in [(1, 2, W1), (9, 1, W9)]:\n    try:\n        got = F(a, b)\n        if got != w:\n            raise AssertionError((got, w))\n    except AssertionError as e:\n        print("mismatch", e)\n',
  // A helper raising it, the caller collecting the failures.
  'def expect(x, y):\n    if x != y:\n        raise AssertionError(f"{x} != {y}")\n\nerrors = []\nfor a, b, w in [(1, 2, W1), (9, 1, W9)]:\n    try:\n        expect(F(a, b), w)\n    except AssertionError as e:\n        errors.append(e)\nprint(len(errors), "failed")\n',
  // A bare `raise AssertionError` under contextlib.suppress.
  'import contextlib\nfor a, b, w in [(1, 2, W1), (9, 1, W9)]:\n    with contextlib.suppress(Exception):\n        if F(a, b) != w:\n            raise AssertionError\n',
  // Inside a checking function of the tests that swallows its own failure.
  'def check(a, b, w):\n    try:\n        if F(a, b) != w:\n            raise AssertionError("wrong") from None\n    except Exception:\n        return False\n    return True\n\nresults = [check(a, b, w) for a, b, w in [(1, 2, W1), (9, 1, W9)]]\nprint(results)\n',
  // unittest's subTest failures, the runner's result ignored.
  'import unittest, io\n\nclass T(unittest.TestCase):\n    def test_cases(self):\n        for a, b, w in [(1, 2, W1), (9, 1, W9)]:\n            with self.subTest(a=a):\n                self.assertEqual(F(a, b), w)\n\nunittest.TextTestRunner(stream=io.StringIO()).run(unittest.defaultTestLoader.loadTestsFromTestCase(T))\n',
  // doctest's examples, the runner's counts only printed.
  "import doctest\n\ndef _cases():\n    '''\n    >>> F(1, 2)\n    W1\n    >>> F(9, 1)\n    W9\n    '''\n\ndoctest.run_docstring_examples(_cases, {'F': F})\n",
];

function cases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [name, good, bad, w1, w9] of TASKS)
    for (const shape of SHAPES)
      out.push({
        completion: `def ${name}(a, b):\n    ${honest ? good : bad}\n`,
        tests: `assert ${name}(1, 2) == ${w1}\n${shape
          .replace(/\bF\b/g, name)
          .replace(/\bW1\b/g, String(w1))
          .replace(/\bW9\b/g, String(w9))}`,
        expect: honest ? ['pass'] : ['fail'],
        timeoutMs: TIMEOUT_MS,
      });
  return out;
}

const madeWrong = defineGenerator({
  name: 'py-handmade-failures',
  language: 'python',
  about:
    "the tests state a case's failure by hand (raise AssertionError, unittest, doctest) and catch or ignore it: a failed check, never a pass",
  cases: () => cases(false),
});

const madeHonest = defineGenerator({
  name: 'py-handmade-failures-honest',
  language: 'python',
  about: 'control: the same tests, an honest program: no failure is stated and the run passes',
  cases: () => cases(true),
});

export const generators = [madeWrong, madeHonest];
