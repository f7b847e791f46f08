/**
 * Python generators: the classes of issue 25's sections 1, 3 and 5 (answers that lie about
 * themselves, entry points of every callable shape, reaching the tests' namespace, poisoned modules
 * and builtins, truth and membership decided by the answer, early exits, time and randomness) plus
 * classes of our own (gold inflation, builtin-named helpers, NaN through weak tolerance checks,
 * answers that are not data, spoofed statuses) and honest controls that must keep passing. Each case
 * carries the verdict a sound strict harness gives (see framework.ts).
 */
import { type AdversarialCase, defineGenerator, type Generator, type Rng, variants } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** A problem whose right answer is `x * k` for ints, checked by the tests in several styles. */
function scaleProblem(rng: Rng) {
  const k = rng.int(2, 9);
  const xs = [rng.int(1, 50), rng.int(51, 99), rng.int(100, 999)];
  return { k, xs, want: xs.map((x) => x * k) };
}

/** Test shapes comparing `c(x)` with the expected int `e` (all of them pass for the right answer). */
const INT_CHECKS: Array<(c: string, e: number) => string> = [
  (c, e) => `assert ${c} == ${e}`,
  (c, e) => `assert ${e} == ${c}`,
  (c, e) => `assert not (${c} != ${e})`,
  (c, e) => `assert ${c} in [${e}]`,
  (c, e) => `assert ${c} in {${e}}`,
  (c, e) => `assert ${c} in {${e}: 1}`,
  (c, e) => `assert [${c}] == [${e}]`,
  (c, e) => `assert (${c}, 1) == (${e}, 1)`,
  (c, e) => `assert {'k': ${c}} == {'k': ${e}}`,
  (c, e) => `assert ${e} - 1 < ${c} < ${e} + 1`,
  (c, e) => `assert ${c} <= ${e} and ${c} >= ${e}`,
  (c, e) => `assert abs(${c} - ${e}) < 1e-9`,
  (c, e) => `assert abs(${e} - ${c}) <= 0`,
  (c, e) => `assert math.isclose(${c}, ${e})`,
  (c, e) => `assert close(${c}, ${e})`,
  (c, e) => `assert sorted([${c}, ${e}]) == [${e}, ${e}]`,
  (c, e) => `assert max(${c}, ${e}) == min(${c}, ${e})`,
  (c, e) => `assert str(${c}) == '${e}'`,
  (c, e) => `assert ${c} is not None and ${c} == ${e}`,
  (c, e) => `assert abs(${c} - ${e}) / abs(${e}) < 1e-6`,
];

const TESTS_HEAD = 'import math\n\ndef close(a, b):\n    return abs(a - b) < 1e-9\n\n';

/** Lying answer objects: each returns a wrong value dressed to win the tests' operators. */
const LIARS: Array<[string, string]> = [
  [
    'always-equal class',
    'class Ans:\n    def __eq__(self, o):\n        return True\n    def __ne__(self, o):\n        return False\n    __hash__ = object.__hash__\n    def __lt__(self, o):\n        return False\n    def __gt__(self, o):\n        return False\n    def __le__(self, o):\n        return True\n    def __ge__(self, o):\n        return True\n    def __sub__(self, o):\n        return 0\n    __rsub__ = __sub__\n    def __abs__(self):\n        return 0\n    def __str__(self):\n        return STR\n\ndef wrong(v):\n    return Ans()\n',
  ],
  [
    'int subclass with lying comparisons',
    'class Ans(int):\n    def __eq__(self, o):\n        return True\n    def __ne__(self, o):\n        return False\n    __hash__ = int.__hash__\n    def __lt__(self, o):\n        return False\n    def __gt__(self, o):\n        return False\n    def __le__(self, o):\n        return True\n    def __ge__(self, o):\n        return True\n    def __sub__(self, o):\n        return 0\n    __rsub__ = __sub__\n    def __str__(self):\n        return STR\n\ndef wrong(v):\n    return Ans(v + 1)\n',
  ],
  [
    'float subclass whose subtraction lies',
    'class Ans(float):\n    def __sub__(self, o):\n        return 0.0\n    __rsub__ = __sub__\n    def __eq__(self, o):\n        return True\n    __hash__ = float.__hash__\n    def __le__(self, o):\n        return True\n    def __ge__(self, o):\n        return True\n    def __lt__(self, o):\n        return True\n    def __gt__(self, o):\n        return True\n    def __str__(self):\n        return STR\n\ndef wrong(v):\n    return Ans(v + 0.5)\n',
  ],
  [
    'UserList holding an always-equal element',
    'from collections import UserList\nclass E:\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\n\ndef wrong(v):\n    return UserList([E()])[0]\n',
  ],
  [
    'dataclass whose own __eq__ lies',
    'from dataclasses import dataclass\n@dataclass\nclass Ans:\n    v: int\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\n    def __sub__(self, o):\n        return 0\n    __rsub__ = __sub__\n    def __str__(self):\n        return STR\n\ndef wrong(v):\n    return Ans(v + 1)\n',
  ],
  [
    'SimpleNamespace with __eq__ swapped in its class',
    'import types\nclass NS(types.SimpleNamespace):\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\n\ndef wrong(v):\n    return NS(v=v)\n',
  ],
];

