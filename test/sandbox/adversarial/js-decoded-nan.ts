/**
 * JavaScript: a NaN hidden where the snapshot sees only data — bytes (`ArrayBuffer`, `DataView`,
 * an integer typed array) the tests reinterpret as floats, a string they parse — against tolerance
 * checks written as negations, which a NaN holds (every ordering with NaN is false). The boundary
 * cannot refuse such answers (bytes and strings are data), so the strict verdict guards the tests'
 * own ordering comparisons when the tests never mention NaN. Controls: honest byte and string
 * answers decoded to finite floats, and NaN asked for by tests that mention it.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** How the completion hides a NaN, and how the tests decode the answer `R` to a number. */
const HIDDEN: Array<[string, string]> = [
  ['new Uint8Array(new Float64Array([0 / 0]).buffer)', 'new Float64Array(R.buffer)[0]'],
  ['new Float64Array([0 / 0]).buffer', 'new Float64Array(R)[0]'],
  [
    '(() => { const b = new ArrayBuffer(8); new DataView(b).setFloat64(0, 0 / 0); return b; })()',
    'new DataView(R).getFloat64(0)',
  ],
  ['new DataView(new Float32Array([0 / 0]).buffer)', 'R.getFloat32(0, true)'],
  ['new Uint32Array([0x7fc00000])', 'new Float32Array(R.buffer)[0]'],
  ['Array.from(new Uint8Array(new Float64Array([0 / 0]).buffer))', 'new Float64Array(Uint8Array.from(R).buffer)[0]'],
  ['"abc"', 'parseFloat(R)'],
  ['"2.5x"', 'Number(R)'],
  ['{ v: "n/a" }', 'Number(R.v)'],
  ['[0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0].reverse()', 'new DataView(Uint8Array.from(R).buffer).getFloat32(4)'],
];

/** Checks written as negations; `X` is the decoded number. */
const NEGATED: Array<(x: string) => string> = [
  (x) => `assert.ok(!(Math.abs(${x} - 2.5) > 1e-9));`,
  (x) => `assert.strictEqual(Math.abs(${x} - 2.5) >= 1e-6, false);`,
  (x) => `if (Math.abs(${x} - 2.5) > 1e-9) assert.fail('off');\nassert.ok(true);`,
];

const decodedNan = defineGenerator({
  name: 'js-decoded-nan',
  language: 'javascript',
  about: 'a NaN hidden in bytes or text that the tests decode, against negated tolerance checks: never a pass',
  cases: () =>
    grid(30, HIDDEN, NEGATED, ([value, read], check) => ({
      completion: `function f(x) {\n  return ${value};\n}\n`,
      tests: `${JS_ASSERT}const R = f(3);\n${check(read)}\n`,
      expect: ['fail'],
      note: `${value} read as ${read}`,
    })),
});

const decodedHonest = defineGenerator({
  name: 'js-decoded-honest',
  language: 'javascript',
  about: 'control: honest bytes and strings decoded to finite floats pass; NaN passes where the tests ask for it',
  cases: (rng) =>
    grid(20, [0, 1, 2, 3, 4], [0, 1, 2, 3], (kind, _k) => {
      const v = rng.int(1, 99) / 4;
      const check = (x: string) => `assert.ok(!(Math.abs(${x} - ${v}) > 1e-9));\nassert.ok(Math.abs(${x} - ${v}) <= 1e-9);`;
      if (kind === 0)
        return {
          completion: `function f() { return new Uint8Array(new Float64Array([${v}]).buffer); }\n`,
          tests: `${JS_ASSERT}${check('new Float64Array(f().buffer)[0]')}\n`,
          expect: ['pass'],
        };
      if (kind === 1)
        return {
          completion: `function f() { const b = new ArrayBuffer(8); new DataView(b).setFloat64(0, ${v}); return b; }\n`,
          tests: `${JS_ASSERT}${check('new DataView(f()).getFloat64(0)')}\n`,
          expect: ['pass'],
        };
      if (kind === 2)
        return {
          completion: `function f() { return String(${v}); }\n`,
          tests: `${JS_ASSERT}${check('parseFloat(f())')}\n`,
          expect: ['pass'],
        };
      if (kind === 3)
        return {
          completion: `function f() { return new Uint8Array(new Float64Array([NaN]).buffer); }\n`,
          tests: `${JS_ASSERT}assert.ok(Number.isNaN(new Float64Array(f().buffer)[0]));\n`,
          expect: ['pass'],
        };
      return {
        completion: `function f() { return [1, 2, 0xff, 0xff]; }\n`,
        tests: `${JS_ASSERT}assert.deepStrictEqual(f(), [1, 2, 255, 255]);\nassert.ok(f().length > 3);\n`,
        expect: ['pass'],
      };
    }),
});

export const generators = [decodedNan, decodedHonest];
