/**
 * Python: the door closed is the boundary's table of shared objects (sandbox/python/harness.py,
 * `_Enc`/`_Dec`: an answer's aliasing crosses as back-references `('r', k)`). (1) A value
 * encoded as 'bad' inside a record (a defaultdict whose factory is a lambda or a program class,
 * a float array holding NaN) stayed registered in the encoder's table, and its items with it,
 * while the decoder added nothing: every later back-reference landed on the object registered
 * one or more places later, so a program chose what an alias of its answer resolved to (red-team
 * rt65 M01-M06). (2) A set was never a shared object and a list/dict subclass's instance was
 * registered by its copy, so `[s] * n`, `dict.fromkeys(keys, set())`, `(s, s)` and `[row] * n`
 * of a list subclass arrived as independent objects and passed tests that mutate one and check
 * the others (rt65 A01, A03, A05, A06, A09). (3) What the program left in a call's arguments
 * was merged into the tests' objects element by element, so rows it rebound (`m[i] =
 * sorted(m[i])`) looked sorted in place through the tests' alias and an alias it made (`m[1] =
 * m[0]`) was not one (rt65 G01, G08): now each of the tests' objects is refilled in place with
 * what the program's copy of it holds, and a new object crosses as new. Every case was run under
 * CPython 3.11.7: the wrong ones fail there, the controls pass.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

/** A value that is no plain data inside a record, and how many shared objects it holds (itself included). */
const BAD: Array<[string, number]> = [
  ['defaultdict(lambda: 0)', 1],
  ['array("d", [float("nan")])', 1],
  ['array("f", [1.0, float("nan")])', 1],
  ['defaultdict(lambda: 0, {"k": [9]})', 2],
  ['defaultdict(Leaf)', 1],
  ['defaultdict(lambda: defaultdict(int), {"a": defaultdict(int, {"b": 1})})', 2],
  ['defaultdict(lambda: 0, {"k": [9], "j": {"z": [1]}})', 4],
];

const HEAD = 'from collections import defaultdict\nfrom array import array\n\nclass Leaf:\n    pass\n\nclass Box:\n    pass\n\n';

/** Where the record stands in the answer, and how the tests reach it from `R`. */
const WHERE: Array<[string, string]> = [
  ['b', 'R'],
  ['[b]', 'R[0]'],
  ['{"box": b}', 'R["box"]'],
];

/** A record with the bad value first, then `wrong`, fillers, `right`; `ans` is `wrong` or `right`. */
function record(bad: string, k: number, where: string, honest: boolean): string {
  const fill = Array.from({ length: k - 1 }, (_, i) => `    b.fill${i} = [0]\n`).join('');
  return (
    `${HEAD}def make():\n    b = Box()\n    b.junk = ${bad}\n    b.wrong = [1, 2]\n${fill}` +
    `    b.right = [3]\n    b.ans = b.${honest ? 'right' : 'wrong'}\n    return ${where}\n`
  );
}

function memoCases(honest: boolean): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  for (const [bad, k] of BAD)
    for (const [where, read] of WHERE)
      out.push({
        completion: record(bad, k, where, honest),
        tests: `R = make()\nb = ${read}\nassert b.ans == [3]\nassert b.right == [3]\n`,
        expect: honest ? ['pass'] : ['fail', 'error'],
        ...(honest ? {} : { maxPassed: 0 }),
        timeoutMs: TIMEOUT_MS,
        note: `${bad} in ${where}, ans = ${honest ? 'right' : 'wrong'}`,
      });
  return out;
}

/** [completion, tests]: one shared object where the tests need independent ones (CPython fails them). */
const SHARED_WRONG: Array<[string, string]> = [
  ['def groups(n):\n    s = set()\n    return [s] * n\n', 'g = groups(3)\ng[0].add(1)\nassert g[1] == set() and g[2] == set()\n'],
  ['def index(keys):\n    return dict.fromkeys(keys, set())\n', 'r = index(["a", "b"])\nr["a"].add(0)\nassert r["b"] == set()\n'],
  ['def two():\n    s = set()\n    return (s, s)\n', 'seen, dup = two()\nseen.add(1)\nassert dup == set()\n'],
  [
    'def index(keys):\n    s = set()\n    return {k: s for k in keys}\n',
    'r = index("xy")\nr["x"].add(1)\nassert r["y"] == set()\n',
  ],
  ['def nest():\n    s = set()\n    return {"x": [s], "y": [s]}\n', 'r = nest()\nr["x"][0].add(1)\nassert r["y"][0] == set()\n'],
  [
    'class State:\n    pass\n\ndef start():\n    st = State()\n    st.seen = st.todo = set()\n    return st\n',
    's = start()\ns.seen.add(1)\nassert s.todo == set()\n',
  ],
  [
    'class Row(list):\n    pass\n\ndef grid(n):\n    row = Row([0] * n)\n    return [row] * n\n',
    'g = grid(3)\ng[0][0] = 1\nassert g[1][0] == 0\n',
  ],
  [
    'class Cell(dict):\n    pass\n\ndef cells(n):\n    c = Cell()\n    return [c] * n\n',
    'g = cells(2)\ng[0]["x"] = 1\nassert "x" not in g[1]\n',
  ],
  [
    'class Bag(set):\n    pass\n\ndef bags(n):\n    b = Bag()\n    return [b] * n\n',
    'g = bags(2)\ng[0].add(1)\nassert g[1] == set()\n',
  ],
  [
    'class Row(list):\n    pass\n\ndef index(keys):\n    return dict.fromkeys(keys, Row())\n',
    'r = index("ab")\nr["a"].append(1)\nassert r["b"] == []\n',
  ],
  [
    'class Row(list):\n    pass\n\ndef grid(n):\n    row = Row([[0]] * n)\n    return (row, row)\n',
    'a, b = grid(2)\na.append(5)\nassert len(b) == 2\n',
  ],
];