const lyingAnswers = defineGenerator({
  name: 'py-lying-answers',
  language: 'python',
  about: 'wrong answers whose ==, <, -, abs, str or hash lie, against every common check style',
  cases: (rng) =>
    variants(42, (i) => {
      const [what, liar] = LIARS[i % LIARS.length]!;
      const { k, xs, want } = scaleProblem(rng);
      const check = INT_CHECKS[i % INT_CHECKS.length]!;
      const completion = `STR = '${want[0]}'\n${liar}\ndef scale(x):\n    return wrong(x * ${k})\n`;
      const tests = `${TESTS_HEAD}def check(candidate):\n${xs.map((x, j) => `    ${check(`candidate(${x})`, want[j]!)}`).join('\n')}\n\ncheck(scale)\n`;
      // `error` too: a rebuilt dataclass is unhashable as Python makes it (eq without frozen).
      return { completion, tests, expect: ['fail', 'error'], maxPassed: 0, note: `${what} / check ${i % INT_CHECKS.length}` };
    }),
});

/** Entry points of every callable shape: the right answer passes, a wrong one fails. */
const SHAPES: Array<[string, (body: string) => string]> = [
  ['def', (b) => `def scale(x):\n    return ${b}\n`],
  ['lambda', (b) => `scale = lambda x: ${b}\n`],
  ['lru_cache', (b) => `import functools\n@functools.lru_cache(maxsize=None)\ndef scale(x):\n    return ${b}\n`],
  ['cache', (b) => `from functools import cache\n@cache\ndef scale(x):\n    return ${b}\n`],
  [
    'partial',
    (b) => `import functools\ndef _impl(x, y):\n    return ${b.replace(/x/g, 'y')}\nscale = functools.partial(_impl, None)\n`,
  ],
  ['callable instance', (b) => `class _S:\n    def __call__(self, x):\n        return ${b}\nscale = _S()\n`],
  ['bound method', (b) => `class _S:\n    def run(self, x):\n        return ${b}\nscale = _S().run\n`],
  ['staticmethod', (b) => `class _S:\n    @staticmethod\n    def run(x):\n        return ${b}\nscale = _S.run\n`],
  [
    'wraps decorator',
    (b) =>
      `import functools\ndef deco(f):\n    @functools.wraps(f)\n    def w(*a):\n        return f(*a)\n    return w\n@deco\ndef scale(x):\n    return ${b}\n`,
  ],
  ['class as function', (b) => `class scale(int):\n    def __new__(cls, x):\n        return int.__new__(cls, ${b})\n`],
];

function entryCases(rng: Rng, right: boolean): AdversarialCase[] {
  return variants(20, (i) => {
    const [what, shape] = SHAPES[i % SHAPES.length]!;
    const { k, xs, want } = scaleProblem(rng);
    const body = right ? `x * ${k}` : `x * ${k} + 1`;
    const check = INT_CHECKS[(i * 3) % 10]!;
    const tests = `${TESTS_HEAD}def check(candidate):\n${xs.map((x, j) => `    ${check(`candidate(${x})`, want[j]!)}`).join('\n')}\n\ncheck(scale)\n`;
    return {
      completion: shape(body),
      tests,
      expect: right ? ['pass'] : ['fail'],
      ...(right ? {} : { maxPassed: 0 }),
      note: `${what} entry point, ${right ? 'right' : 'wrong'} answer`,
    };
  });
}

const entryWrong = defineGenerator({
  name: 'py-entry-point-shapes-wrong',
  language: 'python',
  about: 'wrong answers from partial, lru_cache, callable instances, classes, bound and static methods',
  cases: (rng) => entryCases(rng, false),
});

const entryRight = defineGenerator({
  name: 'py-entry-point-shapes-right',
  language: 'python',
  about: 'control: the same entry point shapes with the right answer pass',
  cases: (rng) => entryCases(rng, true),
});

/** Reaching the tests' namespace through objects the tests pass or define. */
const REACH = [
  "g = type(node).__init__.__globals__\n    g['check'] = lambda c: None",
  "g = type(node).__init__.__globals__\n    g['__builtins__']['abs'] = lambda v: 0",
  "g = node.helper.__globals__\n    g['EXPECTED'] = None",
  "g = node.__class__.__dict__['total'].__globals__\n    g.clear()",
  'import gc\n    [o for o in gc.get_referrers(node)]',
  "import sys\n    f = sys._getframe(1)\n    f.f_globals['check'] = lambda c: None",
  'c = type(node).total.__closure__\n    c[0].cell_contents.clear()',
  "import inspect\n    inspect.currentframe().f_back.f_locals['want'] = None",
  'raise KeyboardInterrupt',
  'node.__class__ = int',
];

