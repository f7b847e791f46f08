/**
 * JavaScript (red-team rt61 B7): a plain object whose `Symbol.toStringTag` is 'Error' (its own, a
 * getter, or its prototype's) reads as `[object Error]`, and the snapshot took that for a native
 * error: it crossed as a real `Error`, so `assert.throws(f, Error)` and `instanceof Error` held for
 * a program that never made one. Under Node both fail. An object is a native error only when no
 * tag is on its chain (sandbox/comparisons.js `isNativeError`); a tagged one crosses as an object.
 * So does a real error whose prototype was set to null or Object.prototype (no native error class
 * on its chain: no Error instance under Node), which crossed as an Error too.
 * Controls: honest programs throwing or returning real errors (native, subclassed, with own data)
 * pass the same tests.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  "// check(x): x when x >= 0; for a negative x, throws an Error whose message is 'negative'\n" +
  '// errorFor(x): the Error check(x) would throw (undefined when x >= 0)\n' +
  'function check(x) {\n';

/** Tests reading the thrown or returned value as an Error. */
const TESTS: readonly string[] = [
  'assert.throws(() => check(-1), Error);\nassert.strictEqual(check(2), 2);\n',
  'let e;\ntry {\n  check(-3);\n} catch (x) {\n  e = x;\n}\nassert.ok(e instanceof Error);\nassert.strictEqual(check(0), 0);\n',
  "assert.throws(() => check(-1), (e) => e instanceof Error && e.message === 'negative');\n",
  "assert.ok(errorFor(-2) instanceof Error);\nassert.strictEqual(errorFor(-2).message, 'negative');\nassert.strictEqual(errorFor(5), undefined);\n",
  "assert.throws(() => check(-7), { message: 'negative' });\nassert.throws(() => check(-7), Error);\n",
];

/** Makes `make(m)` a fake or real error; both entry points use it. */
const body = (make: string) =>
  `  if (x < 0) throw make('negative');\n  return x;\n}\nfunction errorFor(x) {\n  return x < 0 ? make('negative') : undefined;\n}\n${make}\n`;

const WRONG: readonly string[] = [
  "function make(m) {\n  return { [Symbol.toStringTag]: 'Error', message: m };\n}",
  "class Fake {\n  constructor(m) {\n    this.message = m;\n  }\n  get [Symbol.toStringTag]() {\n    return 'Error';\n  }\n}\nfunction make(m) {\n  return new Fake(m);\n}",
  "const proto = { [Symbol.toStringTag]: 'Error', name: 'Error' };\nfunction make(m) {\n  const e = Object.create(proto);\n  e.message = m;\n  return e;\n}",
  "function make(m) {\n  const e = { message: m, name: 'Error' };\n  Object.defineProperty(e, Symbol.toStringTag, { value: 'Error' });\n  return e;\n}",
  "function make(m) {\n  return Object.assign(Object.create({ get [Symbol.toStringTag]() { return 'Error'; } }), { message: m });\n}",
  // A real error whose chain no longer reaches a native error class: no Error instance under Node.
  'function make(m) {\n  const e = new Error(m);\n  Object.setPrototypeOf(e, Object.prototype);\n  return e;\n}',
  'function make(m) {\n  return Object.setPrototypeOf(new TypeError(m), null);\n}',
];

const HONEST: readonly string[] = [
  'function make(m) {\n  return new Error(m);\n}',
  'function make(m) {\n  return new RangeError(m);\n}',
  'class NegativeError extends Error {}\nfunction make(m) {\n  return new NegativeError(m);\n}',
  'function make(m) {\n  return Object.assign(new Error(m), { code: 7 });\n}',
  "function make(m) {\n  return new Error(m, { cause: 'x < 0' });\n}",
];

export const generators = [
  defineGenerator({
    name: 'js-error-tags',
    language: 'javascript',
    about: "wrong programs throwing or returning plain objects tagged 'Error' fail tests that want an Error",
    cases: () =>
      grid(35, TESTS, WRONG, (tests, make) => ({
        prompt: PROMPT,
        completion: body(make),
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-error-tags-honest',
    language: 'javascript',
    about: 'controls: honest programs throwing or returning real errors pass the same tests',
    cases: () =>
      grid(25, TESTS, HONEST, (tests, make) => ({
        prompt: PROMPT,
        completion: body(make),
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
];