/** [completion, tests]: honest sharing and honest independence (CPython passes them). */
const SHARED_HONEST: Array<[string, string]> = [
  [
    'def groups(n):\n    return [set() for _ in range(n)]\n',
    'g = groups(3)\ng[0].add(1)\nassert g[1] == set() and g[2] == set()\n',
  ],
  ['def index(keys):\n    return {k: set() for k in keys}\n', 'r = index(["a", "b"])\nr["a"].add(0)\nassert r["b"] == set()\n'],
  [
    'def groups(pairs):\n    g = {}\n    for a, b in pairs:\n        s = g.get(a) or g.get(b) or set()\n        s.update((a, b))\n        g[a] = g[b] = s\n    return g\n',
    'g = groups([(1, 2), (2, 3)])\nassert g[1] == {1, 2, 3}\nassert g[1] is g[3]\n',
  ],
  [
    'def shared(n):\n    s = set()\n    return [s] * n\n',
    'g = shared(3)\nassert g[0] is g[2]\ng[0].add(1)\nassert g[1] == {1}\n',
  ],
  [
    'def shared(n):\n    row = [0] * n\n    return [row] * n\n',
    'g = shared(2)\nassert g[0] is g[1]\ng[0][0] = 7\nassert g[1][0] == 7\n',
  ],
  [
    'class Box:\n    pass\n\ndef make():\n    b = Box()\n    b.items = b.view = []\n    return b\n',
    'b = make()\nb.items.append(1)\nassert b.view == [1]\n',
  ],
  [
    'class Row(list):\n    pass\n\ndef grid(n):\n    return [Row([0] * n) for _ in range(n)]\n',
    'g = grid(3)\ng[0][0] = 1\nassert g[1][0] == 0\n',
  ],
  [
    'class Row(list):\n    pass\n\ndef grid(n):\n    row = Row([0] * n)\n    return [row] * n\n',
    'g = grid(3)\nassert g[0] is g[2]\ng[0][0] = 1\nassert g[1][0] == 1\n',
  ],
  [
    'class Node(dict):\n    pass\n\ndef self_ref(name):\n    d = Node(name=name)\n    d["self"] = d\n    return d\n',
    'r = self_ref("a")\nassert r["name"] == "a"\nassert r["self"] is r\n',
  ],
  [
    'class L(list):\n    pass\n\ndef f():\n    a = L([1])\n    a.append(a)\n    return a\n',
    'r = f()\nassert r[0] == 1\nassert r[1] is r\n',
  ],
  [
    'class Box:\n    pass\n\ndef make():\n    b = Box()\n    b.s = set()\n    b.l = [b.s]\n    return b\n',
    'b = make()\nassert b.l[0] is b.s\nb.s.add(2)\nassert b.l[0] == {2}\n',
  ],
  [
    'class Bag(set):\n    pass\n\ndef bags(n):\n    return [Bag() for _ in range(n)]\n',
    'g = bags(2)\ng[0].add(1)\nassert g[1] == set()\nassert g[0] is not g[1]\n',
  ],
  [
    'def index(keys):\n    s = {1, 2}\n    return {"a": s, "b": s, "c": {1, 2}}\n',
    'r = index("x")\nassert r["a"] is r["b"]\nassert r["a"] is not r["c"]\nr["a"].add(3)\nassert r["c"] == {1, 2}\n',
  ],
];

