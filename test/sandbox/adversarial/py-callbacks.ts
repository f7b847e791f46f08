/**
 * Python generators: functions the tests pass to the program (callbacks). A callback crosses as
 * a handle: the program's call of it is forwarded to the tests' interpreter, arguments and answer
 * as plain data (the entry point's boundary in reverse). Honest uses in many shapes must pass;
 * hostile uses (lying values handed to the tests' code, reaching the tests through the handle,
 * forged bridge requests, gold inflation through a callback's own assert, nesting and call
 * floods) must not. See framework.ts for the case format.
 */
import { type AdversarialCase, defineGenerator, type Generator, type Rng, variants } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

/** [what, completion, tests] with N, M standing for small ints the generator picks. */
const HONEST: Array<[string, string, string]> = [
  [
    'sort key lambda',
    'def sort_by(xs, key):\n    return sorted(xs, key=key)\n',
    'assert sort_by([N, M, 0], key=lambda x: -x) == sorted([N, M, 0], reverse=True)\n',
  ],
  ['apply a def', 'def apply(f, x):\n    return f(x)\n', 'def f(x):\n    return x * 2\n\nassert apply(f, N) == 2 * N\n'],
  [
    'method descriptor',
    'def apply(f, x):\n    return f(x)\n',
    "assert apply(str.upper, 'ab' * N) == 'AB' * N\nassert apply(str.strip, ' x ') == 'x'\n",
  ],
  [
    'filter predicate',
    'def keep(xs, pred):\n    return [x for x in xs if pred(x)]\n',
    'assert keep(list(range(N + M)), lambda v: v % 2 == 0) == list(range(0, N + M, 2))\n',
  ],
  [
    'fold',
    'def fold(f, xs, init):\n    acc = init\n    for x in xs:\n        acc = f(acc, x)\n    return acc\n',
    'assert fold(lambda a, b: a + b, [N, M, 1], 0) == N + M + 1\nassert fold(max, [N, M], 0) == max(N, M)\n',
  ],
  [
    'stored, fired by a later call',
    '_handlers = []\ndef on(f):\n    _handlers.append(f)\ndef fire(x):\n    return [h(x) for h in _handlers]\n',
    'on(lambda v: v + 1)\non(lambda v: v * N)\nassert fire(M) == [M + 1, M * N]\n',
  ],
  [
    'callback raises, program catches',
    "def safe(f, x):\n    try:\n        return f(x)\n    except ValueError as e:\n        return 'err:' + str(e)\n",
    "def bad(x):\n    raise ValueError('no' * N)\n\nassert safe(bad, 1) == 'err:' + 'no' * N\nassert safe(abs, -M) == M\n",
  ],
  [
    'compose returns a closure',
    'def compose(f, g):\n    return lambda x: f(g(x))\n',
    'assert compose(lambda v: v + 1, lambda v: v * 2)(N) == 2 * N + 1\n',
  ],
  [
    're-entrant: the callback calls the program',
    'def twice(f, x):\n    return f(f(x))\ndef inc(x):\n    return x + 1\n',
    'assert twice(lambda v: inc(v) * 2, N) == 2 * (2 * (N + 1) + 1)\n',
  ],
  [
    'bound method of a test object',
    'def feed(xs, sink):\n    for x in xs:\n        sink(x)\n    return len(xs)\n',
    'class Acc:\n    def __init__(self):\n        self.total = 0\n    def add(self, v):\n        self.total += v\n\na = Acc()\nassert feed([N, M], a.add) == 2\nassert a.total == N + M\n',
  ],
  [
    'functools.partial',
    'def apply(f, x):\n    return f(x)\n',
    'import functools\n\ndef mul(a, b):\n    return a * b\n\nassert apply(functools.partial(mul, N), M) == N * M\n',
  ],
  [
    'list.append of the tests',
    'def walk(xs, visit):\n    for x in sorted(xs):\n        visit(x)\n',
    'seen = []\nwalk([M + N, N, M], seen.append)\nassert seen == sorted([M + N, N, M])\n',
  ],
  [
    'callback mutates what the program passed',
    'def go(f):\n    xs = [N]\n    f(xs)\n    return xs\n',
    'assert go(lambda l: l.append(M)) == [N, M]\n',
  ],
  [
    'callback returns structures',
    'def pairs(xs, f):\n    return {x: f(x) for x in xs}\n',
    'assert pairs([N, M], lambda v: (v, [v, {v}])) == {N: (N, [N, {N}]), M: (M, [M, {M}])}\n',
  ],
  [
    'keyword and default arguments',
    'def call(f, **kw):\n    return f(**kw)\n',
    'def g(a, b=N):\n    return a - b\n\nassert call(g, a=M) == M - N\nassert call(g, a=M, b=1) == M - 1\n',
  ],
  [
    'class of the tests as a factory',
    'def build(cls, xs):\n    return [cls(x) for x in xs]\n',
    'class Box:\n    def __init__(self, v):\n        self.v = v * 2\n\nassert [b.v for b in build(Box, [N, M])] == [2 * N, 2 * M]\n',
  ],
  [
    'callback returning a callback',
    'def curry(f, x, y):\n    return f(x)(y)\n',
    'assert curry(lambda a: lambda b: a * 10 + b, N, M) == N * 10 + M\n',
  ],
  [
    'many calls',
    'def total(f, n):\n    return sum(f(i) for i in range(n))\n',
    'assert total(lambda i: i % N, 500) == sum(i % N for i in range(500))\n',
  ],
  [
    'cmp_to_key with a comparator',
    'import functools\ndef order(xs, cmp):\n    return sorted(xs, key=functools.cmp_to_key(cmp))\n',
    'def cmp(a, b):\n    return (a > b) - (a < b)\n\nassert order([M, N, 0], cmp) == sorted([M, N, 0])\n',
  ],
  [
    'callbacks inside a list and a dict',
    'def apply_all(fs, x):\n    return [f(x) for f in fs]\ndef dispatch(table, k, x):\n    return table[k](x)\n',
    "assert apply_all([lambda v: v + 1, lambda v: v * 2], N) == [N + 1, 2 * N]\nassert dispatch({'neg': lambda v: -v}, 'neg', M) == -M\n",
  ],
  [
    'callable instance of the tests',
    'def apply(f, x):\n    return f(x)\n',
    'class Scale:\n    def __init__(self, k):\n        self.k = k\n    def __call__(self, v):\n        return v * self.k\n\nassert apply(Scale(N), M) == N * M\n',
  ],
  [
    'callback given back as the answer',
    'def pick(f, g, first):\n    return f if first else g\n',
    'def f(x):\n    return x + N\n\ndef g(x):\n    return x - M\n\nassert pick(f, g, True) is f\nassert pick(f, g, False)(0) == -M\n',
  ],
  [
    'map over a generator of program values',
    'def squares(f, n):\n    return list(map(f, (i * i for i in range(n))))\n',
    'assert squares(lambda v: v + 1, N) == [i * i + 1 for i in range(N)]\n',
  ],
  [
    'callback that asserts (all checks hold)',
    'def each(xs, f):\n    for x in xs:\n        f(x)\n    return True\n',
    'def positive(v):\n    assert v > 0\n\nassert each([N, M], positive)\n',
  ],
];

