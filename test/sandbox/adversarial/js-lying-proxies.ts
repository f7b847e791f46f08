/**
 * JavaScript (red-team rt71 JP01-JP18): a Proxy whose traps lie, where V8's serializer cannot look
 * for it. The serializer's copy finds a Proxy only in a part of the answer holding nothing it
 * cannot copy; a Proxy whose target held a function, a symbol or a promise was read through its
 * descriptor traps, which told the truth, while the tests' reads under Node (`get`, `has`, a key
 * never listed, a prototype's `get`) hear the lie. And the serializer never looks at prototypes:
 * a Proxy on an answer's prototype chain answered the tests' reads of missing keys under Node and
 * was never met. Now every array and object the serializer's copy does not check, and every
 * prototype an answer crosses with, is checked by V8's own ordinary-object test, which runs no
 * trap (sandbox/snapshot.js, `notProxy`). Each case's expected status is what Node gives for the
 * program and the tests in one file: the lie makes the tests fail, and the harness refuses the
 * Proxy (`fail`) — including a Proxy that tells the truth only once the snapshot has asked.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** What the Proxy's target holds besides data: something the serializer cannot copy. */
const OPAQUE = ['() => 0', "Symbol('s')", 'Promise.resolve(1)'] as const;

/**
 * [program (entry `f`), the tests' statements, the statuses expected when not just the generator's]
 * for the value `x` the serializer cannot copy.
 */
type Row = (x: string) => readonly [string, string, (readonly ('fail' | 'error')[])?];

/** A `get` trap that answers `key` with `value` and the target's own otherwise. */
const lie = (key: string, value: string) => `{ get(t, k) { return k === ${key} ? ${value} : t[k]; } }`;

