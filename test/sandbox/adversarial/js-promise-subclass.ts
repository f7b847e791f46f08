/**
 * JavaScript: a `Promise` subclass returned as the answer (an honest style: `class Task extends
 * Promise`, a library's promise type). It crosses as a promise that settles when the program
 * realm's `await` of it does, as `await` under Node would; wrong values it settles with, and
 * subclasses that never settle, are still caught. (It was refused as a non-promise object.)
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Subclasses (`MyP`) and how the completion makes one settle with `V`. */
const SUBCLASSES: Array<[string, string]> = [
  ['class MyP extends Promise {}', 'MyP.resolve(V)'],
  ['class MyP extends Promise {}', 'new MyP((r) => r(V))'],
  ['class MyP extends Promise { static get [Symbol.species]() { return Promise; } }', 'MyP.resolve(V)'],
  ['class MyP extends Promise { tag() { return "t"; } }', 'new MyP((r) => Promise.resolve().then(() => r(V)))'],
  ['class Base extends Promise {}\nclass MyP extends Base {}', 'MyP.resolve(V)'],
];

/** How the tests observe the answer of `f(3)` (expected 9). */
const OBSERVE: Array<string> = [
  'async function t() { assert.strictEqual(await f(3), 9); }\nt();',
  'f(3).then((v) => assert.strictEqual(v, 9));',
  'async function t() { const [a] = await Promise.all([f(3)]); assert.deepStrictEqual(a, 9); }\nt();',
  '(async () => { assert.strictEqual(await f(3), 9); })();',
];

const honest = defineGenerator({
  name: 'js-promise-subclass-honest',
  language: 'javascript',
  about: 'control: a Promise subclass settling with the right value passes',
  cases: () =>
    grid(20, SUBCLASSES, OBSERVE, ([cls, make], observe) => ({
      completion: `${cls}\nfunction f(x) {\n  return ${make.replace('V', 'x * x')};\n}\n`,
      tests: `${JS_ASSERT}${observe}\n`,
      expect: ['pass'],
      note: `${cls} / ${observe}`,
    })),
});

const wrong = defineGenerator({
  name: 'js-promise-subclass-wrong',
  language: 'javascript',
  about: 'a Promise subclass settling with a wrong value, or never settling: never a pass',
  cases: () =>
    grid(20, SUBCLASSES, OBSERVE, ([cls, make], observe, i) => ({
      completion:
        i % 2 === 0
          ? `${cls}\nfunction f(x) {\n  return ${make.replace('V', 'x + x')};\n}\n`
          : `${cls}\nMyP.prototype.then = function () {};\nfunction f(x) {\n  return ${make.replace('V', 'x * x')};\n}\n`,
      tests: `${JS_ASSERT}${observe}\n`,
      expect: ['fail', 'timeout', 'error'],
      maxPassed: 0,
      note: `${cls} / ${observe} / ${i % 2 === 0 ? 'wrong value' : 'never settles'}`,
    })),
});

export const generators = [honest, wrong];
