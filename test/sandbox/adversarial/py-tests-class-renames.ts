/**
 * Python (red-team rt64 Y01–Y03, Y18, Y20, Y12): the tests' class an answer came back as was found
 * by NAME. The program's interpreter makes a stand-in for a class of the tests' the program lacks,
 * and its instances went back as "the tests' class named like the stand-in": a program that
 * renamed the stand-in (`type(b).__name__ = 'Circle'`, by setattr, exec, a helper, through
 * `b.__class__`, or a subclass of the renamed stand-in) before it first crossed back, then made
 * new instances of it, had them come back as the tests' `Circle` (type, isinstance, and Circle's
 * correct methods on the program's data). And a class of the tests' local to a function of theirs
 * was looked up among their module-level names, so an instance of a local `Node` came back as
 * their module-level `Node` (its `__eq__`, its methods). Under CPython the renamed class is still
 * `Box`, and the local `Node` is not the module-level one.
 * The door closed: the tests' interpreter numbers each class object of theirs it sends (this run's
 * table, `_tests_class_number`), the program's interpreter keeps one stand-in per number and the
 * stand-in's number by the stand-in's identity, out of the program's reach (`_PSide.standin_ids`),
 * and an answer goes back as the tests' class of that number — that very class object, a local one
 * too — never by name (sandbox/python/harness.py, `_class_mark`, `_tests_class`, `record_class`).
 * Wrong: renames before the first crossing by several routes; local and module-level classes of
 * the same name, nested functions. Controls: renamed stand-ins that come back as what they are,
 * the tests' local classes given back or instantiated by the program, same-name classes apart.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** The tests' Box and Circle (module-level): Circle is what the program cannot reach. */
const TESTS_SHAPES =
  'class Box:\n    def __init__(self, w):\n        self.w = w\n\n    def area(self):\n        return self.w * self.w\n\n\n' +
  'class Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def area(self):\n        return 3 * self.r * self.r\n\n\n';

/** Programs `f(b)` that rename the class of the Box they are handed to Circle and answer a new one. */
const RENAMES: readonly [string, string][] = [
  ['__name__', "def f(b):\n    C = type(b)\n    C.__name__ = 'Circle'\n    r = C.__new__(C)\n    r.r = 2\n    return r\n"],
  [
    '__name__ and __qualname__',
    "def f(b):\n    C = type(b)\n    C.__name__ = C.__qualname__ = 'Circle'\n    r = object.__new__(C)\n    r.r = 2\n    return r\n",
  ],
  [
    '__qualname__ only',
    "def f(b):\n    C = type(b)\n    C.__qualname__ = 'Circle'\n    r = C.__new__(C)\n    r.r = 2\n    return r\n",
  ],
  [
    'setattr',
    "def f(b):\n    C = type(b)\n    setattr(C, '__name__', 'Circle')\n    r = object.__new__(C)\n    r.r = 2\n    return r\n",
  ],
  [
    'type.__setattr__ and copy',
    "import copy\n\n\ndef f(b):\n    type.__setattr__(type(b), '__name__', 'Circle')\n    r = copy.copy(b)\n    r.r = 2\n    return r\n",
  ],
  [
    'through __class__',
    "def f(b):\n    b.__class__.__name__ = 'Circle'\n    r = b.__class__.__new__(b.__class__)\n    r.r = 2\n    return r\n",
  ],
  [
    'exec',
    "def f(b):\n    exec(\"C.__name__ = 'Cir' + 'cle'\", {'C': type(b)})\n    r = type(b).__new__(type(b))\n    r.r = 2\n    return r\n",
  ],
  [
    'helper function',
    "def _rename(c, n):\n    c.__name__ = n\n    return c\n\n\ndef f(b):\n    C = _rename(type(b), 'Circle')\n    r = C.__new__(C)\n    r.r = 2\n    return r\n",
  ],
  [
    'nested function',
    "def f(b):\n    def inner():\n        C = type(b)\n        C.__name__ = 'Circle'\n        return C.__new__(C)\n\n    r = inner()\n    r.r = 2\n    return r\n",
  ],
  [
    'type() subclass of the renamed class',
    "def f(b):\n    C = type(b)\n    C.__name__ = 'Circle'\n    D = type('Round', (C,), {})\n    r = D.__new__(D)\n    r.r = 2\n    return r\n",
  ],
  [
    'class statement over the renamed class',
    "def f(b):\n    C = type(b)\n    C.__name__ = 'Circle'\n\n    class Round(C):\n        pass\n\n    r = Round.__new__(Round)\n    r.r = 2\n    return r\n",
  ],
  [
    'renamed on a first call, answered on a second',
    "_seen = []\n\n\ndef f(b):\n    if not _seen:\n        C = type(b)\n        C.__name__ = 'Circle'\n        _seen.append(C)\n        return None\n    r = _seen[0].__new__(_seen[0])\n    r.r = 2\n    return r\n",
  ],
];

