/**
 * Python: the tests hand the program members of their own Enum, instances of their own dataclass
 * or namedtuple (sandbox/python/harness.py `_tests_class_shape`, `_PSide.shaped_standin`,
 * `_PSide.make_namedtuple`; docs/python.md, "The tests' own classes"). The program's interpreter
 * now gets an Enum of the same members, a dataclass of the same fields and flags, a namedtuple of
 * the same fields, so what CPython refuses is refused (`Level.HIGH * 2`, `Color.R == 1` is False,
 * assigning to a frozen instance) and what it allows works (`m.value`, `dataclasses.replace`,
 * `p._replace`). Before, a member crossed as its bare value and an instance as a plain object
 * without the class's behaviour: the wrong programs below passed and the honest ones failed
 * (red-team rt66 P28, P28b, P36). Every case was run under CPython 3.11.7 as one file (program,
 * then tests): the controls pass; every wrong program fails an assert or raises. At 5959131, 27 of
 * the 37 wrong programs passed and 55 of the 59 controls failed.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

/** Enums of the tests': [header, class name, first member, its value, second member, its value]. */
const ENUMS: Array<[string, string, string, number, string, number]> = [
  ['from enum import Enum\nclass Level(Enum):\n    LOW = 1\n    HIGH = 5\n', 'Level', 'LOW', 1, 'HIGH', 5],
  ['import enum\nclass Color(enum.Enum):\n    RED = 2\n    BLUE = 3\n', 'Color', 'RED', 2, 'BLUE', 3],
  ["from enum import Enum\nSize = Enum('Size', [('S', 4), ('L', 9)])\n", 'Size', 'S', 4, 'L', 9],
];

/**
 * Tasks on a member `m` (A: first member, B: second; VA, VB their values): [wrong body (what
 * CPython refuses or answers otherwise), honest body, the expected answers for A and B].
 */
const ENUM_TASKS: Array<[string, string, (va: number, vb: number) => [string, string]]> = [
  // Twice the member's value: a plain Enum member has no arithmetic.
  ['return m * 2', 'return m.value * 2', (va, vb) => [String(va * 2), String(vb * 2)]],
  // Whether it is the first member: a member never equals its value.
  ['return m == VA', 'return m is type(m).A', () => ['True', 'False']],
  // The value plus one.
  ['return m + 1', 'return m.value + 1', (va, vb) => [String(va + 1), String(vb + 1)]],
  // Whether it is the smaller one: a plain Enum has no ordering.
  ['return m < VB', 'return m.value < VB', () => ['True', 'False']],
  // The label from a table keyed by value: a member is not its value as a key.
  ["return {VA: 'a', VB: 'b'}[m]", "return {VA: 'a', VB: 'b'}[m.value]", () => ["'a'", "'b'"]],
  // Whether it is one of the values listed: membership compares with ==.
  ['return m in (VA,)', 'return m.value in (VA,)', () => ['True', 'False']],
];

/** Frozen dataclasses of the tests': [header, class name]. */
const FROZEN: Array<[string, string]> = [
  ['from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Pt:\n    x: int\n    y: int\n', 'Pt'],
  ['import dataclasses\n@dataclasses.dataclass(frozen=True, order=True)\nclass Vec:\n    x: int\n    y: int\n', 'Vec'],
];

/** Tasks on a frozen instance `p` with x = 1, y = 2, the answer a new one: [wrong body, honest body, x and y expected]. */
const FROZEN_TASKS: Array<[string, string, [number, number]]> = [
  ['p.x *= 2\n    return p', 'return dataclasses.replace(p, x=p.x * 2)', [2, 2]],
  ["setattr(p, 'y', p.y + p.x)\n    return p", 'return type(p)(p.x, p.y + p.x)', [1, 3]],
  ['p.x, p.y = p.y, p.x\n    return p', 'return dataclasses.replace(p, x=p.y, y=p.x)', [2, 1]],
];