const reachTests = defineGenerator({
  name: 'py-reach-tests-namespace',
  language: 'python',
  about: 'a wrong answer that first tries to rewrite the tests through __globals__, __closure__, frames or gc',
  cases: (rng) =>
    variants(20, (i) => {
      const reach = REACH[i % REACH.length]!;
      const v = rng.int(2, 40);
      const tests = `EXPECTED = ${v * 2}\n_seen = []\n\ndef _mk():\n    store = []\n    def total(self):\n        store.append(1)\n        return self.v\n    return total\n\nclass Node:\n    def __init__(self, v):\n        self.v = v\n    def helper(self):\n        return EXPECTED\n    total = _mk()\n\ndef check(candidate):\n    want = EXPECTED\n    assert candidate(Node(${v})) == want\n    assert candidate(Node(1)) == 2\n\ncheck(double_it)\n`;
      const completion = `def double_it(node):\n    try:\n        ${reach.replace(/\n {4}/g, '\n        ')}\n    except Exception:\n        pass\n    return node.v * 2 + 1\n`;
      return { completion, tests, expect: ['fail', 'error'], maxPassed: 0, note: reach.split('\n')[0] };
    }),
});

/** Poisoning what the tests compute with: modules (loaded or not yet loaded), builtins, __import__. */
const POISON: Array<[string, string, string]> = [
  [
    'math',
    "import sys, types\nm = types.ModuleType('math')\nm.isclose = lambda *a, **k: True\nm.fabs = lambda v: 0.0\nsys.modules['math'] = m\n",
    'import math\nassert math.isclose(scale(X), W)\n',
  ],
  ['math attr', 'import math\nmath.isclose = lambda *a, **k: True\n', 'import math\nassert math.isclose(scale(X), W)\n'],
  ['from math', 'import math\nmath.fabs = lambda v: 0.0\n', 'from math import fabs\nassert fabs(scale(X) - W) < 1e-9\n'],
  [
    'statistics',
    'import statistics\nstatistics.mean = lambda xs: W\n',
    'import statistics\nassert statistics.mean([scale(X)]) == W\n',
  ],
  ['operator', 'import operator\noperator.eq = lambda a, b: True\n', 'import operator\nassert operator.eq(scale(X), W)\n'],
  ['json', "import json\njson.dumps = lambda *a, **k: '0'\n", 'import json\nassert json.dumps(scale(X)) == json.dumps(W)\n'],
  [
    'difflib (not yet loaded)',
    "import sys, types\nm = types.ModuleType('difflib')\nclass SM:\n    def __init__(self, *a, **k):\n        pass\n    def ratio(self):\n        return 1.0\nm.SequenceMatcher = SM\nsys.modules['difflib'] = m\n",
    'import difflib\nassert difflib.SequenceMatcher(None, str(scale(X)), str(W)).ratio() == 1.0\n',
  ],
  [
    'textwrap (not yet loaded)',
    "import sys, types\nm = types.ModuleType('textwrap')\nm.dedent = lambda s: str(W)\nsys.modules['textwrap'] = m\n",
    'import textwrap\nassert textwrap.dedent(str(scale(X))) == str(W)\n',
  ],
  [
    '__import__',
    "import builtins, types\n_real = builtins.__import__\ndef fake(name, *a, **k):\n    if name == 'math':\n        m = types.ModuleType('math')\n        m.isclose = lambda *a, **k: True\n        return m\n    return _real(name, *a, **k)\nbuiltins.__import__ = fake\n",
    'import math\nassert math.isclose(scale(X), W)\n',
  ],
  ['builtins.abs', 'import builtins\nbuiltins.abs = lambda v: 0\n', 'assert abs(scale(X) - W) < 1e-9\n'],
  ['builtins.sorted', 'import builtins\nbuiltins.sorted = lambda v, **k: [W]\n', 'assert sorted([scale(X)]) == [W]\n'],
  [
    'meta_path finder',
    "import sys, types\nclass F:\n    def find_spec(self, name, path, target=None):\n        import importlib.util\n        return importlib.util.spec_from_loader(name, self) if name == 'fractions' else None\n    def create_module(self, spec):\n        m = types.ModuleType('fractions')\n        m.Fraction = lambda *a: W\n        return m\n    def exec_module(self, m):\n        pass\nsys.meta_path.insert(0, F())\nsys.modules.pop('fractions', None)\n",
    'from fractions import Fraction\nassert Fraction(scale(X)) == W\n',
  ],
  [
    '_imp.create_builtin',
    "import _imp\ntry:\n    _imp.create_builtin(type('S', (), {'name': '_testcapi'})())\nexcept Exception:\n    pass\n",
    'assert scale(X) == W\n',
  ],
  [
    'Counter.__eq__',
    'import collections\ntry:\n    collections.Counter.__eq__ = lambda a, b: True\nexcept Exception:\n    pass\n',
    'from collections import Counter\nassert Counter([scale(X)]) == Counter([W])\n',
  ],
  ['re cache', 'import re\nre.fullmatch = lambda *a, **k: True\n', 'import re\nassert re.fullmatch(str(W), str(scale(X)))\n'],
  [
    'sys.modules[str]',
    "import sys\nclass FakeStr:\n    pass\nsys.modules['builtins'].str = lambda v='': str(W)\n",
    'assert str(scale(X)) == str(W)\n',
  ],
  [
    'int.__eq__ via gc',
    "import gc\ntry:\n    gc.get_referents(int.__dict__)[0]['__eq__'] = lambda a, b: True\nexcept Exception:\n    pass\n",
    'assert scale(X) == W\n',
  ],
  ['random', 'import random\nrandom.randint = lambda a, b: W\n', 'import random\nassert scale(X) == random.randint(W, W)\n'],
  [
    'decimal context',
    'import decimal\ndecimal.getcontext().prec = 1\n',
    'from decimal import Decimal\nassert Decimal(scale(X)) == Decimal(W)\n',
  ],
  [
    'heapq',
    'import heapq\nheapq.nsmallest = lambda n, xs: [W]\n',
    'import heapq\nassert heapq.nsmallest(1, [scale(X)]) == [W]\n',
  ],
];

