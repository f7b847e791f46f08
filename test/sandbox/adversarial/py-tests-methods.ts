/**
 * Python: the tests' own code on their classes — a dataclass's `__post_init__`, methods,
 * properties, static and class methods, special methods (`__str__`, `__lt__`, `__eq__`, `__len__`,
 * `__add__`) of their Enum, dataclass or namedtuple — runs when the program uses one of their
 * instances (sandbox/python/harness.py `_tests_methods`, `_PSide.forwarders`; docs/python.md, "The
 * tests' own classes"). The program's interpreter stands in for such a class with its shape; each
 * member the tests wrote is a callback of the tests there, so CPython's answers come back. Before,
 * the stand-in had none of the tests' code: a `__post_init__` that validates or normalises never
 * ran on `dataclasses.replace` in the program, so a program making an instance CPython refuses
 * (a negative balance) or reading a value CPython would have normalised passed (red-team rt68
 * P16b), and honest programs calling `m.label` or `p.norm1()` failed (rt68 P07, P17, P26). Every
 * case was run under CPython 3.11.7 as one file (program, then tests): the wrong programs fail an
 * assert or raise, the controls pass. The last controls hand the program one of the tests' own
 * instances with a callback of theirs: the tests refused the callback (the copy's class was first
 * described in a signature P never sent), so any such honest program failed. At aa461c6 all 20
 * wrong programs passed and 29 of the 31 controls failed.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

/**
 * Dataclasses of the tests' whose `__post_init__` refuses or changes what it is given: [header,
 * class name, field, a valid instance's argument, a change the program makes, what the tests
 * expect that only a skipped `__post_init__` gives].
 */
const POST_INITS: Array<[string, string, string, string, string, string]> = [
  // Validation: a negative intermediate balance raises under CPython.
  [
    "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Acct:\n    bal: int\n    def __post_init__(self):\n        if self.bal < 0:\n            raise ValueError('negative')\n",
    'Acct',
    'bal',
    '1',
    'x.bal - 5',
    '-4',
  ],
  // Normalisation: the tag is lower-cased.
  [
    'from dataclasses import dataclass\n@dataclass\nclass Tag:\n    s: str\n    def __post_init__(self):\n        self.s = self.s.lower()\n',
    'Tag',
    's',
    "'ab'",
    'x.s.upper()',
    "'AB'",
  ],
  // Clamping on a frozen instance.
  [
    "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Cap:\n    v: int\n    def __post_init__(self):\n        object.__setattr__(self, 'v', min(self.v, 100))\n",
    'Cap',
    'v',
    '80',
    'x.v + 50',
    '130',
  ],
  // A type check.
  [
    "import dataclasses\n@dataclasses.dataclass\nclass Cfg:\n    n: int\n    def __post_init__(self):\n        if not isinstance(self.n, int):\n            raise TypeError('n must be an int')\n",
    'Cfg',
    'n',
    '1',
    'str(x.n + 4)',
    "'5'",
  ],
];

/** How the program makes the changed instance (F: the field, V: the new value). */
const MAKERS: readonly string[] = [
  'return dataclasses.replace(x, F=V)',
  'return type(x)(V)',
  'return x.__class__(F=V)',
  "return dataclasses.replace(x, **{'F': V})",
  'cls = type(x)\n    y = cls(V)\n    return y',
];

/** Wrong: each relies on the tests' `__post_init__` not running on the instance it makes. */
function attacks(): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [header, cls, field, arg, change, skipped] of POST_INITS)
    for (const maker of MAKERS)
      out.push({
        completion: `import dataclasses\n\ndef f(x):\n    ${maker.replace(/\bF\b/g, field).replace(/\bV\b/g, change)}\n`,
        tests: `${header}\nassert f(${cls}(${arg})).${field} == ${skipped}\n`,
        expect: ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      });
  return out;
}

