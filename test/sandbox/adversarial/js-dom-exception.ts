/**
 * JavaScript (red-team rt63 X_I01, X_I02, X_F07, X_H08, X_I03): `DOMException`. Neither realm had
 * Node's `DOMException`, so `assert.throws(f, DOMException)` in the tests was
 * `assert.throws(f, undefined)`, which any throw passes (a wrong decoder throwing a TypeError
 * passed), and an honest program throwing one threw a ReferenceError instead. Now both realms
 * have Node's class (an `Error` by its prototype chain, name, message and code read from state
 * the instance keeps, what `atob` and `structuredClone` throw), and one crosses between them by
 * that state, so a look-alike built from an `Error` or a plain object is not one
 * (sandbox/node-globals.js, sandbox/snapshot.js `["X", …]`).
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  '// decode(s): the text of base64 s; a string that is not base64 throws a DOMException\n' +
  '// named InvalidCharacterError (as atob does)\n' +
  'function decode(s) {\n';

const HONEST: readonly string[] = [
  '  return atob(s);\n}\n',
  "  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new DOMException('not base64', 'InvalidCharacterError');\n  return atob(s);\n}\n",
  "  try {\n    return atob(s);\n  } catch (e) {\n    if (e instanceof DOMException) throw new DOMException('bad: ' + e.message, { name: e.name, cause: e });\n    throw e;\n  }\n}\n",
  "  class DecodeError extends DOMException {}\n  if (/[^A-Za-z0-9+/=]/.test(s)) throw new DecodeError('not base64', 'InvalidCharacterError');\n  return atob(s);\n}\n",
];
/** Throws something other than a DOMException for bad input. */
const WRONG: readonly string[] = [
  "  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new TypeError('bad input');\n  return Buffer.from(s, 'base64').toString('latin1');\n}\n",
  "  if (/[^A-Za-z0-9+/=]/.test(s)) throw Object.assign(new Error('bad input'), { name: 'InvalidCharacterError', code: 5 });\n  return atob(s);\n}\n",
  "  if (/[^A-Za-z0-9+/=]/.test(s)) {\n    class DOMException extends Error {\n      get name() { return 'InvalidCharacterError'; }\n    }\n    throw new DOMException('bad input');\n  }\n  return atob(s);\n}\n",
  "  if (/[^A-Za-z0-9+/=]/.test(s)) throw { name: 'InvalidCharacterError', message: 'bad input', code: 5 };\n  return atob(s);\n}\n",
  "  if (/[^A-Za-z0-9+/=]/.test(s)) {\n    const e = new Error('bad input');\n    Object.setPrototypeOf(e, Object.create(Error.prototype, { [Symbol.toStringTag]: { value: 'DOMException' } }));\n    throw e;\n  }\n  return atob(s);\n}\n",
];
const TESTS: readonly string[] = [
  "assert.strictEqual(decode('aGk='), 'hi');\nassert.throws(() => decode('%%%'), DOMException);\n",
  "assert.throws(() => decode('a b!'), (e) => e instanceof DOMException && e.name === 'InvalidCharacterError');\n",
  "let caught;\ntry {\n  decode('@@');\n} catch (e) {\n  caught = e;\n}\nassert.ok(caught instanceof DOMException);\nassert.strictEqual(caught.code, DOMException.INVALID_CHARACTER_ERR);\n",
  "assert.rejects(async () => decode('%'), DOMException).then(() => assert.strictEqual(decode('YQ=='), 'a'));\n",
];

/**
 * rt64 D01, D04, D05, D11, D15: a DOMException's `cause` was dropped on the way (Node's
 * deepStrictEqual compares it), and one whose prototype the program set to `Error.prototype` or
 * `Object.prototype` still crossed as a DOMException (its state was the brand).
 */
const FORGED: readonly (readonly [string, string])[] = [
  [
    "function f() {\n  return new DOMException('m', { name: 'AbortError', cause: 'junk' });\n}\n",
    "assert.deepStrictEqual(f(), new DOMException('m', 'AbortError'));\n",
  ],
  [
    "function f() {\n  throw new DOMException('m', { name: 'AbortError', cause: 1 });\n}\n",
    'assert.throws(() => f(), (e) => e instanceof DOMException && e.cause === undefined);\n',
  ],
  [
    "function f() {\n  const e = new DOMException('x', 'AbortError');\n  Object.setPrototypeOf(e, Error.prototype);\n  throw e;\n}\n",
    'assert.throws(() => f(), DOMException);\n',
  ],
  [
    "function f() {\n  const e = new DOMException('x', 'AbortError');\n  Object.setPrototypeOf(e, Object.prototype);\n  return e;\n}\n",
    'assert.ok(f() instanceof DOMException);\n',
  ],
  [
    "function f() {\n  const e = new DOMException('x', 'SyntaxError');\n  Object.setPrototypeOf(e, SyntaxError.prototype);\n  throw e;\n}\n",
    'assert.throws(() => f(), (e) => e instanceof DOMException && e.code === 12);\n',
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-dom-exception',
    language: 'javascript',
    about: 'wrong programs throwing an Error, a plain object or a look-alike where a DOMException is asked for: fail',
    cases: () =>
      grid(20, TESTS, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-dom-exception-honest',
    language: 'javascript',
    about: "controls: atob's DOMException, and one the program throws or subclasses, reach the tests as one",
    cases: () => [
      ...grid(16, TESTS, HONEST, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(
        4,
        [
          "const e = make('x', 'AbortError');\nassert.ok(e instanceof DOMException);\nassert.ok(e instanceof Error);\nassert.strictEqual(String(e), 'AbortError: x');\n",
          "assert.deepStrictEqual(make('m', 'DataCloneError'), new DOMException('m', 'DataCloneError'));\nassert.strictEqual(make('m', 'DataCloneError').code, 25);\n",
          "assert.strictEqual(Object.prototype.toString.call(make('a', 'b')), '[object DOMException]');\n",
          "assert.throws(() => structuredClone(() => 1), DOMException);\nassert.strictEqual(make('', 'Error').name, 'Error');\n",
        ],
        [0],
        (tests) => ({
          prompt: PROMPT,
          completion: `${HONEST[0]}function make(message, name) {\n  return new DOMException(message, name);\n}\n`,
          tests: JS_ASSERT + tests,
          expect: ['pass'],
        }),
      ),
    ],
  }),
  defineGenerator({
    name: 'js-dom-exception-forged',
    language: 'javascript',
    about: "wrong programs: a DOMException's cause dropped, or one whose prototype no longer reaches DOMException's: fail",
    cases: () =>
      grid(20, FORGED, [0, 1, 2, 3], (pair, i) => ({
        completion: pair[0],
        tests: JS_ASSERT + (i % 2 === 0 ? pair[1] : `assert.strictEqual(typeof DOMException, 'function');\n${pair[1]}`),
        expect: ['fail', 'error'],
      })),
  }),
];
