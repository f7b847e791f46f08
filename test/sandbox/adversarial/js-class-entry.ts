/**
 * JavaScript: a class as the entry point (`new Stack()` in the tests). `new` of it is a construct
 * operation run in the program realm; the instance stays there and the tests hold a handle whose
 * property reads and method calls forward, their values crossing as snapshots. Honest classes
 * pass (they failed with "Class constructor cannot be invoked without 'new'"); hostile ones —
 * a constructor returning a Proxy or an always-equal object, a getter that changes over time,
 * `Symbol.hasInstance`, a constructor patching globals — are decided on snapshots only.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Honest stacks (the entry point `Stack`), written in several styles. */
const STACKS: string[] = [
  'class Stack {\n  constructor(items = []) { this.items = [...items]; }\n  push(x) { this.items.push(x); return this; }\n  pop() { return this.items.pop(); }\n  get size() { return this.items.length; }\n  toArray() { return [...this.items]; }\n  static fromArray(a) { return new Stack(a); }\n}\n',
  'class Stack {\n  #a;\n  constructor(items = []) { this.#a = items.slice(); }\n  push(x) { this.#a.push(x); return this; }\n  pop() { return this.#a.pop(); }\n  get size() { return this.#a.length; }\n  toArray() { return this.#a.slice(); }\n  static fromArray(a) { const s = new Stack(); for (const x of a) s.push(x); return s; }\n}\n',
  'class Base {\n  constructor() { this.items = []; }\n  get size() { return this.items.length; }\n}\nclass Stack extends Base {\n  constructor(items = []) { super(); for (const x of items) this.items.push(x); }\n  push(x) { this.items.push(x); return this; }\n  pop() { return this.items.pop(); }\n  toArray() { return this.items.concat(); }\n  static fromArray(a) { return new this(a); }\n}\n',
  'class Stack {\n  constructor(items = []) { this.head = null; this.n = 0; for (const x of items) this.push(x); }\n  push(x) { this.head = { x, next: this.head }; this.n++; return this; }\n  pop() { const h = this.head; this.head = h.next; this.n--; return h.x; }\n  get size() { return this.n; }\n  toArray() { const out = []; for (let h = this.head; h; h = h.next) out.unshift(h.x); return out; }\n  static fromArray(a) { return new Stack(a); }\n}\n',
];

/** What the tests check (all hold for an honest stack). */
const CHECKS: string[] = [
  'const s = new Stack();\ns.push(1);\ns.push(2);\nassert.deepStrictEqual(s.toArray(), [1, 2]);\nassert.strictEqual(s.pop(), 2);\nassert.strictEqual(s.size, 1);\n',
  'const s = new Stack([4, 5]);\nassert.strictEqual(s.size, 2);\nassert.strictEqual(s.pop(), 5);\nassert.strictEqual(s.pop(), 4);\nassert.strictEqual(s.size, 0);\n',
  'const s = Stack.fromArray([1, 2, 3]);\nassert.strictEqual(s.pop(), 3);\nassert.deepStrictEqual(s.toArray(), [1, 2]);\n',
  'const s = new Stack();\nassert.ok(s instanceof Stack);\nassert.ok(Stack.fromArray([1]) instanceof Stack);\nassert.strictEqual(s.push(7), s);\nassert.strictEqual(s.size, 1);\n',
  'const s = new Stack([1]).push(2).push(3);\nassert.deepStrictEqual(s.toArray(), [1, 2, 3]);\nassert.notStrictEqual(new Stack(), s);\n',
];

const honest = defineGenerator({
  name: 'js-class-entry-honest',
  language: 'javascript',
  about: 'control: a class entry point (new, methods, getter, static factory, instanceof) passes',
  cases: () =>
    grid(20, STACKS, CHECKS, (stack, check) => ({
      completion: stack,
      tests: `${JS_ASSERT}${check}`,
      expect: ['pass'],
      note: check.split('\n')[0],
    })),
});

