/**
 * Python (red-team rt63 Y_A01–Y_A06): the tests' side took a class of the PROGRAM for the tests'
 * own class of the same NAME. A completion returning an instance of its function-local `class
 * Box` (or of a module-level `Box` made before the tests define theirs, captured in a default
 * argument or a closure, or bound under another name) was rebuilt as the tests' `Box`: `type(r)
 * is Box`, `isinstance(r, Box)` and the dataclass `==` held, and the tests' own (correct) methods
 * ran on the program's data instead of the program's (wrong) ones. Under CPython these are two
 * classes: not the same type, not instances, not equal, and `r.double()` is the program's method.
 * The door: `_tests_class` looked the tests' class up by the name the program's class carried. Now
 * an answer is an instance of the tests' class only when it IS one the tests handed the program
 * (the program's interpreter notes the objects it rebuilt from the tests' instances, and the
 * stand-in classes it made for the tests' classes the program lacks), never by name; any other
 * class of the program's crosses as its own record class (sandbox/python/harness.py,
 * `_PSide.tests_own`, `record_class`).
 * Wrong: program classes named like the tests'. Controls: plain data the tests wrap in their own
 * class, the prompt's classes, the tests' own instances handed to the program and given back (the
 * program defining a class of that name or not), helper classes the program never names, program
 * classes the tests use only through their fields and the program's own methods.
 * By design (strict; CPython passes them: the last two cases of `py-tests-class-lookalikes`): a module-level
 * class of the program built at call time, which under CPython is the tests' class of that name
 * (their definition rebinds the name the program's function looks up), crosses as the program's.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** The tests' Box: `double` is right. */
const TESTS_BOX =
  'class Box:\n    def __init__(self, v):\n        self.v = v\n\n    def double(self):\n        return self.v * 2\n\n\n';

/** A program Box whose `double` is wrong, as a class body at the given indent. */
const wrongBox = (pad: string) =>
  `${pad}class Box:\n${pad}    def __init__(self, v):\n${pad}        self.v = v\n\n${pad}    def double(self):\n${pad}        return 0\n`;

/** Programs whose `make(v)` answers an instance of a class of the program's named Box. */
const WRONG: readonly [string, string][] = [
  ['local class', `def make(v):\n${wrongBox('    ')}\n    return Box(v)\n`],
  [
    'type() call',
    "def make(v):\n    Box = type('Box', (), {'double': lambda self: 0})\n    b = Box()\n    b.v = v\n    return b\n",
  ],
  ['module factory', `def _mk():\n${wrongBox('    ')}\n    return Box\n\n\ndef make(v):\n    return _mk()(v)\n`],
  [
    'renamed module class',
    "class _B:\n    def __init__(self, v):\n        self.v = v\n\n    def double(self):\n        return 0\n\n\n_B.__name__ = _B.__qualname__ = 'Box'\n\n\ndef make(v):\n    return _B(v)\n",
  ],
  ['default argument', `${wrongBox('')}\n\ndef make(v, cls=Box):\n    return cls(v)\n`],
  ['made at load', `${wrongBox('')}\n\n_MADE = {v: Box(v) for v in range(10)}\n\n\ndef make(v):\n    return _MADE[v]\n`],
  [
    'closure',
    `${wrongBox('')}\n\ndef _factory(cls):\n    def make(v):\n        return cls(v)\n\n    return make\n\n\nmake = _factory(Box)\n`,
  ],
  ['class bound as make', `${wrongBox('')}\n\nmake = Box\n`],
];

/** Tests that define their own Box and look at the answer as one. */
const SHAPES: readonly string[] = [
  'assert make(3).double() == 6\n',
  'r = make(3)\nassert isinstance(r, Box)\nassert r.v == 3\n',
  'r = make(4)\nassert type(r) is Box\nassert r.v == 4\n',
];

const LOCAL_DATACLASS =
  'from dataclasses import dataclass\n\n\ndef make(x, y):\n    @dataclass\n    class P:\n        x: int\n        y: int\n\n    return P(x, y)\n';
const TESTS_DATACLASS = 'from dataclasses import dataclass\n\n\n@dataclass\nclass P:\n    x: int\n    y: int\n\n\n';

const TESTS_NODE =
  'class Node:\n    def __init__(self, v, nxt=None):\n        self.v = v\n        self.nxt = nxt\n\n    def to_list(self):\n        out, n = [], self\n        while n is not None:\n            out.append(n.v)\n            n = n.nxt\n        return out\n\n\n';
const LOCAL_NODE =
  'def build(xs):\n    class Node:\n        def __init__(self, v, nxt=None):\n            self.v = v\n            self.nxt = nxt\n\n        def to_list(self):\n            return []\n\n    head = None\n    for x in reversed(xs):\n        head = Node(x, head)\n    return head\n';