/** Honest programs that use the tests' own members: [program, tests]. */
const CONTROLS: Array<[string, string]> = [
  // An Enum's property and method.
  [
    'def f(m):\n    return m.label\n',
    'from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n    @property\n    def label(self):\n        return self.name.lower()\n\nassert f(Color.G) == "g"\n',
  ],
  [
    'def f(m):\n    return m.describe("!")\n',
    'from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n    def describe(self, end):\n        return self.name + str(self.value) + end\n\nassert f(Color.R) == "R1!"\n',
  ],
  // A dataclass's method, property, static and class method.
  [
    'def f(p):\n    return p.norm1()\n',
    'from dataclasses import dataclass\n@dataclass\nclass V:\n    x: int\n    y: int\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\n\nassert f(V(-1, 2)) == 3\n',
  ],
  [
    'def f(p):\n    return p.area * 2\n',
    'from dataclasses import dataclass\n@dataclass(frozen=True)\nclass R:\n    w: int\n    h: int\n    @property\n    def area(self):\n        return self.w * self.h\n\nassert f(R(2, 3)) == 12\n',
  ],
  [
    'def f(p):\n    return type(p).origin()\n',
    'from dataclasses import dataclass\n@dataclass\nclass V:\n    x: int\n    y: int\n    @staticmethod\n    def origin():\n        return V(0, 0)\n\nassert f(V(3, 4)) == V(0, 0)\n',
  ],
  [
    'def f(p):\n    return type(p).diag(p.x + 1)\n',
    'from dataclasses import dataclass\n@dataclass\nclass V:\n    x: int\n    y: int\n    @classmethod\n    def diag(cls, n):\n        return cls(n, n)\n\nassert f(V(3, 4)) == V(4, 4)\n',
  ],
  // A namedtuple's method (typing.NamedTuple).
  [
    'def f(p):\n    return p.norm1()\n',
    'from typing import NamedTuple\nclass V(NamedTuple):\n    x: int\n    y: int\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\n\nassert f(V(-1, 2)) == 3\n',
  ],
  [
    'def f(p):\n    return p._replace(x=p.x * 2).total()\n',
    'from typing import NamedTuple\nclass V(NamedTuple):\n    x: int\n    y: int = 5\n    def total(self):\n        return self.x + self.y\n\nassert f(V(2)) == 9\n',
  ],
  // `__post_init__` runs on what the program makes: a derived field, a valid value, a normalised one.
  [
    'import dataclasses\n\ndef f(r):\n    return dataclasses.replace(r, w=r.w * 2)\n',
    'from dataclasses import dataclass, field\n@dataclass\nclass Rect:\n    w: int\n    h: int\n    area: int = field(init=False)\n    def __post_init__(self):\n        self.area = self.w * self.h\n\nassert f(Rect(2, 3)).area == 12\n',
  ],
  [
    'import dataclasses\n\ndef f(a):\n    return dataclasses.replace(a, bal=max(a.bal - 5, 0))\n',
    "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Acct:\n    bal: int\n    def __post_init__(self):\n        if self.bal < 0:\n            raise ValueError('negative')\n\nassert f(Acct(1)).bal == 0\nassert f(Acct(9)).bal == 4\n",
  ],
  [
    "def f(t):\n    return type(t)(t.s + 'XY')\n",
    "from dataclasses import dataclass\n@dataclass\nclass Tag:\n    s: str\n    def __post_init__(self):\n        self.s = self.s.lower()\n\nassert f(Tag('ab')).s == 'abxy'\n",
  ],
  [
    'import dataclasses\n\ndef f(c):\n    return dataclasses.replace(c, v=c.v + 50).v\n',
    "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Cap:\n    v: int\n    def __post_init__(self):\n        object.__setattr__(self, 'v', min(self.v, 100))\n\nassert f(Cap(80)) == 100\n",
  ],
  // Special methods the tests wrote: str, ordering, equality, len, addition.
  [
    'def f(p):\n    return str(p)\n',
    'from dataclasses import dataclass\n@dataclass\nclass Pt:\n    x: int\n    y: int\n    def __str__(self):\n        return f"({self.x}, {self.y})"\n\nassert f(Pt(1, 2)) == "(1, 2)"\n',
  ],
  [
    'def f(xs):\n    return sorted(xs)\n',
    'from dataclasses import dataclass\n@dataclass\nclass Job:\n    name: str\n    prio: int\n    def __lt__(self, other):\n        return self.prio > other.prio\n\nassert [j.name for j in f([Job("a", 1), Job("b", 3), Job("c", 2)])] == ["b", "c", "a"]\n',
  ],
  [
    'def f(a, b):\n    return a == b\n',
    'from dataclasses import dataclass\n@dataclass(eq=False)\nclass Name:\n    s: str\n    def __eq__(self, other):\n        return self.s.lower() == other.s.lower()\n\nassert f(Name("Ab"), Name("aB"))\n',
  ],
  [
    'def f(p):\n    return len(p) + 1\n',
    'from dataclasses import dataclass, field\n@dataclass\nclass Bag:\n    items: list = field(default_factory=list)\n    def __len__(self):\n        return len(self.items)\n\nassert f(Bag([1, 2, 3])) == 4\n',
  ],
  [
    'def f(a, b):\n    return a + b\n',
    'from dataclasses import dataclass\n@dataclass(frozen=True)\nclass V:\n    x: int\n    y: int\n    def __add__(self, o):\n        return V(self.x + o.x, self.y + o.y)\n\nassert f(V(1, 2), V(3, 4)) == V(4, 6)\n',
  ],
  [
    'def f(m):\n    return f"{m}"\n',
    'from enum import Enum\nclass Color(Enum):\n    R = 1\n    G = 2\n    def __str__(self):\n        return self.name.lower()\n\nassert f(Color.G) == "g"\n',
  ],
  // A method changing its instance: the tests see the change, as under CPython.
  [
    'def f(c):\n    c.bump()\n    c.bump()\n    return c.n\n',
    'from dataclasses import dataclass\n@dataclass\nclass Counter:\n    n: int = 0\n    def bump(self):\n        self.n += 1\n\nc = Counter()\nassert f(c) == 2\nassert c.n == 2\n',
  ],
  // The same with `slots=True` (no `__dict__` to bring back: the slots one by one).
  [
    'def f(c):\n    c.bump()\n    return c.n\n',
    'from dataclasses import dataclass\n@dataclass(slots=True)\nclass Counter:\n    n: int = 0\n    def bump(self):\n        self.n += 1\n\nc = Counter()\nassert f(c) == 1\nassert c.n == 1\n',
  ],
  [
    'import dataclasses\n\ndef f(r):\n    return dataclasses.replace(r, w=r.w * 2)\n',
    'from dataclasses import dataclass, field\n@dataclass(slots=True)\nclass Rect:\n    w: int\n    h: int\n    area: int = field(init=False)\n    def __post_init__(self):\n        self.area = self.w * self.h\n\nassert f(Rect(2, 3)).area == 12\n',
  ],
  // A method reading a class variable, and one calling another method of the class.
  [
    'def f(p):\n    return p.scaled()\n',
    'from dataclasses import dataclass\nfrom typing import ClassVar\n@dataclass\nclass M:\n    v: int\n    K: ClassVar[int] = 10\n    def scaled(self):\n        return self.v * self.K\n\nassert f(M(3)) == 30\n',
  ],
  [
    'def f(p):\n    return p.twice_norm()\n',
    'from dataclasses import dataclass\n@dataclass\nclass V:\n    x: int\n    y: int\n    def norm(self):\n        return abs(self.x) + abs(self.y)\n    def twice_norm(self):\n        return 2 * self.norm()\n\nassert f(V(1, -2)) == 6\n',
  ],
  // Methods on many instances (each call crosses back to the tests).
  [
    'def f(ps):\n    return sum(p.norm1() for p in ps)\n',
    'from dataclasses import dataclass\n@dataclass\nclass V:\n    x: int\n    y: int\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\n\nassert f([V(i, -i) for i in range(50)]) == 2 * sum(range(50))\n',
  ],
  // An IntEnum's method, and a Flag's property.
  [
    'def f(m):\n    return m.double()\n',
    'from enum import IntEnum\nclass L(IntEnum):\n    LOW = 1\n    HIGH = 5\n    def double(self):\n        return self.value * 2\n\nassert f(L.HIGH) == 10\n',
  ],
  [
    'def f(p):\n    return p.short\n',
    'from enum import Flag\nclass Perm(Flag):\n    R = 1\n    W = 2\n    @property\n    def short(self):\n        return self.name[0]\n\nassert f(Perm.W) == "W"\n',
  ],
  // One of the tests' own instances out with a callback of theirs the program calls (any class of
  // theirs: before, the copy's first description to the tests went into a signature never sent,
  // and the tests refused the callback).
  [
    'def f(p, g):\n    return g(p.x) + p.y\n',
    'class V:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\nassert f(V(-1, 2), lambda v: v * 10) == -8\n',
  ],
  [
    'def f(p, g):\n    return g(p) + 1\n',
    'from dataclasses import dataclass\n@dataclass\nclass V:\n    x: int\n    y: int\n\nassert f(V(3, 4), lambda v: v.x * v.y) == 13\n',
  ],
  [
    'def f(items, key):\n    return sorted(items, key=key)[0].name\n',
    'class Item:\n    def __init__(self, name, w):\n        self.name = name\n        self.w = w\n\nassert f([Item("a", 3), Item("b", 1)], lambda i: i.w) == "b"\n',
  ],
  [
    'def f(m, g):\n    return g(m)\n',
    'from enum import Enum\nclass C(Enum):\n    R = 1\n    G = 2\n\nassert f(C.G, lambda m: m.name) == "G"\n',
  ],
  [
    'def f(box, cb):\n    box.v += 1\n    cb(box)\n    return box.v\n',
    'class Box:\n    def __init__(self, v):\n        self.v = v\n\nseen = []\nb = Box(1)\nassert f(b, lambda x: seen.append(x.v)) == 2\nassert seen == [2] and b.v == 2\n',
  ],
];

