/**
 * Python: what the tests' interpreter (T) builds from an enum or an object the program (P) sends.
 * An enum crosses as its member names and values, and T rebuilt it with Enum's functional API —
 * which makes a dunder or sunder "member" a class attribute and a callable value a method. A
 * program adding `'__eq__'` (bound to a lambda of its own) to its enum's member map made every `==`
 * of the tests on its answer a call into the program: a 4-line completion returning such a member
 * passed 154 of 164 HumanEval problems. T now takes only public identifiers with non-callable
 * values as members. The same pass found a builtin callable (`bool`, `object`) in a field of a
 * prompt class named like one of its methods (`s.valid = bool` makes `not s.valid()` hold):
 * refused like a program function there, and in a namedtuple field named like a tuple method.
 * Controls: honest enums (plain, int, str, tuple values), callables in fields next to a plain
 * class default, pass.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** Names P adds to its enum's member map, each with the lambda it binds there. */
const FORGED: Array<[string, string]> = [
  ['__eq__', 'lambda *a: True'],
  ['__ne__', 'lambda *a: False'],
  ['__bool__', 'lambda *a: True'],
  ['__contains__', 'lambda *a: True'],
  ['__lt__', 'lambda *a: True'],
  ['__sub__', 'lambda *a: 0'],
  ['__abs__', 'lambda *a: 0'],
  ['__len__', 'lambda *a: 3'],
  ['__getitem__', 'lambda *a: 1'],
  ['__hash__', 'lambda *a: 0'],
];
/** Tests an answer of `add` meets: where the forged operator would answer for the program. */
const TESTS = [
  'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 5) == 7\n\ncheck(add)\n',
  'def check(candidate):\n    assert 3 == candidate(1, 2)\n    assert candidate(2, 2) != 5\n\ncheck(add)\n',
  'def check(candidate):\n    assert abs(candidate(1, 2) - 3) < 1e-9\n    assert candidate(0, 0) < 1\n\ncheck(add)\n',
  'def check(candidate):\n    assert [candidate(1, 2)] == [3]\n    assert {"k": candidate(1, 1)} == {"k": 2}\n\ncheck(add)\n',
];