const wrong: AdversarialCase[] = [
  ...grid(24, WRONG, SHAPES, ([note, completion], shape) => ({
    completion,
    tests: TESTS_BOX + shape,
    expect: ['fail', 'error'] as const,
    maxPassed: 0,
    timeoutMs: TIMEOUT_MS,
    note,
  })),
  {
    completion: LOCAL_DATACLASS,
    tests: `${TESTS_DATACLASS}assert make(1, 2) == P(1, 2)\n`,
    expect: ['fail', 'error'],
    maxPassed: 0,
    timeoutMs: TIMEOUT_MS,
    note: 'local dataclass ==',
  },
  {
    completion: LOCAL_DATACLASS,
    tests: `${TESTS_DATACLASS}assert make(1, 2) in [P(1, 2)]\n`,
    expect: ['fail', 'error'],
    maxPassed: 0,
    timeoutMs: TIMEOUT_MS,
    note: 'local dataclass in',
  },
  {
    completion: LOCAL_NODE,
    tests: `${TESTS_NODE}assert build([1, 2, 3]).to_list() == [1, 2, 3]\n`,
    expect: ['fail', 'error'],
    maxPassed: 0,
    timeoutMs: TIMEOUT_MS,
    note: 'local linked-list Node',
  },
];

/** The prompt's Box (the tests do not define one): instances of it are the prompt's class. */
const PROMPT_BOX =
  'class Box:\n    def __init__(self, v):\n        self.v = v\n\n    def double(self):\n        return self.v * 2\n\n\ndef make(v):\n    """Return a Box of v."""\n';