/** Hostile classes `Stack`: none holds [1, 2] after pushing 1 and 2, yet each tries to look so. */
const HOSTILE: string[] = [
  // The constructor returns a Proxy that answers everything.
  'class Stack {\n  constructor() {\n    const f = () => p;\n    const p = new Proxy(f, { get: () => f, apply: () => p });\n    return new Proxy({}, { get: () => () => p, getPrototypeOf: () => Stack.prototype });\n  }\n}\n',
  // toArray answers an always-equal Proxy.
  'class Stack {\n  push() { return this; }\n  pop() { return 2; }\n  get size() { return 1; }\n  toArray() { return new Proxy([], { get: (t, k) => (k === "length" ? 2 : k === "0" ? 1 : k === "1" ? 2 : Reflect.get(t, k)), ownKeys: () => ["0", "1", "length"], getOwnPropertyDescriptor: (t, k) => (k === "length" ? Reflect.getOwnPropertyDescriptor(t, k) : { value: Number(k) + 1, writable: true, enumerable: true, configurable: true }) }); }\n}\n',
  // toArray answers an array whose elements are getters counting up.
  'class Stack {\n  push() { return this; }\n  pop() { return 2; }\n  get size() { return 1; }\n  toArray() { let n = 0; const a = []; Object.defineProperty(a, 0, { get: () => ++n, enumerable: true }); Object.defineProperty(a, 1, { get: () => 2, enumerable: true }); return a; }\n}\n',
  // A getter that changes over time (right on its first read only), and toArray with own valueOf.
  'let reads = 0;\nclass Stack {\n  push() { return this; }\n  pop() { return reads++ === 0 ? 2 : 0; }\n  get size() { return reads++ === 0 ? 1 : 9; }\n  toArray() { const a = [1, 3]; a.valueOf = () => [1, 2]; return a; }\n}\n',
  // Symbol.hasInstance claims everything, toJSON/then on the answer.
  'class Stack {\n  static [Symbol.hasInstance]() { return true; }\n  push() { return this; }\n  pop() { return 2; }\n  get size() { return 1; }\n  toArray() { return { then(r) { r([1, 2]); } }; }\n}\n',
  // The constructor patches globals (the program realm\'s): the tests realm is untouched.
  'class Stack {\n  constructor() {\n    Object.is = () => true;\n    Array.prototype.push = function () { return 0; };\n    JSON.stringify = () => "[1,2]";\n    globalThis.assert = { deepStrictEqual() {}, strictEqual() {}, ok() {} };\n  }\n  push() { return this; }\n  pop() { return 0; }\n  get size() { return 0; }\n  toArray() { return [2, 1]; }\n}\n',
  // NaN where numbers are expected (the tests never mention NaN).
  'class Stack {\n  push() { return this; }\n  pop() { return NaN; }\n  get size() { return NaN; }\n  toArray() { return [NaN, NaN]; }\n}\n',
];

/** One check each, which only the right data (`[1, 2]`, size 2) passes; `{}` is no `Stack`. */
const HOSTILE_CHECKS: string[] = [
  'const s = new Stack();\ns.push(1);\ns.push(2);\nassert.deepStrictEqual(s.toArray(), [1, 2]);\n',
  'const s = new Stack();\ns.push(1);\ns.push(2);\nassert.deepStrictEqual({ n: s.size, a: s.toArray() }, { n: 2, a: [1, 2] });\n',
  'const s = new Stack();\ns.push(1).push(2);\nassert.ok(!({} instanceof Stack) && s.toArray().length === 2 && s.toArray()[1] === 2);\n',
];

const hostile = defineGenerator({
  name: 'js-class-entry-hostile',
  language: 'javascript',
  about: 'a hostile class entry point (Proxy, getters, hasInstance, patched globals, NaN): never a pass',
  cases: () =>
    grid(21, HOSTILE, HOSTILE_CHECKS, (stack, check) => ({
      completion: stack,
      tests: `${JS_ASSERT}${check}`,
      expect: ['fail', 'error', 'timeout'],
      maxPassed: 0,
      note: `${stack.split('\n')[0]} / ${check.split('\n')[3] ?? ''}`,
    })),
});

export const generators = [honest, hostile];
