/**
 * JavaScript: a value the snapshot refuses, thrown or rejected instead of returned. A Proxy, an
 * object with a getter, an own `toString`/`valueOf`/`then`, or a getter in an error's `cause` is
 * not data; returned, it failed the run, but thrown it crossed as a generic `Error` (the bridge's
 * "could not be passed" text) and satisfied every "must throw" check — `assert.throws`,
 * `assert.rejects`, `try { f(-1); assert.fail() } catch (e) { assert.ok(e) }` — so a program that
 * throws such a value for every input passed tests that expect a throw (found by a fresh hostile
 * pass: 24 records, all passing at d9c3ce2). A thrown or rejected value the snapshot refuses is
 * now a refusal like a refused answer: the run fails. Controls: honest throws (errors, error
 * subclasses, plain objects, primitives) under the same checks pass. Over a cap (too deep, too
 * large), an error crosses as the error it describes, its text capped; any other value crossed as
 * an Error too until 2026-12-06 and held `assert.throws(fn, Error)` (a deep plain object, a 5 MB
 * string; a Proxy behind the cap was never looked at): now it is refused.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Values the snapshot refuses. */
const REFUSED = [
  "new Proxy(new RangeError('negative'), {})",
  "Object.defineProperty({}, 'message', { get() { return 'negative'; }, enumerable: true })",
  "{ toString() { return 'negative'; } }",
  "Object.assign(new Error('negative'), { toString() { return 'x'; } })",
  '{ then(r) { r(1); } }',
  "new Error('negative', { cause: Object.defineProperty({}, 'why', { get() { return 1; }, enumerable: true }) })",
  '{ valueOf() { return -1; } }',
  "Object.defineProperty(new TypeError('negative'), 'code', { get() { return 'E'; }, enumerable: true })",
];
/** Tests that expect a throw (sync) or a rejection (async). */
const CHECKS: ReadonlyArray<{ async: boolean; tests: string }> = [
  { async: false, tests: 'assert.throws(() => f(-1));\n' },
  { async: false, tests: "try {\n  f(-1);\n  assert.fail('no throw');\n} catch (e) {\n  assert.ok(e);\n}\n" },
  { async: true, tests: '(async () => {\n  await assert.rejects(f(-1));\n})();\n' },
  {
    async: true,
    tests:
      "(async () => {\n  let threw = false;\n  try {\n    await f(-1);\n  } catch {\n    threw = true;\n  }\n  assert.ok(threw, 'no rejection');\n})();\n",
  },
];
/** Honest thrown values. */
const HONEST = [
  "new RangeError('negative')",
  "new Error('negative', { cause: { n: -1 } })",
  "{ code: 'NEGATIVE', n: -1 }",
  "'negative'",
  "new (class NegativeError extends Error {})('negative')",
];

/** Non-errors over a snapshot cap (too deep, too large): a deep object, a long string, many elements. */
const OVER_CAP = [
  '(() => {\n    let o = {};\n    for (let i = 0; i < 2100; i++) o = { o };\n    return o;\n  })()',
  "'x'.repeat(5e6)",
  'Array.from({ length: 300000 }, (_, i) => i)',
  "(() => {\n    let p = {};\n    for (let i = 0; i < 2100; i++) p = { p };\n    return { a: p, b: new Proxy(new RangeError('negative'), {}) };\n  })()",
  'new Map(Array.from({ length: 200000 }, (_, i) => [i, i]))',
];
/** The first three checks asking for an Error (`assert.throws(fn, Error)`, `instanceof Error`), and any throw. */
const ERROR_CHECKS = [
  ...CHECKS.slice(0, 3).map((c) => ({
    async: c.async,
    tests: c.tests.replace('f(-1))', 'f(-1), Error)').replace('assert.ok(e)', 'assert.ok(e instanceof Error)'),
  })),
  CHECKS[0]!,
];
/** Errors over a cap: they cross as the error they describe, their text capped. */
const ERRORS_OVER_CAP = [
  "new RangeError('x'.repeat(5e6))",
  "Object.assign(new Error('negative'), { data: 'x'.repeat(5e6) })",
  "(() => {\n    let c = new Error('root');\n    for (let i = 0; i < 2100; i++) c = new Error('level', { cause: c });\n    return c;\n  })()",
];

const body = (async: boolean, v: string) => `${async ? 'async ' : ''}function f(n) {\n  if (n < 0) throw ${v};\n  return n;\n}\n`;

export const generators = [
  defineGenerator({
    name: 'js-refused-throws',
    language: 'javascript',
    about: 'a value the snapshot refuses, thrown or rejected for the tests that expect a throw: fail',
    cases: () =>
      grid(32, REFUSED, CHECKS, (v, c) => ({
        prompt: '',
        completion: body(c.async, v),
        tests: JS_ASSERT + c.tests,
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-refused-throws-over-cap',
    language: 'javascript',
    about:
      'a value that is no error and is over a snapshot cap (too deep, too long, too many elements), thrown or rejected for tests that expect an Error (or any throw): fail',
    cases: () =>
      grid(20, OVER_CAP, ERROR_CHECKS, (v, c) => ({
        prompt: '',
        completion: body(c.async, v),
        tests: JS_ASSERT + c.tests,
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-refused-throws-over-cap-honest',
    language: 'javascript',
    about: 'controls: errors over a snapshot cap (a long message, a long property, a deep cause chain) pass the same checks',
    cases: () =>
      grid(21, ERRORS_OVER_CAP, ERROR_CHECKS, (v, c) => ({
        prompt: '',
        completion: body(c.async, v),
        tests: JS_ASSERT + c.tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-refused-throws-honest',
    language: 'javascript',
    about: 'controls: errors, error subclasses, plain objects and primitives thrown or rejected pass the same checks',
    cases: () =>
      grid(20, HONEST, CHECKS, (v, c) => ({
        prompt: '',
        completion: body(c.async, v),
        tests: JS_ASSERT + c.tests,
        expect: ['pass'],
      })),
  }),
];
