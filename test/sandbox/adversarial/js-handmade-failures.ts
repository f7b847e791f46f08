/**
 * JavaScript (red-team rt67 ZB18, ZA29): a failure the tests state by hand. Tests that make their
 * own `AssertionError` when a case is wrong and then catch it (logging it, or handing the throwing
 * callback to a program that swallows it) ran no check that failed, so a wrong program passed, as
 * under Node. In strict, an `AssertionError` the tests make is a failed check where it is made
 * (sandbox/assert.js).
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** [honest, wrong] programs for `add`: the wrong one is off for a > 5. */
const PROGRAMS: readonly (readonly [string, string])[] = [
  [
    'function add(a, b, cb) {\n  const r = a + b;\n  if (cb) cb(r);\n  return r;\n}\n',
    'function add(a, b, cb) {\n  const r = a > 5 ? a - b : a + b;\n  if (cb) cb(r);\n  return r;\n}\n',
  ],
  [
    'function add(a, b, cb) {\n  if (cb) cb(b + a);\n  return b + a;\n}\n',
    'function add(a, b, cb) {\n  const r = a > 5 ? 0 : a + b;\n  if (cb) cb(r);\n  return r;\n}\n',
  ],
  [
    'function add(a, b, cb) {\n  const r = a + b;\n  if (cb) cb(r);\n  return r;\n}\n',
    'function add(a, b, cb) {\n  const r = a > 5 ? a * b : a + b;\n  try {\n    if (cb) cb(r);\n  } catch {}\n  return r;\n}\n',
  ],
];

/** Tests stating a failure by hand and not letting it end the run. */
const TESTS: readonly string[] = [
  "function expect(a, b) {\n  if (a !== b) throw new assert.AssertionError({ message: a + ' !== ' + b });\n}\nassert.strictEqual(add(1, 2), 3);\nfor (const [a, b, w] of [[1, 1, 2], [9, 1, 10]]) {\n  try {\n    expect(add(a, b), w);\n  } catch (e) {\n    console.log('FAIL', e.message);\n  }\n}\n",
  "const { AssertionError } = assert;\nassert.strictEqual(add(2, 2), 4);\nconst failures = [];\nfor (const [a, b, w] of [[3, 1, 4], [8, 2, 10]]) {\n  try {\n    if (add(a, b) !== w) throw new AssertionError({ message: 'case ' + a });\n  } catch (e) {\n    failures.push(e);\n  }\n}\nconsole.log(failures.length, 'failures');\n",
  "assert.strictEqual(add(1, 1), 2);\nadd(7, 3, (r) => {\n  if (r !== 10) throw new assert.AssertionError({ message: 'got ' + r });\n});\n",
  "assert.strictEqual(add(0, 0), 0);\nPromise.resolve(add(6, 1)).then((r) => {\n  if (r !== 7) throw new assert.AssertionError({ message: 'got ' + r, actual: r, expected: 7 });\n}).catch((e) => console.log(e.message));\n",
];

export const generators = [
  defineGenerator({
    name: 'js-handmade-failures',
    language: 'javascript',
    about:
      'wrong programs under tests that make their own AssertionError and catch it: fail (strict: a failure the tests stated)',
    cases: () =>
      grid(
        20,
        TESTS,
        PROGRAMS,
        (tests, [, wrong]): AdversarialCase => ({
          completion: wrong,
          tests: JS_ASSERT + tests,
          expect: ['fail', 'error'],
        }),
      ),
  }),
  defineGenerator({
    name: 'js-handmade-failures-honest',
    language: 'javascript',
    about: 'controls: honest programs make the tests state no failure; the class read or compared by reference is no failure',
    cases: () => [
      ...grid(
        16,
        TESTS,
        PROGRAMS,
        (tests, [honest]): AdversarialCase => ({ completion: honest, tests: JS_ASSERT + tests, expect: ['pass'] }),
      ),
      ...[
        'assert.throws(() => add(1, 1, () => { throw new RangeError("r"); }), RangeError);\nassert.strictEqual(add(1, 1), 2);\n',
        "assert.ok(!(new Error('x') instanceof assert.AssertionError));\nassert.strictEqual(add(2, 2), 4);\n",
        'assert.strictEqual(typeof assert.AssertionError, "function");\nassert.strictEqual(add(3, 4), 7);\n',
        "assert.rejects(Promise.reject(new Error('x')), Error).then(() => assert.strictEqual(add(1, 2), 3));\n",
      ].map((tests) => ({
        completion: PROGRAMS[0]![0],
        tests: JS_ASSERT + tests,
        expect: ['pass' as const],
      })),
    ],
  }),
];