function fill(s: string, n: number, m: number): string {
  return s.replace(/\bN\b/g, String(n)).replace(/\bM\b/g, String(m));
}

const honest = defineGenerator({
  name: 'py-callbacks-honest',
  language: 'python',
  about: 'control: the tests pass functions to the program (keys, predicates, handlers, factories): they pass',
  cases: (rng: Rng) =>
    variants(HONEST.length, (i) => {
      const [what, completion, tests] = HONEST[i]!;
      const n = rng.int(2, 9);
      const m = rng.int(10, 40);
      return { completion: fill(completion, n, m), tests: fill(tests, n, m), expect: ['pass'], note: what };
    }),
});

/** A program-side device request: `payload` is a Python expression of the marshaled request. */
function rawRequest(payload: string): string {
  return (
    `    import os, marshal\n    fd = os.open('/dev/anchor', os.O_RDWR)\n    d = marshal.dumps(${payload})\n` +
    "    os.write(fd, len(d).to_bytes(8, 'little') + d)\n    n = int.from_bytes(os.read(fd, 8), 'little')\n" +
    '    os.read(fd, n) if n else b""\n    os.close(fd)\n'
  );
}

/**
 * [what, completion, tests, maxPassed]. Every program is wrong or hostile; the tests are honest.
 * `seen` collects what the program hands the tests' callback; the right answer is [N, M].
 */