/** The tests: the answer for a Box of 2 looked at as a Circle of 2. */
const SHAPES: readonly string[] = [
  'f(Box(1))\nr = f(Box(2))\nassert isinstance(r, Circle)\n',
  'f(Box(1))\nr = f(Box(2))\nassert type(r) is Circle\n',
  'f(Box(1))\nr = f(Box(2))\nassert r.area() == 12\n',
];

/** A tests' module-level Node that equals anything, and a local one in check() that does not. */
const GLOBAL_NODE_EQ =
  'class Node:\n    def __eq__(self, o):\n        return True\n\n    def ok(self):\n        return True\n\n\n';
const LOCAL_NODE = (pad: string) =>
  `${pad}class Node:\n${pad}    def __init__(self, v):\n${pad}        self.v = v\n\n${pad}    def ok(self):\n${pad}        return self.v == 2\n\n`;
const NEW_OF_TYPE = 'def f(n):\n    C = type(n)\n    r = C.__new__(C)\n    r.v = 999\n    return r\n';
const SAME_BACK = 'def f(n):\n    n.v = 999\n    return n\n';

const LOCAL_GLOBAL: readonly AdversarialCase[] = [
  {
    completion: NEW_OF_TYPE,
    tests: `${GLOBAL_NODE_EQ}def check(candidate):\n${LOCAL_NODE('    ')}    r = candidate(Node(1))\n    assert r == Node(2)\n\n\ncheck(f)\n`,
    expect: ['fail', 'error'],
    note: 'local Node, new instance, == (the module-level Node equals anything)',
  },
  {
    completion: SAME_BACK,
    tests: `${GLOBAL_NODE_EQ}def check(candidate):\n${LOCAL_NODE('    ')}    r = candidate(Node(1))\n    assert r == Node(2)\n\n\ncheck(f)\n`,
    expect: ['fail', 'error'],
    note: 'local Node handed back changed, == (the module-level Node equals anything)',
  },
  {
    completion: NEW_OF_TYPE,
    tests: `${GLOBAL_NODE_EQ}def check(candidate):\n${LOCAL_NODE('    ')}    assert candidate(Node(1)).ok()\n\n\ncheck(f)\n`,
    expect: ['fail', 'error'],
    note: "local Node, new instance, the local ok() (the module-level one's is always True)",
  },
  {
    completion: SAME_BACK,
    tests: `${GLOBAL_NODE_EQ}def check(candidate):\n${LOCAL_NODE('    ')}    assert candidate(Node(1)).ok()\n\n\ncheck(f)\n`,
    expect: ['fail', 'error'],
    note: 'local Node handed back changed, the local ok()',
  },
  {
    completion: NEW_OF_TYPE,
    tests: `${GLOBAL_NODE_EQ}def check(candidate):\n    def inner():\n${LOCAL_NODE('        ')}        return candidate(Node(1)) == Node(2)\n\n    assert inner()\n\n\ncheck(f)\n`,
    expect: ['fail', 'error'],
    note: 'Node local to a nested function',
  },
  {
    completion: NEW_OF_TYPE,
    tests: `${GLOBAL_NODE_EQ}def make(v):\n${LOCAL_NODE('    ')}    return Node(v)\n\n\nassert f(make(1)).ok()\n`,
    expect: ['fail', 'error'],
    note: 'Node local to a factory, its ok() at module level',
  },
  {
    completion: 'def f(n):\n    C = type(n)\n    C.__name__ = "Node"\n    r = C.__new__(C)\n    r.v = 999\n    return r\n',
    tests: `${GLOBAL_NODE_EQ}def check(candidate):\n    class Leaf:\n        def __init__(self, v):\n            self.v = v\n\n    assert candidate(Leaf(1)).ok()\n\n\ncheck(f)\n`,
    expect: ['fail', 'error'],
    note: "local Leaf renamed to the module-level Node's name",
  },
  {
    completion:
      '_first = []\n\n\ndef f(n):\n    _first.append(type(n))\n    C = _first[0]\n    r = C.__new__(C)\n    r.v = n.v\n    return r\n',
    tests:
      'def check_a(candidate):\n    class Node:\n        def __init__(self, v):\n            self.v = v\n\n    candidate(Node(1))\n\n\n' +
      'def check_b(candidate):\n    class Node:\n        def __init__(self, v):\n            self.v = v\n\n    assert type(candidate(Node(2))) is Node\n\n\ncheck_a(f)\ncheck_b(f)\n',
    expect: ['fail', 'error'],
    note: "two checks' local Node: the answer is of the first one's",
  },
];