function enumCases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [header, cls, a, va, b, vb] of ENUMS)
    for (const [wrong, right, answers] of ENUM_TASKS) {
      const body = (honest ? right : wrong)
        .replace(/\bVA\b/g, String(va))
        .replace(/\bVB\b/g, String(vb))
        .replace(/\.A\b/g, `.${a}`);
      const [wa, wb] = answers(va, vb);
      out.push({
        completion: `def f(m):\n    ${body}\n`,
        tests: `${header}\ndef check(candidate):\n    assert candidate(${cls}.${a}) == ${wa}\n    assert candidate(${cls}.${b}) == ${wb}\n\ncheck(f)\n`,
        expect: honest ? ['pass'] : ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      });
    }
  return out;
}

function frozenCases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [header, cls] of FROZEN)
    for (const [wrong, right, [x, y]] of FROZEN_TASKS)
      out.push({
        completion: `import dataclasses\n\ndef f(p):\n    ${honest ? right : wrong}\n`,
        tests: `${header}\ndef check(candidate):\n    p = ${cls}(1, 2)\n    r = candidate(p)\n    assert (r.x, r.y) == (${x}, ${y})\n    assert r == ${cls}(${x}, ${y})\n    assert (p.x, p.y) == (1, 2)\n\ncheck(f)\n`,
        expect: honest ? ['pass'] : ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      });
  return out;
}

/**
 * The classes' finer points (from a hostile pass on this change, rt68): an Enum's data type
 * (`class C(str, Enum)` is no StrEnum: `str(m)` is 'C.RED'), Flag combinations, a dataclass's
 * defaults, default factories, `compare`/`hash`/`repr`/`kw_only` fields, `unsafe_hash`, `slots`
 * and class variables, a namedtuple's defaults, renamed fields and class going back: [program, tests].
 */
const FINER_ATTACKS: Array<[string, string]> = [
  [
    'def label(c):\n    return str(c)\n',
    "from enum import Enum\nclass Color(str, Enum):\n    RED = 'red'\n    BLUE = 'blue'\n\nassert label(Color.RED) == 'red'\nassert label(Color.BLUE) == 'blue'\n",
  ],
  [
    'def show(m):\n    return str(m)\n',
    "from enum import Enum\nclass Lvl(int, Enum):\n    LOW = 1\n    HIGH = 2\n\nassert show(Lvl.HIGH) == '2'\n",
  ],
  [
    "def show(m):\n    return f'{m}'\n",
    "from enum import Enum\nclass Lvl(int, Enum):\n    LOW = 1\n    HIGH = 2\n\nassert show(Lvl.HIGH) == '2'\n",
  ],
  [
    "def label(c):\n    return '{}'.format(c)\n",
    "from enum import Enum\nclass Color(str, Enum):\n    RED = 'red'\n\nassert label(Color.RED) == 'red'\n",
  ],
  [
    'def count_distinct(items):\n    return len(set(items))\n',
    "from dataclasses import dataclass, field\n@dataclass(frozen=True)\nclass Item:\n    name: str\n    id: int = field(compare=False)\n\nassert count_distinct([Item('a', 1), Item('a', 2), Item('b', 3)]) == 3\n",
  ],
  [
    'def count_distinct(items):\n    return len({hash(i) for i in items})\n',
    "from dataclasses import dataclass, field\n@dataclass(frozen=True)\nclass Item:\n    name: str\n    id: int = field(hash=False)\n\nassert count_distinct([Item('a', 1), Item('a', 2)]) == 2\n",
  ],
  [
    'def make_like(c, name):\n    return type(c)(name)\n',
    "from dataclasses import dataclass\n@dataclass\nclass Cfg:\n    name: str\n    retries: int\n\nr = make_like(Cfg('a', 5), 'b')\nassert r.name == 'b'\n",
  ],
  [
    'def order(ts):\n    return [t.name for t in sorted(ts)]\n',
    "from dataclasses import dataclass, field\n@dataclass(order=True)\nclass Task:\n    pri: int\n    name: str = field(compare=False)\n\nassert order([Task(1, 'b'), Task(1, 'a'), Task(0, 'z')]) == ['z', 'a', 'b']\n",
  ],
  [
    'def clone(p):\n    return type(p)(p.x + 1, p.y)\n',
    'from dataclasses import dataclass\n@dataclass(kw_only=True)\nclass Pt:\n    x: int\n    y: int\n\nassert clone(Pt(x=1, y=2)) == Pt(x=2, y=2)\n',
  ],
  [
    'def show(p):\n    return repr(p)\n',
    "from dataclasses import dataclass, field\n@dataclass\nclass User:\n    name: str\n    pw: str = field(repr=False)\n\nassert show(User('a', 's')) == \"User(name='a', pw='s')\"\n",
  ],
  [
    'def to_dict(p):\n    return dict(p.__dict__)\n',
    "from dataclasses import dataclass\n@dataclass(slots=True)\nclass Pt:\n    x: int\n    y: int\n\nassert to_dict(Pt(1, 2)) == {'x': 1, 'y': 2}\n",
  ],
];

