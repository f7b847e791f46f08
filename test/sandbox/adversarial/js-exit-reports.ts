/**
 * JavaScript (red-team rt60 K4): tests that report the way Node's own test scripts do — a
 * failure counted into `process.exitCode = 1`, a call count asserted in a `process.on('exit')`
 * listener, a check in a `beforeExit` listener — were judged without it: the sandbox ignored
 * `exitCode` (a wrong program passed) and never ran the listeners (an honest program failed:
 * their checks never ran). Now the tests realm's `beforeExit` (once) and `exit` listeners run at
 * the end of the run, and a non-zero `process.exitCode` fails it (sandbox/harness.js, emit and
 * exitCodeFailure). Controls: honest programs pass; wrong twins fail.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Tests over `each(xs, fn)` (calls fn(x, i) for every element, in order) reporting at exit. */
const TESTS: readonly string[] = [
  "let calls = 0;\neach([1, 2, 3], () => calls++);\nprocess.on('exit', () => assert.strictEqual(calls, 3));\n",
  "const seen = [];\neach(['a', 'b'], (x, i) => seen.push(x + i));\nprocess.once('exit', (code) => {\n  assert.strictEqual(code, 0);\n  assert.deepStrictEqual(seen, ['a0', 'b1']);\n});\n",
  "let bad = 0;\nfor (const xs of [[1], [1, 2, 3], []]) {\n  let n = 0;\n  each(xs, () => n++);\n  if (n !== xs.length) {\n    console.error('FAIL', xs);\n    bad++;\n  }\n}\nif (bad > 0) process.exitCode = 1;\nassert.ok(true);\n",
  "let calls = 0;\neach([5, 6, 7, 8], () => calls++);\nprocess.on('beforeExit', () => {\n  if (calls !== 4) process.exitCode = 1;\n});\nassert.strictEqual(typeof each, 'function');\n",
  '(async () => {\n  await new Promise((r) => setTimeout(r, 5));\n  let sum = 0;\n  each([1, 2, 3, 4], (x) => (sum += x));\n  process.exitCode = sum === 10 ? 0 : 1;\n})();\nassert.ok(true);\n',
];

const HONEST: readonly string[] = [
  '  for (let i = 0; i < xs.length; i++) fn(xs[i], i);\n}\n',
  '  xs.forEach((x, i) => fn(x, i));\n}\n',
  '  let i = 0;\n  for (const x of xs) fn(x, i++);\n}\n',
  '  for (const [i, x] of xs.entries()) fn(x, i);\n}\n',
];

const WRONG: readonly string[] = [
  '  for (const x of xs.slice(1)) fn(x, 0);\n}\n',
  '  for (let i = 0; i < xs.length - 1; i++) fn(xs[i], i);\n}\n',
  '  if (xs.length > 0) fn(xs[0], 0);\n}\n',
  '  xs.forEach((x, i) => fn(x, i + 1));\n  if (xs.length > 1) fn(xs[0], 0);\n}\n',
];

const PROMPT = '// each(xs, fn): calls fn(x, i) once for every element x of xs (at index i), in order\nfunction each(xs, fn) {\n';

export const generators = [
  defineGenerator({
    name: 'js-exit-reports',
    language: 'javascript',
    about: "wrong programs fail tests that report through process.exitCode or check in 'exit'/'beforeExit' listeners",
    cases: () =>
      grid(20, TESTS, WRONG, (tests, completion) => ({ prompt: PROMPT, completion, tests: JS_ASSERT + tests, expect: ['fail'] })),
  }),
  defineGenerator({
    name: 'js-exit-reports-honest',
    language: 'javascript',
    about: 'controls: honest programs pass the same tests',
    cases: () =>
      grid(20, TESTS, HONEST, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
];
