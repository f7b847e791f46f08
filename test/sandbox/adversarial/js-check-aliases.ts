/**
 * JavaScript: checks the tests make through an alias of an assert function
 * (`const eq = assert.strictEqual`, `const { deepEqual: same } = assert`, `.bind(assert)`) or
 * through a method helper (`const t = { eq(a, b) { assert… } }`, a class's static method). Such a
 * call was not found as a check: a loop of them over an empty answer never ran and nothing said
 * so (a wrong `divisors` returning `[]` passed), and a throw of the program inside its arguments
 * did not fail it. The aliases and method helpers are checks now. Controls: honest answers pass.
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";

/** [setup, how a check of `x` against `y` is written]. */
const ALIASES: ReadonlyArray<readonly [string, (x: string, y: string) => string]> = [
  ['const eq = assert.strictEqual;\n', (x, y) => `eq(${x}, ${y})`],
  ['const { deepStrictEqual: same } = assert;\n', (x, y) => `same(${x}, ${y})`],
  ['const check = assert.deepStrictEqual.bind(assert);\n', (x, y) => `check(${x}, ${y})`],
  ['const a = assert;\nconst eq = a.strict.equal;\n', (x, y) => `eq(${x}, ${y})`],
  ['const t = {\n  eq(x, y) {\n    assert.strictEqual(x, y);\n  },\n};\n', (x, y) => `t.eq(${x}, ${y})`],
  ['class T {\n  static eq(x, y) {\n    assert.deepStrictEqual(x, y);\n  }\n}\n', (x, y) => `T.eq(${x}, ${y})`],
  ['const t = { eq: (x, y) => assert.strictEqual(x, y) };\n', (x, y) => `t.eq(${x}, ${y})`],
  ["const { strictEqual } = require('node:assert');\nconst eq = strictEqual;\n", (x, y) => `eq(${x}, ${y})`],
  ['const same = assert.deepEqual;\n', (x, y) => `same(${x}, ${y})`],
  ['class C {\n  check(x, y) {\n    assert.strictEqual(x, y);\n  }\n}\nconst c = new C();\n', (x, y) => `c.check(${x}, ${y})`],
];

/** Tests of `divisors(12)` checking each element through the alias, plus a type check that passes. */
const tests = (setup: string, check: (x: string, y: string) => string) =>
  `${ASSERT}${setup}const got = divisors(12);\n${check('Array.isArray(got)', 'true')};\n` +
  `const want = [1, 2, 3, 4, 6, 12];\ngot.forEach((d, i) => ${check('d', 'want[i]')});\n`;

const aliases = defineGenerator({
  name: 'js-check-aliases',
  language: 'javascript',
  about: 'checks made through aliases of assert functions or method helpers must all be reached: an empty answer fails',
  cases: () =>
    grid(20, ALIASES, [false, true], ([setup, check], honest) => ({
      prompt: 'function divisors(n) {\n',
      completion: honest
        ? '  const out = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);\n  return out;\n}\n'
        : '  return [];\n}\n',
      tests: tests(setup, check),
      expect: honest ? ['pass'] : ['fail'],
      ...(honest ? {} : { maxPassed: 1 }),
      note: `${setup.split('\n')[0]} ${honest ? 'honest' : 'empty answer'}`,
    })),
});

/**
 * A loop over cases through the alias; the program right on the first case, throwing after. (Not
 * the method helpers: like the tests' function helpers, a helper is not marked open while its
 * arguments run — docs/sandbox.md, "Assertion sites".)
 */
const ASSERT_ALIASES = ALIASES.filter(([setup]) => !/\bclass\b|\beq\(x|eq: /.test(setup));
const interrupted = defineGenerator({
  name: 'js-check-aliases-interrupted',
  language: 'javascript',
  about: 'an aliased check interrupted by the program on a later case: no site passes',
  cases: () =>
    grid(20, ASSERT_ALIASES, [0, 1], ([setup, check], k) => ({
      prompt: 'function fact(n) {\n',
      completion: `  if (n < 2) return 1;\n  ${k ? "throw new Error('later')" : 'return null.x'};\n}\n`,
      tests: `${ASSERT}${setup}for (const [n, w] of [[1, 1], [5, 120], [6, 720]]) ${check('fact(n)', 'w')};\n`,
      expect: ['error', 'fail'],
      maxPassed: 0,
      note: setup.split('\n')[0],
    })),
});

export const generators = [aliases, interrupted];
