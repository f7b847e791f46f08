/**
 * JavaScript generators: completion must be observed (every promise and async call of the tests
 * finishes), counts are of assertion sites, time is virtual and seeded, and answers that lie about
 * themselves never pass.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT as ASSERT, variants } from './framework.ts';

/** Ways a wrong async answer can avoid ever being checked. */
export const NEVER = [
  'return new Promise(() => {});',
  'return { then() {} };',
  'return new Promise((r) => { if (false) r(x * 2); });',
  'await new Promise(() => {});\n  return x * 2;',
];

/** Test shapes in which an unfinished check must not be read as done. */
export const SHAPES: Array<(call: (x: number) => string) => string> = [
  // Two async test functions, the second never finishes.
  (c) =>
    `async function t1() {\n  assert.strictEqual(2, 2);\n}\nasync function t2() {\n  assert.strictEqual(await ${c(3)}, 6);\n}\nt1();\nt2();\n`,
  // forEach(async ...)
  (c) => `assert.ok(true);\n[1, 2, 3].forEach(async (x) => {\n  assert.strictEqual(await ${c(1)}, 2);\n});\n`,
  // An async IIFE followed by another statement.
  (c) => `(async () => {\n  assert.strictEqual(await ${c(2)}, 4);\n})();\nassert.ok(true);\n`,
  // A then-callback on the answer.
  (c) => `assert.ok(true);\n${c(4)}.then((v) => assert.strictEqual(v, 8));\n`,
  // Promise.all of the answers, not returned.
  (c) => `assert.ok(true);\nPromise.all([${c(1)}, ${c(2)}]).then((v) => assert.deepStrictEqual(v, [2, 4]));\n`,
];

const unfinished = defineGenerator({
  name: 'js-tests-never-finish',
  language: 'javascript',
  about: 'a wrong async answer that never settles, placed where the tests do not await it',
  cases: () =>
    grid(20, NEVER, SHAPES, (never, shape, i) => {
      const needsAsync = never.includes('await');
      return {
        completion: `${needsAsync ? 'async ' : ''}function dbl(x) {\n  ${never}\n}\n`,
        tests: ASSERT + shape((x) => `dbl(${x})`),
        expect: ['fail', 'timeout', 'error'],
        note: `${never} / shape ${Math.floor(i / NEVER.length) % SHAPES.length}`,
      } satisfies AdversarialCase;
    }),
});

const rejectedUnobserved = defineGenerator({
  name: 'js-tests-unhandled-rejection',
  language: 'javascript',
  about: 'the answer throws inside an async test nobody awaits: an unhandled rejection, never a pass',
  cases: (rng) =>
    variants(20, (i) => {
      const shape = SHAPES[i % SHAPES.length]!;
      const kind = rng.pick(['TypeError', 'RangeError', 'Error']);
      const sync = i % 2 === 0;
      return {
        completion: sync
          ? `function dbl(x) {\n  return Promise.reject(new ${kind}('no'));\n}\n`
          : `async function dbl(x) {\n  throw new ${kind}('no');\n}\n`,
        tests: ASSERT + shape((x) => `dbl(${x})`),
        expect: ['fail', 'error'],
      };
    }),
});

const honestAsync = defineGenerator({
  name: 'js-honest-async',
  language: 'javascript',
  about: 'honest async solutions and tests (timers, several async tests, forEach(async)) pass',
  cases: (rng) =>
    variants(20, (i) => {
      const shape = SHAPES[i % SHAPES.length]!;
      const ms = rng.int(0, 5000);
      const flavour = Math.floor(i / SHAPES.length) % 4;
      const body =
        flavour === 0
          ? 'return x * 2;'
          : flavour === 1
            ? 'return Promise.resolve(x * 2);'
            : flavour === 2
              ? 'await null;\n  return x * 2;'
              : 'return await Promise.all([x]).then(([y]) => y * 2);';
      const tests =
        i % 3 === 0
          ? `${ASSERT}async function test() {\n  await new Promise((r) => setTimeout(r, ${ms}));\n  assert.strictEqual(await dbl(5), 10);\n}\ntest();\n`
          : ASSERT + shape((x) => `dbl(${x})`);
      return { completion: `async function dbl(x) {\n  ${body}\n}\n`, tests, expect: ['pass'] };
    }),
});

