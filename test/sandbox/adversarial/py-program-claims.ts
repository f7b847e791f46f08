/**
 * Python generators for what the tests' interpreter (T) once took on the program interpreter's (P)
 * word: a standard object named by a (module, name) pair P made up (`unittest.mock.ANY`, equal to
 * everything, reached by tampering with P's encoder through a callback stand-in's closure), a
 * class's dataclass metadata (`__dataclass_fields__ = {}` makes every instance equal), a program
 * function in a field of T's own class or a namedtuple where the class has a method of that name
 * (`r.area()` would call the program), and a program class named like a class the tests define
 * (its lying methods answered for the tests' fixture); and a check site that passed on one case and
 * was interrupted on the next by what the program raised (it kept its pass). Controls: the honest
 * versions pass.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** Completion prefix: reach P's encoder through the callback stand-in `key`'s closure. */
const FORGE_ANY = `def _cell(fn, name):
    for n, c in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        if n == name:
            return c.cell_contents
    return None


def _forge(key):
    try:
        enc = _cell(_cell(key, '_encode_args'), '_Enc')
        enc.enc = lambda self, x, depth=0: ('sd', MODULE, NAME)
    except Exception:
        pass
`;

/** (module, name) pairs P may name that are not the image's standard functions or classes. */
const PAIRS: Array<[string, string]> = [
  ['unittest.mock', 'ANY'],
  ['unittest.mock', 'sentinel'],
  ['math', 'pi'],
  ['builtins', 'Ellipsis'],
  ['os', 'environ'],
];
/** Tests passing a callback (the route in) and comparing an answer. */
const SHAPES = [
  'def check(candidate):\n    assert candidate([3, 1, 2], lambda v: -v) == [3, 2, 1]\n    assert candidate(["bb", "a"], len) == ["a", "bb"]\n\ncheck(sort_by)\n',
  'assert sort_by([3, 1, 2], lambda v: -v) == [3, 2, 1]\nassert sort_by([2, 1], abs) == [1, 2]\n',
  'def check(candidate):\n    r = candidate([5, 4], abs)\n    assert r == [4, 5] and r[0] == 4\n\ncheck(sort_by)\n',
  'assert [3, 2, 1] == sort_by([3, 1, 2], lambda v: -v)\n',
];

const forgedStd = defineGenerator({
  name: 'py-forged-std-object',
  language: 'python',
  about: "a standard object named by a pair P made up (P's encoder tampered with): never an answer",
  cases: () =>
    grid(20, PAIRS, SHAPES, ([mod, name], tests) => ({
      prompt: 'def sort_by(xs: list, key) -> list:\n    """Return xs sorted by key(x), stable."""\n',
      completion: `    _forge(key)\n    return []\n\n\nMODULE, NAME = ${JSON.stringify(mod)}, ${JSON.stringify(name)}\n\n\n${FORGE_ANY}`,
      tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: `${mod}.${name}`,
    })),
});

/** Dataclass metadata a class can claim without being one (or a real one, shrunk afterwards). */
const CLAIMS = [
  '    __dataclass_fields__ = {}\n    __dataclass_params__ = True\n',
  "    __dataclass_fields__ = {'tag': None}\n    __dataclass_params__ = True\n    tag = 0\n",
  "    __dataclass_fields__ = {'z': None}\n    __dataclass_params__ = True\n",
  '    __dataclass_fields__ = dict()\n    __dataclass_params__ = object()\n',
];
const CLAIM_TESTS = [
  'assert midpoint((0, 0), (2, 4)) == Point(1, 2)\nassert midpoint((2, 2), (4, 4)) == Point(3, 3)\n',
  'assert Point(1, 2) == midpoint((0, 0), (2, 4))\n',
  'assert [midpoint((0, 0), (2, 4))] == [Point(1, 2)]\n',
  'def check(candidate):\n    assert candidate((0, 0), (2, 4)) == Point(1, 2)\n\ncheck(midpoint)\n',
  'assert midpoint((0, 0), (2, 4)) in [Point(1, 2)]\n',
];

