/**
 * Python (red-team rt61 EXN01): the tests' side took a class of the program for the prompt's
 * class of the same NAME, so a completion raising its own function-local `class
 * InvalidInput(Exception)` was caught by the tests' `except InvalidInput` (the prompt's), and a
 * local `Point` or namedtuple `Pair` answer was rebuilt as the prompt's class — under CPython
 * they are other classes: not caught, not equal, not instances. The program's interpreter now
 * records the class objects the prompt's run bound (where the prompt's part of the program ends,
 * before any line of the completion runs), and the tests take a class of the program for the
 * prompt's only when it is one of those (sandbox/python/harness.py, `_prompt_made`,
 * `record_class`). A program's own subclass of a prompt class is rebuilt over the prompt's class,
 * exceptions included (`except BankError` catches its `InsufficientFunds(BankError)`: rt61 PX01,
 * an `error` before).
 * Wrong: classes named like the prompt's that are not it. Controls: the prompt's classes
 * themselves, reached by name or through `type(x)`, and program subclasses of them.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

const EXC_PROMPT =
  'class InvalidInput(ValueError):\n    pass\n\n\ndef double(n):\n    """Return 2*n; raise InvalidInput for negative n."""\n';

const raising = (setup: string, raised: string, after = '') =>
  `${setup}    if n < 0:\n        raise ${raised}(n)\n    return n * 2\n${after}`;

const EXC_TESTS: readonly string[] = [
  '    assert candidate(2) == 4\n    try:\n        candidate(-1)\n    except InvalidInput:\n        pass\n    else:\n        assert False\n',
  '    try:\n        candidate(-3)\n    except InvalidInput as e:\n        assert e.args == (-3,)\n    else:\n        assert False\n',
  '    def raises():\n        try:\n            candidate(-1)\n        except InvalidInput:\n            return True\n        except Exception:\n            return False\n        return False\n\n    assert raises()\n',
];

const POINT_PROMPT =
  'class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n    def __eq__(self, other):\n        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)\n\n\ndef mid(a, b):\n    """Return the Point midway between Points a and b."""\n';

const POINT_TESTS: readonly string[] = [
  '    r = candidate(Point(0, 0), Point(2, 4))\n    assert r == Point(1, 2)\n',
  '    r = candidate(Point(0, 0), Point(2, 4))\n    assert isinstance(r, Point)\n    assert (r.x, r.y) == (1, 2)\n',
];

const MIDDLE = '(a.x + b.x) / 2, (a.y + b.y) / 2';

const PAIR_PROMPT =
  'from typing import NamedTuple\n\n\nclass Pair(NamedTuple):\n    a: int\n    b: int\n\n\ndef swap(p):\n    """Return the Pair with p\'s fields swapped."""\n';

const PAIR_TESTS: readonly string[] = [
  '    r = candidate(Pair(1, 2))\n    assert r == (2, 1)\n    assert isinstance(r, Pair)\n',
  '    r = candidate(Pair(1, 2))\n    assert type(r) is Pair and r.a == 2\n',
];

const wrap = (body: string, call: string) => `\n\ndef check(candidate):\n${body}\n\ncheck(${call})\n`;

const cases = (
  prompt: string,
  completions: readonly string[],
  tests: readonly string[],
  call: string,
  expect: AdversarialCase['expect'],
): AdversarialCase[] =>
  completions.flatMap((completion) =>
    tests.map((t) => ({ prompt, completion, tests: wrap(t, call), expect, timeoutMs: TIMEOUT_MS })),
  );

export const generators = [
  defineGenerator({
    name: 'py-prompt-class-identity',
    language: 'python',
    about: 'a program class named like a prompt class is not taken for it',
    cases: () => [
      ...cases(
        EXC_PROMPT,
        [
          raising('    class InvalidInput(Exception):\n        pass\n\n', 'InvalidInput'),
          raising("    InvalidInput = type('InvalidInput', (Exception,), {})\n", 'InvalidInput'),
          raising('    class InvalidInput(ValueError):\n        pass\n\n', 'InvalidInput'),
          raising(
            '',
            '_make()',
            '\n\ndef _make():\n    class InvalidInput(ValueError):\n        pass\n\n    return InvalidInput\n',
          ),
        ],
        EXC_TESTS,
        'double',
        ['fail', 'error'],
      ),
      ...cases(
        POINT_PROMPT,
        [
          `    class Point:\n        def __init__(self, x, y):\n            self.x = x\n            self.y = y\n\n        def __eq__(self, other):\n            return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)\n\n    return Point(${MIDDLE})\n`,
          `    class Point:\n        def __init__(self, x, y):\n            self.x, self.y = x, y\n\n    return Point(${MIDDLE})\n`,
        ],
        POINT_TESTS,
        'mid',
        ['fail', 'error'],
      ),
      ...cases(
        PAIR_PROMPT,
        [
          "    from collections import namedtuple\n    Pair = namedtuple('Pair', ['a', 'b'])\n    return Pair(p.b, p.a)\n",
          '    class Pair(NamedTuple):\n        a: int\n        b: int\n\n    return Pair(p.b, p.a)\n',
        ],
        PAIR_TESTS,
        'swap',
        ['fail', 'error'],
      ),
    ],
  }),
  defineGenerator({
    name: 'py-prompt-class-identity-honest',
    language: 'python',
    about: 'controls: the prompt’s own classes and program subclasses of them',
    cases: () => [
      ...cases(
        EXC_PROMPT,
        [
          raising('', 'InvalidInput'),
          raising('', 'TooSmall', '\n\nclass TooSmall(InvalidInput):\n    pass\n'),
          raising('    class Negative(InvalidInput):\n        pass\n\n', 'Negative'),
        ],
        EXC_TESTS,
        'double',
        ['pass'],
      ),
      ...cases(
        POINT_PROMPT,
        [
          `    return Point(${MIDDLE})\n`,
          `    return type(a)(${MIDDLE})\n`,
          `    return Middle(${MIDDLE})\n\n\nclass Middle(Point):\n    pass\n`,
        ],
        POINT_TESTS,
        'mid',
        ['pass'],
      ),
      ...cases(
        PAIR_PROMPT,
        ['    return Pair(p.b, p.a)\n', '    return p._replace(a=p.b, b=p.a)\n', '    return type(p)(p.b, p.a)\n'],
        PAIR_TESTS,
        'swap',
        ['pass'],
      ),
    ],
  }),
];
