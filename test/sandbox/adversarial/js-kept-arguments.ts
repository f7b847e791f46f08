/**
 * JavaScript (red-team rt66 J01-J22, J60-J63): the tests' object the program was handed is one
 * object with the program's copy. A change went back only with the arguments of the call that
 * made it, on a normal answer: an argument kept by an instance and changed by a later method or a
 * getter, one changed before the call threw, one changed after an `await` (the promise settling),
 * and the tests' object read by a callback of theirs during the call were all as they were before
 * the call. Now every crossing of the program realm to the tests brings the tests' objects in line
 * with the copies the program changed (sandbox/snapshot.js, `syncCopies`).
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';
import { KINDS } from './js-callback-answers.ts';

/** [the program (its change as CHANGE), the tests (the tests' object FX, what they expect WANT)]. */
const SHAPES: readonly (readonly [string, string])[] = [
  // Kept by an instance, changed by a later method call.
  [
    'class K {\n  constructor(x) { this.x = x; }\n  touch() { const x = this.x; CHANGE return 1; }\n}\n',
    'const fx = FX;\n  const k = new K(fx);\n  assert.strictEqual(k.touch(), 1);\n  assert.deepStrictEqual(fx, WANT);',
  ],
  // Changed, then the call throws.
  [
    "function f(x) {\n  CHANGE\n  throw new RangeError('no');\n}\n",
    'const fx = FX;\n  assert.throws(() => f(fx), RangeError);\n  assert.deepStrictEqual(fx, WANT);',
  ],
  // Changed, then a callback of the tests reads the tests' object.
  [
    'function f(x, cb) {\n  CHANGE\n  return cb();\n}\n',
    'const fx = FX;\n  assert.strictEqual(f(fx, () => { assert.deepStrictEqual(fx, WANT); return 1; }), 1);',
  ],
  // Kept by an instance, changed by a getter the tests read.
  [
    'class K {\n  constructor(x) { this.x = x; }\n  get size() { const x = this.x; CHANGE return 1; }\n}\n',
    'const fx = FX;\n  const k = new K(fx);\n  assert.strictEqual(k.size, 1);\n  assert.deepStrictEqual(fx, WANT);',
  ],
  // Changed after an `await`, before the promise settles.
  [
    'async function f(x) {\n  await null;\n  CHANGE\n  return 1;\n}\n',
    'const fx = FX;\n  return f(fx).then((v) => {\n    assert.strictEqual(v, 1);\n    assert.deepStrictEqual(fx, WANT);\n  });',
  ],
  // Kept by the program, changed in its next call.
  [
    'let kept;\nfunction f(x) {\n  if (kept === undefined) { kept = x; return 1; }\n  x = kept;\n  CHANGE\n  return 2;\n}\n',
    'const fx = FX;\n  assert.strictEqual(f(fx), 1);\n  assert.strictEqual(f(null), 2);\n  assert.deepStrictEqual(fx, WANT);',
  ],
];

function build(kind: readonly [string, string, string], shape: readonly [string, string], honest: boolean): AdversarialCase {
  const [init, change, after] = kind;
  const [program, tests] = shape;
  return {
    completion: program.replace('CHANGE', change),
    tests: `${JS_ASSERT}function test() {\n  ${tests.replace('FX', init).replace('WANT', honest ? after : init)}\n}\ntest();\n`,
    expect: honest ? ['pass'] : ['fail', 'error'],
  };
}

export const generators = [
  defineGenerator({
    name: 'js-kept-arguments',
    language: 'javascript',
    about:
      "wrong programs changing the tests' object after the call, before a throw, before a callback or after an await, where the tests check it unchanged: fail, as under Node",
    cases: () => grid(60, KINDS, SHAPES, (kind, shape) => build(kind, shape, false)),
  }),
  defineGenerator({
    name: 'js-kept-arguments-honest',
    language: 'javascript',
    about: 'controls: the tests see every change the program makes to their object, as under Node',
    cases: () => grid(60, KINDS, SHAPES, (kind, shape) => build(kind, shape, true)),
  }),
];