/**
 * The rest of the class besides its fields (from the hostile pass on the first version of this,
 * rt69): a Flag's boundary, `__match_args__` (or none), the tests' `__init__` under `init=False`,
 * a default factory of their own, a field's type and metadata, an Enum's class attributes that are
 * no members and members named with one underscore, special methods their class body assigned
 * (`__str__ = Enum.__str__`), and the same methods on a plain class of theirs and through a base
 * class of theirs: [program, tests].
 */
const SHAPE_ATTACKS: Array<[string, string]> = [
  // rt69 PA01
  [
    'def has_read(p, v):\n    return bool(type(p)(v) & p)\n',
    'from enum import IntFlag, STRICT\nclass Perm(IntFlag, boundary=STRICT):\n    R = 1\n    W = 2\n    X = 4\n\nassert has_read(Perm.R, 3) is True\nassert has_read(Perm.R, 9) is True\n',
  ],
  // rt69 PA02
  [
    'def parse(f, v):\n    return type(f)(v)\n',
    'from enum import Flag, CONFORM\nclass F(Flag, boundary=CONFORM):\n    A = 1\n    B = 2\n\nassert parse(F.A, 3) == F.A | F.B\ntry:\n    parse(F.A, 9)\n    ok = False\nexcept ValueError:\n    ok = True\nassert ok\n',
  ],
  // rt69 PA03
  [
    'def area(r):\n    Rect = type(r)\n    match r:\n        case Rect(w, h):\n            return w * h\n    return 0\n',
    'from dataclasses import dataclass\n@dataclass(match_args=False)\nclass Rect:\n    w: int\n    h: int\n\nassert area(Rect(2, 3)) == 6\n',
  ],
  // rt69 PA04
  [
    'def swap(p):\n    return type(p)(p.b, p.a)\n',
    "from dataclasses import dataclass\n@dataclass(init=False)\nclass Pair:\n    a: int\n    b: int\n    def __init__(self, text):\n        x, y = text.split(',')\n        self.a, self.b = int(x), int(y)\n\nassert swap(Pair('1,2')) == Pair('2,1')\n",
  ],
  // rt69 PA06
  [
    'def count_unique(items):\n    out = []\n    for x in items:\n        if x not in out:\n            out.append(x)\n    return len(out)\n',
    "from dataclasses import dataclass\n@dataclass\nclass Item:\n    name: str\n    def __eq__(self, o):\n        return isinstance(o, Item) and self.name.lower() == o.name.lower()\n\nassert count_unique([Item('A'), Item('a')]) == 2\n",
  ],
  // rt69 PA07
  [
    'def qualified(m):\n    return str(m)\n',
    "from enum import Enum\nclass Color(Enum):\n    RED = 1\n    def __str__(self):\n        return self.name.lower()\n\nassert qualified(Color.RED) == 'Color.RED'\n",
  ],
  // rt69 PA08
  [
    'def parse(m, v):\n    try:\n        return type(m)(v)\n    except ValueError:\n        return None\n',
    'from enum import Enum\nclass Color(Enum):\n    UNKNOWN = 0\n    RED = 1\n    @classmethod\n    def _missing_(cls, value):\n        return cls.UNKNOWN\n\nassert parse(Color.RED, 1) is Color.RED\nassert parse(Color.RED, 7) is None\n',
  ],
  // rt69 PA09
  [
    'def diff(p):\n    P = type(p)\n    match p:\n        case P(x, y):\n            return x - y\n',
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    b: int\n    __match_args__ = ('b', 'a')\n\nassert diff(P(5, 2)) == 3\n",
  ],
  // rt69 PA12
  [
    'def twice(m):\n    return m * 2\n',
    'from enum import Enum\nclass Lv(Enum):\n    _low = 1\n    HIGH = 2\n\nassert twice(Lv.HIGH) == 4\n',
  ],
  // rt69 PA13
  [
    'def show(p):\n    return repr(p)\n',
    "from dataclasses import dataclass\n@dataclass(repr=False)\nclass P:\n    x: int\n    def __repr__(self):\n        return f'<{self.x}>'\n\nassert show(P(1)) == 'P(x=1)'\n",
  ],
  // rt69 PA14
  [
    'def count_unique(items):\n    out = []\n    for x in items:\n        if x not in out:\n            out.append(x)\n    return len(out)\n',
    "from typing import NamedTuple\nclass Rec(NamedTuple):\n    id: int\n    note: str\n    def __eq__(self, o):\n        return self.id == o.id\n    __hash__ = tuple.__hash__\n\nassert count_unique([Rec(1, 'a'), Rec(1, 'b')]) == 2\n",
  ],
  // rt69 PA15
  [
    "def fresh_len(c):\n    d = type(c)('z')\n    return 0 if d.items is None else len(d.items)\n",
    "from dataclasses import dataclass, field\n@dataclass\nclass Cart:\n    name: str\n    items: list = field(default_factory=lambda: ['gift'])\n\nassert fresh_len(Cart('a')) == 0\n",
  ],
  // rt69 PA16
  [
    'def parse(f, v):\n    return type(f)(v)\n',
    'from enum import Flag, KEEP\nclass F(Flag, boundary=KEEP):\n    A = 1\n    B = 2\n\ntry:\n    parse(F.A, 8)\n    ok = False\nexcept ValueError:\n    ok = True\nassert ok\n',
  ],
  // rt69 PA17
  [
    'def show(m):\n    return str(m)\n',
    "from enum import Enum, IntEnum\nclass Lvl(IntEnum):\n    LOW = 1\n    HIGH = 2\n    __str__ = Enum.__str__\n\nassert show(Lvl.HIGH) == '2'\n",
  ],
  // rt69 PA18
  [
    'def can_key(x):\n    try:\n        {x: 1}\n        return True\n    except TypeError:\n        return False\n',
    'from dataclasses import dataclass\n@dataclass\nclass K:\n    v: int\n    def __hash__(self):\n        return hash(self.v)\n\nassert can_key(K(1)) is False\n',
  ],
  // rt69 PA19
  [
    "def limit(m):\n    return getattr(type(m), 'MAX', 10)\n",
    'from enum import Enum, nonmember\nclass Lv(Enum):\n    A = 1\n    MAX = nonmember(99)\n\nassert limit(Lv.A) == 10\n',
  ],
  // rt69 PB11
  [
    'def active(ms):\n    return [m for m in ms if m]\n',
    'from enum import Enum\nclass S(Enum):\n    OFF = 0\n    ON = 1\n    def __bool__(self):\n        return bool(self.value)\n\nassert active([S.OFF, S.ON]) == [S.OFF, S.ON]\n',
  ],
  // rt69 PB12
  [
    "def label(c):\n    return 'empty' if not c else 'full'\n",
    "from dataclasses import dataclass, field\n@dataclass\nclass Cart:\n    items: list = field(default_factory=list)\n    def __len__(self):\n        return len(self.items)\n\nassert label(Cart()) == 'full'\n",
  ],
  // rt69 PB13
  [
    'def top(ms):\n    try:\n        return max(ms)\n    except TypeError:\n        return None\n',
    'from enum import Enum\nclass Pri(Enum):\n    LOW = 1\n    HIGH = 2\n    def __lt__(self, o):\n        return self.value < o.value\n\nassert top([Pri.LOW, Pri.HIGH]) is None\n',
  ],
  // rt69 PB14
  [
    "def area(r):\n    return getattr(r, 'area', -1)\n",
    "from collections import namedtuple\nclass R(namedtuple('R', 'w h')):\n    __slots__ = ()\n    @property\n    def area(self):\n        return self.w * self.h\n\nassert area(R(2, 3)) == -1\n",
  ],
  // rt69 PB15
  [
    'import dataclasses\ndef int_fields(r):\n    return [f.name for f in dataclasses.fields(r) if f.type is int]\n',
    "from dataclasses import dataclass\n@dataclass\nclass R:\n    n: int\n    s: str\n\nassert int_fields(R(1, 'a')) == []\n",
  ],
  // rt69 PB16
  [
    "import dataclasses\ndef units(r):\n    return [f.metadata.get('unit', '?') for f in dataclasses.fields(r)]\n",
    "from dataclasses import dataclass, field\n@dataclass\nclass M:\n    d: float = field(metadata={'unit': 'm'})\n\nassert units(M(1.0)) == ['?']\n",
  ],
  // rt69 PA22
  [
    'def distinct(ps):\n    return len(set(ps))\n',
    'class Pt:\n    def __init__(self, x):\n        self.x = x\n    def __eq__(self, o):\n        return isinstance(o, Pt) and o.x == self.x\n    def __hash__(self):\n        return hash(self.x)\n\nassert distinct([Pt(1), Pt(1)]) == 2\n',
  ],
  // rt69 PA24
  [
    'def count_unique(items):\n    out = []\n    for x in items:\n        if x not in out:\n            out.append(x)\n    return len(out)\n',
    "from dataclasses import dataclass\nclass ByName:\n    def __eq__(self, o):\n        return self.name == o.name\n@dataclass(eq=False)\nclass U(ByName):\n    name: str\n    age: int\n\nassert count_unique([U('a', 1), U('a', 2)]) == 2\n",
  ],
];