/** Wrong under Node: each tests' check hears the Proxy's lie. */
const LYING: readonly Row[] = [
  (x) => [`function f() {\n  return new Proxy({ a: 1, x: ${x} }, ${lie("'a'", '2')});\n}\n`, 'assert.strictEqual(f().a, 1);'],
  (x) => [
    `function f() {\n  return [new Proxy({ a: 1, x: ${x} }, ${lie("'a'", '2')})];\n}\n`,
    'assert.strictEqual(f()[0].a, 1);',
  ],
  (x) => [
    `function f() {\n  return new Proxy({ a: 1, x: ${x} }, { has(t, k) { return k === 'b' || k in t; } });\n}\n`,
    "assert.ok(!('b' in f()));",
  ],
  (x) => [
    `function f() {\n  return new Proxy({ a: 1, x: ${x} }, ${lie("'extra'", '42')});\n}\n`,
    'assert.strictEqual(f().extra, undefined);',
  ],
  // (A frozen target binds every trap to its data, but not `get` of a key it does not have.)
  (x) => [
    `function f() {\n  return new Proxy(Object.freeze({ a: 1, x: ${x} }), ${lie("'extra'", '42')});\n}\n`,
    'assert.strictEqual(f().extra, undefined);',
  ],
  // (Truthful once its descriptors were asked for, as a snapshot does; the tests never ask.)
  (x) => [
    `function f() {\n  let asked = false;\n  return new Proxy({ a: 1, x: ${x} }, {\n    getOwnPropertyDescriptor(t, k) { asked = true; return Reflect.getOwnPropertyDescriptor(t, k); },\n    get(t, k) { return k === 'a' && !asked ? 2 : t[k]; },\n  });\n}\n`,
    'assert.strictEqual(f().a, 1);',
  ],
  (x) => [
    `function f() {\n  const o = Object.create(new Proxy({}, ${lie("'extra'", '42')}));\n  o.a = 1;\n  o.x = ${x};\n  return o;\n}\n`,
    'assert.strictEqual(f().extra, undefined);',
  ],
  (x) => [
    `class A {}\nObject.setPrototypeOf(A.prototype, new Proxy({}, ${lie("'v'", '9')}));\nfunction f() {\n  const a = new A();\n  a.x = ${x};\n  return a;\n}\n`,
    'assert.strictEqual(f().v, undefined);',
  ],
  (x) => [
    `function f() {\n  return new Map([['k', new Proxy({ v: 1, x: ${x} }, ${lie("'v'", '7')})]]);\n}\n`,
    "assert.strictEqual(f().get('k').v, 1);",
  ],
  (x) => [
    `function f() {\n  const e = new Error('m');\n  e.cause = new Proxy({ code: 1, x: ${x} }, ${lie("'code'", '2')});\n  return e;\n}\n`,
    'assert.strictEqual(f().cause.code, 1);',
  ],
  (x) => [`function f() {\n  return new Proxy([1, 2, ${x}], ${lie("'0'", '100')});\n}\n`, 'assert.strictEqual(f()[0], 1);'],
  (x) => [
    `function f() {\n  const o = { a: 1 };\n  o[Symbol.for('h')] = new Proxy({ q: 1, x: ${x} }, ${lie("'q'", '2')});\n  return o;\n}\n`,
    "assert.strictEqual(f()[Symbol.for('h')].q, 1);",
  ],
  (x) => [
    `function f(cb) {\n  return cb(new Proxy({ a: 1, x: ${x} }, ${lie("'a'", '2')}));\n}\n`,
    'assert.strictEqual(f((o) => o.a), 1);',
    // (The program's call of the tests' function with an argument refused: `error`, as for any.)
    ['fail', 'error'],
  ],
  (x) => [
    `function f(o) {\n  o.p = new Proxy({ a: 1, x: ${x} }, ${lie("'a'", '2')});\n  return 0;\n}\n`,
    'const o = {};\n  f(o);\n  assert.strictEqual(o.p.a, 1);',
  ],
  // (Puts a plain object in its own place while the snapshot reads it: red-team rt72 K46-K55.)
  (x) => [
    `function f() {\n  const r = {};\n  r.inner = new Proxy({ n: 1, x: ${x} }, {\n    get(t, k) { return k === 'n' ? 2 : t[k]; },\n    ownKeys(t) { r.inner = { n: 1 }; return Reflect.ownKeys(t); },\n  });\n  return r;\n}\n`,
    'assert.strictEqual(f().inner.n, 1);',
  ],
  // (Poses as an engine iterator through its getPrototypeOf trap: rt72 K07.)
  (x) => [
    `function f() {\n  return new Proxy({ x: ${x} }, { getPrototypeOf() { return Object.getPrototypeOf([][Symbol.iterator]()); } });\n}\n`,
    "assert.strictEqual(typeof f().next, 'function');",
  ],
  // (A revoked Proxy made reading it throw, taken for the program's own throw: rt72 K26, K57.)
  (x) => [
    `function f() {\n  const r = Proxy.revocable({ x: ${x} }, {});\n  r.revoke();\n  return r.proxy;\n}\n`,
    'assert.throws(() => f());',
  ],
  // (The refusal of a callback's argument, caught by the program: rt72 K05, K59.)
  (x) => [
    `function f(cb) {\n  try {\n    cb(new Proxy({ x: ${x} }, {}));\n  } catch {}\n  return 1;\n}\n`,
    'let seen;\n  assert.strictEqual(f((o) => { seen = o; }), 1);\n  assert.strictEqual(seen, undefined);',
    ['fail', 'error'],
  ],
  // (Written into the tests' argument after an await; its refusal was dropped: rt72 K15.)
  (x) => [
    `async function f(o) {\n  await null;\n  o.extra = new Proxy({ x: ${x} }, {});\n}\n`,
    "const o = { a: 1 };\n  return f(o).then(() => assert.deepStrictEqual(Object.keys(o), ['a']));",
    ['fail', 'error'],
  ],
  // (The engine's TypeError's Symbol.hasInstance, run by an instanceof in the check: rt72 K20.)
  (x) => [
    `class Box {\n  constructor() {\n    this.v = 'wrong';\n    this.x = ${x};\n  }\n}\nObject.freeze(Box.prototype);\nfunction f() {\n  const b = new Box();\n  Object.defineProperty(TypeError, Symbol.hasInstance, { value: () => { b.v = 'right'; return true; } });\n  return b;\n}\n`,
    "assert.strictEqual(f().v, 'right');",
  ],
  // Program code run while reading a value, other than a Proxy's trap (red-team rt73): a RegExp
  // subclass's flag getter (M01-M37), a Proxy above a builtin's prototype (M05-M29), a Proxy as
  // the constructor a class label is read from (M11-M39), an error's `name` getter (M08-M33).
  (x) => [
    `class R extends RegExp {\n  get global() {\n    fix.x = 2;\n    return false;\n  }\n}\nconst fix = { x: 1, o: ${x} };\nfunction f() {\n  return [new R('a'), fix];\n}\n`,
    'assert.strictEqual(f()[1].x, 2);',
  ],
  (x) => [
    `class R extends RegExp {\n  get global() {\n    return true;\n  }\n}\nfunction f() {\n  return [new R('a'), ${x}];\n}\n`,
    "const r = f()[0];\n  r.exec('aa');\n  assert.strictEqual(r.lastIndex, 1);",
  ],
  (x) => [
    `const fix = { x: 1, o: ${x} };\nfunction f() {\n  Object.setPrototypeOf(Date.prototype, new Proxy(Object.prototype, { getOwnPropertyDescriptor(t, k) { fix.x = 2; return Reflect.getOwnPropertyDescriptor(t, k); } }));\n  return [new Date(5), fix];\n}\n`,
    'assert.strictEqual(f()[1].x, 2);',
  ],
  (x) => [
    `class A {\n  constructor() {\n    this.o = ${x};\n  }\n}\nconst fix = { x: 1 };\nfunction f() {\n  A.prototype.constructor = new Proxy(A, { getOwnPropertyDescriptor(t, k) { fix.x = 2; return Reflect.getOwnPropertyDescriptor(t, k); } });\n  return [new A(), fix];\n}\n`,
    'assert.strictEqual(f()[1].x, 2);',
  ],
  (x) => [
    `const seen = { n: 0 };\nclass E extends Error {\n  constructor(m) {\n    super(m);\n    this.o = ${x};\n  }\n  get name() {\n    seen.n += 1;\n    return 'E';\n  }\n}\nfunction f(v) {\n  if (v === 0) throw new E('x');\n  return seen.n > 0 ? 2 * v : v;\n}\n`,
    'assert.throws(() => f(0), Error);\n  assert.strictEqual(f(2), 4);',
  ],
];