const siteCounts = defineGenerator({
  name: 'js-assertion-sites',
  language: 'javascript',
  about: 'a check in a loop (or a helper) counts once: a wrong answer cannot outweigh other sites',
  cases: (rng) =>
    variants(20, (i) => {
      const n = rng.int(50, 5000);
      const bad = rng.int(0, n - 1);
      const viaHelper = i % 2 === 1;
      const check = viaHelper
        ? `function check(x, y) {\n  assert.strictEqual(inc(x), y);\n}\nfor (let x = 0; x < ${n}; x++) check(x, x + 1);\n`
        : `for (let x = 0; x < ${n}; x++) assert.strictEqual(inc(x), x + 1);\n`;
      return {
        completion: `function inc(x) {\n  return x === ${bad} ? x : x + 1;\n}\n`,
        tests: `${ASSERT}assert.strictEqual(inc(-1), 0);\n${check}`,
        expect: ['fail'],
        // The site before the loop may pass; the loop's site failed (once is enough).
        maxPassed: 1,
      };
    }),
});

/** Time sources a program can read. */
const CLOCKS = [
  'Date.now()',
  'new Date().getTime()',
  'new Date().getMilliseconds()',
  'Number(new Intl.DateTimeFormat("en-US", { second: "numeric", fractionalSecondDigits: 3 }).format().replace(/\\D/g, ""))',
  'Date.parse(new Date().toISOString())',
  '(() => { const t = Date.now(); let k = 0; while (Date.now() - t < 3) k++; return k; })()',
  '(() => { const sab = new Int32Array(new SharedArrayBuffer(4)); const t = Date.now(); Atomics.wait(sab, 0, 0, 5); return Date.now() - t; })()',
  'Math.floor(Math.random() * 1e9)',
  '(() => { let k = 0; const end = Date.now() + 2; while (Date.now() < end) k++; return k; })()',
  'new Date().toString().length + new Date().getSeconds()',
];

const timeTwins = defineGenerator({
  name: 'js-time-determinism',
  language: 'javascript',
  about: 'answers derived from clocks and random sources: the same program gets the same verdict every run',
  cases: () =>
    variants(20, (i) => {
      const clock = CLOCKS[i % CLOCKS.length]!;
      const parity = i < CLOCKS.length ? 0 : 1;
      return {
        completion: `function coin() {\n  return (${clock}) % 2;\n}\n`,
        tests: `${ASSERT}function test() {\n  assert.strictEqual(coin(), ${parity});\n}\ntest();\n`,
        expect: ['pass', 'fail'],
        twin: true,
        note: clock,
      };
    }),
});