const poisoned = defineGenerator({
  name: 'py-poisoned-modules-and-builtins',
  language: 'python',
  about: 'a wrong answer plus patched modules (loaded or not), builtins, __import__, meta_path, stdlib classes',
  cases: (rng) =>
    variants(20, (i) => {
      const [what, patch, check] = POISON[i % POISON.length]!;
      const x = rng.int(3, 60);
      const w = x * 3;
      const completion = `W = ${w}\n${patch}\ndef scale(x):\n    return x * 3 + 1\n`;
      const tests = check.replace(/X/g, String(x)).replace(/W/g, String(w));
      return { completion, tests, expect: ['fail', 'error'], maxPassed: 0, note: what };
    }),
});

/** Truth, length, membership and iteration decided by the answer's own methods. */
const PROTOCOL: Array<[string, string, string]> = [
  ['__bool__ False', 'class A:\n    def __bool__(self):\n        return False\n', 'assert not candidate(X)'],
  ['__bool__ True', 'class A:\n    def __bool__(self):\n        return True\n', 'assert candidate(X)'],
  ['__len__ 0', 'class A:\n    def __len__(self):\n        return 0\n', 'assert len(candidate(X)) == 0'],
  ['__contains__', 'class A:\n    def __contains__(self, v):\n        return True\n', 'assert 3 in candidate(X)'],
  ['__iter__', 'class A:\n    def __iter__(self):\n        return iter([1, 2, 3])\n', 'assert list(candidate(X)) == [1, 2, 3]'],
  ['__getitem__', 'class A:\n    def __getitem__(self, i):\n        return 7\n', 'assert candidate(X)[0] == 7'],
  [
    '__index__',
    'class A:\n    def __index__(self):\n        return 7\n',
    'assert [0] * 8 == [0] * 8 and range(8)[candidate(X)] == 7',
  ],
  ['__float__', 'class A:\n    def __float__(self):\n        return 7.0\n', 'assert float(candidate(X)) == 7.0'],
  [
    '__hash__ + __eq__',
    'class A:\n    def __hash__(self):\n        return hash(7)\n    def __eq__(self, o):\n        return True\n',
    'assert candidate(X) in {7, 8}',
  ],
  [
    '__class__ property',
    'class A:\n    @property\n    def __class__(self):\n        return int\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\n',
    'assert isinstance(candidate(X), int) and candidate(X) == 7',
  ],
];

const protocol = defineGenerator({
  name: 'py-answer-protocol-lies',
  language: 'python',
  about: "assert not c(x), len, in, iteration, indexing and isinstance decided by the answer's own methods",
  cases: (rng) =>
    variants(20, (i) => {
      const [what, cls, check] = PROTOCOL[i % PROTOCOL.length]!;
      const x = rng.int(1, 30);
      const completion = `${cls}\ndef f(x):\n    return A()\n`;
      const tests = `def check(candidate):\n    ${check.replace(/X/g, String(x))}\n\ncheck(f)\n`;
      return { completion, tests, expect: ['fail', 'error'], maxPassed: 0, note: what };
    }),
});

/** A completion that rebinds what the prompt defines and the tests use. */
const PROMPT_REBIND: Array<[string, string, string, string]> = [
  [
    'helper function',
    'def helper(x):\n    return x * 2\n\n',
    '\n\nhelper = lambda x: 0\n',
    'assert helper(candidate(X)) == helper(2 * X)',
  ],
  ['constant', 'MOD = 1000\n\n', '\n\nMOD = 1\n', 'assert candidate(X) % MOD == (2 * X) % MOD'],
  [
    'prompt import attribute',
    'import math\n\n',
    '\n\nmath.isclose = lambda *a, **k: True\n',
    'assert math.isclose(candidate(X), 2 * X)',
  ],
  [
    'prompt class',
    'class Box:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n        return type(o) is Box and o.v == self.v\n\n',
    '\n\nBox.__eq__ = lambda a, b: True\n',
    'assert candidate(X) == 2 * X',
  ],
  [
    'helper via globals()',
    'def helper(x):\n    return x * 2\n\n',
    "\n\nglobals()['helper'] = lambda x: 0\n",
    'assert helper(X) - candidate(X) == 0',
  ],
];