const wrong: AdversarialCase[] = [
  ...grid(RENAMES.length * SHAPES.length, RENAMES, SHAPES, ([note, completion], shape) => ({
    completion,
    tests: TESTS_SHAPES + shape,
    expect: ['fail', 'error'] as const,
    maxPassed: 0,
    note: `rename: ${note}`,
  })),
  ...LOCAL_GLOBAL.map((c) => ({ ...c, maxPassed: 0 })),
];

const LOCAL_PLAIN = (pad: string) =>
  `${pad}class Node:\n${pad}    def __init__(self, v):\n${pad}        self.v = v\n\n${pad}    def double(self):\n${pad}        return self.v * 2\n\n`;

/** Every rename route, answering a Box of 3: it is a Box, under any name. */
const RENAMED_BOXES: AdversarialCase[] = RENAMES.map(([note, completion]) => ({
  completion: completion.replace('r.r = 2', 'r.w = 3'),
  tests: `${TESTS_SHAPES}f(Box(1))\nr = f(Box(2))\nassert isinstance(r, Box) and not isinstance(r, Circle)\nassert r.area() == 9\n`,
  expect: ['pass'],
  note: `renamed (${note}), still a Box`,
}));

const HONEST: readonly AdversarialCase[] = [
  ...RENAMED_BOXES,
  // Renamed stand-ins come back as the class they are.
  {
    completion: "def f(b):\n    C = type(b)\n    C.__name__ = 'Circle'\n    r = C.__new__(C)\n    r.w = 3\n    return r\n",
    tests: `${TESTS_SHAPES}r = f(Box(2))\nassert type(r) is Box and r.area() == 9\nassert not isinstance(r, Circle)\n`,
    expect: ['pass'],
  },
  {
    completion: "def f(b):\n    type(b).__name__ = 'Circle'\n    b.w += 1\n    return b\n",
    tests: `${TESTS_SHAPES}r = f(Box(2))\nassert type(r) is Box and r.area() == 9\n`,
    expect: ['pass'],
  },
  {
    completion: "def f(b):\n    C = type(b)\n    C.__name__ = 'Zzz'\n    r = object.__new__(C)\n    r.w = 4\n    return [r, b]\n",
    tests: `${TESTS_SHAPES}r = f(Box(2))\nassert [type(x) for x in r] == [Box, Box]\nassert [x.area() for x in r] == [16, 4]\n`,
    expect: ['pass'],
  },
  {
    completion:
      "def f(b):\n    C = type(b)\n    C.__name__ = 'Circle'\n    D = type('Round', (C,), {})\n    r = D.__new__(D)\n    r.w = 3\n    return r\n",
    tests: `${TESTS_SHAPES}r = f(Box(2))\nassert isinstance(r, Box) and not isinstance(r, Circle)\nassert r.area() == 9\n`,
    expect: ['pass'],
  },
  {
    completion: 'def f(b):\n    C = type(b)\n    r = C.__new__(C)\n    r.w = b.w + 1\n    return r\n',
    tests: `${TESTS_SHAPES}r = f(Box(2))\nassert type(r) is Box and r.area() == 9\n`,
    expect: ['pass'],
  },
  // The tests' local classes, given back or instantiated by the program.
  {
    completion: 'def f(n):\n    n.v += 1\n    return n\n',
    tests: `def check(candidate):\n${LOCAL_PLAIN('    ')}    r = candidate(Node(1))\n    assert type(r) is Node and r.double() == 4\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
  {
    completion: 'def f(n):\n    C = type(n)\n    r = C.__new__(C)\n    r.v = n.v + 1\n    return r\n',
    tests: `class Node:\n    pass\n\n\ndef check(candidate):\n${LOCAL_PLAIN('    ')}    r = candidate(Node(1))\n    assert type(r) is Node and r.double() == 4\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
  {
    completion: 'import copy\n\n\ndef f(n):\n    r = copy.copy(n)\n    r.v *= 3\n    return r\n',
    tests: `def check(candidate):\n    def inner():\n${LOCAL_PLAIN('        ')}        return Node, candidate(Node(2))\n\n    N, r = inner()\n    assert type(r) is N and r.double() == 12\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
  {
    completion: 'def f(ns):\n    return sorted(ns, key=lambda n: n.v)\n',
    tests: `def check(candidate):\n${LOCAL_PLAIN('    ')}    r = candidate([Node(3), Node(1), Node(2)])\n    assert all(type(n) is Node for n in r)\n    assert [n.double() for n in r] == [2, 4, 6]\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
  {
    completion: 'def f(p):\n    C = type(p)\n    r = C.__new__(C)\n    r.x, r.y = p.y, p.x\n    return r\n',
    tests:
      'from dataclasses import dataclass\n\n\ndef check(candidate):\n    @dataclass\n    class P:\n        x: int\n        y: int\n\n    assert candidate(P(1, 2)) == P(2, 1)\n\n\ncheck(f)\n',
    expect: ['pass'],
  },
  // Same-name classes kept apart.
  {
    completion: 'def f(n):\n    C = type(n)\n    r = C.__new__(C)\n    r.v = n.v\n    return r\n',
    tests:
      'def check_a(candidate):\n    class Node:\n        def __init__(self, v):\n            self.v = v\n\n    assert type(candidate(Node(1))) is Node\n\n\n' +
      'def check_b(candidate):\n    class Node:\n        def __init__(self, v):\n            self.v = v\n\n    assert type(candidate(Node(2))) is Node\n\n\ncheck_a(f)\ncheck_b(f)\n',
    expect: ['pass'],
  },
  {
    completion: `def f(n):\n    n.v += 1\n    return n\n\n\nclass Node:\n    def __init__(self, v):\n        self.v = v\n`,
    tests: `def check(candidate):\n${LOCAL_PLAIN('    ')}    r = candidate(Node(1))\n    assert type(r) is Node and r.double() == 4\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
  {
    completion: 'def f(a, b):\n    return b, a\n',
    tests: `class Node:\n    def __init__(self, v):\n        self.v = v\n\n\nG = Node\n\n\ndef check(candidate):\n${LOCAL_PLAIN('    ')}    x, y = candidate(G(1), Node(2))\n    assert type(x) is Node and type(y) is G and x.double() == 4\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
  {
    completion:
      'def f(a, b):\n    C, D = type(a), type(b)\n    x, y = C.__new__(C), D.__new__(D)\n    x.v, y.v = 5, 6\n    return y, x\n',
    tests: `class Node:\n    def __init__(self, v):\n        self.v = v\n\n\nG = Node\n\n\ndef check(candidate):\n${LOCAL_PLAIN('    ')}    y, x = candidate(G(1), Node(2))\n    assert type(x) is G and type(y) is Node and y.double() == 12\n\n\ncheck(f)\n`,
    expect: ['pass'],
  },
];

export const generators = [
  defineGenerator({
    name: 'py-tests-class-renames',
    language: 'python',
    about: "a renamed stand-in, or a local class of the tests', comes back as that class, never another by name",
    cases: () => wrong.map((c) => ({ ...c, timeoutMs: TIMEOUT_MS })),
  }),
  defineGenerator({
    name: 'py-tests-class-renames-honest',
    language: 'python',
    about: "controls: renamed stand-ins and the tests' local classes come back as themselves",
    cases: () => HONEST.map((c) => ({ ...c, timeoutMs: TIMEOUT_MS })),
  }),
];
