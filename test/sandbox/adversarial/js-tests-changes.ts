/**
 * JavaScript: the tests' changes to an object both realms hold (an argument the program kept, an
 * answer the program handed out from its own state). Their change did not reach the program's
 * copy, so a program that should have copied its input (or its state before handing it out) and
 * aliases it instead passed tests checking it kept its own view, where Node fails it; and an honest
 * program meant to share it failed. Now every crossing of the tests to the program brings the
 * program's copies in line with what the tests changed, as the other direction is (sandbox/snapshot.js,
 * `syncCopies`, both realms).
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** [the object, the tests' change to it (`fx`), a probe of it (`x`), the probe before, after]. */
const KINDS: readonly (readonly [string, string, string, string, string])[] = [
  ['[1, 2]', 'fx.push(9);', 'x.length', '2', '3'],
  ['{ n: 1 }', 'fx.n = 5;', 'x.n', '1', '5'],
  ['{ rows: [1] }', 'fx.rows.push(2);', 'x.rows.length', '1', '2'],
  ["new Map([['a', 1]])", "fx.set('b', 2);", 'x.size', '1', '2'],
  ['new Set([1])', 'fx.add(2);', 'x.size', '1', '2'],
  ['{ a: 1, b: 2 }', 'delete fx.b;', 'Object.keys(x).length', '2', '1'],
  ['[3, 1, 2]', 'fx.sort();', 'x[0]', '3', '1'],
  ['new Uint8Array([1, 2])', 'fx[0] = 7;', 'x[0]', '1', '7'],
  ['new Date(0)', 'fx.setTime(5);', 'x.getTime()', '0', '5'],
  ['[1, 2, 3]', 'fx.length = 1;', 'x.length', '3', '1'],
];

/** [program (KEEP: what it stores of `x`, INIT, PROBE), tests (FX, CHANGE, WANT)]. */
const SHAPES: readonly (readonly [string, string])[] = [
  // An argument kept by an instance.
  [
    'class K {\n  constructor(x) { this.x = KEEP; }\n  probe() { const x = this.x; return PROBE; }\n}\n',
    'const fx = FX;\n  const k = new K(fx);\n  CHANGE\n  assert.strictEqual(k.probe(), WANT);',
  ],
  // An argument kept by the program's own variable.
  [
    'let kept;\nfunction keep(x) {\n  kept = KEEP;\n}\nfunction probe() {\n  const x = kept;\n  return PROBE;\n}\n',
    'const fx = FX;\n  keep(fx);\n  CHANGE\n  assert.strictEqual(probe(), WANT);',
  ],
  // The program's own state, handed out.
  [
    'class K {\n  constructor() { this.x = INIT; }\n  get() { const x = this.x; return KEEP; }\n  probe() { const x = this.x; return PROBE; }\n}\n',
    'const k = new K();\n  const fx = k.get();\n  CHANGE\n  assert.strictEqual(k.probe(), WANT);',
  ],
];

function build(
  kind: (typeof KINDS)[number],
  shape: (typeof SHAPES)[number],
  alias: boolean,
  expectChange: boolean,
): AdversarialCase {
  const [init, change, probe, before, after] = kind;
  const [program, tests] = shape;
  return {
    completion: program
      .replace('KEEP', alias ? 'x' : 'structuredClone(x)')
      .replace('INIT', init)
      .replace('PROBE', probe),
    tests: `${JS_ASSERT}function test() {\n  ${tests
      .replace('FX', init)
      .replace('CHANGE', change)
      .replace('WANT', expectChange ? after : before)}\n}\ntest();\n`,
    expect: alias === expectChange ? ['pass'] : ['fail'],
  };
}

export const generators = [
  defineGenerator({
    name: 'js-tests-changes',
    language: 'javascript',
    about:
      "wrong programs aliasing the tests' object (or handing out their own state) where the tests require a copy: the tests' change reaches them and they fail, as under Node",
    cases: () => grid(30, KINDS, SHAPES, (kind, shape) => build(kind, shape, true, false)),
  }),
  defineGenerator({
    name: 'js-tests-changes-honest',
    language: 'javascript',
    about: "controls: copying programs keep their view; sharing programs see the tests' change, as under Node",
    cases: () => [
      ...grid(30, KINDS, SHAPES, (kind, shape) => build(kind, shape, false, false)),
      ...grid(30, KINDS, SHAPES, (kind, shape) => build(kind, shape, true, true)),
    ],
  }),
];
