/**
 * JavaScript: in-place work on arguments that are typed arrays, `ArrayBuffer`s, `DataView`s and
 * `Date`s (a sort-in-place entry point on an `Int32Array`, a date stepped forward). They come back
 * into the tests' own objects, as arrays and objects do, so honest in-place programs pass (they
 * failed: these crossed without an identity), and a program that mutates an argument the tests
 * check unchanged is caught. A typed array shared twice in an answer stays one object.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** [the tests' argument, what the completion does to it, how the tests read the result]. */
const IN_PLACE: Array<[string, string, string, string]> = [
  ['new Int32Array([3, 1, 2])', 'a.sort();', 'Array.from(A)', '[1, 2, 3]'],
  ['new Float64Array([2.5, -1, 0])', 'a.sort();', 'Array.from(A)', '[-1, 0, 2.5]'],
  ['new Uint8Array([1, 2, 3])', 'a.reverse();', 'Array.from(A)', '[3, 2, 1]'],
  ['new Int16Array(3)', 'a.fill(7);', 'Array.from(A)', '[7, 7, 7]'],
  ['new ArrayBuffer(3)', 'new Uint8Array(a).set([4, 5, 6]);', 'Array.from(new Uint8Array(A))', '[4, 5, 6]'],
  ['new DataView(new ArrayBuffer(2))', 'a.setUint8(0, 9); a.setUint8(1, 8);', '[A.getUint8(0), A.getUint8(1)]', '[9, 8]'],
  ['new Date(0)', 'a.setUTCFullYear(2001);', 'A.getUTCFullYear()', '2001'],
  ['new Date(86400000)', 'a.setTime(a.getTime() * 2);', 'A.getTime()', '172800000'],
  ['new BigInt64Array([3n, 1n])', 'a.sort();', 'Array.from(A)', '[1n, 3n]'],
  ['new Uint32Array([5, 4])', 'a.set([1, 2]);', 'Array.from(A)', '[1, 2]'],
];

/** How the tests call the entry point on `A` (the honest one returns nothing or the argument). */
const CALLS: Array<string> = ['f(A);', 'const r = f(A);\nassert.ok(r === undefined || r === A);'];

const honest = defineGenerator({
  name: 'js-binary-arguments-honest',
  language: 'javascript',
  about: 'control: in-place work on typed arrays, buffers, views and dates is seen by the tests',
  cases: () =>
    grid(20, IN_PLACE, CALLS, ([arg, work, read, want], call) => ({
      completion: `function f(a) {\n  ${work}\n}\n`,
      tests: `${JS_ASSERT}const A = ${arg};\n${call}\nassert.deepStrictEqual(${read}, ${want});\n`,
      expect: ['pass'],
      note: `${arg}: ${work}`,
    })),
});

const wrong = defineGenerator({
  name: 'js-binary-arguments-wrong',
  language: 'javascript',
  about: 'a program that changes an argument the tests check unchanged (and answers right): never a pass',
  cases: () =>
    grid(20, IN_PLACE, [0, 1], ([arg, work, read], k) => ({
      completion: `function f(a) {\n  const before = ${read.replace(/\bA\b/g, 'a')};\n  ${work}\n  return ${k === 0 ? 'before' : 'JSON.stringify(before, (_, v) => (typeof v === "bigint" ? String(v) : v))'};\n}\n`,
      tests: `${JS_ASSERT}const A = ${arg};\nconst before = ${read};\nconst r = f(A);\nassert.deepStrictEqual(${k === 0 ? 'r' : 'JSON.parse(r)'}, ${k === 0 ? 'before' : 'JSON.parse(JSON.stringify(before, (_, v) => (typeof v === "bigint" ? String(v) : v)))'});\nassert.deepStrictEqual(${read}, before);\n`,
      expect: ['fail'],
      maxPassed: 1,
      note: `${arg}: ${work}`,
    })),
});

const shared = defineGenerator({
  name: 'js-binary-shared',
  language: 'javascript',
  about: 'control: a typed array, buffer or date appearing twice in an answer is one object in the tests',
  cases: () =>
    grid(20, IN_PLACE, [0, 1], ([arg]) => ({
      completion: `function f() {\n  const t = ${arg};\n  return [t, { again: t }];\n}\n`,
      tests: `${JS_ASSERT}const [a, b] = f();\nassert.strictEqual(a, b.again);\n`,
      expect: ['pass'],
      note: arg,
    })),
});

export const generators = [honest, wrong, shared];