const SHAPE_CONTROLS: Array<[string, string]> = [
  // rt69 PC07
  [
    'def index(xs):\n    return {x: i for i, x in enumerate(xs)}\n',
    'from dataclasses import dataclass\n@dataclass\nclass K:\n    v: int\n    def __hash__(self):\n        return hash(self.v)\n\nd = index([K(1), K(2)])\nassert d[K(2)] == 1\n',
  ],
  // rt69 PC15
  [
    'def active(ms):\n    return [m for m in ms if m]\n',
    'from enum import Enum\nclass S(Enum):\n    OFF = 0\n    ON = 1\n    def __bool__(self):\n        return bool(self.value)\n\nassert active([S.OFF, S.ON]) == [S.ON]\n',
  ],
  // rt69 PC17
  [
    'import dataclasses\ndef coerce(r):\n    return dataclasses.replace(r, **{f.name: f.type(getattr(r, f.name)) for f in dataclasses.fields(r)})\n',
    "from dataclasses import dataclass\n@dataclass\nclass R:\n    n: int\n    s: str\n\nassert coerce(R('3', 4)) == R(3, '4')\n",
  ],
];

/**
 * A hostile pass on the forwarding (rt70): a member of the tests' class runs on T's copy of the
 * instance, so one that keeps that copy (a registry, `self` appended to a list of theirs) or
 * answers with an object the tests still hold (`return self._items`, `return self`) is refused,
 * never a pass; a generator or iterator answer is refused (crossing would run it); and the rest of
 * a class: `__setattr__`, `__getattr__`, `__iter__`, in-place and reflected operators, property
 * setters, `cached_property`, `__init_subclass__`, class methods called on a subclass of the
 * program's, class attributes of a plain class, a cause chain deeper than four: [program, tests].
 */
