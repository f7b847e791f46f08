/**
 * JavaScript (red-team rt69 JA13, JA30, JA45, JC10): own properties under symbol keys, or not
 * enumerable, and property attributes. They did not cross: a program tagging the tests' argument
 * with `Symbol.for('seen')`, or answering with an extra symbol-keyed or hidden property, passed
 * checks that fail under Node (`Object.getOwnPropertySymbols`, `Object.getOwnPropertyNames`,
 * `deepStrictEqual`, which compares own enumerable symbols), and an honest program tagging its
 * argument as asked failed. Now every own key crosses with its attributes (sandbox/snapshot.js,
 * `props`; a symbol that crosses back is the same symbol, `symbolNode`); a function under a
 * well-known symbol is a hook and refused, and a Proxy behind a function, a symbol or a hidden key
 * is still found (`roots`). Each case's expected status is what Node gives for the program and the
 * tests in one file (the refusals excepted: a hook or a Proxy is refused where Node would run it).
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/**
 * [program body, the tests' statements, the statuses expected when not just `fail`]. The tests run
 * as strict code (docs/sandbox.md, "Two realms"): their write to a non-writable property throws
 * (`error`) where Node's sloppy script ignores it and the next check fails.
 */
type Row = readonly [string, string, (readonly ('pass' | 'fail' | 'error')[])?];
const STRICT_WRITE = ['fail', 'error'] as const;

/** Symbol expressions a program can use; the registered and well-known ones are the same in every realm. */
const KEYS = ["Symbol.for('seen')", "Symbol('tag')", 'Symbol.toStringTag'] as const;

/** [program body (argument `o`, the tests' own object), the tests' statements]: wrong under Node. */
const WRONG_ARGUMENT: readonly ((k: string) => Row)[] = [
  (k) => [
    `o[${k}] = 'x';\n  return o.v;`,
    'assert.strictEqual(f(o), 7);\n  assert.strictEqual(Object.getOwnPropertySymbols(o).length, 1);',
  ],
  (k) => [
    `Object.defineProperty(o, ${k}, { value: 1 });\n  return o.v;`,
    'f(o);\n  assert.strictEqual(Reflect.ownKeys(o).length, 3);',
  ],
  (k) => [
    `o.hidden = ${k};\n  Object.defineProperty(o, 'hidden', { enumerable: false });\n  return o.v;`,
    'f(o);\n  assert.deepStrictEqual(Object.getOwnPropertyNames(o), ["v", "fixed"]);',
  ],
  () => [
    `Object.defineProperty(o, 'v', { enumerable: false });\n  return o.v;`,
    'assert.strictEqual(f(o), 7);\n  assert.deepStrictEqual(Object.keys(o), ["v"]);',
  ],
  () => [
    `Object.defineProperty(o, 'v', { writable: false });\n  return o.v;`,
    'f(o);\n  o.v = 9;\n  assert.strictEqual(o.v, 9);',
    STRICT_WRITE,
  ],
  () => [
    `delete o[Object.getOwnPropertySymbols(o)[0]];\n  return o.v;`,
    "assert.strictEqual(f(o), 7);\n  assert.strictEqual(o[MINE], 'mine');",
  ],
  () => [
    `o[Object.getOwnPropertySymbols(o)[0]] = 'theirs';\n  return o.v;`,
    "assert.strictEqual(f(o), 7);\n  assert.strictEqual(o[MINE], 'mine');",
  ],
];

/** [program body (returns the answer), the tests' check of `f()`]: wrong under Node. */
const WRONG_ANSWER: readonly ((k: string) => Row)[] = [
  (k) => [`return { a: 1, [${k}]: 2 };`, 'assert.deepStrictEqual(f(), { a: 1 });'],
  (k) => [`const r = [1, 2];\n  r[${k}] = 3;\n  return r;`, 'assert.deepStrictEqual(f(), [1, 2]);'],
  // (A Map's own `Symbol.toStringTag` holding a number is not compared by Node: a registered key instead.)
  (k) => [
    `const m = new Map([[1, 2]]);\n  m[${k === 'Symbol.toStringTag' ? "Symbol.for('k')" : k}] = 1;\n  return m;`,
    'assert.deepStrictEqual(f(), new Map([[1, 2]]));',
  ],
  () => [
    `const r = { a: 1 };\n  Object.defineProperty(r, 'secret', { value: 1 });\n  return r;`,
    'assert.deepStrictEqual(Object.getOwnPropertyNames(f()), ["a"]);',
  ],
  (k) => [
    `const r = [1];\n  Object.defineProperty(r, ${k}, { value: 2 });\n  return r;`,
    'assert.strictEqual(Reflect.ownKeys(f()).length, 2);',
  ],
  () => [
    `const r = { a: 1 };\n  Object.freeze(r);\n  return { box: r };`,
    'const b = f();\n  b.box.a = 2;\n  assert.strictEqual(b.box.a, 2);',
    STRICT_WRITE,
  ],
  () => [
    `const r = { a: 1 };\n  Object.defineProperty(r, 'a', { writable: false });\n  return r;`,
    'const b = f();\n  b.a = 2;\n  assert.strictEqual(b.a, 2);',
    STRICT_WRITE,
  ],
];