/** Honest under Node: answers holding a function, symbol or promise beside data, in every shape the check meets. */
const HONEST: readonly Row[] = [
  (x) => [
    `function f() {\n  return { a: 1, x: ${x} };\n}\n`,
    "const r = f();\n  assert.strictEqual(r.a, 1);\n  assert.deepStrictEqual(Object.keys(r), ['a', 'x']);",
  ],
  // (The check gives an ordinary object a `stack` for the moment: one of its own stays as it was.)
  (x) => [
    `function f() {\n  return { stack: 's', a: 1, x: ${x} };\n}\n`,
    "const r = f();\n  assert.deepStrictEqual(Object.keys(r), ['stack', 'a', 'x']);\n  assert.strictEqual(r.stack, 's');",
  ],
  (x) => [
    `function f() {\n  const o = { a: 1, x: ${x} };\n  Object.defineProperty(o, 'stack', { value: 'k', enumerable: true });\n  return o;\n}\n`,
    "assert.deepStrictEqual(Object.getOwnPropertyDescriptor(f(), 'stack'), { value: 'k', writable: false, enumerable: true, configurable: false });",
  ],
  (x) => [
    `function f() {\n  const o = { a: 1, x: ${x} };\n  Object.defineProperty(o, 'stack', { value: 'h', writable: true, configurable: true });\n  o.b = 2;\n  return o;\n}\n`,
    "const r = f();\n  assert.deepStrictEqual(Object.getOwnPropertyNames(r), ['a', 'x', 'stack', 'b']);\n  assert.strictEqual(r.stack, 'h');\n  assert.deepStrictEqual(Object.keys(r), ['a', 'x', 'b']);",
  ],
  (x) => [
    `function f() {\n  return Object.freeze({ a: 1, x: ${x} });\n}\n`,
    'const r = f();\n  assert.ok(Object.isFrozen(r));\n  assert.strictEqual(r.a, 1);',
  ],
  (x) => [
    `function f() {\n  return Object.seal({ stack: 1, x: ${x} });\n}\n`,
    'const r = f();\n  assert.ok(Object.isSealed(r));\n  assert.strictEqual(r.stack, 1);',
  ],
  (x) => [
    `function f() {\n  return Object.preventExtensions({ a: 1, x: ${x} });\n}\n`,
    "const r = f();\n  assert.ok(!Object.isExtensible(r));\n  assert.deepStrictEqual(Object.getOwnPropertyNames(r), ['a', 'x']);",
  ],
  (x) => [
    `class A {}\nclass B extends A {}\nclass C extends B {\n  constructor() {\n    super();\n    this.a = 1;\n    this.x = ${x};\n  }\n}\nfunction f() {\n  return new C();\n}\n`,
    "const r = f();\n  assert.strictEqual(r.a, 1);\n  assert.deepStrictEqual(Object.keys(r), ['a', 'x']);",
  ],
  (x) => [
    `function f() {\n  let p = {};\n  for (let i = 0; i < 20; i++) p = Object.create(p);\n  const o = Object.create(p);\n  o.a = 1;\n  o.x = ${x};\n  return o;\n}\n`,
    'assert.strictEqual(f().a, 1);',
  ],
  (x) => [
    `function f() {\n  const r = [1, ${x}];\n  r.stack = 2;\n  return r;\n}\n`,
    'const r = f();\n  assert.strictEqual(r[0], 1);\n  assert.strictEqual(r.stack, 2);\n  assert.strictEqual(r.length, 2);',
  ],
  (x) => [`function f() {\n  return new Map([['k', { v: 1, x: ${x} }]]);\n}\n`, "assert.strictEqual(f().get('k').v, 1);"],
  (x) => [
    `function f(o) {\n  o.fn = ${x};\n  o.n = 1;\n  return o.n;\n}\n`,
    "const o = { stack: 0 };\n  assert.strictEqual(f(o), 1);\n  assert.strictEqual(o.n, 1);\n  assert.deepStrictEqual(Object.keys(o), ['stack', 'fn', 'n']);",
  ],
  (x) => [
    `function f() {\n  return Object.freeze([1, ${x}]);\n}\n`,
    'const r = f();\n  assert.ok(Object.isFrozen(r));\n  assert.strictEqual(r[0], 1);',
  ],
  (x) => [`function f(cb) {\n  return cb({ a: 1, stack: 3, x: ${x} });\n}\n`, 'assert.strictEqual(f((o) => o.a + o.stack), 4);'],
  // (A deep chain of class instances each holding one: checked once each, after the reading, at any depth.)
  (x) => [
    `class N {\n  constructor(v, next) {\n    this.v = v;\n    this.next = next;\n    this.x = ${x};\n  }\n}\nfunction f() {\n  let h = null;\n  for (let i = 0; i < 400; i++) h = new N(i, h);\n  return h;\n}\n`,
    'let n = 0;\n  for (let p = f(); p; p = p.next) n++;\n  assert.strictEqual(n, 400);',
  ],
  (x) => [
    `function f() {\n  const o = { a: 1, x: ${x} };\n  Error.captureStackTrace(o);\n  return o;\n}\n`,
    'assert.strictEqual(f().a, 1);',
  ],
  (x) => [
    `function f() {\n  Object.defineProperty(TypeError, Symbol.hasInstance, { value: () => { throw new Error('hook ran'); } });\n  return Object.freeze({ a: 1, x: ${x} });\n}\n`,
    'assert.strictEqual(f().a, 1);',
  ],
  // (An error whose cause holds one; an old-style class over a captured prototype; a RegExp subclass.)
  (x) => [
    `function f() {\n  throw new TypeError('bad', { cause: { check: () => 1, o: ${x} } });\n}\n`,
    'assert.throws(() => f(), TypeError);',
  ],
  (x) => [
    `function Base() {\n  Error.captureStackTrace(this);\n}\nfunction Thing(v) {\n  this.v = v;\n}\nThing.prototype = new Base();\nThing.prototype.get = function () {\n  return this.v;\n};\nfunction f() {\n  const t = new Thing(5);\n  t.o = ${x};\n  return t;\n}\n`,
    'assert.strictEqual(f().v, 5);',
  ],
  (x) => [
    `class R extends RegExp {}\nfunction f() {\n  return [new R('a', 'gi'), ${x}];\n}\n`,
    "assert.strictEqual(f()[0].flags, 'gi');",
  ],
  // (A typed-array subclass: its chain passes the harness's own watched constructor, a Proxy.)
  (x) => [
    `class F extends Float64Array {\n  sum() {\n    return 0;\n  }\n}\nfunction f() {\n  return [new F(3), ${x}];\n}\n`,
    'assert.strictEqual(f()[0].length, 3);',
  ],
];

// (A test returning a promise fails its file, as under Node, when the promise rejects.)
const tests = (check: string) =>
  `${JS_ASSERT}function test() {\n  ${check}\n}\nPromise.resolve(test()).catch((e) => {\n  process.exitCode = 1;\n  throw e;\n});\n`;

const cases = (n: number, rows: readonly Row[], expect: 'pass' | 'fail'): AdversarialCase[] =>
  grid(n, rows, OPAQUE, (make, x) => {
    const [completion, check, statuses] = make(x);
    return { completion, tests: tests(check), expect: [...(statuses ?? [expect])] };
  });

export const generators = [
  defineGenerator({
    name: 'js-lying-proxies',
    language: 'javascript',
    about:
      'a Proxy holding a function, symbol or promise, or on a prototype, whose traps lie to the tests under Node: refused (fail)',
    cases: () => cases(75, LYING, 'fail'),
  }),
  defineGenerator({
    name: 'js-lying-proxies-honest',
    language: 'javascript',
    about: 'controls: answers holding a function, symbol or promise beside data, with or without their own `stack`, pass',
    cases: () => cases(63, HONEST, 'pass'),
  }),
];
