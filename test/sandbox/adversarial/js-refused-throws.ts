/**
 * JavaScript: a value the snapshot refuses, thrown or rejected instead of returned. A Proxy, an
 * object with a getter, an own `toString`/`valueOf`/`then`, or a getter in an error's `cause` is
 * not data; returned, it failed the run, but thrown it crossed as a generic `Error` (the bridge's
 * "could not be passed" text) and satisfied every "must throw" check — `assert.throws`,
 * `assert.rejects`, `try { f(-1); assert.fail() } catch (e) { assert.ok(e) }` — so a program that
 * throws such a value for every input passed tests that expect a throw (found by a fresh hostile
 * pass: 24 records, all passing at d9c3ce2). A thrown or rejected value the snapshot refuses is
 * now a refusal like a refused answer: the run fails. Controls: honest throws (errors, error
 * subclasses, plain objects, primitives) under the same checks pass.
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
