/**
 * Python (red-team rt60 P4): an instance of a program class with `__slots__` could not cross to
 * the tests — its slots were taken for properties read through the program, which the rebuilt
 * object then had no setter for, so every such honest answer was a strict `fail` ("could not be
 * rebuilt as plain data"). Slots now cross as the instance's fields (sandbox/python/harness.py).
 * Controls: slotted answers (plain, with a property over a slot, inherited slots, slots beside a
 * `__dict__`) pass; wrong twins, whose slots hold other values, fail.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const PROMPT = 'def make_pair(a, b):\n    """Return an object with attributes first=a and second=b."""\n';

/** Class bodies building the pair; `X` and `Y` are what the slots hold. */
const SHAPES: readonly string[] = [
  '    class Pair:\n        __slots__ = ("first", "second")\n\n        def __init__(self, a, b):\n            self.first, self.second = X, Y\n\n    return Pair(a, b)\n',
  '    class Pair:\n        __slots__ = ("_a", "_b")\n\n        def __init__(self, a, b):\n            self._a, self._b = X, Y\n\n        @property\n        def first(self):\n            return self._a\n\n        @property\n        def second(self):\n            return self._b\n\n    return Pair(a, b)\n',
  '    class Base:\n        __slots__ = ("first",)\n\n    class Pair(Base):\n        __slots__ = ("second",)\n\n        def __init__(self, a, b):\n            self.first, self.second = X, Y\n\n    return Pair(a, b)\n',
  '    class Pair:\n        __slots__ = ("first", "__dict__")\n\n        def __init__(self, a, b):\n            self.first = X\n            self.second = Y\n\n    return Pair(a, b)\n',
  '    class Pair:\n        __slots__ = ("first", "second")\n\n    p = Pair()\n    p.first, p.second = X, Y\n    return p\n',
];

const TESTS: readonly string[] = [
  '\n\ndef check(candidate):\n    p = candidate(1, 2)\n    assert p.first == 1\n    assert p.second == 2\n\n\ncheck(make_pair)\n',
  "\n\ndef check(candidate):\n    p = candidate('x', [3])\n    assert (p.first, p.second) == ('x', [3])\n    q = candidate(0, None)\n    assert q.first == 0 and q.second is None\n\n\ncheck(make_pair)\n",
];

const fill = (shape: string, x: string, y: string) => shape.replace('X', x).replace('Y', y);

export const generators = [
  defineGenerator({
    name: 'py-slotted-answers-honest',
    language: 'python',
    about: 'controls: instances of program classes with __slots__ cross and pass',
    cases: () =>
      grid(
        20,
        SHAPES,
        [
          ...TESTS,
          ...TESTS.map((t) =>
            t
              .replace('candidate(1, 2)', 'candidate(1.5, -2)')
              .replace('== 1\n', '== 1.5\n')
              .replace('== 2\n', '== -2\n')
              .replace("candidate('x', [3])", "candidate('y', (3,))")
              .replace("('x', [3])", "('y', (3,))"),
          ),
        ],
        (shape, tests) => ({
          prompt: PROMPT,
          completion: fill(shape, 'a', 'b'),
          tests,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        }),
      ),
  }),
  defineGenerator({
    name: 'py-slotted-answers',
    language: 'python',
    about: 'wrong answers in slots fail',
    cases: () =>
      grid(
        20,
        SHAPES,
        [
          ['b', 'a'],
          ['a', 'a'],
          ['str(a)', 'b'],
          ['a', '[b]'],
        ] as const,
        (shape, [x, y]) => ({
          prompt: PROMPT,
          completion: fill(shape, x, y),
          tests: TESTS[0]!,
          expect: ['fail'],
          timeoutMs: TIMEOUT_MS,
        }),
      ),
  }),
];
