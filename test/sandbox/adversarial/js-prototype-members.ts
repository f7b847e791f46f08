/**
 * JavaScript (red-team rt74 A01-A05, A37): an answer whose prototype is the program's own (a
 * class of the completion's, `Object.create(proto)`) crossed as its class's name, and the tests
 * realm stood in for that prototype with one holding only a `constructor`: whatever the real
 * prototype held — data, a getter, `toJSON` or `then` that the engine calls by itself,
 * `Symbol.toStringTag`, a method `in` would find — the tests did not see, and checks that Node
 * fails passed. Now such a prototype may hold nothing but its `constructor`, or the answer is
 * refused (sandbox/snapshot.js, `bareProto`); a prompt class's instance still crosses as one of
 * the tests' own class, with the tests' methods. Each case's expected status is what Node gives
 * for the program and the tests in one file.
 */
import { checkCases, defineGenerator } from './framework.ts';

/** The numbers a case is made of. */
const VALUES = [2, 5, 9] as const;

/** [prompt, program (entry `f`), the tests' statements] for a value. */
type Row = (v: number) => readonly [string, string, string];

/** Wrong under Node: fail. */
const WRONG: readonly Row[] = [
  (v) => [
    '',
    "function f(x) {\n  const r = Object.create({ error: 'boom' });\n  r.ok = x > 0;\n  return r;\n}\n",
    `const r = f(${v});\n  assert.strictEqual(r.ok, true);\n  assert.strictEqual(r.error, undefined);`,
  ],
  (v) => [
    '',
    'class Res {}\nRes.prototype.extra = 1;\nfunction f(x) {\n  const r = new Res();\n  r.n = x;\n  return r;\n}\n',
    `const keys = [];\n  for (const k in f(${v})) keys.push(k);\n  assert.deepStrictEqual(keys, ['n']);`,
  ],
  (v) => [
    '',
    'class P {\n  constructor(x) {\n    this.x = x;\n  }\n  toJSON() {\n    return { x: 0 };\n  }\n}\nfunction f(x) {\n  return new P(x);\n}\n',
    `assert.strictEqual(JSON.stringify(f(${v})), '{"x":${v}}');`,
  ],
  (v) => [
    '',
    'class Box {\n  constructor(v) {\n    this.v = v;\n  }\n  then(res) {\n    res({ v: -1 });\n  }\n}\nfunction f(v) {\n  return new Box(v);\n}\n',
    `return (async () => {\n    const r = await f(${v});\n    assert.strictEqual(r.v, ${v});\n  })();`,
  ],
  (v) => [
    '',
    'const base = { admin: true };\nfunction f(n) {\n  const u = Object.create(base);\n  u.n = n;\n  return u;\n}\n',
    `const u = f(${v});\n  assert.strictEqual(u.n, ${v});\n  assert.ok(!('admin' in u));`,
  ],
  (v) => [
    '',
    "class C {\n  get [Symbol.toStringTag]() {\n    return 'X';\n  }\n}\nfunction f(n) {\n  const o = new C();\n  o.n = n;\n  return o;\n}\n",
    `assert.strictEqual(Object.prototype.toString.call(f(${v})), '[object Object]');`,
  ],
  (v) => [
    '',
    'class V {\n  constructor(x) {\n    this.x = x;\n  }\n  get big() {\n    return this.x > 100;\n  }\n}\nfunction f(x) {\n  return new V(x * 1000);\n}\n',
    `assert.ok(!f(${v}).big);`,
  ],
  (v) => [
    '',
    "class T {\n  constructor(x) {\n    this.x = x;\n  }\n  toString() {\n    return 'T';\n  }\n}\nfunction f(x) {\n  return new T(x);\n}\n",
    `assert.strictEqual(String(f(${v})), '[object Object]');`,
  ],
  (v) => [
    '',
    "class Counter extends Map {\n  get(k) {\n    return (super.get(k) ?? 0) + 1;\n  }\n}\nfunction f(x) {\n  const m = new Counter();\n  m.set('a', x);\n  return m;\n}\n",
    `assert.strictEqual(f(${v}).get('a'), ${v});`,
  ],
  (v) => [
    '',
    "class Path extends Array {\n  join() {\n    return super.join('/');\n  }\n}\nfunction f(x) {\n  const r = new Path();\n  r.push(x, x + 1);\n  return r;\n}\n",
    `assert.strictEqual(String(f(${v})), '${v},${v + 1}');`,
  ],
  (v) => [
    '',
    'class Rec {\n  constructor(n) {\n    this.n = n;\n  }\n  hasOwnProperty() {\n    return true;\n  }\n}\nfunction f(n) {\n  return new Rec(n);\n}\n',
    `assert.ok(!f(${v}).hasOwnProperty('z'));`,
  ],
  (v) => [
    '',
    'class Stamp extends Date {\n  getTime() {\n    return super.getTime() + 1000;\n  }\n}\nfunction f(ms) {\n  return new Stamp(ms);\n}\n',
    `assert.strictEqual(f(${v}).getTime(), ${v});`,
  ],
  (v) => [
    '',
    'class Tok {\n  constructor(k) {\n    this.kind = k;\n  }\n}\nTok.prototype.stack = 0;\nfunction f(n) {\n  return new Tok(n);\n}\n',
    `const ks = [];\n  for (const k in f(${v})) ks.push(k);\n  assert.deepStrictEqual(ks, ['kind']);`,
  ],
  (v) => [
    '',
    'function Tok(k) {\n  this.kind = k;\n}\nTok.prototype = { constructor: Tok };\nfunction f(n) {\n  return new Tok(n);\n}\n',
    `const ks = [];\n  for (const k in f(${v})) ks.push(k);\n  assert.deepStrictEqual(ks, ['kind']);`,
  ],
  (v) => [
    '',
    'const base = {\n  get constructor() {\n    return Array;\n  },\n};\nfunction f(n) {\n  const r = Object.create(base);\n  r.n = n;\n  return r;\n}\n',
    `assert.notStrictEqual(f(${v}).constructor, Array);`,
  ],
  (v) => [
    'class Money {\n',
    '  constructor(c) {\n    this.cents = c;\n  }\n  toJSON() {\n    return this.cents / 10;\n  }\n  half() {\n    return new Half(this.cents / 2);\n  }\n}\nclass Half extends Money {}\n',
    `assert.strictEqual(JSON.stringify(new Money(${v * 2}).half()), '{"cents":${v}}');`,
  ],
  (v) => [
    '',
    'function f(xs) {\n  const r = { v: xs.map((x) => x * 3) };\n  const p = new Proxy({}, {\n    getPrototypeOf() {\n      r.v = xs.map((x) => x * 2);\n      Object.setPrototypeOf(r, Object.prototype);\n      return Object.prototype;\n    },\n  });\n  Object.setPrototypeOf(r, p);\n  return r;\n}\n',
    `assert.deepStrictEqual(f([${v}]).v, [${2 * v}]);`,
  ],
];

