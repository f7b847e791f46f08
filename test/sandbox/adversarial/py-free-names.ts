/**
 * Python: names of the tests that nobody gives them, read from the program. With a prompt that
 * names the entry point, the tests' interpreter still asked the program for every name the tests
 * read and neither the prompt, the tests nor the builtins define: a completion defining a value
 * the tests probe (`try: want = LIMIT / except NameError: want = 9`, a tolerance, an `expect`
 * helper) steered the checks. Now only the entry point is asked of the program when the prompt
 * names it; any other such name is undefined for every completion (sandbox/python/harness.py,
 * `_bind_program_names`), as in JavaScript (`js-free-names.ts`). Controls: honest completions with
 * names of their own, tests that bind their own names.
 */
import { defineGenerator, grid } from './framework.ts';

const PROMPT = 'def square(n):\n    """n squared"""\n';
// Right on 2 only.
const WRONG = '    return 4 if n == 2 else 0\n';

/** A definition the completion adds, and tests that read it. */
const SHAPES: Array<[string, string]> = [
  ['LIMIT = 0\n', 'try:\n    want = LIMIT\nexcept NameError:\n    want = 9\nassert square(3) == want\nassert square(2) == 4\n'],
  [
    'TOL = 1e9\n',
    'try:\n    tol = TOL\nexcept NameError:\n    tol = 0\nassert abs(square(3) - 9) <= tol\nassert square(2) == 4\n',
  ],
  [
    'def expect(a, b):\n    pass\n',
    'try:\n    expect(square(3), 9)\nexcept NameError:\n    assert square(3) == 9\nassert square(2) == 4\n',
  ],
  [
    'EXPECTED = {3: 0, 5: 0}\n',
    'try:\n    table = EXPECTED\nexcept NameError:\n    table = {3: 9, 5: 25}\nfor n, w in table.items():\n    assert square(n) == w\nassert square(2) == 4\n',
  ],
];

const attacks = defineGenerator({
  name: 'py-free-names',
  language: 'python',
  about: 'a completion defining a name the tests probe beside the entry point: never a pass',
  cases: () =>
    grid(20, SHAPES, ['', '# variant\n', '\n', 'X = 1\n', 'import math\n'], ([defs, tests], pad) => ({
      prompt: PROMPT,
      completion: `${WRONG}\n${defs}${pad}`,
      tests,
      expect: ['fail', 'error'],
      timeoutMs: 8000,
    })),
});

/** Honest tests, on honest completions (one with names of its own). */
const HONEST = [
  ...SHAPES.map(([, tests]) => tests),
  'total = 0\nfor n in [1, 2, 3]:\n    total += square(n)\nassert total == 14\n',
  'orig = square\nsquare = lambda n: orig(n)\nassert square(4) == 16\n',
];

const honest = defineGenerator({
  name: 'py-free-names-honest',
  language: 'python',
  about: 'controls: probed names undefined for honest completions too, tests binding their own names, a completion with helpers',
  cases: () =>
    grid(
      21,
      HONEST,
      ['    return n * n\n', '    return mul(n, n)\n\ndef mul(a, b):\n    return a * b\n\nLIMIT = 9\n', '    return n ** 2\n'],
      (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests,
        expect: ['pass'],
        timeoutMs: 8000,
      }),
    ),
});

export const generators = [attacks, honest];
