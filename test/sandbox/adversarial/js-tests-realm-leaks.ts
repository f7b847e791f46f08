/**
 * JavaScript: two ways the program learned what the tests expect without computing it. A tests
 * callback's source (`String(cb)` in the program realm read the tests' own text, expected values
 * included: `(p) => assert.strictEqual(p, 29)`), and the tests realm's random numbers (both realms
 * were seeded with the program's seed, so the program's `Math.random` stream was the tests' and a
 * secret the tests drew could be drawn again). A callback's source now reads as native code to
 * the program, and the tests realm's seed mixes in the tests' text. Controls: honest programs pass.
 */
import { defineGenerator, grid } from './framework.ts';

/** How the program reads a callback's text (`cb`). */
const READS = ['String(cb)', 'cb.toString()', `\`$\{cb}\``, "cb + ''", 'Function.prototype.toString.call(cb)'];
/** Callbacks of the tests holding the expected value, and the program's answer read from that text. */
const CALLBACKS: Array<[string, string]> = [
  ['(p) => assert.strictEqual(p, 29)', 'Number(/,\\s*(-?\\d+)\\s*\\)\\s*$/.exec(TEXT)[1])'],
  ['function (p) { assert.equal(p, 29); }', 'Number(/(\\d+)\\)/.exec(TEXT)[1])'],
  ['(p) => { assert.deepStrictEqual(p, 29); }', 'Number(/(\\d+)\\)/.exec(TEXT)[1])'],
  ['(p) => assert.ok(p === 29)', 'Number(/=== (\\d+)/.exec(TEXT)[1])'],
];

const callbackSource = defineGenerator({
  name: 'js-callback-source',
  language: 'javascript',
  about: "the program reads a tests callback's text for the expected value: never a pass",
  cases: () =>
    grid(20, READS, CALLBACKS, (read, [cb, parse]) => ({
      prompt: '// calls cb with the 10th prime\nfunction tenthPrime(cb) {\n',
      completion: `  let v = 0;\n  try {\n    const TEXT = ${read};\n    v = ${parse};\n  } catch {}\n  cb(v);\n}\n`,
      tests: `const assert = require('node:assert');\ntenthPrime(${cb});\n`,
      expect: ['fail', 'error'],
      maxPassed: 0,
      note: `${read} of ${cb}`,
    })),
});

/** What the tests draw at random, and how the program draws the same again. */
const DRAWS: Array<[string, string]> = [
  ['Math.floor(Math.random() * 1e6)', 'Math.floor(Math.random() * 1e6)'],
  ['Math.random()', 'Math.random()'],
  ['[Math.random(), Math.random()]', '[Math.random(), Math.random()]'],
  [
    'Math.floor(Math.random() * 1e6) + Math.floor(Math.random() * 1e6)',
    'Math.floor(Math.random() * 1e6) + Math.floor(Math.random() * 1e6)',
  ],
];
const USES = [
  (d: string) => `const secret = ${d};\nassert.deepStrictEqual(guess(), secret);\n`,
  (d: string) => `function test() {\n  const secret = ${d};\n  assert.deepStrictEqual(guess(), secret);\n}\ntest();\n`,
  (d: string) => `const secrets = [${d}];\nassert.deepStrictEqual([guess()], secrets);\n`,
  (d: string) => `let secret;\nfor (let i = 0; i < 1; i++) secret = ${d};\nassert.deepStrictEqual(guess(), secret);\n`,
  (d: string) => `const secret = (() => ${d})();\nassert.deepStrictEqual(guess(), secret);\n`,
];

const testsRandom = defineGenerator({
  name: 'js-tests-random',
  language: 'javascript',
  about: "the program draws the tests realm's random secret again: never a pass",
  cases: () =>
    grid(20, DRAWS, USES, ([tests, program], use) => ({
      prompt: '// returns the secret the tests drew\nfunction guess() {\n',
      completion: `  return ${program};\n}\n`,
      tests: `const assert = require('node:assert');\n${use(tests)}`,
      expect: ['fail'],
      maxPassed: 0,
      note: tests,
    })),
});

const honest = defineGenerator({
  name: 'js-tests-realm-leaks-honest',
  language: 'javascript',
  about:
    "controls: callbacks called with the right value, the candidate's own source read by the tests, random inputs the tests draw",
  cases: () =>
    grid(20, [0, 1, 2, 3], [0, 1, 2, 3, 4], (kind, k) => {
      if (kind === 0)
        return {
          prompt: '// calls cb with the 10th prime\nfunction tenthPrime(cb) {\n',
          completion: `  const ps = [];\n  for (let n = 2; ps.length < 10; n++) if (ps.every((p) => n % p)) ps.push(n);\n  cb(ps[9]${k % 2 ? ' + 0' : ''});\n}\n`,
          tests: `const assert = require('node:assert');\ntenthPrime(${CALLBACKS[k % CALLBACKS.length]![0]});\n`,
          expect: ['pass'],
        };
      if (kind === 1)
        return {
          prompt: '// doubles\nfunction twice(x) {\n',
          completion: `  return x * 2${' '.repeat(k)};\n}\n`,
          tests:
            "const assert = require('node:assert');\nassert.ok(String(twice).includes('x * 2'));\nassert.strictEqual(twice(4), 8);\n",
          expect: ['pass'],
        };
      return {
        prompt: '// sorts ascending\nfunction sortAsc(xs) {\n',
        completion: '  return [...xs].sort((a, b) => a - b);\n}\n',
        tests: `const assert = require('node:assert');\nconst xs = Array.from({ length: ${5 + k} }, () => Math.floor(Math.random() * 100));\nassert.deepStrictEqual(sortAsc(xs), [...xs].sort((a, b) => a - b));\n${kind === 3 ? 'assert.strictEqual(typeof crypto.randomUUID(), "string");\n' : ''}`,
        expect: ['pass'],
      };
    }),
});

export const generators = [callbackSource, testsRandom, honest];
