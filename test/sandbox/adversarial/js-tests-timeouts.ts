/**
 * JavaScript (red-team rt58 F5): the tests realm's `setTimeout` answered the queue's number, so
 * tests written the Node way — a watchdog `setTimeout(…).unref()`, `timer.refresh()`,
 * `timer.hasRef()`, `timer.close()` — threw, and every program was an `error`; a program's Timeout
 * that had run could not be `refresh()`ed again (a `timeout`). The tests' timers are Timeouts now
 * (an unref'd one does not keep the run alive), and `refresh` re-arms a timer that already ran, in
 * both realms (sandbox/node-globals.js). Controls: honest programs pass under those tests; wrong
 * twins fail.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Tests using the tests realm's Timeouts the Node way, around checks of `sq` (sync or async). */
const TESTS: readonly string[] = [
  "const watchdog = setTimeout(() => {\n  throw new Error('the tests hung');\n}, 5000);\nwatchdog.unref();\nassert.strictEqual(sq(3), 9);\nassert.strictEqual(sq(-4), 16);\n",
  'const guard = setTimeout(() => process.exit(1), 10000).unref();\nassert.strictEqual(guard.hasRef(), false);\n(async () => {\n  assert.strictEqual(await sqLater(5), 25);\n})();\n',
  'let fired = 0;\nconst t = setTimeout(() => fired++, 5);\n(async () => {\n  await new Promise((r) => setTimeout(r, 10));\n  assert.strictEqual(fired, 1);\n  t.refresh();\n  await new Promise((r) => setTimeout(r, 10));\n  assert.strictEqual(fired, 2);\n  assert.strictEqual(sq(-7), 49);\n})();\n',
  "const t = setTimeout(() => {\n  throw new Error('cleared timer ran');\n}, 1);\nassert.strictEqual(typeof t, 'object');\nassert.ok(Number.isInteger(+t));\nclearTimeout(t);\nconst u = setInterval(() => {}, 1);\nu.close();\nassert.strictEqual(sq(3), 9);\nassert.strictEqual(sq(-2), 4);\n",
  'const timer = setTimeout(() => {}, 50);\nassert.strictEqual(timer.hasRef(), true);\ntimer.unref();\nassert.strictEqual(timer.hasRef(), false);\ntimer.ref();\nclearTimeout(+timer);\n(async () => {\n  assert.strictEqual(await sqLater(6), 36);\n})();\n',
];

const HONEST: readonly string[] = [
  '  return x * x;\n}\nasync function sqLater(x) {\n  await new Promise((r) => setTimeout(r, 1));\n  return x * x;\n}\n',
  '  return x ** 2;\n}\nfunction sqLater(x) {\n  return new Promise((resolve) => setTimeout(() => resolve(sq(x)), 3));\n}\n',
  '  return Math.abs(x) * Math.abs(x);\n}\nfunction sqLater(x) {\n  return new Promise((resolve) => {\n    const t = setTimeout(() => resolve(x * x), 2);\n    t.refresh();\n  });\n}\n',
  '  return x * x;\n}\nfunction sqLater(x) {\n  return new Promise((resolve) => {\n    let n = 0;\n    const t = setTimeout(() => {\n      if (++n < 2) t.refresh();\n      else resolve(x * x);\n    }, 1);\n  });\n}\n',
];

const WRONG: readonly string[] = [
  '  return x * 2;\n}\nasync function sqLater(x) {\n  return x * 2;\n}\n',
  '  return x < 0 ? -x * x : x * x;\n}\nfunction sqLater(x) {\n  return new Promise((resolve) => setTimeout(() => resolve(x + x), 3));\n}\n',
  '  return x * x + 1;\n}\nfunction sqLater(x) {\n  return new Promise((resolve) => {\n    const t = setTimeout(() => resolve(x * x + 1), 2);\n    t.refresh();\n  });\n}\n',
  '  return x * (x - 1);\n}\nfunction sqLater(x) {\n  return new Promise((resolve) => {\n    let n = 0;\n    const t = setTimeout(() => {\n      if (++n < 2) t.refresh();\n      else resolve(x * (x - 1));\n    }, 1);\n  });\n}\n',
];

export const generators = [
  defineGenerator({
    name: 'js-tests-timeouts-honest',
    language: 'javascript',
    about:
      "controls: honest programs under tests using their timers' Timeout methods (unref'd watchdog, refresh, hasRef, close) pass",
    cases: () =>
      grid(20, TESTS, HONEST, (tests, completion) => ({
        prompt: '// Return x squared.\nfunction sq(x) {\n',
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-tests-timeouts',
    language: 'javascript',
    about: 'wrong programs under the same tests fail',
    cases: () =>
      grid(20, TESTS, WRONG, (tests, completion) => ({
        prompt: '// Return x squared.\nfunction sq(x) {\n',
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
];