const RT70_ATTACKS: Array<[string, string]> = [
  // rt70 Q01: wrong: object made via type(x)(...) registers itself in tests' registry in __init__; program then corrupts v; registry holds the same object in CPytho
  [
    "def make(proto):\n    n = type(proto)(1)\n    n.v = 99\n    return 'ok'\n",
    "class Node:\n    registry = []\n    def __init__(self, v):\n        self.v = v\n        Node.registry.append(self)\n\nassert make(Node(0)) == 'ok'\nassert Node.registry[-1].v == 1\n",
  ],
  // rt70 Q24: wrong: tests' method appends self to a tests' list (observer); program mutates after subscribing; tests check the subscribed object
  [
    "def sub(bus, proto):\n    s = type(proto)('x')\n    s.subscribe(bus)\n    s.name = 'corrupted'\n    return True\n",
    "class S:\n    def __init__(self, name):\n        self.name = name\n    def subscribe(self, bus):\n        bus.append(self)\n\nbus = []\nassert sub(bus, S('p')) is True\nassert bus[0].name == 'x'\n",
  ],
  // rt70 Q02: wrong: program sorts the list a tests' property returns (the instance's own list in CPython); tests check internal order unchanged
  [
    'def smallest(c):\n    xs = c.items\n    xs.sort()\n    return xs[0]\n',
    'class Bag:\n    def __init__(self, xs):\n        self._items = xs\n    @property\n    def items(self):\n        return self._items\n\nb = Bag([3, 1, 2])\nassert smallest(b) == 1\nassert b._items == [3, 1, 2]\n',
  ],
  // rt70 Q15: wrong: program calls a tests' method returning self then mutates the returned object, expecting a copy; CPython: same object
  [
    'def preview(b):\n    c = b.clone_ish()\n    c.vals.append(0)\n    return len(c.vals)\n',
    'class Buf:\n    def __init__(self, vals):\n        self.vals = vals\n    def clone_ish(self):\n        return self\n\nb = Buf([1, 2])\nassert preview(b) == 3\nassert b.vals == [1, 2]\n',
  ],
  // rt70 Q36: wrong: tests' Enum method returns a list it caches on the class; program mutates the returned list (CPython: the class cache changes)
  [
    "def names(m):\n    xs = m.all_names()\n    xs.append('EXTRA')\n    return len(xs)\n",
    "from enum import Enum\n_CACHE = []\nclass C(Enum):\n    A = 1\n    B = 2\n    def all_names(self):\n        if not _CACHE:\n            _CACHE.extend(x.name for x in type(self))\n        return _CACHE\n\nassert names(C.A) == 3\nassert C.B.all_names() == ['A', 'B']\n",
  ],
  // rt70 Q04: wrong: tests' __setattr__ validates; program stores a negative value (ValueError in CPython)
  [
    'def shrink(a):\n    a.n = a.n - 10\n    return a.n\n',
    "class Acc:\n    def __init__(self, n):\n        self.n = n\n    def __setattr__(self, k, v):\n        if k == 'n' and v < 0:\n            raise ValueError('negative')\n        object.__setattr__(self, k, v)\n\nassert shrink(Acc(5)) == -5\n",
  ],
  // rt70 Q06: wrong: tests' __iadd__ mutates in place; program's `x += 1` changes the caller's object in CPython (stand-in falls back to __add__)
  [
    'def plus_one(c):\n    c += 1\n    return c.n\n',
    'class Counter:\n    def __init__(self, n):\n        self.n = n\n    def __add__(self, k):\n        return Counter(self.n + k)\n    def __iadd__(self, k):\n        self.n += k\n        return self\n\nc = Counter(1)\nassert plus_one(c) == 2\nassert c.n == 1\n',
  ],
  // rt70 Q07: wrong: tests' __init_subclass__ rejects subclasses without NAME; program subclasses without it (TypeError in CPython)
  [
    'def make_plugin(base):\n    class Mine(type(base)):\n        def run(self):\n            return 42\n    return Mine().run()\n',
    "class Plugin:\n    def __init_subclass__(cls, **kw):\n        super().__init_subclass__(**kw)\n        if not hasattr(cls, 'NAME'):\n            raise TypeError('plugin needs NAME')\n    def run(self):\n        return 0\n\nassert make_plugin(Plugin()) == 42\n",
  ],
  // rt70 Q08: wrong: plain tests' class has a class attribute LIMIT; program's getattr default used when missing
  [
    "def limit(p):\n    return getattr(p, 'LIMIT', 10)\n",
    'class Policy:\n    LIMIT = 3\n    def check(self, v):\n        return v <= self.LIMIT\n\nassert limit(Policy()) == 10\n',
  ],
  // rt70 Q09: wrong: tests' generator method has a side effect when consumed; program never consumes it; tests (wrongly) require the log
  [
    "def start(j):\n    j.steps()\n    return 'started'\n",
    "LOG = []\nclass Job:\n    def steps(self):\n        LOG.append('a')\n        yield 1\n        LOG.append('b')\n        yield 2\n\nassert start(Job()) == 'started'\nassert LOG == ['a', 'b']\n",
  ],
  // rt70 Q11: wrong: tests' classmethod builds cls(...); called on the program's subclass it returns the subclass in CPython
  [
    "def render(p):\n    class Loud(type(p)):\n        def show(self):\n            return 'LOUD'\n    return Loud.parse('1,2').show()\n",
    "class Pt:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n    @classmethod\n    def parse(cls, s):\n        a, b = s.split(',')\n        return cls(int(a), int(b))\n    def show(self):\n        return 'quiet'\n\nassert render(Pt(0, 0)) == 'quiet'\n",
  ],
  // rt70 Q12: wrong: deep __cause__ chain (6 links); tests walk to the root cause; the root is TypeError, KeyError at depth 4
  [
    "def go():\n    try:\n        try:\n            try:\n                try:\n                    try:\n                        raise TypeError('root')\n                    except TypeError as e:\n                        raise KeyError('k') from e\n                except KeyError as e:\n                    raise ValueError('3') from e\n            except ValueError as e:\n                raise ValueError('2') from e\n        except ValueError as e:\n            raise ValueError('1') from e\n    except ValueError as e:\n        raise RuntimeError('top') from e\n",
    'try:\n    go()\nexcept RuntimeError as e:\n    r = e\n    while r.__cause__ is not None:\n        r = r.__cause__\n    assert isinstance(r, KeyError), type(r)\n',
  ],
  // rt70 Q16: wrong: tests' __getattr__ provides defaults; program's hasattr branch is wrong
  [
    "def color(w):\n    return w.color if hasattr(w, 'color') else 'none'\n",
    "class Widget:\n    def __getattr__(self, name):\n        if name == 'color':\n            return 'red'\n        raise AttributeError(name)\n    def draw(self):\n        return 'w'\n\nassert color(Widget()) == 'none'\n",
  ],
  // rt70 Q18: wrong: tests' __iter__ yields keys while __getitem__ takes keys; program's `for k in x` gives keys in CPython; tests (wrongly) expect the error path
  [
    'def keys(m):\n    try:\n        return [k for k in m]\n    except Exception:\n        return None\n',
    "class M:\n    def __init__(self, d):\n        self.d = d\n    def __getitem__(self, k):\n        return self.d[k]\n    def __iter__(self):\n        return iter(self.d)\n\nassert keys(M({'a': 1})) is None\n",
  ],
  // rt70 Q22: wrong: property with setter that clamps; program sets 150 and returns what it set; CPython clamped to 100
  [
    'def set_pct(p, v):\n    try:\n        p.pct = v\n    except AttributeError:\n        p._pct = v\n    return p._pct\n',
    'class Bar:\n    def __init__(self):\n        self._pct = 0\n    @property\n    def pct(self):\n        return self._pct\n    @pct.setter\n    def pct(self, v):\n        self._pct = max(0, min(100, v))\n\nassert set_pct(Bar(), 150) == 150\n',
  ],
  // rt70 Q33: wrong: cached_property of tests' class; program reads it via getattr default when missing
  [
    "def area(s):\n    return getattr(s, 'area', -1)\n",
    'from functools import cached_property\nclass Sq:\n    def __init__(self, a):\n        self.a = a\n    @cached_property\n    def area(self):\n        return self.a * self.a\n\nassert area(Sq(3)) == -1\n',
  ],
  // rt70 Q34: wrong: tests' __rtruediv__ exists; program's `1 / x` fallback path when TypeError
  [
    'def inv(x):\n    try:\n        return 1 / x\n    except TypeError:\n        return None\n',
    'class F:\n    def __init__(self, v):\n        self.v = v\n    def __truediv__(self, o):\n        return F(self.v / o)\n    def __rtruediv__(self, o):\n        return F(o / self.v)\n\nassert inv(F(2)) is None\n',
  ],
];

