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

/**
 * Other shapes of a check handed on (red-team rt66 J30, J33-J36, J64): the module itself (callable
 * as `ok`), a bound check, a computed member, a check held by an object literal or an array, one of
 * the module required where it is used.
 */
const SHAPES: readonly string[] = [
  `${IS_PRIME}primes(20).map(isPrime).forEach(assert);\nassert.ok(Array.isArray(primes(20)));\n`,
  `${IS_PRIME}primes(20).map(isPrime).forEach(assert.ok.bind(assert));\nassert.ok(true);\n`,
  `${IS_PRIME}primes(20).map(isPrime).forEach(assert['ok']);\nassert.ok(true);\n`,
  `${IS_PRIME}const c = { pos: assert.ok };\nprimes(20).map(isPrime).forEach(c.pos);\nassert.ok(true);\n`,
  `${IS_PRIME}primes(20).map(isPrime).forEach(require('node:assert').ok);\nassert.ok(true);\n`,
  `${IS_PRIME}const [check] = [assert.ok];\nprimes(20).map(isPrime).forEach(check);\nassert.ok(true);\n`,
  `${IS_PRIME}Array.from(primes(20).map(isPrime), assert);\nassert.ok(true);\n`,
  `${IS_PRIME}async function t() {\n  const ps = await Promise.resolve(primes(20));\n  ps.map(isPrime).forEach(assert);\n  assert.ok(Array.isArray(ps));\n}\nt();\n`,
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
  defineGenerator({
    name: 'js-check-references-shapes',
    language: 'javascript',
    about: 'wrong programs answering [] to tests handing a check on in other shapes (the module, bound, held, required): fail',
    cases: () =>
      grid(32, SHAPES, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-check-references-shapes-honest',
    language: 'javascript',
    about: 'controls: the honest program passes them, and a helper handed the module still reads its members',
    cases: () => [
      ...SHAPES.map((tests) => ({ prompt: PROMPT, completion: HONEST, tests: JS_ASSERT + tests, expect: ['pass' as const] })),
      ...[
        'function run(a) {\n  a.deepStrictEqual(primes(10), [2, 3, 5, 7]);\n  a(primes(3).length === 1);\n}\nrun(assert);\n',
        "function run(a) {\n  a.strict.equal(primes(5).length, 2);\n}\nrun(require('node:assert'));\n",
        'const table = { eq: assert.strictEqual, ok: assert.ok };\ntable.eq(primes(10).length, 4);\ntable.ok(primes(3).length === 1);\n',
        'const { ok } = assert;\nconst o = { ok };\no.ok(primes(10).length === 4);\n',
        'const fns = [assert.ok, assert.strictEqual];\nfns[0](primes(4).length === 2);\nfns[1](primes(4)[0], 2);\n',
        'function each(xs, f) { for (const x of xs) f(x > 1); }\neach(primes(10), assert);\n',
        'primes(10).forEach((p, i, all) => assert.ok(all.length === 4 && p > 1));\n',
        "[2, 3].forEach(typeof assert === 'function' ? assert : assert.ok);\nassert.strictEqual(primes(3).length, 1);\n",
        'const c = { check: assert.ok.bind(assert) };\nc.check(primes(3).length === 1);\n',
        'require("node:assert").deepStrictEqual(primes(6), [2, 3, 5]);\n',
        'const mod = { assert };\nmod.assert.ok(primes(3).length === 1);\n',
        'Promise.all([primes(5)]).then(([ps]) => ps.forEach(assert));\n',
      ].map((tests) => ({ prompt: PROMPT, completion: HONEST, tests: JS_ASSERT + tests, expect: ['pass' as const] })),
    ],
  }),
];