const HONEST: readonly AdversarialCase[] = [
  // Plain data the tests wrap in their own class.
  { completion: 'def make(v):\n    return v\n', tests: `${TESTS_BOX}assert Box(make(3)).double() == 6\n`, expect: ['pass'] },
  {
    completion: 'def make(v):\n    return {"v": v}\n',
    tests: `${TESTS_BOX}r = Box(**make(3))\nassert type(r) is Box and r.double() == 6\n`,
    expect: ['pass'],
  },
  {
    completion: 'def make(x, y):\n    return (x, y)\n',
    tests: `${TESTS_DATACLASS}assert P(*make(1, 2)) == P(1, 2)\n`,
    expect: ['pass'],
  },
  // The prompt's classes.
  { prompt: PROMPT_BOX, completion: '    return Box(v)\n', tests: SHAPES[0]!, expect: ['pass'] },
  { prompt: PROMPT_BOX, completion: '    return Box(v)\n', tests: SHAPES[1]!, expect: ['pass'] },
  { prompt: PROMPT_BOX, completion: '    return Box(v)\n', tests: SHAPES[2]!, expect: ['pass'] },
  {
    prompt: PROMPT_BOX,
    completion: '    return Big(v)\n\n\nclass Big(Box):\n    pass\n',
    tests: 'r = make(3)\nassert isinstance(r, Box)\nassert r.double() == 6\n',
    expect: ['pass'],
  },
  {
    prompt: `${TESTS_DATACLASS}def make(x, y):\n    """Return P(x, y)."""\n`,
    completion: '    return P(x, y)\n',
    tests: 'assert make(1, 2) == P(1, 2)\nassert type(make(1, 2)) is P\n',
    expect: ['pass'],
  },
  // The tests' own instances handed to the program and given back (the program has no Box).
  {
    completion: 'def grow(b):\n    b.v += 1\n    return b\n',
    tests: `${TESTS_BOX}b = Box(3)\nr = grow(b)\nassert type(r) is Box and r.double() == 8\n`,
    expect: ['pass'],
  },
  {
    completion: 'import copy\n\n\ndef grow(b):\n    c = copy.copy(b)\n    c.v *= 2\n    return c\n',
    tests: `${TESTS_BOX}r = grow(Box(3))\nassert isinstance(r, Box) and r.double() == 12\n`,
    expect: ['pass'],
  },
  {
    completion: 'def pick(bs):\n    return max(bs, key=lambda b: b.v)\n',
    tests: `${TESTS_BOX}r = pick([Box(1), Box(5), Box(2)])\nassert type(r) is Box and r.double() == 10\n`,
    expect: ['pass'],
  },
  {
    completion:
      'def reverse(head):\n    prev = None\n    while head is not None:\n        head.nxt, prev, head = prev, head, head.nxt\n    return prev\n',
    tests: `${TESTS_NODE}assert reverse(Node(1, Node(2, Node(3)))).to_list() == [3, 2, 1]\n`,
    expect: ['pass'],
  },
  // ... the program defining a class of that name too (MBPP solutions often copy the fixture).
  {
    completion: `def grow(b):\n    b.v += 1\n    return b\n\n\n${wrongBox('')}`,
    tests: `${TESTS_BOX}r = grow(Box(3))\nassert type(r) is Box and r.double() == 8\n`,
    expect: ['pass'],
  },
  {
    completion: `def reverse(head):\n    prev = None\n    while head is not None:\n        head.nxt, prev, head = prev, head, head.nxt\n    return prev\n\n\n${TESTS_NODE}`,
    tests: `${TESTS_NODE}r = reverse(Node(1, Node(2)))\nassert type(r) is Node and r.to_list() == [2, 1]\n`,
    expect: ['pass'],
  },
  {
    completion: `def second(head):\n    return head.nxt\n\n\n${TESTS_NODE}`,
    tests: `${TESTS_NODE}head = Node(1, Node(2, Node(3)))\nr = second(head)\nassert type(r) is Node and r.to_list() == [2, 3]\n`,
    expect: ['pass'],
  },
  // Helper classes of the tests the program never names.
  {
    completion: 'def add(a, b):\n    return a + b\n',
    tests:
      'class Approx:\n    def __init__(self, v):\n        self.v = v\n\n    def __eq__(self, o):\n        return abs(o - self.v) < 1e-9\n\n\nassert Approx(0.3) == add(0.1, 0.2)\n',
    expect: ['pass'],
  },
  {
    completion: 'def check_positive(n):\n    if n <= 0:\n        raise ValueError(n)\n    return n\n',
    tests:
      'class Expected(Exception):\n    pass\n\n\ntry:\n    check_positive(-1)\n    raise Expected()\nexcept ValueError:\n    pass\nassert check_positive(2) == 2\n',
    expect: ['pass'],
  },
  // Program classes (of other names, or named like the tests' but used only through their
  // fields and the program's own methods).
  {
    completion:
      'class Crate:\n    def __init__(self, v):\n        self.v = v\n\n    def double(self):\n        return self.v * 2\n\n\ndef make(v):\n    return Crate(v)\n',
    tests: `${TESTS_BOX}r = make(3)\nassert r.v == 3 and r.double() == 6\nassert not isinstance(r, Box)\n`,
    expect: ['pass'],
  },
  {
    completion:
      'def make(v):\n    class Box:\n        def __init__(self, v):\n            self.v = v\n\n        def double(self):\n            return self.v * 2\n\n    return Box(v)\n',
    tests: `${TESTS_BOX}r = make(3)\nassert r.v == 3 and r.double() == 6\nassert not isinstance(r, Box)\n`,
    expect: ['pass'],
  },
  {
    completion:
      'class Box:\n    def __init__(self, v):\n        self.v = v\n\n    def double(self):\n        return self.v * 2\n\n\n_MADE = {v: Box(v) for v in range(10)}\n\n\ndef make(v):\n    return _MADE[v]\n',
    tests: `${TESTS_BOX}r = make(3)\nassert r.v == 3 and r.double() == 6\nassert type(r) is not Box\n`,
    expect: ['pass'],
  },
];

/**
 * Honest under CPython, failed by design: the program's module-level Box built at call time is,
 * under CPython, the tests' Box (their class statement rebinds the name the program's function
 * looks up); strictly it is the program's class, so the tests' methods and identity do not hold.
 */
const STRICT: readonly AdversarialCase[] = [
  {
    completion: 'class Box:\n    def __init__(self, v):\n        self.v = v\n\n\ndef make(v):\n    return Box(v)\n',
    tests: `${TESTS_BOX}assert make(3).double() == 6\n`,
    expect: ['fail', 'error'],
  },
  {
    completion: 'class Box:\n    def __init__(self, v):\n        self.v = v\n\n\ndef make(v):\n    return Box(v)\n',
    tests: `${TESTS_BOX}assert isinstance(make(3), Box)\n`,
    expect: ['fail', 'error'],
  },
];

export const generators = [
  defineGenerator({
    name: 'py-tests-class-lookalikes',
    language: 'python',
    about: "a program class named like a class of the tests' is not taken for it",
    cases: () => [...wrong, ...STRICT.map((c) => ({ ...c, timeoutMs: TIMEOUT_MS, note: 'CPython passes: strict by design' }))],
  }),
  defineGenerator({
    name: 'py-tests-class-lookalikes-honest',
    language: 'python',
    about: "controls: plain data, the prompt's classes, the tests' own instances given back, helper classes",
    cases: () => HONEST.map((c) => ({ ...c, timeoutMs: TIMEOUT_MS })),
  }),
];
