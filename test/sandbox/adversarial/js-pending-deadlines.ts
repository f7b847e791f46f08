/**
 * JavaScript (red-team rt60 K7): a promise of the tests that nothing of theirs waits on may stay
 * pending, as under Node — the usual `withTimeout` helper's deadline, whose timer is cleared once
 * the answer came (`Promise.race([p, deadline]).finally(() => clearTimeout(t))`), a deadline
 * silenced with `.catch(() => {})`, a race against `new Promise(() => {})`, an unused pending
 * promise. Every such promise counted as "tests that never finished", so every honest program
 * failed. Now a pending promise fails the run only when code of the tests waits on it (an async
 * call of theirs, a handler holding a check, a handler that ran and gave back what never settled,
 * a promise of the program: sandbox/harness.js, track). Controls pass; wrong twins fail; programs
 * that never answer under the same deadlines do not pass.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const WITH_TIMEOUT =
  "function withTimeout(p, ms) {\n  let t;\n  const deadline = new Promise((_, reject) => {\n    t = setTimeout(() => reject(new Error('timeout')), ms);\n  });\n  return Promise.race([p, deadline]).finally(() => clearTimeout(t));\n}\n";

/** Tests over `tenfold(n)` (a promise of n × 10) with deadlines nothing waits on afterwards. */
const TESTS: readonly string[] = [
  `${WITH_TIMEOUT}(async () => {\n  assert.strictEqual(await withTimeout(tenfold(5), 1000), 50);\n  assert.strictEqual(await withTimeout(tenfold(0), 1000), 0);\n})();\n`,
  `${WITH_TIMEOUT}withTimeout(tenfold(3), 1000).then((v) => assert.strictEqual(v, 30));\nwithTimeout(tenfold(-2), 1000).then((v) => assert.strictEqual(v, -20));\n`,
  `${WITH_TIMEOUT}(async () => {\n  for (const [n, w] of [[1, 10], [2, 20], [7, 70]]) assert.strictEqual(await withTimeout(tenfold(n), 500), w);\n})();\n`,
  "(async () => {\n  let t;\n  const deadline = new Promise((_, reject) => {\n    t = setTimeout(() => reject(new Error('timeout')), 1000);\n  });\n  deadline.catch(() => {});\n  assert.strictEqual(await tenfold(4), 40);\n  clearTimeout(t);\n})();\n",
  '(async () => {\n  assert.strictEqual(await Promise.race([tenfold(6), new Promise(() => {})]), 60);\n})();\n',
  'const never = new Promise(() => {});\n(async () => {\n  assert.strictEqual(await tenfold(9), 90);\n})();\n',
  "(async () => {\n  let t;\n  const v = await new Promise((resolve, reject) => {\n    t = setTimeout(() => reject(new Error('timeout')), 800);\n    tenfold(8).then(resolve, reject);\n  }).finally(() => clearTimeout(t));\n  assert.strictEqual(v, 80);\n})();\n",
];

const HONEST: readonly string[] = [
  '  await new Promise((r) => setTimeout(r, n));\n  return n * 10;\n}\n',
  '  return n * 10;\n}\n',
  '  await null;\n  return 10 * n;\n}\n',
];

const WRONG: readonly string[] = [
  '  await new Promise((r) => setTimeout(r, 1));\n  return n * 10 + 1;\n}\n',
  '  return n * n;\n}\n',
  '  await null;\n  return n === 0 ? 0 : 10 * n - 10;\n}\n',
];

// A program that never answers: the tests wait on its promise (the race's or their await).
const NEVER: readonly string[] = [
  '  return new Promise(() => {});\n}\n',
  '  await new Promise(() => {});\n  return n * 10;\n}\n',
];

const PROMPT = '// Resolves to n times ten.\nasync function tenfold(n) {\n';

export const generators = [
  defineGenerator({
    name: 'js-pending-deadlines-honest',
    language: 'javascript',
    about:
      'controls: honest programs under tests whose deadline promises stay pending (withTimeout, silenced deadlines, races against never) pass',
    cases: () =>
      grid(21, TESTS, HONEST, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-pending-deadlines',
    language: 'javascript',
    about: 'wrong programs under the same tests fail; programs that never answer do not pass',
    cases: () => [
      ...grid(21, TESTS, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
      ...grid(14, TESTS, NEVER, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail', 'timeout', 'error'],
      })),
    ],
  }),
];
