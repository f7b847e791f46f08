/**
 * Python (honest-solution sweep hs57): a completion that ends by running its own doctests —
 * `if __name__ == "__main__": import doctest; doctest.testmod()`, a common ending of a model's
 * completion. doctest's runner puts back the tracer it found (`sys.settrace(None)`), which the
 * program's interpreter refused: every such honest program was an `error`. Setting no tracer where
 * there is none is allowed now (sandbox/python/harness.py); a real tracer is still refused. The
 * program's doctests only print (their failures are output, never a verdict). Controls: honest
 * programs pass; wrong twins with the same ending fail; a program setting a real tracer errors.
 */
import { defineGenerator, grid } from './framework.ts';

const PROMPT =
  'def add(a, b):\n    """Return the sum of a and b.\n\n    >>> add(1, 2)\n    3\n    >>> add(-1, 1)\n    0\n    """\n';

/** Endings that run the program's own doctests. */
const ENDINGS: readonly string[] = [
  '\n\nif __name__ == "__main__":\n    import doctest\n\n    doctest.testmod()\n',
  '\n\nimport doctest\n\ndoctest.testmod()\n',
  '\n\nif __name__ == "__main__":\n    import doctest\n\n    doctest.testmod(verbose=False, optionflags=doctest.ELLIPSIS)\n',
  '\n\nif __name__ == "__main__":\n    import doctest\n\n    doctest.run_docstring_examples(add, globals())\n',
  '\n\nif __name__ == "__main__":\n    from doctest import testmod\n\n    failures, tried = testmod()\n    print(f"{tried - failures}/{tried} examples passed")\n',
  // (A completion clearing the profiler too, as after profiling itself: red-team rt58 F7.)
  '\n\nif __name__ == "__main__":\n    import doctest, sys\n\n    sys.settrace(None)\n    sys.setprofile(None)\n    doctest.testmod()\n',
];

/** Tests in the datasets' shapes. */
const TESTS: readonly string[] = [
  'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-5, 5) == 0\n\n\ncheck(add)\n',
  'assert add(2, 3) == 5\nassert add(0, 0) == 0\n',
  'METADATA = {}\n\n\ndef check(candidate):\n    assert candidate(10, -3) == 7\n\n\ncheck(add)\n',
  'import math\n\nassert math.isclose(add(0.1, 0.2), 0.3)\nassert add(7, 8) == 15\n',
];

export const generators = [
  defineGenerator({
    name: 'py-program-doctests-honest',
    language: 'python',
    about: 'controls: honest completions ending in their own doctest run pass',
    cases: () =>
      grid(20, TESTS, ENDINGS, (tests, ending) => ({
        prompt: PROMPT,
        completion: `    return a + b${ending}`,
        tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'py-program-doctests',
    language: 'python',
    about: 'wrong completions with the same doctest endings fail (their doctests only print)',
    cases: () =>
      grid(20, TESTS, ENDINGS, (tests, ending) => ({
        prompt: PROMPT,
        completion: `    return a - b if a > b else a + b + 1${ending}`,
        tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'py-program-doctests-tracer',
    language: 'python',
    about: 'a program setting a real tracer (sys.settrace(f), also through doctest-style save/restore) is an error',
    cases: () =>
      grid(20, TESTS, ENDINGS, (tests, ending) => ({
        prompt: PROMPT,
        completion: `    return a + b${ending}\nimport sys\n\nsys.settrace(lambda *a: None)\n`,
        tests,
        expect: ['error'],
      })),
  }),
];
