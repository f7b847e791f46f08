/**
 * JavaScript (red-team rt59 G2): a failed check of the tests that throws from a microtask no
 * promise of theirs tracks — a `queueMicrotask` or `process.nextTick` callback of the tests, or a
 * callback of theirs the program calls from its own promise job — ends Node with that error
 * (exit 1: `fail`). isolated-vm throws such an unhandled rejection from the call after it
 * returned, and the run was an `error` with no counts (0/0), a status a wrong program could choose
 * by calling the tests' callback from a promise job. The run's checks so far are its verdict now
 * (src/sandbox/worker.ts, escapedVerdict): the failed check fails it. Controls: honest programs
 * pass the same tests.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Tests whose check of `triple` runs in a microtask nothing of theirs awaits. */
const TESTS: readonly string[] = [
  'queueMicrotask(() => {\n  assert.strictEqual(triple(2), 6);\n});\n',
  'process.nextTick(() => {\n  assert.strictEqual(triple(-3), -9);\n});\nassert.strictEqual(triple(0), 0);\n',
  'assert.strictEqual(triple(1), 3);\nqueueMicrotask(() => assert.deepStrictEqual([triple(4)], [12]));\n',
  'withTriple(5, (r) => assert.strictEqual(r, 15));\nassert.strictEqual(triple(10), 30);\n',
  'process.nextTick(() => queueMicrotask(() => assert.equal(triple(7), 21)));\n',
];

/** `triple` (and `withTriple(n, cb)`, which answers through a promise job of the program). */
const HONEST: readonly string[] = [
  '  return 3 * n;\n}\nfunction withTriple(n, cb) {\n  Promise.resolve().then(() => cb(triple(n)));\n}\n',
  '  return n + n + n;\n}\nfunction withTriple(n, cb) {\n  queueMicrotask(() => cb(n * 3));\n}\n',
  '  return n * 3;\n}\nfunction withTriple(n, cb) {\n  (async () => {\n    await null;\n    cb(triple(n));\n  })();\n}\n',
  '  return 3 * n;\n}\nfunction withTriple(n, cb) {\n  process.nextTick(() => cb(3 * n));\n}\n',
];

const WRONG: readonly string[] = [
  '  return 3 * n + 1;\n}\nfunction withTriple(n, cb) {\n  Promise.resolve().then(() => cb(triple(n)));\n}\n',
  '  return n * n;\n}\nfunction withTriple(n, cb) {\n  queueMicrotask(() => cb(n * n));\n}\n',
  '  return n < 0 ? n * 3 : n * 3 + 1;\n}\nfunction withTriple(n, cb) {\n  (async () => {\n    await null;\n    cb(triple(n));\n  })();\n}\n',
  '  return 2 * n;\n}\nfunction withTriple(n, cb) {\n  process.nextTick(() => cb(2 * n));\n}\n',
];

const PROMPT = '// Return 3 * n.\nfunction triple(n) {\n';

export const generators = [
  defineGenerator({
    name: 'js-microtask-failures-honest',
    language: 'javascript',
    about:
      'controls: honest programs pass tests that check in microtasks (queueMicrotask, nextTick, a promise job of the program)',
    cases: () =>
      grid(20, TESTS, HONEST, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-microtask-failures',
    language: 'javascript',
    about: 'a failed check in a microtask nothing tracks fails the run with its counts (it was an error with none)',
    cases: () =>
      grid(20, TESTS, WRONG, (tests, completion) => ({ prompt: PROMPT, completion, tests: JS_ASSERT + tests, expect: ['fail'] })),
  }),
];