/** Values hooks and Proxies hide behind: refused. */
const REFUSED: readonly ((k: string) => Row)[] = [
  () => ['return { a: 1, [Symbol.iterator]: function* () { yield 1; } };', 'assert.deepStrictEqual([...f()], [1]);'],
  () => ['return { [Symbol.toPrimitive]: () => 3 };', 'assert.strictEqual(+f(), 3);'],
  (k) => [`return { s: ${k}, p: new Proxy([1, 2], {}) };`, 'assert.deepStrictEqual(f().p, [1, 2]);'],
  () => ['return { g: () => 1, p: new Proxy({ a: 1 }, {}) };', 'assert.deepStrictEqual(f().p, { a: 1 });'],
  (k) => [
    `const r = { a: 1 };\n  Object.defineProperty(r, ${k}, { value: new Proxy({}, {}) });\n  return r;`,
    'assert.strictEqual(f().a, 1);',
  ],
  () => [
    "const r = { a: 1 };\n  Object.defineProperty(r, 'h', { value: new Proxy([], {}) });\n  return r;",
    'assert.strictEqual(f().a, 1);',
  ],
  () => ['return new Map([[() => 1, new Proxy({}, {})]]);', 'assert.strictEqual(f().size, 1);'],
  (k) => [`const t = { a: 1, [${k}]: () => 2 };\n  return new Proxy(t, {});`, 'assert.strictEqual(f().a, 1);'],
  () => [
    "const t = { a: 1 };\n  Object.defineProperty(t, 'h', { value: [() => 1] });\n  return [new Proxy(t, {})];",
    'assert.strictEqual(f()[0].a, 1);',
  ],
  () => ['const x = { k: 1 };\n  return [x, new Proxy({ y: x }, {})];', 'assert.strictEqual(f()[0].k, 1);'],
  () => ["throw new Proxy(new RangeError('negative'), {});", 'assert.throws(() => f());'],
];