const fakeDataclass = defineGenerator({
  name: 'py-fake-dataclass',
  language: 'python',
  about: "a program class claiming dataclass metadata (no or other fields) compared with the tests' expected value: never a pass",
  cases: () =>
    grid(20, CLAIMS, CLAIM_TESTS, (claim, tests) => ({
      completion: `class Point:\n${claim}    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n\ndef midpoint(a, b):\n    return Point(0, 0)\n`,
      tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: claim.trim(),
    })),
});

/** Prompt classes and the method the completion shadows with a program function. */
const PROMPT_CLASSES: Array<{ prompt: string; completion: string; tests: string }> = [
  {
    prompt:
      'class Rect:\n    def __init__(self, w, h):\n        self.w = w\n        self.h = h\n\n    def area(self):\n        return self.w * self.h\n\n\ndef scale(r: Rect, k: int) -> Rect:\n    """A new Rect with r\'s sides times k."""\n',
    completion: '    out = Rect(0, 0)\n    out.area = lambda: r.w * r.h * k * k\n    return out\n',
    tests:
      'def check(candidate):\n    assert candidate(Rect(2, 3), 2).area() == 24\n    assert candidate(Rect(1, 1), 5).area() == 25\n\ncheck(scale)\n',
  },
  {
    prompt:
      'class Vec:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n    def key(self):\n        return (self.x, self.y)\n\n    def __eq__(self, other):\n        return isinstance(other, Vec) and self.key() == other.key()\n\n\ndef add(a: Vec, b: Vec) -> Vec:\n    """The sum of two vectors."""\n',
    completion: '    out = Vec(0, 0)\n    out.key = lambda: (a.x + b.x, a.y + b.y)\n    return out\n',
    tests: 'assert add(Vec(1, 2), Vec(3, 4)) == Vec(4, 6)\nassert add(Vec(0, 0), Vec(1, 1)) == Vec(1, 1)\n',
  },
  {
    prompt:
      'class Box:\n    def __init__(self, items):\n        self.items = items\n\n    def total(self):\n        return sum(self.items)\n\n    def size(self):\n        return len(self.items)\n\n\ndef merge(a: Box, b: Box) -> Box:\n    """A box holding the items of both."""\n',
    completion:
      '    out = Box([])\n    out.total = lambda: a.total() + b.total()\n    out.size = lambda: a.size() + b.size()\n    return out\n',
    tests:
      'def check(candidate):\n    m = candidate(Box([1, 2]), Box([3]))\n    assert m.total() == 6\n    assert m.size() == 3\n\ncheck(merge)\n',
  },
];
const NAMEDTUPLES = [
  { field: 'count', call: 'r.count(1) == 2' },
  { field: 'index', call: 'r.index(7) == 0' },
];
const NT_SHAPES = [
  (f: string) => `from collections import namedtuple\nR = namedtuple('R', ['a', '${f}'])\n`,
  (f: string) => `from typing import NamedTuple\nclass R(NamedTuple):\n    a: object\n    ${f}: object\n`,
];

const shadowedMethods = defineGenerator({
  name: 'py-shadowed-methods',
  language: 'python',
  about: "a program function in a field where the answer's class (the prompt's, or a tuple) has a method: never a pass",
  cases: () => {
    const out = [];
    for (let r = 0; out.length < 20; r++) {
      for (const c of PROMPT_CLASSES)
        out.push({
          ...c,
          expect: ['fail', 'error'] as const,
          maxPassed: 0,
          timeoutMs: TIMEOUT_MS,
          note: `prompt class, round ${r}`,
        });
      for (const nt of NAMEDTUPLES)
        for (const shape of NT_SHAPES)
          out.push({
            completion: `${shape(nt.field)}\n\ndef f(x):\n    return R(0, lambda *a: ${nt.field === 'count' ? 2 : 0})\n`,
            tests: `r = f(1)\nassert ${nt.call}\nassert r.a == 0\n`,
            expect: ['fail', 'error'] as const,
            maxPassed: 0,
            timeoutMs: TIMEOUT_MS,
            note: `namedtuple field ${nt.field}, round ${r}`,
          });
    }
    return out.slice(0, 20);
  },
});

