/**
 * JavaScript (red-team rt64 E01-E07): own data of a large answer. An array, typed array or boxed
 * string past 4,096 elements crossed without its other own enumerable data (it was not looked
 * for), so a wrong answer carrying an extra property equalled the plain value under
 * `deepStrictEqual`, which Node fails on the extra key. Now every answer's own data is listed
 * (sandbox/snapshot.js, `extras`), whatever its length; controls: large honest answers, with and
 * without data the tests read, still pass.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Lengths around and past the old scan limit. */
const SIZES = [4097, 5000, 20000, 100000] as const;

/** [answer built from `n` (a statement list ending in `return`), the value the tests expect]. */
const WRONG: readonly (readonly [string, string])[] = [
  ['const a = Array.from({ length: n }, (_, i) => i);\n  a.junk = 1;\n  return a;', 'Array.from({ length: n }, (_, i) => i)'],
  ['const a = new Array(n).fill(0);\n  a.extra = "x";\n  return a;', 'new Array(n).fill(0)'],
  [
    'const a = Array.from({ length: n }, (_, i) => i % 7);\n  Object.defineProperty(a, "seen", { value: true, enumerable: true });\n  return a;',
    'Array.from({ length: n }, (_, i) => i % 7)',
  ],
  ['const a = new Uint8Array(n);\n  a.tag = 1;\n  return a;', 'new Uint8Array(n)'],
  ['const a = new Float64Array(n).fill(0.5);\n  a.unit = "m";\n  return a;', 'new Float64Array(n).fill(0.5)'],
  ['const s = new String("a".repeat(n));\n  s.extra = 2;\n  return s;', 'new String("a".repeat(n))'],
  [
    'const a = Array.from({ length: n }, (_, i) => i);\n  a.junk = 1;\n  return { rows: a };',
    '{ rows: Array.from({ length: n }, (_, i) => i) }',
  ],
  ['const a = [];\n  a[n - 1] = 1;\n  a.junk = 1;\n  return a;', '(() => { const a = []; a[n - 1] = 1; return a; })()'],
];

/** Honest answers of the same sizes: [body, tests' check]. */
const HONEST: readonly (readonly [string, string])[] = [
  ['return Array.from({ length: n }, (_, i) => i);', 'assert.deepStrictEqual(f(n), Array.from({ length: n }, (_, i) => i));'],
  [
    'const a = Array.from({ length: n }, (_, i) => i);\n  a.total = (n * (n - 1)) / 2;\n  return a;',
    'assert.strictEqual(f(n).total, (n * (n - 1)) / 2);\n  assert.strictEqual(f(n).length, n);',
  ],
  ['return new Uint8Array(n).fill(3);', 'assert.deepStrictEqual(f(n), new Uint8Array(n).fill(3));'],
  ['return new String("b".repeat(n));', 'assert.deepStrictEqual(f(n), new String("b".repeat(n)));'],
  [
    'const a = Array.from({ length: n }, (_, i) => i);\n  a.total = 1;\n  return a;',
    'const want = Array.from({ length: n }, (_, i) => i);\n  want.total = 1;\n  assert.deepStrictEqual(f(n), want);',
  ],
];

const program = (body: string) => `function f(n) {\n  ${body}\n}\n`;
const tests = (n: number, check: string) => `${JS_ASSERT}function test() {\n  const n = ${n};\n  ${check}\n}\ntest();\n`;

export const generators = [
  defineGenerator({
    name: 'js-large-extras',
    language: 'javascript',
    about: 'wrong programs answering a large array, typed array or boxed string with extra own data: fail, as under Node',
    cases: () =>
      grid(
        24,
        WRONG,
        SIZES,
        ([body, want], n): AdversarialCase => ({
          completion: program(body),
          tests: tests(n, `assert.deepStrictEqual(f(n), ${want});`),
          expect: ['fail'],
        }),
      ),
  }),
  defineGenerator({
    name: 'js-large-extras-honest',
    language: 'javascript',
    about: 'controls: large honest answers, with own data the tests read or compare, pass',
    cases: () =>
      grid(
        20,
        HONEST,
        SIZES,
        ([body, check], n): AdversarialCase => ({ completion: program(body), tests: tests(n, check), expect: ['pass'] }),
      ),
  }),
];