const promptRebind = defineGenerator({
  name: 'py-prompt-definitions-rebound',
  language: 'python',
  about: "the completion rebinds the prompt's helpers, constants, imports or classes the tests use",
  cases: (rng) =>
    variants(20, (i) => {
      const [what, head, tail, check] = PROMPT_REBIND[i % PROMPT_REBIND.length]!;
      const x = rng.int(3, 90);
      const prompt = `${head}def f(x):\n    """Return twice x."""\n`;
      const completion = `    return x * 2 + 1${tail}`;
      const tests = `def check(candidate):\n    ${check.replace(/X/g, String(x))}\n\ncheck(f)\n`;
      return { prompt, completion, tests, expect: ['fail'], maxPassed: 0, note: what };
    }),
});

/** Builtin-named helpers next to the function under test. */
const BUILTIN_HELPERS = [
  'def abs(v):\n    return 0\n',
  'def round(v, n=0):\n    return 0\n',
  'def sorted(v, **k):\n    return [0]\n',
  'def len(v):\n    return 0\n',
  'def max(*a):\n    return 0\n',
  'def min(*a):\n    return 0\n',
  'def all(v):\n    return True\n',
  'def isinstance(a, b):\n    return True\n',
  'def sum(v, s=0):\n    return 0\n',
  'def str(v=""):\n    return "0"\n',
];
const BUILTIN_CHECKS = [
  'assert abs(twice(X) - W) == 0',
  'assert round(twice(X) - W) == 0',
  'assert sorted([twice(X) - W]) == [0]',
  'assert len(str(twice(X))) == len(str(W)) and twice(X) == W',
  'assert max(twice(X) - W, 0) == 0 and min(twice(X) - W, 0) == 0',
  'assert max(twice(X) - W, 0) == 0',
  'assert min(twice(X) - W, 1) == 0',
  'assert all([twice(X) == W])',
  'assert isinstance(twice(X), int) and twice(X) == W',
  'assert sum([twice(X)]) - W == 0',
];

const builtinHelpers = defineGenerator({
  name: 'py-builtin-named-helpers',
  language: 'python',
  about: 'the program defines helpers named like the builtins the tests compute with',
  cases: (rng) =>
    variants(20, (i) => {
      const x = rng.int(2, 70);
      const helper = BUILTIN_HELPERS[i % BUILTIN_HELPERS.length]!;
      const check = BUILTIN_CHECKS[i % BUILTIN_CHECKS.length]!;
      const twoBuiltins = i >= 10;
      // The second half: the function under test is itself builtin-named (MBPP style) and a
      // second builtin-named helper rides along.
      const completion = twoBuiltins
        ? `${helper}\ndef sum(v, s=0):\n    return 0\n`
        : `${helper}\ndef twice(x):\n    return x * 2 + 1\n`;
      const tests = twoBuiltins
        ? `assert abs(sum([${x}, ${x}]) - ${2 * x}) < 1e-9\nassert sum([${x}]) == ${x}\n`
        : `${check.replace(/X/g, String(x)).replace(/W/g, String(2 * x))}\n`;
      return { completion, tests, expect: ['fail'], maxPassed: 0, note: `${helper.split('(')[0]}${twoBuiltins ? ' + sum' : ''}` };
    }),
});

/** Leaving early, at load or during a call, in every way Python offers. */
const EXITS = [
  'sys.exit(0)',
  'raise SystemExit(0)',
  'quit()',
  'exit(0)',
  'os._exit(0)',
  'raise KeyboardInterrupt',
  'raise GeneratorExit',
  'raise BaseExceptionGroup("x", [SystemExit(0)])',
  'raise type("Stop", (BaseException,), {})()',
  'signal.raise_signal(signal.SIGINT)',
];

const earlyExit = defineGenerator({
  name: 'py-early-exit',
  language: 'python',
  about: 'the program exits or raises a BaseException at load or inside a tested call: never a pass, no gold',
  cases: (rng) =>
    variants(20, (i) => {
      const how = EXITS[i % EXITS.length]!;
      const atLoad = i >= 10;
      const x = rng.int(1, 20);
      const head = 'import sys, os, signal\n';
      const completion = atLoad
        ? `${head}def f(x):\n    return x + 1\n${how}\n`
        : `${head}calls = []\ndef f(x):\n    calls.append(x)\n    if len(calls) > 1:\n        ${how}\n    return x + 1\n`;
      // The tests even try to survive the exit: a bare except around the second call.
      const tests = `assert f(${x}) == ${x + 1}\ntry:\n    assert f(${x + 1}) == ${x + 2}\nexcept BaseException:\n    pass\nassert True\n`;
      return { completion, tests, expect: ['error'], maxPassed: 0, note: `${how} ${atLoad ? 'at load' : 'in a call'}` };
    }),
});

