/**
 * JavaScript (red-team rt63 X_G02): a check handed by reference to a call. `forEach(assert.ok)`
 * was no check site of the tests until it ran, so over an empty answer no check was missing and
 * `primes(20).map(isPrime).forEach(assert.ok)` passed a program answering `[]` (Node runs no
 * check either and passes it; the strict verdict fails `.forEach((p) => assert.ok(p))`, which the
 * reference form must match). The planner now writes each such reference as an arrow calling it
 * where it stands (src/sandbox/test-plan.ts, `inlineCheckReferences`).
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT = '// primes(n): the primes below n, ascending\nfunction primes(n) {\n';

const HONEST =
  '  const out = [];\n  for (let k = 2; k < n; k++) {\n    let prime = true;\n    for (let d = 2; d * d <= k; d++) if (k % d === 0) prime = false;\n    if (prime) out.push(k);\n  }\n  return out;\n}\n';
/** Empty (or wrongly empty for the asked n) answers: every referenced check is skipped. */
const WRONG: readonly string[] = [
  '  return [];\n}\n',
  '  return n > 100 ? [2, 3, 5] : [];\n}\n',
  '  return new Array(0);\n}\n',
  '  return [].filter(Boolean);\n}\n',
];
const IS_PRIME = 'function isPrime(p) {\n  for (let d = 2; d * d <= p; d++) if (p % d === 0) return false;\n  return p > 1;\n}\n';
const TESTS: readonly string[] = [
  `${IS_PRIME}primes(20).map(isPrime).forEach(assert.ok);\nassert.ok(Array.isArray(primes(20)));\n`,
  `${IS_PRIME}const { ok } = assert;\nprimes(30).map(isPrime).forEach(ok);\nassert.strictEqual(typeof primes, 'function');\n`,
  `${IS_PRIME}primes(10).map((p) => isPrime(p)).forEach(assert.strict.ok);\nassert.ok(true);\n`,
  `const strict = require('node:assert/strict');\nprimes(12).map((p) => p > 1).forEach(strict.ok);\nstrict.ok(Array.isArray(primes(12)));\n`,
  `${IS_PRIME}primes(25).every((p) => isPrime(p)) || assert.fail();\nprimes(25).map(isPrime).forEach(assert.ok);\n`,
];

export const generators = [
  defineGenerator({
    name: 'js-check-references',
    language: 'javascript',
    about: 'wrong programs answering [] to tests that hand a check by reference to forEach: fail (strict: the check never ran)',
    cases: () =>
      grid(20, TESTS, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-check-references-honest',
    language: 'javascript',
    about: 'controls: the honest program passes the same tests, every referenced check counted',
    cases: () => [
      ...grid(15, TESTS, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(
        5,
        [
          'function run(a) {\n  a.deepStrictEqual(primes(10), [2, 3, 5, 7]);\n}\nrun(assert);\n',
          'const checks = [assert.ok];\nchecks.forEach((c) => c(primes(5).length === 2));\n',
          'Promise.resolve(primes(8)).then((ps) => assert.deepStrictEqual(ps, [2, 3, 5, 7]));\n',
          'primes(6).map((p) => p < 6).forEach(assert.ok, assert);\n',
          'new Promise((resolve) => resolve(primes(4).length === 2)).then(assert.ok);\n',
        ],
        [0],
        (tests) => ({ prompt: PROMPT, completion: HONEST, tests: JS_ASSERT + tests, expect: ['pass'] }),
      ),
    ],
  }),
];