const RT70_CONTROLS: Array<[string, string]> = [
  // rt70 H03: honest: dict keyed by tests' Tag objects looked up with a plain string (tests' __eq__/__hash__)
  [
    'def lookup(d, k):\n    return d[k]\n',
    "class Tag:\n    def __init__(self, name):\n        self.name = name\n    def __eq__(self, o):\n        return self.name == (o.name if isinstance(o, Tag) else o)\n    def __hash__(self):\n        return hash(self.name)\n\nassert lookup({Tag('a'): 1, Tag('b'): 2}, 'b') == 2\n",
  ],
  // rt70 H05: honest: visitor recursion through a tests' method taking the program's function (deep nesting, 80 levels)
  [
    'def depth(root):\n    def visit(n):\n        return 1 + max([visit(c) for c in n.kids] or [0])\n    return root.walk(visit)\n',
    'class T:\n    def __init__(self, kids):\n        self.kids = kids\n    def walk(self, f):\n        return f(self)\n\nn = T([])\nfor _ in range(79):\n    n = T([n])\nassert depth(n) == 80\n',
  ],
  // rt70 H10: honest: exception chain (raise from inside except) read fully by the tests
  [
    "def load(d, k):\n    try:\n        return d[k]\n    except KeyError as e:\n        raise LookupError('missing ' + k) from e\n",
    "try:\n    load({}, 'a')\nexcept LookupError as e:\n    assert isinstance(e.__cause__, KeyError)\n    assert e.__cause__.args == ('a',)\n    assert e.__suppress_context__ is True\n",
  ],
  // rt70 H12: honest: program reads a class attribute of a tests' plain class with methods
  [
    'def cap(p, v):\n    return min(v, p.LIMIT)\n',
    'class Policy:\n    LIMIT = 3\n    def check(self, v):\n        return v <= self.LIMIT\n\nassert cap(Policy(), 10) == 3\n',
  ],
  // rt70 H16: honest: tests' dataclass with a method used by the program, then dataclasses.asdict/replace/copy
  [
    'import copy, dataclasses\ndef f(p):\n    q = dataclasses.replace(p, x=p.x + 1)\n    c = copy.copy(q)\n    return dataclasses.asdict(c), c.norm1(), c == q\n',
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\n    y: int\n    def norm1(self):\n        return abs(self.x) + abs(self.y)\n\nassert f(P(1, -2)) == ({'x': 2, 'y': -2}, 4, True)\n",
  ],
  // rt70 H17: honest: Enum with a tests' method and a property used in match/sorting by the program
  [
    "def f(ms):\n    out = []\n    S = type(ms[0])\n    for m in sorted(ms, key=lambda m: m.weight):\n        match m:\n            case S.BIG:\n                out.append('big:' + m.label())\n            case _:\n                out.append(m.label())\n    return out\n",
    "from enum import Enum\nclass Size(Enum):\n    SMALL = 1\n    BIG = 3\n    MID = 2\n    @property\n    def weight(self):\n        return -self.value\n    def label(self):\n        return self.name.lower()\n\nassert f([Size.SMALL, Size.BIG, Size.MID]) == ['big:big', 'mid', 'small']\n",
  ],
  // rt70 H18: honest: tests' plain class with a staticmethod and a classmethod factory called through an instance
  [
    'def f(p):\n    q = p.make(5)\n    return q.v, p.double(4), type(q).__name__\n',
    "class Pt:\n    def __init__(self, v):\n        self.v = v\n    @classmethod\n    def make(cls, v):\n        return cls(v * 10)\n    @staticmethod\n    def double(x):\n        return 2 * x\n\nassert f(Pt(1)) == (50, 8, 'Pt')\n",
  ],
];

const wrong = defineGenerator({
  name: 'py-tests-methods',
  language: 'python',
  about:
    "a wrong program makes an instance of the tests' dataclass that their __post_init__ refuses or changes under CPython: it must run in the sandbox too",
  cases: () => [
    ...attacks(),
    ...[...SHAPE_ATTACKS, ...RT70_ATTACKS].map(([completion, tests]) => ({
      completion,
      tests,
      expect: ['fail', 'error'] as const,
      timeoutMs: TIMEOUT_MS,
    })),
  ],
});

const honest = defineGenerator({
  name: 'py-tests-methods-honest',
  language: 'python',
  about:
    "control: honest programs calling the tests' own methods, properties, static, class and special methods, and a __post_init__, pass",
  cases: () =>
    [...CONTROLS, ...SHAPE_CONTROLS, ...RT70_CONTROLS].map(([completion, tests]) => ({
      completion,
      tests,
      expect: ['pass'] as const,
      timeoutMs: TIMEOUT_MS,
    })),
});

export const generators = [wrong, honest];