const FINER_CONTROLS: Array<[string, string]> = [
  [
    'def grant(p, q):\n    return p | q\n',
    'from enum import Flag\nclass Perm(Flag):\n    R = 1\n    W = 2\n    X = 4\n\nassert grant(Perm.R, Perm.W) == Perm.R | Perm.W\n',
  ],
  [
    'def has(perms, p):\n    return p in perms\n',
    'from enum import Flag\nclass Perm(Flag):\n    R = 1\n    W = 2\n    X = 4\n\nassert has(Perm.R | Perm.W, Perm.R) is True\nassert has(Perm.R | Perm.W, Perm.X) is False\n',
  ],
  [
    'def grant(p, q):\n    return p | q\n',
    'from enum import IntFlag\nclass Perm(IntFlag):\n    R = 1\n    W = 2\n\nr = grant(Perm.R, Perm.W)\nassert r == 3\nassert isinstance(r, Perm)\n',
  ],
  [
    'def f(m):\n    return m * 2\n',
    'from enum import Enum\nclass F(float, Enum):\n    HALF = 0.5\n    ONE = 1.0\n\nassert f(F.HALF) == 1.0\n',
  ],
  [
    'def dedupe(items):\n    out = []\n    for i in items:\n        if i not in out:\n            out.append(i)\n    return out\n',
    "from dataclasses import dataclass, field\n@dataclass\nclass Item:\n    name: str\n    id: int = field(compare=False)\n\nr = dedupe([Item('a', 1), Item('a', 2), Item('b', 3)])\nassert [x.name for x in r] == ['a', 'b']\n",
  ],
  [
    'def make_like(c, name):\n    return type(c)(name)\n',
    "from dataclasses import dataclass\n@dataclass\nclass Cfg:\n    name: str\n    retries: int = 3\n\nr = make_like(Cfg('a', 5), 'b')\nassert r.name == 'b'\nassert r.retries == 3\n",
  ],
  [
    'def price(p):\n    return p.base * (1 + p.TAX)\n',
    'from dataclasses import dataclass\nfrom typing import ClassVar\n@dataclass\nclass Item:\n    base: int\n    TAX: ClassVar[int] = 1\n\nassert price(Item(5)) == 10\n',
  ],
  [
    'def count_distinct(items):\n    return len(set(items))\n',
    'from dataclasses import dataclass\n@dataclass(unsafe_hash=True)\nclass Pt:\n    x: int\n    y: int\n\nassert count_distinct([Pt(1, 2), Pt(1, 2), Pt(2, 2)]) == 2\n',
  ],
  [
    'def make(p, x):\n    return type(p)(x)\n',
    "from collections import namedtuple\nP = namedtuple('P', 'x y', defaults=[0])\n\nassert make(P(1, 2), 5) == P(5, 0)\n",
  ],
  [
    'def f(p):\n    return p._replace(x=5)\n',
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\n\nr = f(P(1, 2))\nassert isinstance(r, P) and type(r) is P\nassert r.x == 5\n",
  ],
  [
    'def swap(p):\n    return type(p)(p.y, p.x)\n',
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\n\nr = swap(P(1, 2))\nassert r == P(2, 1)\nassert isinstance(r, P) and r.x == 2\n",
  ],
  [
    'def f(m):\n    return m.value + 1\n',
    "from enum import Enum\nE = Enum('E', [('a b', 1), ('c', 2)])\n\nassert f(E['a b']) == 2\n",
  ],
  [
    'def names(p):\n    return [m.name for m in type(p)]\n',
    "from enum import Flag\nclass Perm(Flag):\n    R = 1\n    W = 2\n    RW = 3\n\nassert names(Perm.R) == ['R', 'W']\n",
  ],
  [
    "def fresh(p):\n    q = type(p)(p.name)\n    q.tags.append('new')\n    return q\n",
    "from dataclasses import dataclass, field\n@dataclass\nclass Doc:\n    name: str\n    tags: list = field(default_factory=list)\n\nr = fresh(Doc('a', ['x']))\nassert r.tags == ['new'] and r.name == 'a'\n",
  ],
  [
    'def f(p):\n    return p.x + p[1]\n',
    "from collections import namedtuple\nP = namedtuple('P', ['x', 'def'], rename=True)\n\nassert f(P(1, 2)) == 3\n",
  ],
];