/** Honest programs (pass under Node): [program body (argument `o`), the tests' statements]. */
const HONEST: readonly ((k: string) => Row)[] = [
  (k) => [
    `o[${k}] = true;\n  return o.v;`,
    'assert.strictEqual(f(o), 7);\n  assert.strictEqual(Object.getOwnPropertySymbols(o).length, 2);',
  ],
  () => ["o[Symbol.for('seen')] = true;\n  return o.v;", "f(o);\n  assert.strictEqual(o[Symbol.for('seen')], true);"],
  () => [
    'o.n = 2;\n  return o.v;',
    "assert.strictEqual(f(o), 7);\n  assert.strictEqual(o[MINE], 'mine');\n  assert.strictEqual(o.n, 2);",
  ],
  () => ['return o[Object.getOwnPropertySymbols(o)[0]];', "assert.strictEqual(f(o), 'mine');"],
  () => [
    'return { [o.key]: o.v };',
    'const r = f({ key: MINE, v: 3 });\n  assert.strictEqual(r[MINE], 3);\n  assert.deepStrictEqual(r, { [MINE]: 3 });',
  ],
  () => [
    'return o;',
    'assert.strictEqual(f(o), o);\n  assert.strictEqual(o[MINE], "mine");\n  assert.strictEqual(o.fixed, "F");',
  ],
  () => [
    "const r = { a: 1 };\n  Object.defineProperty(r, 'note', { value: 'x' });\n  return r;",
    "const r = f(o);\n  assert.deepStrictEqual(r, { a: 1 });\n  assert.strictEqual(r.note, 'x');",
  ],
  (k) => [`return { a: 1, [${k}]: 'T' };`, 'assert.strictEqual(Object.getOwnPropertySymbols(f(o)).length, 1);'],
  () => [
    "return { [Symbol.toStringTag]: 'Thing' };",
    "assert.strictEqual(Object.prototype.toString.call(f(o)), '[object Thing]');",
  ],
  () => ["return { a: 1, [Symbol.for('k')]: 2 };", "assert.deepStrictEqual(f(o), { a: 1, [Symbol.for('k')]: 2 });"],
  () => [
    'o.v += 1;\n  return o.v;',
    "assert.strictEqual(f(o), 8);\n  assert.strictEqual(o.fixed, 'F');\n  assert.strictEqual(o.v, 8);",
  ],
  () => ["o.fixed = 'G';\n  return o.fixed;", "assert.strictEqual(f(o), 'F');\n  assert.strictEqual(o.fixed, 'F');"],
  () => [
    "return new Error('m', { cause: o.v });",
    'const e = f(o);\n  assert.strictEqual(e.cause, 7);\n  assert.deepStrictEqual(Object.keys(e), []);',
  ],
  () => [
    'return Object.freeze({ a: [o.v] });',
    'const r = f(o);\n  assert.ok(Object.isFrozen(r));\n  r.a.push(2);\n  assert.deepStrictEqual(r.a, [7, 2]);',
  ],
  () => [
    "const r = [3, 1, 2];\n  Object.defineProperty(r, 'sorted', { value: false });\n  return r;",
    'const r = f(o);\n  assert.deepStrictEqual(r, [3, 1, 2]);\n  assert.strictEqual(r.sorted, false);',
  ],
  () => ['return [() => 1, { a: [o.v, { b: 2 }] }];', 'assert.deepStrictEqual(f(o)[1], { a: [7, { b: 2 }] });'],
  (k) => [
    `const t = { a: o.v, [${k}]: () => 2 };\n  Object.defineProperty(t, 'h', { value: [() => 1, { x: 1 }] });\n  return [t, t, { t }];`,
    'const r = f(o);\n  assert.strictEqual(r[0].a, 7);\n  assert.strictEqual(r[2].t.h[1].x, 1);',
  ],
  () => [
    'const shared = { n: o.v };\n  return { fn: () => shared.n, first: shared, again: [shared] };',
    'const r = f(o);\n  assert.strictEqual(r.first, r.again[0]);\n  assert.strictEqual(r.fn(), 7);',
  ],
];

/** The tests' argument: a data key, their own symbol key, a non-configurable non-writable key. */
const SETUP =
  "const MINE = Symbol('mine');\n  const o = { v: 7, [MINE]: 'mine' };\n  Object.defineProperty(o, 'fixed', { value: 'F' });\n";
const program = (body: string) => `function f(o) {\n  ${body}\n}\n`;
const tests = (check: string) => `${JS_ASSERT}function test() {\n  ${SETUP}  ${check}\n}\ntest();\n`;

/** `n` cases over `rows` × KEYS, each expecting its row's statuses, else `expect`. */
const cases = (n: number, rows: readonly ((k: string) => Row)[], expect: 'pass' | 'fail'): AdversarialCase[] =>
  grid(n, rows, KEYS, (make, k) => {
    const [body, check, statuses] = make(k);
    return { completion: program(body), tests: tests(check), expect: [...(statuses ?? [expect])] };
  });

export const generators = [
  defineGenerator({
    name: 'js-hidden-keys',
    language: 'javascript',
    about:
      'wrong programs changing symbol-keyed, non-enumerable or non-writable properties of an argument or an answer: fail, as under Node',
    cases: () => [...cases(21, WRONG_ARGUMENT, 'fail'), ...cases(21, WRONG_ANSWER, 'fail')],
  }),
  defineGenerator({
    name: 'js-hidden-keys-refused',
    language: 'javascript',
    about: 'a function under a well-known symbol, or a Proxy behind a function, symbol or hidden key: refused',
    cases: () => cases(22, REFUSED, 'fail'),
  }),
  defineGenerator({
    name: 'js-hidden-keys-honest',
    language: 'javascript',
    about: 'controls: honest programs reading or setting symbol-keyed and non-enumerable properties pass',
    cases: () => cases(36, HONEST, 'pass'),
  }),
];
