/**
 * Legitimate programs must pass: the sandbox provides the language, `assert` and `console`
 * exactly as tests need them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, js, testExecutor } from './helpers.ts';

const PROGRAMS: Record<string, string> = {
  classes: `class Animal { #name; static count = 0; static { this.kind = 'animal'; }
  constructor(n) { this.#name = n; Animal.count++; } get name() { return this.#name; } speak() { return this.#name + ' speaks'; } }
class Dog extends Animal { speak() { return super.speak() + ' woof'; } }
assert.strictEqual(new Dog('rex').speak(), 'rex speaks woof');
assert.strictEqual(Animal.count, 1);
assert.strictEqual(Animal.kind, 'animal');
assert.ok(new Dog('a') instanceof Animal);`,
  mapSet: `const m = new Map([[1, 'a'], ['k', { v: 2 }]]); m.set(NaN, 3);
assert.strictEqual(m.get(NaN), 3);
assert.deepEqual([...m.keys()], [1, 'k', NaN]);
const s = new Set([3, 1, 3, 2]);
assert.deepStrictEqual([...s].sort(), [1, 2, 3]);
assert.deepEqual(new Map([[1, { a: [1] }]]), new Map([[1, { a: ['1'] }]]));
const wm = new WeakMap(); const key = {}; wm.set(key, 1); assert.strictEqual(wm.get(key), 1);`,
  bigint: `const f = (n) => (n <= 1n ? 1n : n * f(n - 1n));
assert.strictEqual(f(25n), 15511210043330985984000000n);
assert.strictEqual(2n ** 64n, 18446744073709551616n);
assert.strictEqual(BigInt.asUintN(8, 257n), 1n);
assert.deepEqual([1n, 2n], [1n, 2n]);`,
  regex: `const re = /(?<y>\\d{4})-(?<m>\\d{2})/u;
assert.strictEqual('on 2024-05'.match(re).groups.y, '2024');
assert.deepStrictEqual('a1b22c333'.match(/\\d+/g), ['1', '22', '333']);
assert.strictEqual('a-b_c'.replace(/[-_]/g, ' '), 'a b c');
assert.deepStrictEqual([...'x1y2'.matchAll(/\\d/g)].map((m) => m.index), [1, 3]);
assert.ok(/^\\p{L}+$/u.test('héllo'));
assert.strictEqual('aaa'.replaceAll('a', 'b'), 'bbb');`,
  json: `const o = { a: [1, { b: null }], s: 'x"y', n: 1.5 };
assert.deepStrictEqual(JSON.parse(JSON.stringify(o)), o);
assert.strictEqual(JSON.stringify({ b: 1, a: [true] }, null, 1), '{\\n "b": 1,\\n "a": [\\n  true\\n ]\\n}');
assert.throws(() => JSON.parse('{bad'), SyntaxError);`,
  newFunction: `const add = new Function('a', 'b', 'return a + b');
assert.strictEqual(add(2, 3), 5);
assert.strictEqual(eval('[1, 2, 3].length'), 3);
assert.strictEqual((0, eval)('typeof globalThis'), 'object');
assert.strictEqual(Function('return this')(), globalThis);`,
  consoleLog: `console.log('hello', 42, [1, 'two', { three: 3 }], null, undefined, true);
console.log('%s is %d years', 'Bob', 42);
console.error('to stderr');
console.log(new Map([['a', 1]]), new Set([1]), { nested: { deep: { deeper: { deepest: 1 } } } });
assert.ok(true);`,
  asyncAwait: `async function slowAdd(a, b) { await null; await Promise.resolve(); return a + b; }
async function test() {
  assert.strictEqual(await slowAdd(1, 2), 3);
  const all = await Promise.all([slowAdd(1, 1), slowAdd(2, 2)]);
  assert.deepStrictEqual(all, [2, 4]);
  await assert.rejects(Promise.reject(new RangeError('r')), RangeError);
}
test();`,
  generatorsAndIterators: `function* range(n) { for (let i = 0; i < n; i++) yield i; }
assert.deepStrictEqual([...range(4)], [0, 1, 2, 3]);
const it = { from: 1, to: 3, [Symbol.iterator]() { let c = this.from, t = this.to; return { next: () => (c <= t ? { value: c++, done: false } : { value: undefined, done: true }) }; } };
assert.deepStrictEqual(Array.from(it), [1, 2, 3]);`,
  modernSyntax: `const { a, ...rest } = { a: 1, b: 2, c: 3 };
assert.deepStrictEqual(rest, { b: 2, c: 3 });
assert.strictEqual(undefined?.x ?? 'dflt', 'dflt');
assert.deepStrictEqual([[1, [2]], [3]].flat(Infinity), [1, 2, 3]);
assert.deepStrictEqual(Object.fromEntries(Object.entries({ x: 1 }).map(([k, v]) => [k, v * 2])), { x: 2 });
assert.strictEqual(\`\${1 + 1}px\`, '2px');
assert.strictEqual([5, 1, 10].sort((p, q) => p - q).at(-1), 10);`,
  mathDateString: `assert.strictEqual(Math.max(...[1, 9, 3]), 9);
assert.strictEqual(Math.hypot(3, 4), 5);
assert.strictEqual(new Date(Date.UTC(2020, 0, 2)).toISOString(), '2020-01-02T00:00:00.000Z');
assert.strictEqual('Hello'.padStart(7, '*').toUpperCase(), '**HELLO');
assert.strictEqual((1234.5678).toFixed(2), '1234.57');
assert.strictEqual(parseInt('ff', 16), 255);`,
  recursionAndArguments: `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
assert.strictEqual(fib(20), 6765);
function sum() { let s = 0; for (let i = 0; i < arguments.length; i++) s += arguments[i]; return s; }
assert.strictEqual(sum(1, 2, 3), 6);`,
  proxyReflect: `const p = new Proxy({}, { get: (t, k) => (k === 'x' ? 42 : Reflect.get(t, k)) });
assert.strictEqual(p.x, 42);
assert.deepStrictEqual(Reflect.ownKeys({ a: 1, [Symbol.for('s')]: 2 }).length, 2);`,
  errorsAndThrows: `class ValidationError extends Error { constructor(m) { super(m); this.name = 'ValidationError'; } }
function check(x) { if (x < 0) throw new ValidationError('negative'); return x; }
assert.throws(() => check(-1), ValidationError);
assert.throws(() => check(-1), { name: 'ValidationError', message: 'negative' });
assert.doesNotThrow(() => check(1));
try { null.f(); } catch (e) { assert.ok(e instanceof TypeError); }`,
  moduleExports: `function solve(x) { return x * 2; }
module.exports = { solve };
assert.strictEqual(module.exports.solve(2), 4);`,
  multiplEStyle: `//Return the sum of a list
function sum_list(lst){
  return lst.reduce((a, b) => a + b, 0);
}

const assert = require('node:assert');

function test() {
  let candidate = sum_list;
  assert.deepEqual(candidate([1, 2, 3]),6);
  assert.deepEqual(candidate([]),0);
  assert.deepEqual(candidate([-1, 1]),0);
}

test();`,
};

describe('legitimate programs pass', () => {
  const ex = testExecutor({ timeoutMs: 10_000 });
  afterAll(() => ex.close());

  it('runs the language features tests need', async () => {
    const ids = Object.keys(PROGRAMS);
    const results = await ex.run(ids.map((id) => js(id, id === 'multiplEStyle' ? PROGRAMS[id]! : ASSERT + PROGRAMS[id]!)));
    for (const r of results) {
      expect(r.status, `${r.id}: ${JSON.stringify(r)}`).toBe('pass');
      expect(r.passed, r.id).toBeGreaterThan(0);
      expect(r.passed, r.id).toBe(r.total);
      expect(r.error, r.id).toBeUndefined();
      expect(r.ms, r.id).toBeGreaterThan(0);
    }
    expect(results.find((r) => r.id === 'multiplEStyle')!.passed).toBe(3);
  });

  it('captures console output in order, formatted like Node', async () => {
    const [r] = await ex.run([js('log', ASSERT + PROGRAMS.consoleLog!)]);
    expect(r!.stdout).toBe(
      "hello 42 [ 1, 'two', { three: 3 } ] null undefined true\n" +
        'Bob is 42 years\n' +
        'to stderr\n' +
        "Map(1) { 'a' => 1 } Set(1) { 1 } { nested: { deep: { deeper: [Object] } } }\n",
    );
  });

  it('a failing test reports the assertion message and counts', async () => {
    const [r] = await ex.run([
      js('f', `${ASSERT}assert.deepEqual([1, 2], [1, 2]);\nassert.deepEqual({ a: 1 }, { a: 2 });\nassert.ok(true);`),
    ]);
    expect(r!.status).toBe('fail');
    expect(r!.passed).toBe(1);
    expect(r!.total).toBe(2);
    expect(r!.error).toBe('Expected values to be loosely deep-equal:\n\n{ a: 1 }\n\nshould loosely deep-equal\n\n{ a: 2 }');
  });

  it('runs tests given separately after the solution', async () => {
    const [ok, bad, syntax] = await ex.run([
      js('ok', 'function inc(x) {\n  return x + 1;\n}\n', `${ASSERT}assert.deepEqual(inc(1), 2);`),
      js('bad', 'function inc(x) {\n  return x;\n}\n', `${ASSERT}assert.deepEqual(inc(1), 2);`),
      js('syntax', 'function inc(x) {\n  return x + 1;\n}\n', `${ASSERT}assert.deepEqual(inc(1), 2`),
    ]);
    expect([ok!.status, bad!.status, syntax!.status]).toEqual(['pass', 'fail', 'syntax_error']);
  });
});

describe('console.log formatting matches util.format for common values', () => {
  const ex = testExecutor({ timeoutMs: 10_000, workers: 1 });
  afterAll(() => ex.close());

  const VALUES = [
    `'plain', 1, -0, 2.5, 10n, true, null, undefined`,
    `[1, 'two', [3, [4, [5, [6]]]]]`,
    `{ a: 1, 'b-c': 'x', nested: { arr: [1, 2], s: "it's" } }`,
    `["it's", 'a"b', 'plain']`,
    `new Map([['k', [1]], [2, { v: true }]]), new Set(['s', 1])`,
    `Object.create(null), Object.assign(Object.create(null), { x: 1 })`,
    `new (class Point { constructor() { this.x = 1; this.y = 2; } })()`,
    `function named() {}, () => {}, class K {}`,
    `Symbol('s'), [Symbol.iterator]`,
    `new Date(0), /re+/gi`,
    `[1, , 3], []`,
    `'%s=%d', 'n', 42, 'extra'`,
    `'%j', { j: [1] }`,
    `{ long: 'x'.repeat(30), longer: 'y'.repeat(30), longest: 'z'.repeat(30) }`,
  ];

  it('prints what Node prints', async () => {
    const { format } = await import('node:util');
    const expected = VALUES.map((v) => format(...(new Function(`return [${v}];`)() as unknown[])) + '\n').join('');
    const [r] = await ex.run([js('fmt', `${ASSERT}${VALUES.map((v) => `console.log(${v});`).join('\n')}\nassert.ok(true);`)]);
    expect(r!.status).toBe('pass');
    expect(r!.stdout).toBe(expected);
  });
});