const ATTACKS: Array<[string, string, string, number]> = [
  [
    'always-equal values handed to the callback',
    'class AE:\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\ndef walk(xs, visit):\n    for _ in xs:\n        visit(AE())\n',
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
  [
    'int subclass lying to the callback',
    'class I(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\ndef walk(xs, visit):\n    for x in xs:\n        visit(I(x + 1))\n',
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
  [
    'always-equal value into an equality predicate',
    'class AE:\n    def __eq__(self, o):\n        return True\n    __ne__ = lambda s, o: False\n    __hash__ = object.__hash__\ndef count(pred, xs):\n    return sum(1 for x in xs if pred(AE()))\n',
    'assert count(lambda v: v == N, [N, M, 0]) == 1\n',
    0,
  ],
  [
    'dict subclass with lying __eq__ to the callback',
    'class D(dict):\n    def __eq__(self, o):\n        return True\n    __hash__ = None\ndef walk(xs, visit):\n    visit(D(wrong=1))\n',
    "seen = []\nwalk([N, M], seen.append)\nassert seen == [{'k': N}]\n",
    0,
  ],
  [
    'NaN into a tolerance check of the callback',
    "def feed(check):\n    return check(float('nan'))\n",
    'assert feed(lambda v: not abs(v - N) > 1e-9)\n',
    0,
  ],
  [
    "rewriting the tests through the callback's __globals__",
    "def walk(xs, visit):\n    try:\n        visit.__globals__['seen'] = [N, M]\n        visit.__globals__['__builtins__']['list'] = None\n    except Exception:\n        pass\n    visit(0)\n",
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
  [
    "rewriting the tests through the callback's __closure__ cells",
    'def walk(xs, visit):\n    for c in visit.__closure__ or ():\n        try:\n            v = c.cell_contents\n            if isinstance(v, dict):\n                v.clear()\n            c.cell_contents = None\n        except Exception:\n            pass\n    try:\n        visit(0)\n    except BaseException:\n        pass\n',
    'seen = []\n\ndef make():\n    store = seen\n    def visit(v):\n        store.append(v)\n    return visit\n\nwalk([N, M], make())\nassert seen == [N, M]\n',
    0,
  ],
  [
    "frames of the callback's call",
    "import sys\ndef walk(xs, visit):\n    try:\n        f = sys._getframe(0)\n        while f is not None:\n            f.f_globals['seen'] = [N, M]\n            f = f.f_back\n    except Exception:\n        pass\n    visit(0)\n",
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
  [
    "the callback's own assert swallowed by the program",
    'def each(xs, f):\n    for x in xs:\n        try:\n            f(x + 1)\n        except AssertionError:\n            pass\n    return True\n',
    'def exact(v):\n    assert v in (N, M)\n\nassert each([N, M], exact)\n',
    1,
  ],
  [
    "gold inflation: the callback's assert run a thousand times",
    'def each(xs, f):\n    for _ in range(1000):\n        f(N)\n    return False\n',
    'def positive(v):\n    assert v > 0\n\nassert each([N, M], positive)\n',
    1,
  ],
  [
    'forged request: a callback index never given',
    `def apply(f, x):\n${rawRequest("('cb', 5, [N], [], False)")}    return x + 1\n`,
    'assert apply(lambda v: v, N) == N\n',
    0,
  ],
  [
    'forged request: malformed',
    `def apply(f, x):\n${rawRequest("('cb', 0, 'not a list', [], False)")}    return f(x)\n`,
    'assert apply(lambda v: v, N) == N\n',
    0,
  ],
  [
    'forged request: a program-side operation sent to the tests',
    `def apply(f, x):\n${rawRequest("('names', ['seen'])")}    return f(x)\n`,
    'assert apply(lambda v: v, N) == N\n',
    0,
  ],
  [
    'forged request at load, before any call of the tests',
    `def _early():\n${rawRequest("('cb', 0, [N], [], False)")}_early()\ndef apply(f, x):\n    return x + 1\n`,
    'assert apply(lambda v: v, N) == N\n',
    0,
  ],
  [
    'garbage bytes on the device, then the real callback',
    "import os\ndef apply(f, x):\n    fd = os.open('/dev/anchor', os.O_RDWR)\n    os.write(fd, b'\\x05\\x00\\x00\\x00\\x00\\x00\\x00\\x00ab')\n    os.close(fd)\n    return f(x)\n",
    'assert apply(lambda v: v + 1, N) == N + 1\n',
    0,
  ],
  [
    'the callback returned where a value is expected',
    'def apply(f, x):\n    return f\n',
    'assert apply(lambda v: v, N) == N\n',
    0,
  ],
  [
    'unbounded nesting through the callback',
    'def rec(f, n):\n    return f(n + 1)\n',
    'def g(n):\n    return rec(g, n)\n\nassert rec(g, 0) == N\n',
    0,
  ],
  [
    'program exits inside a nested callback',
    'import os\ndef apply(f, x):\n    return f(x)\ndef boom():\n    os._exit(0)\n',
    'assert apply(lambda v: boom() or v, N) == N\n',
    0,
  ],
  [
    'answer that is not data handed to the callback',
    "def walk(xs, visit):\n    visit(memoryview(b'ab'))\n    visit(M)\n",
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
  [
    'program object with lying methods through a key function',
    'class K:\n    def __lt__(self, o):\n        return True\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\ndef best(xs, key):\n    return key(K())\n',
    'assert best([N, M], key=lambda v: v) == max([N, M])\n',
    0,
  ],
  [
    'calling a stored callback after its call returned, with lying values',
    'class AE:\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\n_saved = []\ndef register(f):\n    _saved.append(f)\n    return 0\ndef done():\n    for f in _saved:\n        f(AE())\n    return 1\n',
    'seen = []\nassert register(seen.append) == 0\nassert done() == 1\nassert seen == [N]\n',
    2,
  ],
  [
    "tampering with the program side's bridge so callbacks are skipped",
    'def walk(xs, visit):\n    for c in visit.__closure__ or ():\n        try:\n            if callable(c.cell_contents):\n                c.cell_contents = lambda *a, **k: None\n        except Exception:\n            pass\n    try:\n        visit(N)\n        visit(M)\n    except BaseException:\n        pass\n',
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
  [
    'flooding the device with a request larger than the cap',
    "import os\ndef walk(xs, visit):\n    fd = os.open('/dev/anchor', os.O_RDWR)\n    os.write(fd, (10 ** 12).to_bytes(8, 'little'))\n    for _ in range(12):\n        os.write(fd, bytes(8 * 1024 * 1024))\n    os.close(fd)\n    visit(N)\n",
    'seen = []\nwalk([N, M], seen.append)\nassert seen == [N, M]\n',
    0,
  ],
];

const attacks = defineGenerator({
  name: 'py-callbacks-hostile',
  language: 'python',
  about: "the program misuses the tests' callbacks: lying values, reaching the tests, forged requests, floods",
  cases: (rng: Rng) =>
    variants(ATTACKS.length, (i): AdversarialCase => {
      const [what, completion, tests, maxPassed] = ATTACKS[i]!;
      const n = rng.int(2, 9);
      const m = rng.int(10, 40);
      return { completion: fill(completion, n, m), tests: fill(tests, n, m), expect: ['fail', 'error'], maxPassed, note: what };
    }),
});

/** Both generators, each case with the generous time limit. */
export const generators: Generator[] = [honest, attacks].map((g) => ({
  ...g,
  cases: (rng: Rng) => g.cases(rng).map((c) => ({ timeoutMs: TIMEOUT_MS, ...c })),
}));