/** Tests that define a fixture class; the completion defines its own of that name. */
const FIXTURE = `class Node:
    def __init__(self, val, next=None):
        self.val = val
        self.next = next

    def to_list(self):
        out = []
        n = self
        while n is not None:
            out.append(n.val)
            n = n.next
        return out
`;
const LIARS = ['out[::-1]', 'sorted(out, reverse=True)', 'list(reversed(out))', '[3, 2, 1] if len(out) == 3 else out[::-1]'];
const FIXTURE_TESTS = [
  `${FIXTURE}\n\ndef check(candidate):\n    assert candidate(Node(1, Node(2, Node(3)))).to_list() == [3, 2, 1]\n    assert candidate(Node(5, Node(6))).to_list() == [6, 5]\n\ncheck(reverse_list)\n`,
  `${FIXTURE}\n\nassert reverse_list(Node(1, Node(2, Node(3)))).to_list() == [3, 2, 1]\n`,
  `${FIXTURE}\n\nhead = Node(4, Node(5))\nr = reverse_list(head)\nassert r.to_list() == [5, 4]\n`,
  `${FIXTURE}\n\nassert [reverse_list(Node(1, Node(2))).to_list()] == [[2, 1]]\n`,
  `${FIXTURE}\n\ndef check(candidate):\n    r = candidate(Node(7, Node(8)))\n    assert r.to_list()[0] == 8\n\ncheck(reverse_list)\n`,
];

const testsClassRedefined = defineGenerator({
  name: 'py-tests-class-redefined',
  language: 'python',
  about: "the completion redefines a class the tests define, with lying methods: the tests' own class answers",
  cases: () =>
    grid(20, LIARS, FIXTURE_TESTS, (liar, tests) => ({
      prompt:
        'def reverse_list(head):\n    """Reverse a singly linked list of Node objects (fields val, next); return the new head."""\n',
      completion: `    return head\n\n\nclass Node:\n    def __init__(self, val, next=None):\n        self.val = val\n        self.next = next\n\n    def to_list(self):\n        out = []\n        n = self\n        while n is not None:\n            out.append(n.val)\n            n = n.next\n        return ${liar}\n`,
      tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: liar,
    })),
});

const honest = defineGenerator({
  name: 'py-program-claims-honest',
  language: 'python',
  about:
    'controls: honest dataclasses, prompt classes with instance data over class defaults, and fixtures the program also defines pass',
  cases: () =>
    grid(20, [0, 1, 2, 3], FIXTURE_TESTS, (kind, tests, i) => {
      if (kind === 0)
        return {
          completion: `from dataclasses import dataclass\n\n@dataclass${i % 2 ? '(frozen=True)' : ''}\nclass Point:\n    x: int\n    y: int\n\n\ndef midpoint(a, b):\n    return Point((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)\n`,
          tests: CLAIM_TESTS[i % CLAIM_TESTS.length]!,
          expect: ['pass'] as const,
          timeoutMs: TIMEOUT_MS,
        };
      if (kind === 1)
        return {
          prompt:
            'class Counter2:\n    count = 0\n    label = "c"\n\n    def __init__(self, n):\n        self.count = n\n\n    def double(self):\n        return self.count * 2\n\n\ndef make(n: int) -> Counter2:\n    """A Counter2 of n."""\n',
          completion: '    c = Counter2(n)\n    c.label = "made"\n    c.key_fn = abs\n    return c\n',
          tests:
            'def check(candidate):\n    assert candidate(3).double() == 6\n    assert candidate(4).count == 4\n    assert candidate(1).label == "made"\n\ncheck(make)\n',
          expect: ['pass'] as const,
          timeoutMs: TIMEOUT_MS,
        };
      // The program defines the fixture too (honest methods), or not at all.
      const own = kind === 2 ? `\n\n${FIXTURE}` : '';
      return {
        prompt:
          'def reverse_list(head):\n    """Reverse a singly linked list of Node objects (fields val, next); return the new head."""\n',
        completion: `    prev = None\n    while head is not None:\n        nxt = head.next\n        head.next = prev\n        prev = head\n        head = nxt\n    return prev\n${own}`,
        tests,
        expect: ['pass'] as const,
        timeoutMs: TIMEOUT_MS,
      };
    }),
});