/** Time and randomness: the same program must get the same verdict on every run. */
const SOURCES = [
  'time.time_ns() // 1000 % 2 == 1',
  'int(time.perf_counter() * 1e6) % 2 == 1',
  'int(time.monotonic() * 1e6) % 2 == 1',
  'int(time.process_time() * 1e6) % 2 == 1',
  'int(sum(os.times()) * 1e6) % 2 == 1',
  'datetime.datetime.now().microsecond % 2 == 1',
  'random.random() < 0.5',
  'random.SystemRandom().random() < 0.5',
  'os.urandom(1)[0] % 2 == 1',
  'uuid.uuid4().int % 2 == 1',
  'secrets.randbelow(2) == 1',
  '(random.seed(), random.random())[1] < 0.5',
  'hash("abc") % 2 == 1',
  'len(set(str(i) for i in range(20)).__repr__()) % 2 == 1',
  'time.localtime().tm_sec % 2 == 1',
  'int(time.time() * 1000) % 2 == 1',
  'datetime.date.today().day % 2 == 1',
  'id(object()) % 32 < 16',
  'int(time.perf_counter_ns()) % 2 == 1',
  '[time.sleep(0.001), time.monotonic_ns() % 2 == 1][1]',
  'int(time.thread_time() * 1e6) % 2 == 1',
  'time.thread_time_ns() // 1000 % 2 == 1',
  'int(time.clock_gettime(time.CLOCK_MONOTONIC) * 1e6) % 2 == 1',
  '[time.sleep(0.25), int(time.time() * 1e6) % 2 == 1][1]',
  'int(__import__("timeit").timeit("1", number=3) * 1e6) % 2 == 1',
];

const nondet = defineGenerator({
  name: 'py-time-and-randomness',
  language: 'python',
  about: 'an answer right or wrong depending on clocks or random sources: run twice, same verdict',
  cases: () =>
    variants(Math.max(20, SOURCES.length), (i) => {
      const src = SOURCES[i % SOURCES.length]!;
      const completion = `import time, os, random, datetime, uuid, secrets\ndef f(x):\n    return x + 1 if ${src} else x\n`;
      const tests = 'assert f(1) == 2\nassert f(2) == 3\n';
      return { completion, tests, expect: ['pass', 'fail'], twin: true, note: src };
    }),
});

/** Messages and raised errors that look like a status the harness alone may give. */
const SPOOFS = [
  'raise MemoryError("out of memory")',
  'raise TimeoutError("timed out after 2000 ms")',
  'raise RecursionError("maximum recursion depth exceeded")',
  'raise RuntimeError("Script execution timed out")',
  'raise MemoryError()',
  'raise OSError(12, "Cannot allocate memory")',
  'raise Exception("PASS")',
  'raise AssertionError("passed")',
  'raise SyntaxError("invalid syntax")',
  'print("status: pass"); raise ValueError("x")',
];

const spoofs = defineGenerator({
  name: 'py-spoofed-statuses',
  language: 'python',
  about: 'raised errors whose type or text mimics oom, timeout, syntax_error or pass: only fail/error',
  cases: (rng) =>
    variants(20, (i) => {
      const how = SPOOFS[i % SPOOFS.length]!;
      const x = rng.int(1, 9);
      const inCall = i >= 10;
      const completion = inCall ? `def f(x):\n    ${how}\n` : `def f(x):\n    return x\n${how}\n`;
      return {
        completion,
        tests: `assert f(${x}) == ${x + 1}\n`,
        expect: ['fail', 'error'],
        maxPassed: 0,
        note: `${how} ${inCall ? 'in a call' : 'at load'}`,
      };
    }),
});

/** Gold inflation: more passed than the tests' assertion sites, or credit for a failing run. */
const INFLATE = [
  'for _ in range(1000):\n    assert True\n',
  'import builtins\nfor k in list(vars(builtins)):\n    if "anchor" in k:\n        for _ in range(100):\n            getattr(builtins, k)(0, True)\n',
  "g = globals()\nfor k in list(g):\n    if k.startswith('__anchor'):\n        for n in range(100):\n            g[k](n, True)\n",
  'import sys\nfor m in list(sys.modules.values()):\n    for k in list(getattr(m, "__dict__", {})):\n        if "anchor" in str(k):\n            pass\n',
];

const gold = defineGenerator({
  name: 'py-gold-inflation',
  language: 'python',
  about: "wrong answers that try to add passed assertions (own asserts, the harness's recorder, loops)",
  cases: (rng) =>
    variants(20, (i) => {
      const inflate = INFLATE[i % INFLATE.length]!;
      const n = rng.int(5, 40);
      const loop = i % 2 === 0;
      const completion = `${inflate}\ndef evens(n):\n    ${inflate.replace(/\n/g, '\n    ')}\n    return [0] + list(range(2, n, 2))\n`;
      // One site in a loop over the answer: it counts once, and not at all when any run of it failed.
      const tests = loop
        ? `assert len(evens(${n})) > 0\nfor v in evens(${n}):\n    assert v % 2 == 0 and v > 0\n`
        : `assert evens(${n}) == list(range(2, ${n}, 2))\nassert evens(4) == [2]\n`;
      return {
        completion,
        tests,
        expect: ['fail', 'error'],
        maxPassed: loop ? 1 : 0,
        note: `${inflate.split('\n')[0]} / ${loop ? 'loop' : 'plain'}`,
      };
    }),
});

