/**
 * JavaScript (red-team rt64 C01, C02): what a callback of the tests answers is the tests' own
 * object. The program's copy of it changed (`get().push(99)`) and the change never went back, so a
 * wrong program mutating the tests' fixture passed `deepStrictEqual(fixture, [1, 2])`, and an
 * honest one filling a sink a callback handed it failed. Now a changed copy goes back at the end
 * of each call of the tests into the program (sandbox/snapshot.js, `changedCopies`), as the one
 * object of a single realm would be changed.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** [the tests' object, the program's change to it (`x`), the object after that change] (also js-kept-arguments.ts). */
export const KINDS: readonly (readonly [string, string, string])[] = [
  ['[1, 2]', 'x.push(9);', '[1, 2, 9]'],
  ['{ n: 1 }', 'x.n = 5;', '{ n: 5 }'],
  ['{ rows: [1] }', 'x.rows.push(2);', '{ rows: [1, 2] }'],
  ["new Map([['a', 1]])", "x.set('b', 2);", "new Map([['a', 1], ['b', 2]])"],
  ['new Set([1])', 'x.add(2);', 'new Set([1, 2])'],
  ['{ a: 1, b: 2 }', 'delete x.b;', '{ a: 1 }'],
  ['[3, 1, 2]', 'x.sort();', '[1, 2, 3]'],
  ['new Uint8Array([1, 2])', 'x[0] = 7;', 'new Uint8Array([7, 2])'],
  ['new Date(0)', 'x.setTime(5);', 'new Date(5)'],
  ['[1, 2, 3]', 'x.length = 1;', '[1]'],
];

/** When the program changes the object: in the call that got it, or in a later call. */
const WHEN = ['now', 'later'] as const;

function program(change: string, when: (typeof WHEN)[number]): string {
  return when === 'now'
    ? `function f(get) {\n  const x = get();\n  ${change}\n  return 1;\n}\n`
    : `let x;\nfunction f(get) {\n  if (x === undefined) x = get();\n  else { ${change} }\n  return 1;\n}\n`;
}

function tests(init: string, want: string, when: (typeof WHEN)[number]): string {
  const calls =
    when === 'now'
      ? 'assert.strictEqual(f(() => fx), 1);'
      : 'assert.strictEqual(f(() => fx), 1);\n  assert.strictEqual(f(() => null), 1);';
  return `${JS_ASSERT}function test() {\n  const fx = ${init};\n  ${calls}\n  assert.deepStrictEqual(fx, ${want});\n}\ntest();\n`;
}

export const generators = [
  defineGenerator({
    name: 'js-callback-answers',
    language: 'javascript',
    about:
      "wrong programs changing an object a tests' callback answered, where the tests check it unchanged: fail, as under Node",
    cases: () =>
      grid(
        20,
        KINDS,
        WHEN,
        ([init, change], when): AdversarialCase => ({
          completion: program(change, when),
          tests: tests(init, init, when),
          expect: ['fail'],
        }),
      ),
  }),
  defineGenerator({
    name: 'js-callback-answers-honest',
    language: 'javascript',
    about: 'controls: the tests see the change a program makes to an object their callback answered, as under Node',
    cases: () =>
      grid(
        20,
        KINDS,
        WHEN,
        ([init, change, after], when): AdversarialCase => ({
          completion: program(change, when),
          tests: tests(init, after, when),
          expect: ['pass'],
        }),
      ),
  }),
];