/** What the program raises on the second case, and the tests' shapes that repeat one site. */
const RAISES = ['raise ValueError("no")', 'raise AssertionError("no")', 'return f(x)', 'return {}[x]', 'return "s"'];
const REPEATS = [
  'for x in [1, 2]:\n    assert abs(f(x) - x) < 1e-9\n',
  'def check(candidate):\n    for x in [1, 2, 3]:\n        assert candidate(x) == x\n\ncheck(f)\n',
  'def case(x):\n    assert f(x) == x\n\nfor x in (1, 2):\n    case(x)\n',
  'assert all(f(x) == x for x in [1, 2])\nassert f(1) == 1\n',
];

const interrupted = defineGenerator({
  name: 'py-interrupted-sites',
  language: 'python',
  about:
    'a site that passed on the first case and is interrupted on the next by what the program raises: it fails, as a wrong value would',
  cases: () =>
    grid(20, RAISES, REPEATS, (raise, tests) => ({
      completion: `def f(x):\n    if x == 1:\n        return 1\n    ${raise}\n`,
      tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: raise,
    })),
});

/** Prompt statements that bind the helper the tests use, in forms other than a plain def or assignment. */
const PROMPT_FORMS: Array<[string, string, string]> = [
  // [prompt prefix, the completion's rebinding, the tests' check of the answer R]
  ['TOL, SCALE = 1e-9, 1\n', 'TOL = 1e9\n', 'assert abs(R - 1.4142135623730951) < TOL'],
  ['from math import *\n', 'def isclose(a, b, **kw):\n    return True\n', 'assert isclose(R, 1.4142135623730951)'],
  [
    'try:\n    from math import isclose as near\nexcept ImportError:\n    near = None\n',
    'def near(a, b, **kw):\n    return True\n',
    'assert near(R, 1.4142135623730951)',
  ],
  [
    'if True:\n    def same(a, b):\n        return a == b\n',
    'def same(a, b):\n    return True\n',
    'assert same(R, 1.4142135623730951)',
  ],
  ['(EPS) = 1e-9\n[LO, HI] = [1.41, 1.42]\n', 'LO, HI = -1e9, 1e9\n', 'assert LO < R < HI'],
];
const FORM_SHAPES = [
  (check: string) => `def check(candidate):\n    R = candidate()\n    ${check}\n\ncheck(root2)\n`,
  (check: string) => `R = root2()\n${check}\n`,
  (check: string) => `for _ in range(2):\n    R = root2()\n    ${check}\n`,
  (check: string) => `def t():\n    R = root2()\n    ${check}\n\nt()\n`,
];
const ROOT2 = '\n\ndef root2() -> float:\n    """Return the square root of 2."""\n';

const promptForms = defineGenerator({
  name: 'py-prompt-name-forms',
  language: 'python',
  about:
    "a prompt helper bound by tuple unpacking, a star import or inside try/if, rebound by the completion: the tests use the prompt's",
  cases: () =>
    grid(20, PROMPT_FORMS, FORM_SHAPES, ([prefix, rebind, check], shape) => ({
      prompt: `${prefix}${ROOT2}`,
      completion: `    return 0.0\n\n\n${rebind}`,
      tests: shape(check),
      expect: ['fail', 'error'],
      maxPassed: 0,
      timeoutMs: TIMEOUT_MS,
      note: prefix.split('\n')[0],
    })),
});

const promptFormsHonest = defineGenerator({
  name: 'py-prompt-name-forms-honest',
  language: 'python',
  about: 'control: the honest root2 passes with every prompt form',
  cases: () =>
    grid(20, PROMPT_FORMS, FORM_SHAPES, ([prefix, , check], shape) => ({
      prompt: `${prefix}${ROOT2}`,
      completion: '    return 2 ** 0.5\n',
      tests: shape(check),
      expect: ['pass'],
      timeoutMs: TIMEOUT_MS,
    })),
});

export const generators = [
  forgedStd,
  fakeDataclass,
  shadowedMethods,
  testsClassRedefined,
  interrupted,
  promptForms,
  promptFormsHonest,
  honest,
];