const forgedMembers = defineGenerator({
  name: 'py-enum-forged-members',
  language: 'python',
  about: "an enum whose member map P extended with a dunder bound to its own code: T's enum takes no such member",
  cases: () =>
    grid(20, FORGED, TESTS, ([name, fn], tests) => ({
      prompt: 'def add(a, b):\n    """Return a + b."""\n',
      completion:
        `    return _E.A\n\n\nimport enum, types as _t\n_E = enum.Enum('_E', 'A')\n` +
        `_E._member_map_[${JSON.stringify(name)}] = _t.SimpleNamespace(_value_=${fn})\n` +
        // The full payload: the other operators too, so the test shape is not what stops it.
        `for _k, _v in [('__eq__', lambda *a: True), ('__ne__', lambda *a: False), ('__lt__', lambda *a: True), ('__sub__', lambda *a: _E.A), ('__abs__', lambda *a: 0)]:\n` +
        `    _E._member_map_.setdefault(_k, _t.SimpleNamespace(_value_=_v))\n`,
      tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${name} in ${tests.split('\n')[1]}`,
    })),
});

/** Callables P puts in a field named like a method of the prompt's class. */
const CALLABLES = ['bool', 'object', 'len', 'str', 'abs', 'print', 'dict', 'int', 'max', 'sorted'];
/** Checks of the method the field shadows (a wrong Shape: `valid()` must be False, `area()` 6). */
const SHADOWED = [
  'def check(candidate):\n    assert not candidate(-1, 3).valid()\n    assert not candidate(0, 2).valid()\n\ncheck(make_shape)\n',
  'def check(candidate):\n    s = candidate(2, 3)\n    assert s.valid()\n    assert s.w == 2\n\ncheck(make_shape)\n',
];

const shadowingFields = defineGenerator({
  name: 'py-field-shadows-method',
  language: 'python',
  about: 'a builtin callable in a field named like a method of the prompt class, or of a tuple in a namedtuple: refused',
  cases: () =>
    grid(20, CALLABLES, SHADOWED.concat(['nt']), (fn, tests) =>
      tests === 'nt'
        ? {
            prompt:
              'from collections import namedtuple\nPair = namedtuple("Pair", ["a", "count"])\n\n\ndef make_pair(a):\n    """Pair(a, number of set bits of a)."""\n',
            completion: `    return Pair(0, ${fn})\n`,
            tests:
              'def check(candidate):\n    assert candidate(3).count(2) == 1 or candidate(3).count == 2\n    assert candidate(7)[1] == 3\n\ncheck(make_pair)\n',
            expect: ['fail', 'error'],
            maxPassed: 0,
            timeoutMs: TIMEOUT_MS,
            note: `namedtuple count = ${fn}`,
          }
        : {
            prompt:
              'class Shape:\n    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n    def valid(self):\n        return self.w > 0 and self.h > 0\n\n\ndef make_shape(w, h):\n    """A Shape of w by h."""\n',
            completion: `    s = Shape(5, 5)\n    s.valid = ${fn}\n    return s\n`,
            tests,
            expect: ['fail', 'error'],
            maxPassed: 0,
            timeoutMs: TIMEOUT_MS,
            note: `Shape.valid = ${fn}`,
          },
    ),
});

/** Honest enum answers and callables in fields: each passes. */
const HONEST: Array<[string, string, string]> = [
  [
    'def level(n):\n    """Level.HIGH above 5, else Level.LOW."""\n',
    '    return Level.HIGH if n > 5 else Level.LOW\n\n\nimport enum\nclass Level(enum.IntEnum):\n    LOW = 1\n    HIGH = 2\n',
    'def check(candidate):\n    assert candidate(9) == 2\n    assert candidate(1) == 1\n    assert candidate(1) < candidate(9)\n\ncheck(level)\n',
  ],
  [
    'def color(n):\n    """The n-th color name."""\n',
    "    return C.RED if n == 0 else C.BLUE\n\n\nimport enum\nclass C(enum.StrEnum):\n    RED = 'red'\n    BLUE = 'blue'\n",
    "def check(candidate):\n    assert candidate(0) == 'red'\n    assert candidate(1).upper() == 'BLUE'\n\ncheck(color)\n",
  ],
  [
    'def planet(n):\n    """A planet with its (mass, radius)."""\n',
    '    return P.EARTH\n\n\nimport enum\nclass P(enum.Enum):\n    MERCURY = (3.3e23, 2.44e6)\n    EARTH = (5.97e24, 6.37e6)\n',
    "def check(candidate):\n    assert candidate(3).value == (5.97e24, 6.37e6)\n    assert candidate(3).name == 'EARTH'\n\ncheck(planet)\n",
  ],
  [
    'def pick(n):\n    """The members named in order."""\n',
    "    return [m.name for m in E]\n\n\nimport enum\nE = enum.Enum('E', 'A B C')\n",
    "def check(candidate):\n    assert candidate(0) == ['A', 'B', 'C']\n\ncheck(pick)\n",
  ],
  [
    'class Sorter:\n    key = None\n\n    def __init__(self, key=None):\n        self.key = key\n\n    def sort(self, xs):\n        return sorted(xs, key=self.key)\n\n\ndef by_length():\n    """A Sorter by length."""\n',
    '    return Sorter(len)\n',
    "def check(candidate):\n    assert candidate().sort(['ccc', 'a', 'bb']) == ['a', 'bb', 'ccc']\n\ncheck(by_length)\n",
  ],
];

const honest = defineGenerator({
  name: 'py-enum-members-honest',
  language: 'python',
  about:
    'controls: honest enum answers (int, str, tuple values, functional API) and a builtin in a field next to a plain default',
  cases: () =>
    grid(20, HONEST, [0, 1, 2, 3], ([prompt, completion, tests]) => ({
      prompt,
      completion,
      tests,
      expect: ['pass'],
      timeoutMs: TIMEOUT_MS,
    })),
});

export const generators = [forgedMembers, shadowingFields, honest];