/** Honest under Node: pass. */
const HONEST: readonly Row[] = [
  (v) => [
    '',
    'class Pt {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n}\nfunction f(x) {\n  return new Pt(x, x + 1);\n}\n',
    `assert.deepStrictEqual({ ...f(${v}) }, { x: ${v}, y: ${v + 1} });\n  assert.strictEqual(f(${v}).y, ${v + 1});`,
  ],
  (v) => [
    'class Pt {\n  constructor(x) {\n    this.x = x;\n  }\n  double() {\n    return this.x * 2;\n  }\n}\n',
    'function f(x) {\n  return new Pt(x);\n}\n',
    `const p = f(${v});\n  assert.ok(p instanceof Pt);\n  assert.strictEqual(p.double(), ${2 * v});\n  assert.deepStrictEqual(p, new Pt(${v}));`,
  ],
  (v) => [
    '',
    'function f(x) {\n  return { x, list: [x, x] };\n}\n',
    `assert.deepStrictEqual(f(${v}), { x: ${v}, list: [${v}, ${v}] });`,
  ],
  (v) => [
    '',
    'function f(x) {\n  const o = Object.create(null);\n  o.x = x;\n  return o;\n}\n',
    `assert.strictEqual(f(${v}).x, ${v});\n  assert.strictEqual(Object.getPrototypeOf(f(${v})), null);`,
  ],
  (v) => [
    'class Shape {\n  area() {\n    return 0;\n  }\n}\n',
    'class Sq extends Shape {\n  constructor(s) {\n    super();\n    this.s = s;\n  }\n}\nfunction f(s) {\n  return new Sq(s);\n}\n',
    `const q = f(${v});\n  assert.strictEqual(q.s, ${v});\n  assert.ok(q instanceof Shape);`,
  ],
  (v) => [
    '',
    'class Node {\n  constructor(val, next = null) {\n    this.val = val;\n    this.next = next;\n  }\n}\nfunction f(n) {\n  return new Node(n, new Node(n + 1));\n}\n',
    `const l = f(${v});\n  assert.strictEqual(l.next.val, ${v + 1});\n  assert.strictEqual(l.next.next, null);`,
  ],
  (v) => [
    '',
    "class ValidationError extends Error {\n  constructor(m) {\n    super(m);\n    this.name = 'ValidationError';\n  }\n}\nfunction f(x) {\n  if (x > 0) throw new ValidationError('positive');\n  return x;\n}\n",
    `assert.throws(() => f(${v}), { name: 'ValidationError', message: 'positive' });`,
  ],
  (v) => [
    '',
    "class Bag extends Map {\n  total() {\n    let s = 0;\n    for (const x of this.values()) s += x;\n    return s;\n  }\n}\nfunction f(x) {\n  const b = new Bag();\n  b.set('a', x);\n  return b;\n}\n",
    `assert.strictEqual(f(${v}).get('a'), ${v});\n  assert.strictEqual(f(${v}).size, 1);`,
  ],
  (v) => [
    '',
    'function Tok(k) {\n  this.kind = k;\n}\nTok.prototype.describe = function () {\n  return this.kind;\n};\nfunction f(n) {\n  return new Tok(n);\n}\n',
    `assert.strictEqual(f(${v}).kind, ${v});`,
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-prototype-members',
    language: 'javascript',
    about: "an answer over a prototype of the program's holding data, a getter or a method the tests would meet: fail",
    cases: () => checkCases(51, WRONG, VALUES, ['fail', 'error'], 'const run = test();'),
  }),
  defineGenerator({
    name: 'js-prototype-members-honest',
    language: 'javascript',
    about: "controls: plain data classes of the program's, prompt classes with methods, null-prototype objects: pass",
    cases: () => checkCases(27, HONEST, VALUES, ['pass'], 'const run = test();'),
  }),
];