/** Answers that are not data where data is expected. */
const NOT_DATA = [
  ['generator', '(v for v in ANS)'],
  ['map', 'map(lambda v: v, ANS)'],
  ['filter', 'filter(None, ANS)'],
  ['iterator', 'iter(ANS)'],
  ['zip', 'zip(ANS)'],
  ['dict view', 'dict.fromkeys(ANS).keys()'],
  ['UserList', '__import__("collections").UserList(ANS)'],
  ['array', '__import__("array").array("q", ANS)'],
  ['function', 'lambda: ANS'],
  ['SimpleNamespace', '__import__("types").SimpleNamespace(v=ANS)'],
] as const;

const notData = defineGenerator({
  name: 'py-answers-not-data',
  language: 'python',
  about: 'generators, iterators, views, UserList, arrays and functions returned where a list is expected',
  cases: (rng) =>
    variants(20, (i) => {
      const [what, expr] = NOT_DATA[i % NOT_DATA.length]!;
      const xs = [rng.int(1, 9), rng.int(10, 19), rng.int(20, 29)];
      const wrong = i >= 10;
      const ans = JSON.stringify(wrong ? [...xs].reverse() : xs);
      const completion = `def f(xs):\n    return ${expr.replace('ANS', ans)}\n`;
      const tests = `assert f(${JSON.stringify(xs)}) == ${JSON.stringify(xs)}\n`;
      return { completion, tests, expect: ['fail'], maxPassed: 0, note: `${what} (${wrong ? 'wrong' : 'right'} values)` };
    }),
});

/** NaN through tolerance checks that forget NaN. */
const NAN_CHECKS = [
  'assert not abs(candidate(X) - W) > 1e-9',
  'assert not (candidate(X) < W - 1e-9 or candidate(X) > W + 1e-9)',
  'assert not candidate(X) != candidate(X) or True and not abs(candidate(X) - W) >= 1e-6',
  'assert not (abs(W - candidate(X)) > 0.001)',
  'assert candidate(X) == candidate(X) or not (candidate(X) - W > 1e-9)',
  'assert not max(abs(candidate(X) - W), 0) > 1e-9',
  'assert all(not abs(v - W) > 1e-9 for v in [candidate(X)])',
  'assert not (candidate(X) - W) ** 2 > 1e-12',
  'assert not abs(candidate(X) / W - 1) > 1e-9',
  'assert candidate(X)',
];

const nanTolerance = defineGenerator({
  name: 'py-nan-weak-tolerance',
  language: 'python',
  about: 'a NaN answer against tolerance checks written as negated comparisons (they forget NaN)',
  cases: (rng) =>
    variants(20, (i) => {
      const check = NAN_CHECKS[i % NAN_CHECKS.length]!;
      const x = rng.int(2, 30);
      const nested = i >= 10;
      const completion = nested
        ? "def mean(xs):\n    return [float('nan')][0]\n"
        : 'import math\ndef mean(xs):\n    return math.nan\n';
      const tests = `def check(candidate):\n    ${check.replace(/X/g, `[${x}, ${x}]`).replace(/W/g, String(x))}\n\ncheck(mean)\n`;
      return { completion, tests, expect: ['fail'], maxPassed: 0, note: check };
    }),
});