/** Wrong answers dressed to look right. */
const FORGERIES: Array<{ completion: string; tests: string; expect?: AdversarialCase['expect'] }> = [
  {
    completion: 'return new Proxy([], { get: (t, k) => (k === "length" ? 3 : 1) });',
    tests: 'assert.deepStrictEqual(f(3), [1, 2, 3]);',
  },
  { completion: 'return { get 0() { return 1; }, length: 1 };', tests: 'assert.deepStrictEqual(f(3), [1]);' },
  { completion: 'return { valueOf: () => 6, toString: () => "6" };', tests: 'assert.equal(f(3), 6);' },
  { completion: 'return { [Symbol.toPrimitive]: () => 6 };', tests: 'assert.ok(f(3) == 6);' },
  {
    completion: 'return { toJSON: () => [1, 2, 3] };',
    tests: 'assert.strictEqual(JSON.stringify(f(3)), JSON.stringify([1, 2, 3]));',
  },
  { completion: 'return NaN;', tests: 'assert.ok(!(Math.abs(f(3) - 6) > 1e-9));' },
  { completion: 'return NaN;', tests: 'assert.ok(!(f(3) < 6) && !(f(3) > 6));' },
  { completion: 'return [NaN];', tests: 'assert.ok(!(Math.abs(f(3)[0] - 6) >= 1e-6));' },
  { completion: 'const a = [1, 2]; a.length = 3; return a;', tests: 'assert.deepStrictEqual(f(3), [1, 2, 3]);' },
  {
    completion: 'class A extends Array {}; return A.from([1, 2, 3]).map((x) => x - 1);',
    tests: 'assert.deepStrictEqual(f(3), [1, 2, 3]);',
  },
  { completion: 'return "6";', tests: 'assert.deepEqual(f(3), 6);' },
  { completion: 'return 6n;', tests: 'assert.deepEqual(f(3), 6);' },
  { completion: 'return true;', tests: 'assert.deepEqual(f(3), 1);' },
  { completion: 'return { a: 1, __proto__: { b: 2 } };', tests: 'assert.deepEqual(f(3), { a: 1, b: 2 });' },
  { completion: 'return new Map([[1, 2]]);', tests: 'assert.deepEqual(f(3), { 1: 2 });' },
  {
    completion: 'Function.prototype.toString = () => "function f() { [native code] }"; return [3, 2, 1].sort();',
    tests: 'assert.ok(!String(f).includes(".sort("));\nassert.deepStrictEqual(f(3), [1, 2, 3]);',
  },
  {
    completion: 'Object.prototype.then = undefined; return { then(r) { r([1, 2, 3]); } };',
    tests: 'assert.deepStrictEqual(f(3), [1, 2, 3]);',
  },
  { completion: 'Array.prototype.includes = () => true; return [];', tests: 'assert.ok(f(3).includes(2));' },
  { completion: 'Object.is = () => true; Number.isNaN = () => true; return 0;', tests: 'assert.ok(Object.is(f(3), 6));' },
  { completion: 'Math.abs = () => 0; return 0;', tests: 'assert.ok(Math.abs(f(3) - 6) < 1e-9);' },
  { completion: 'String.prototype.includes = () => true; return "";', tests: 'assert.ok(f(3).includes("6"));' },
  { completion: 'globalThis.assert = { strictEqual() {} }; return 0;', tests: 'assert.strictEqual(f(3), 6);' },
];

const forgeries = defineGenerator({
  name: 'js-answer-forgery',
  language: 'javascript',
  about: 'answers that lie (proxies, getters, coercion hooks, NaN in tolerance checks, patched intrinsics, hidden source)',
  cases: () =>
    FORGERIES.map((f) => ({
      completion: `function f(n) {\n  ${f.completion}\n}\n`,
      tests: `${ASSERT}function test() {\n  ${f.tests}\n}\ntest();\n`,
      expect: f.expect ?? ['fail', 'error'],
      maxPassed: 1,
      note: f.completion,
    })),
});

const exits = defineGenerator({
  name: 'js-program-exits',
  language: 'javascript',
  about: 'a program that tries to exit (at load, in a call, caught) is never a pass',
  cases: () =>
    variants(20, (i) => {
      const call = [
        'process.exit(0)',
        'process.abort()',
        'process.kill(process.pid)',
        'process.reallyExit(0)',
        "require('process').exit(0)",
      ][i % 5]!;
      const where = Math.floor(i / 5);
      const completion =
        where === 0
          ? `${call};\nfunction sq(x) {\n  return 0;\n}\n`
          : where === 1
            ? `function sq(x) {\n  ${call};\n  return 0;\n}\n`
            : where === 2
              ? `function sq(x) {\n  try {\n    ${call};\n  } catch {}\n  return x * x;\n}\n`
              : `try {\n  ${call};\n} catch {}\nfunction sq(x) {\n  return x * x;\n}\nsq.exit = 1;\n`;
      const honest = where >= 2;
      return {
        completion,
        tests: `${ASSERT}function test() {\n  assert.strictEqual(sq(3), 9);\n}\ntest();\n`,
        // A program whose exit call is caught (there is no `process` in its realm) and that then
        // answers right is honest code under the sandbox: it may pass.
        expect: honest ? ['pass', 'error'] : ['fail', 'error'],
      };
    }),
});

export const generators = [unfinished, rejectedUnobserved, honestAsync, siteCounts, timeTwins, forgeries, exits];