/** A Flag of the tests': combinations of members cross as the Flag's own values. */
const FLAG = 'from enum import Flag\nclass Perm(Flag):\n    R = 1\n    W = 2\n    X = 4\n\n';

/** Wrong programs on a tests' Flag (a plain Flag has no arithmetic with ints and never equals one). */
const FLAG_ATTACKS: Array<[string, string]> = [
  ['def f(p):\n    return p & 2 != 0\n', 'assert f(Perm.R | Perm.W) is True\nassert f(Perm.R) is False\n'],
  ['def f(p):\n    return p == 3\n', 'assert f(Perm.R | Perm.W) is True\nassert f(Perm.R) is False\n'],
];

/** Controls only: the class's own API, used by honest programs (they failed: no such attribute). */
const CONTROLS: Array<[string, string]> = [
  // An Enum member's name, its class's members, the member back as the tests' own.
  [
    'def f(m):\n    return m.name.lower() + str(len(type(m)))\n',
    "from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n\nassert f(Color.G) == 'g2'\n",
  ],
  [
    'def f(m):\n    return [x.name for x in type(m)]\n',
    "from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n    B = 3\n\nassert f(Color.G) == ['R', 'G', 'B']\n",
  ],
  [
    'def f(m):\n    return m\n',
    'from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n\nassert f(Color.R) is Color.R\nassert f(Color.G) == Color.G\n',
  ],
  [
    'def f(ms):\n    return {m: m.value for m in ms}\n',
    'from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n\nassert f([Color.R, Color.G]) == {Color.R: 1, Color.G: 2}\n',
  ],
  [
    'def f(m):\n    return type(m)(m.value + 1)\n',
    'from enum import Enum\nclass Step(Enum):\n    ONE = 1\n    TWO = 2\n\nassert f(Step.ONE) is Step.TWO\n',
  ],
  // An IntEnum member is an int: arithmetic and comparison with ints hold.
  [
    'def f(m):\n    return m * 2 + (m > 1)\n',
    'from enum import IntEnum\nclass L(IntEnum):\n    A = 1\n    B = 5\n\nassert f(L.B) == 11\nassert f(L.A) == 2\n',
  ],
  // A Flag's combinations, an IntFlag's arithmetic, auto() values, an alias.
  ['def f(p):\n    return type(p).W in p\n', `${FLAG}assert f(Perm.R | Perm.W) is True\nassert f(Perm.R) is False\n`],
  ['def f(a, b):\n    return a | b\n', `${FLAG}assert f(Perm.R, Perm.W) == Perm.R | Perm.W\n`],
  [
    'def f(p):\n    return int(p) + (p & 2)\n',
    'from enum import IntFlag\nclass P(IntFlag):\n    R = 1\n    W = 2\n\nassert f(P.R | P.W) == 5\n',
  ],
  [
    'def f(m):\n    return m.value\n',
    'from enum import Enum, auto\nclass C(Enum):\n    A = auto()\n    B = auto()\n\nassert f(C.B) == 2\n',
  ],
  [
    'def f(m):\n    return m is type(m).ALIAS\n',
    'from enum import Enum\nclass C(Enum):\n    A = 1\n    ALIAS = 1\n    B = 2\n\nassert f(C.A) is True\n',
  ],
  // A dataclass: asdict, astuple, fields, equality, ordering, hashing of frozen instances.
  [
    'import dataclasses\n\ndef f(p):\n    return dataclasses.asdict(p)\n',
    'from dataclasses import dataclass\n@dataclass\nclass Pt:\n    x: int\n    y: int\n\nassert f(Pt(1, 2)) == {"x": 1, "y": 2}\n',
  ],
  [
    'import dataclasses\n\ndef f(p):\n    return [fl.name for fl in dataclasses.fields(p)], dataclasses.astuple(p)\n',
    'from dataclasses import dataclass\n@dataclass\nclass Pt:\n    x: int\n    y: int\n\nassert f(Pt(3, 4)) == (["x", "y"], (3, 4))\n',
  ],
  [
    'def f(p, q):\n    return p == q\n',
    'from dataclasses import dataclass\n@dataclass\nclass Pt:\n    x: int\n    y: int\n\nassert f(Pt(1, 2), Pt(1, 2)) is True\nassert f(Pt(1, 2), Pt(1, 3)) is False\n',
  ],
  [
    'def f(ps):\n    return sorted(ps)\n',
    'from dataclasses import dataclass\n@dataclass(order=True, frozen=True)\nclass V:\n    x: int\n    y: int\n\nassert f([V(2, 1), V(1, 5)]) == [V(1, 5), V(2, 1)]\n',
  ],
  [
    'def f(ps):\n    return len(set(ps))\n',
    'from dataclasses import dataclass\n@dataclass(frozen=True)\nclass V:\n    x: int\n    y: int\n\nassert f([V(1, 1), V(1, 1), V(2, 1)]) == 2\n',
  ],
  [
    'def f(p):\n    p.x += 1\n    return p\n',
    'from dataclasses import dataclass\n@dataclass\nclass Pt:\n    x: int\n    y: int\n\np = Pt(1, 2)\nr = f(p)\nassert r is p and p.x == 2\n',
  ],
  // A namedtuple: fields by name, _replace, _asdict, _fields.
  [
    'def f(p):\n    return p.x + p.y\n',
    'from collections import namedtuple\nP = namedtuple("P", "x y")\n\nassert f(P(1, 2)) == 3\n',
  ],
  [
    'def f(p):\n    return p._replace(x=5)\n',
    'from typing import NamedTuple\nclass P(NamedTuple):\n    x: int\n    y: int\n\nr = f(P(1, 2))\nassert r == P(5, 2) and r.x == 5\n',
  ],
  [
    'def f(p):\n    return dict(p._asdict()), p._fields\n',
    'from collections import namedtuple\nP = namedtuple("P", ["a", "b"])\n\nassert f(P(1, 2)) == ({"a": 1, "b": 2}, ("a", "b"))\n',
  ],
];

const wrong = defineGenerator({
  name: 'py-tests-classes',
  language: 'python',
  about:
    "a wrong program uses the tests' own Enum member as its value, or assigns to their frozen dataclass instance: CPython refuses both, so must the sandbox",
  cases: () => [
    ...enumCases(false),
    ...frozenCases(false),
    ...[...FLAG_ATTACKS.map(([c, t]): [string, string] => [c, FLAG + t]), ...FINER_ATTACKS].map(([completion, tests]) => ({
      completion,
      tests,
      expect: ['fail', 'error'] as const,
      timeoutMs: TIMEOUT_MS,
    })),
  ],
});

const honest = defineGenerator({
  name: 'py-tests-classes-honest',
  language: 'python',
  about: "control: honest programs using the tests' Enum, dataclass and namedtuple through their own API pass",
  cases: () => [
    ...enumCases(true),
    ...frozenCases(true),
    ...[...CONTROLS, ...FINER_CONTROLS].map(([completion, tests]) => ({
      completion,
      tests,
      expect: ['pass'] as const,
      timeoutMs: TIMEOUT_MS,
    })),
  ],
});

export const generators = [wrong, honest];