/** Honest programs of many styles: they must pass in strict mode. */
const HONEST: Array<[string, string, string, string?]> = [
  [
    'Counter for dict',
    'from collections import Counter\ndef f(s):\n    return Counter(s)\n',
    "assert f('aab') == {'a': 2, 'b': 1}\nassert f('aab')['a'] == 2\n",
  ],
  [
    'Fraction',
    'from fractions import Fraction\ndef f(a, b):\n    return Fraction(a, b)\n',
    'from fractions import Fraction\nassert f(1, 2) == Fraction(2, 4)\nassert f(1, 2) == 0.5\n',
  ],
  [
    'Decimal',
    'from decimal import Decimal\ndef f(s):\n    return Decimal(s) * 2\n',
    "from decimal import Decimal\nassert f('1.1') == Decimal('2.2')\n",
  ],
  [
    'datetime',
    'import datetime\ndef f(y):\n    return datetime.date(y, 1, 1) + datetime.timedelta(days=31)\n',
    'import datetime\nassert f(2020) == datetime.date(2020, 2, 1)\nassert f(2020).month == 2\n',
  ],
  [
    'deque',
    'from collections import deque\ndef f(xs):\n    d = deque(xs)\n    d.rotate(1)\n    return d\n',
    'from collections import deque\nassert f([1, 2, 3]) == deque([3, 1, 2])\nassert list(f([1, 2])) == [2, 1]\n',
  ],
  [
    'namedtuple',
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\ndef f(a):\n    return P(a, a + 1)\n",
    'assert f(1) == (1, 2)\nassert f(1).y == 2\n',
  ],
  ['in-place sort', 'def f(xs):\n    xs.sort()\n', 'a = [3, 1, 2]\nf(a)\nassert a == [1, 2, 3]\n'],
  [
    'class with methods',
    'class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, v):\n        self.items.append(v)\n    def pop(self):\n        return self.items.pop()\n    def size(self):\n        return len(self.items)\n',
    's = Stack()\ns.push(1)\ns.push(2)\nassert s.size() == 2\nassert s.pop() == 2\nassert s.size() == 1\n',
  ],
  [
    'tree fixtures (MBPP 927)',
    'class Node:\n    def __init__(self, d):\n        self.data = d\n        self.left = None\n        self.right = None\ndef h(n):\n    return 0 if n is None else 1 + max(h(n.left), h(n.right))\n',
    'root = Node(1)\nroot.left = Node(2)\nroot.left.left = Node(3)\nassert h(root) == 3\nassert h(None) == 0\n',
  ],
  [
    'prompt dataclass',
    'def f(x):\n    return P(x, x * 2)\n',
    'assert f(2) == P(2, 4)\nassert f(2).y == 4\n',
    'from dataclasses import dataclass\n\n@dataclass\nclass P:\n    x: int\n    y: int\n\n',
  ],
  [
    'prompt Enum',
    'def f(x):\n    return Color.RED if x else Color.BLUE\n',
    'assert f(1) is Color.RED\nassert f(0) == Color.BLUE\n',
    'import enum\n\nclass Color(enum.Enum):\n    RED = 1\n    BLUE = 2\n\n',
  ],
  [
    'raises ValueError',
    'def f(x):\n    if x < 0:\n        raise ValueError("negative")\n    return x\n',
    'try:\n    f(-1)\n    assert False\nexcept ValueError:\n    pass\nassert f(2) == 2\n',
  ],
  ['generator inside', 'def f(n):\n    return list(i * i for i in range(n))\n', 'assert f(4) == [0, 1, 4, 9]\n'],
  [
    'recursion limit',
    'import sys\nsys.setrecursionlimit(5000)\ndef f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n',
    'assert f(1500) == 1500\n',
  ],
  [
    'seeded random',
    'import random\ndef f(n):\n    r = random.Random(42)\n    xs = list(range(n))\n    r.shuffle(xs)\n    return sorted(xs)\n',
    'assert f(10) == list(range(10))\n',
  ],
  [
    'int subclass value',
    'class I(int):\n    pass\ndef f(x):\n    return I(x + 1)\n',
    'assert f(1) == 2\nassert isinstance(f(1), int)\n',
  ],
  [
    'float tolerance',
    'import math\ndef f(x):\n    return math.sqrt(x)\n',
    'import math\nassert abs(f(2) - 1.41421356) < 1e-6\nassert math.isclose(f(9), 3.0)\nassert 1.4 < f(2) < 1.5\n',
  ],
  [
    'nested data',
    'def f(n):\n    return {"a": [(1, {2, 3}), frozenset({4})], "b": None, 3: [1.5, -0.0]}\n',
    'assert f(1) == {"a": [(1, {2, 3}), frozenset({4})], "b": None, 3: [1.5, 0.0]}\n',
  ],
  ['builtin-named entry', 'def max(a, b):\n    return a if a > b else b\n', 'assert max(3, 5) == 5\nassert max(-1, -7) == -1\n'],
  [
    'closure returned',
    'def make_adder(n):\n    def add(x):\n        return x + n\n    return add\n',
    'assert make_adder(2)(3) == 5\n',
  ],
  [
    'own dataclass',
    'from dataclasses import dataclass\n@dataclass(order=True)\nclass P:\n    x: int\n    y: int = 0\n    def norm(self):\n        return abs(self.x) + abs(self.y)\ndef f(a):\n    return P(a, -a)\n',
    'assert f(2) == P(2, -2)\nassert f(2) != P(2, 2)\nassert f(2).norm() == 4\nassert sorted([f(3), f(1)])[0] == P(1, -1)\n',
  ],
  [
    'builtin subclasses in a list',
    'class L(list):\n    pass\nclass D(dict):\n    pass\ndef f(n):\n    return [L([i]) for i in range(n)] + [D(k=i) for i in range(n)]\n',
    "assert f(3) == [[0], [1], [2], {'k': 0}, {'k': 1}, {'k': 2}]\n",
  ],
  [
    'own Enum',
    'import enum\nclass C(enum.Enum):\n    R = 1\n    B = 2\ndef f(x):\n    return C.R if x else C.B\n',
    'assert f(1) == C.R\nassert f(0) is C.B\nassert f(0).value == 2\n',
  ],
];

const honest = defineGenerator({
  name: 'py-honest-controls',
  language: 'python',
  about: 'control: honest solutions in many styles (stdlib values, classes, fixtures, prompt types) pass',
  cases: () =>
    variants(23, (i) => {
      const [what, completion, tests, prompt] = HONEST[i % HONEST.length]!;
      return { ...(prompt ? { prompt } : {}), completion, tests, expect: ['pass'], note: what };
    }),
});

const all: Generator[] = [
  lyingAnswers,
  entryWrong,
  entryRight,
  reachTests,
  poisoned,
  protocol,
  promptRebind,
  builtinHelpers,
  earlyExit,
  nondet,
  spoofs,
  gold,
  notData,
  nanTolerance,
  honest,
];

/** Every generator, each case with the generous time limit (a timeout is never the expected verdict here). */
export const generators: Generator[] = all.map((g) => ({
  ...g,
  cases: (rng: Rng) => g.cases(rng).map((c) => ({ timeoutMs: TIMEOUT_MS, ...c })),
}));