/** `none`: no check passes (the wrong argument cases check the rows' values first, as CPython passes them). */
function sharedCases(list: Array<[string, string]>, honest: boolean, none = true): AdversarialCase[] {
  return list.map(([completion, tests]) => ({
    completion,
    tests,
    expect: honest ? ['pass'] : ['fail', 'error'],
    ...(honest || !none ? {} : { maxPassed: 0 }),
    timeoutMs: TIMEOUT_MS,
    note: completion.split('\n').slice(-3).join(' '),
  }));
}

const sharedWrong = defineGenerator({
  name: 'py-shared-objects',
  language: 'python',
  about:
    'an alias resolved through a table shifted by a value no plain data inside a record, sharing of a set or a list/dict subclass lost, rows of an argument rebound or re-aliased: never a pass',
  cases: () => [...memoCases(false), ...sharedCases(SHARED_WRONG, false), ...sharedCases(ARGS_WRONG, false, false)],
});

const sharedHonest = defineGenerator({
  name: 'py-shared-objects-honest',
  language: 'python',
  about:
    "control: honest aliases after a value no plain data, shared and independent sets and subclass rows, self-holding subclasses, in-place work on an argument's rows seen through the tests' aliases pass",
  cases: () => [...memoCases(true), ...sharedCases(SHARED_HONEST, true), ...sharedCases(ARGS_HONEST, true)],
});

const M = 'm = [[1, 2], [3, 4]]\nfirst = m[0]\n';

/** [completion, tests]: the program rebinds or re-aliases the tests' rows; CPython fails the tests. */
const ARGS_WRONG: Array<[string, string]> = [
  ['def f(m):\n    for i in range(len(m)):\n        m[i] = sorted(m[i], reverse=True)\n', `${M}f(m)\nassert first == [2, 1]\n`],
  ['def f(m):\n    m[1] = m[0]\n', `${M}f(m)\nassert m == [[1, 2], [1, 2]]\nm[0][0] = 7\nassert m[1][0] == 1\n`],
  ['def f(m):\n    m[0] = m[0] + [9]\n', `${M}f(m)\nassert first == [1, 2, 9]\n`],
  ['def f(m):\n    m[0], m[1] = m[1], m[0]\n', `${M}f(m)\nassert first == [3, 4]\n`],
  ['def f(m):\n    m[:] = m[1:] + m[:1]\n', `${M}f(m)\nassert first == [3, 4]\n`],
  ['def f(m):\n    m.reverse()\n', `${M}f(m)\nassert first == [3, 4]\n`],
  ['def f(m):\n    for i in range(len(m)):\n        m[i] = [x * 2 for x in m[i]]\n', `${M}f(m)\nassert first == [2, 4]\n`],
  ['def f(m):\n    m[0] = m[0][::-1]\n', `${M}f(m)\nassert first == [2, 1]\n`],
];

/** [completion, tests]: honest in-place work and honest rebinding seen through the tests' aliases. */
const ARGS_HONEST: Array<[string, string]> = [
  ['def f(m):\n    for r in m:\n        r.sort(reverse=True)\n', `${M}f(m)\nassert first == [2, 1]\nassert m[0] is first\n`],
  [
    'def f(m):\n    for i in range(len(m)):\n        m[i] = sorted(m[i], reverse=True)\n',
    `${M}f(m)\nassert m == [[2, 1], [4, 3]]\nassert first == [1, 2]\n`,
  ],
  [
    'def f(d):\n    for v in d.values():\n        v.clear()\n',
    "a = [1, 2]\nd = {'x': a}\nf(d)\nassert d == {'x': []}\nassert a == []\n",
  ],
  [
    'def f(m):\n    for r in m:\n        r.append(0)\n',
    'row = [1]\nm = [row, row]\nf(m)\nassert m[0] == [1, 0, 0]\nassert m[0] is m[1]\n',
  ],
  ['def f(m):\n    m[1] = m[0][:]\n', `${M}f(m)\nm[0][0] = 7\nassert m[1] == [1, 2]\n`],
  ['def f(t):\n    t[0].sort()\n', 'a = [3, 1]\nf((a,))\nassert a == [1, 3]\n'],
  ['def f(m):\n    m[0], m[1] = m[1], m[0]\n', `${M}f(m)\nassert m[1] is first\nassert first == [1, 2]\n`],
  ['def f(m):\n    m.reverse()\n', `${M}f(m)\nassert m[1] is first and m == [[3, 4], [1, 2]]\n`],
  [
    'class Acc:\n    def add_to(self, xs):\n        xs.append(len(xs))\n',
    'xs = [5]\na = Acc()\na.add_to(xs)\nassert xs == [5, 1]\n',
  ],
  [
    'class Acc:\n    def both(self, a, b):\n        a.append(1)\n        return b\n',
    'xs = []\nr = Acc().both(xs, xs)\nassert xs == [1] and r == [1]\n',
  ],
];

export const generators = [sharedWrong, sharedHonest];
