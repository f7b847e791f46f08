/**
 * JavaScript: completions that use timers themselves (`setTimeout`/`setInterval`/`setImmediate`
 * and their `clear*`, a Timeout's `unref`). The program realm had no timers: every honest
 * completion of an async task built on them (a delayed value, debounce, retry with backoff, a
 * timeout race, a ticking counter) ended as `error` (ReferenceError). The program's timers now live
 * in the tests realm's queue on the one virtual clock (sandbox/node-globals.js, programTimers), so
 * they run in one order with the tests' own, as in one process. Controls: honest completions pass;
 * wrong twins (the wrong value, no delay, no clearing, the wrong order) fail. Attacks: a program
 * clearing every timer id it can name does not cancel the tests' timers (their late check still
 * runs), and a program exiting or throwing from a timer after the checks never passes.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type PairedTask, pairedCases } from './framework.ts';

const TASKS: readonly PairedTask[] = [
  {
    prompt: '// Resolve to n doubled once ms milliseconds have passed.\nfunction later(n, ms) {\n',
    tests:
      '(async () => {\n  const t0 = Date.now();\n  assert.strictEqual(await later(2, 100), 4);\n  assert.ok(Date.now() - t0 >= 100);\n  assert.strictEqual(await later(5, 1), 10);\n})();\n',
    honest: [
      '  return new Promise((resolve) => setTimeout(() => resolve(n * 2), ms));\n}\n',
      '  return new Promise((resolve) => setTimeout(resolve, ms, n * 2));\n}\n',
      '  const wait = (t) => new Promise((r) => setTimeout(r, t));\n  return wait(ms).then(() => n * 2);\n}\n',
      '  return new Promise((resolve) => {\n    const id = setInterval(() => {\n      clearInterval(id);\n      resolve(n * 2);\n    }, ms);\n  });\n}\n',
      '  return new Promise((resolve) => {\n    const t = setTimeout(() => resolve(n + n), ms);\n    t.ref();\n  });\n}\n',
    ],
    wrong: [
      '  return Promise.resolve(n * 2);\n}\n',
      '  return new Promise((resolve) => setTimeout(() => resolve(n * 3), ms));\n}\n',
      '  return new Promise((resolve) => setTimeout(() => resolve(n * 2), ms / 2));\n}\n',
      '  return new Promise((resolve) => setImmediate(() => resolve(n * 2)));\n}\n',
      '  return new Promise((resolve) => setTimeout(resolve, ms, n));\n}\n',
    ],
  },
  {
    prompt:
      '// debounce(fn, ms): a function that calls fn with its last arguments once ms have passed without a call.\nfunction debounce(fn, ms) {\n',
    tests:
      'const wait = (t) => new Promise((r) => setTimeout(r, t));\n(async () => {\n  const calls = [];\n  const d = debounce((x) => calls.push(x), 50);\n  d(1);\n  d(2);\n  await wait(20);\n  d(3);\n  await wait(30);\n  assert.deepStrictEqual(calls, []);\n  await wait(40);\n  assert.deepStrictEqual(calls, [3]);\n  d(4);\n  await wait(60);\n  assert.deepStrictEqual(calls, [3, 4]);\n})();\n',
    honest: [
      '  let t;\n  return (...a) => {\n    clearTimeout(t);\n    t = setTimeout(() => fn(...a), ms);\n  };\n}\n',
      '  let t = null;\n  return function (...a) {\n    if (t !== null) clearTimeout(t);\n    t = setTimeout(() => {\n      t = null;\n      fn.apply(this, a);\n    }, ms);\n  };\n}\n',
      '  let last;\n  let args;\n  let armed = false;\n  const check = () => {\n    const idle = Date.now() - last;\n    if (idle >= ms) {\n      armed = false;\n      fn(...args);\n    } else setTimeout(check, ms - idle);\n  };\n  return (...a) => {\n    last = Date.now();\n    args = a;\n    if (!armed) {\n      armed = true;\n      setTimeout(check, ms);\n    }\n  };\n}\n',
      '  const state = { timer: undefined };\n  return (...a) => {\n    if (state.timer) state.timer.close();\n    state.timer = setTimeout(fn, ms, ...a);\n  };\n}\n',
      '  let t;\n  return (...a) => {\n    clearInterval(t);\n    t = setInterval(() => {\n      clearInterval(t);\n      fn(...a);\n    }, ms);\n  };\n}\n',
    ],
    wrong: [
      '  return (...a) => {\n    setTimeout(() => fn(...a), ms);\n  };\n}\n',
      '  let t;\n  return (...a) => {\n    if (t === undefined) t = setTimeout(() => {\n      t = undefined;\n      fn(...a);\n    }, ms);\n  };\n}\n',
      '  return (...a) => fn(...a);\n}\n',
      '  let t;\n  return (...a) => {\n    clearTimeout(t);\n    t = setTimeout(() => fn(...a), 1);\n  };\n}\n',
      '  let t;\n  let first;\n  return (...a) => {\n    if (first === undefined) first = a;\n    clearTimeout(t);\n    t = setTimeout(() => fn(...first), ms);\n  };\n}\n',
    ],
  },
  {
    prompt:
      '// retry(fn, n): await fn() until it does not throw, waiting 10 ms after the first failure, 20 after the second, and so on; after n failures, throw the last error.\nasync function retry(fn, n) {\n',
    tests:
      "(async () => {\n  let k = 0;\n  const t0 = Date.now();\n  assert.strictEqual(await retry(async () => {\n    if (++k < 3) throw new Error('no');\n    return k;\n  }, 5), 3);\n  assert.ok(Date.now() - t0 >= 30);\n  await assert.rejects(retry(() => {\n    throw new Error('always');\n  }, 2), /always/);\n})();\n",
    honest: [
      '  for (let i = 0; ; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      if (i + 1 >= n) throw e;\n      await new Promise((r) => setTimeout(r, 10 * (i + 1)));\n    }\n  }\n}\n',
      '  let last;\n  for (let i = 1; i <= n; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      last = e;\n      if (i < n) await new Promise((r) => setTimeout(r, 10 * i));\n    }\n  }\n  throw last;\n}\n',
      '  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n  let tries = 0;\n  while (true) {\n    try {\n      return await fn();\n    } catch (err) {\n      tries += 1;\n      if (tries >= n) throw err;\n      await sleep(tries * 10);\n    }\n  }\n}\n',
      '  return new Promise((resolve, reject) => {\n    const attempt = (i) => {\n      Promise.resolve()\n        .then(fn)\n        .then(resolve, (e) => (i + 1 >= n ? reject(e) : setTimeout(attempt, 10 * (i + 1), i + 1)));\n    };\n    attempt(0);\n  });\n}\n',
      '  const attempt = async (i) => {\n    try {\n      return await fn();\n    } catch (e) {\n      if (i + 1 >= n) throw e;\n      await new Promise((r) => setTimeout(r, 10 * (i + 1)));\n      return attempt(i + 1);\n    }\n  };\n  return attempt(0);\n}\n',
    ],
    wrong: [
      '  for (let i = 0; ; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      if (i + 1 >= n) throw e;\n    }\n  }\n}\n',
      '  for (let i = 0; ; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      if (i + 1 >= n) return undefined;\n      await new Promise((r) => setTimeout(r, 10 * (i + 1)));\n    }\n  }\n}\n',
      '  for (let i = 0; ; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      if (i >= n) throw e;\n      await new Promise((r) => setTimeout(r, 1));\n    }\n  }\n}\n',
      '  try {\n    return await fn();\n  } catch (e) {\n    await new Promise((r) => setTimeout(r, 10));\n    return fn();\n  }\n}\n',
      "  for (let i = 0; ; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      if (i + 1 >= n) throw new Error('gave up');\n      await new Promise((r) => setTimeout(r, 10 * (i + 1)));\n    }\n  }\n}\n",
    ],
  },
  {
    prompt:
      "// withTimeout(p, ms): settle as p does, or reject with Error('timeout') once ms have passed first.\nfunction withTimeout(p, ms) {\n",
    tests:
      'const after = (v, t) => new Promise((r) => setTimeout(() => r(v), t));\n(async () => {\n  assert.strictEqual(await withTimeout(after(1, 10), 50), 1);\n  await assert.rejects(withTimeout(after(2, 100), 50), /timeout/);\n  assert.strictEqual(await withTimeout(after(3, 49), 50), 3);\n})();\n',
    honest: [
      "  let t;\n  const timer = new Promise((_, reject) => {\n    t = setTimeout(() => reject(new Error('timeout')), ms);\n  });\n  return Promise.race([p, timer]).finally(() => clearTimeout(t));\n}\n",
      "  return new Promise((resolve, reject) => {\n    const t = setTimeout(() => reject(new Error('timeout')), ms);\n    p.then(\n      (v) => {\n        clearTimeout(t);\n        resolve(v);\n      },\n      (e) => {\n        clearTimeout(t);\n        reject(e);\n      },\n    );\n  });\n}\n",
      "  const timeout = new Promise((_, rej) => setTimeout(rej, ms, new Error('timeout')).unref());\n  return Promise.race([p, timeout]);\n}\n",
      "  let done = false;\n  return new Promise((resolve, reject) => {\n    setTimeout(() => {\n      if (!done) {\n        done = true;\n        reject(new Error('timeout'));\n      }\n    }, ms);\n    p.then((v) => {\n      if (!done) {\n        done = true;\n        resolve(v);\n      }\n    });\n  });\n}\n",
      "  const ac = { t: 0 };\n  const race = Promise.race([\n    p,\n    new Promise((_, reject) => {\n      ac.t = setTimeout(() => reject(new Error('timeout')), ms);\n    }),\n  ]);\n  race.then(() => clearTimeout(ac.t), () => clearTimeout(ac.t));\n  return race;\n}\n",
    ],
    wrong: [
      '  return p;\n}\n',
      "  return Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), ms / 2))]);\n}\n",
      "  return Promise.race([p, new Promise((res) => setTimeout(() => res('timeout'), ms))]);\n}\n",
      "  return Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error('late')), ms))]);\n}\n",
      "  return Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), ms + 60))]);\n}\n",
    ],
  },
];

const SQ = '// Return n squared.\nfunction sq(n) {\n';

/** Completions (correct answers) that clear every timer id they can name. */
const CLEARING: readonly string[] = [
  '  for (let i = -5; i < 200; i++) {\n    clearTimeout(i);\n    clearInterval(i);\n    clearImmediate(String(i));\n  }\n  return n * n;\n}\n',
  '  for (let i = 0; i < 200; i++) clearTimeout({ [Symbol.toPrimitive]: () => i });\n  return n * n;\n}\n',
  '  return n * n;\n}\nfor (let i = 0; i < 200; i++) clearTimeout(i);\n',
  '  const t = setTimeout(() => {}, 1);\n  for (let i = +t - 50; i < +t + 50; i++) clearTimeout(i);\n  return n * n;\n}\n',
];

/** Tests whose late timer must still run: it throws, so the run ends as `error` (a correct answer). */
const LATE_CHECKS: readonly string[] = [
  "setTimeout(() => {\n  throw new Error('the late check ran');\n}, 50);\nassert.strictEqual(sq(3), 9);\n",
  "let ticks = 0;\nconst id = setInterval(() => {\n  if (++ticks === 3) {\n    clearInterval(id);\n    throw new Error('the late check ran');\n  }\n}, 10);\nassert.strictEqual(sq(3), 9);\n",
  "setImmediate(() => {\n  throw new Error('the late check ran');\n});\nassert.strictEqual(sq(3), 9);\n",
];

/** Completions that exit or throw from a timer once the checks ran (correct answers but the first). */
const LATE_EXITS: readonly string[] = [
  '  setTimeout(() => process.exit(0), 5);\n  return n + 1;\n}\n',
  '  return n * n;\n}\nsetTimeout(() => process.exit(0), 5);\n',
  "  setTimeout(() => {\n    throw new Error('late');\n  }, 1);\n  return n * n;\n}\n",
  '  setImmediate(() => process.exit(0));\n  return n * n;\n}\n',
];

const EXIT_TESTS: readonly string[] = [
  'assert.strictEqual(sq(3), 9);\n',
  '(async () => {\n  assert.strictEqual(sq(3), 9);\n  await new Promise((r) => setTimeout(r, 20));\n  assert.strictEqual(sq(4), 16);\n})();\n',
];

const attacks = (): AdversarialCase[] => [
  ...grid(12, LATE_CHECKS, CLEARING, (tests, completion) => ({
    prompt: SQ,
    completion,
    tests: JS_ASSERT + tests,
    expect: ['error'],
  })),
  ...grid(8, EXIT_TESTS, LATE_EXITS, (tests, completion) => ({
    prompt: SQ,
    completion,
    tests: JS_ASSERT + tests,
    expect: ['error', 'fail'],
  })),
];

/**
 * A wrong program that leaves a timer going (an interval, a chain re-arming itself) under the
 * datasets' synchronous tests: the tests' first failed check throws out of their top level, which
 * ends Node there (`fail`). The program's timers kept running until the callback cap and the run
 * was a `timeout` (red-team rt58 F2): a status the program chose. Nothing runs after the throw now.
 */
const LEFT_RUNNING: readonly string[] = [
  '  return x * 2 + 1;\n}\nsetInterval(() => {}, 1);\n',
  '  setInterval(() => {}, 5);\n  return x * 2 + 1;\n}\n',
  '  return x * 2 + 1;\n}\nconst spin = () => setTimeout(spin, 1);\nspin();\n',
  '  return x * 2 + 1;\n}\nsetImmediate(function again() {\n  setImmediate(again);\n});\n',
  '  const t = setInterval(() => {}, 1);\n  t.ref();\n  return x + x + 1;\n}\n',
];
const FAILING_TESTS: readonly string[] = [
  'function test() {\n  let candidate = double;\n  assert.deepEqual(candidate(2), 4);\n  assert.deepEqual(candidate(5), 10);\n}\n\ntest();\n',
  'assert.strictEqual(double(0), 0);\nassert.strictEqual(double(3), 6);\n',
  'const cases = [[1, 2], [4, 8]];\nfor (const [x, w] of cases) assert.equal(double(x), w);\n',
  'function test() {\n  let candidate = double;\n  assert.deepEqual(candidate(-1), -2);\n}\n\ntest();\n',
];

export const generators = [
  defineGenerator({
    name: 'js-program-timers-honest',
    language: 'javascript',
    about: 'controls: honest completions built on their own timers (delayed value, debounce, retry, timeout race) pass',
    cases: () => pairedCases(TASKS, 'honest', JS_ASSERT, ['pass']),
  }),
  defineGenerator({
    name: 'js-program-timers',
    language: 'javascript',
    about:
      'wrong completions with timers (no delay, no clearing, wrong value or order) never pass (a rejection they leave ends the run as under Node)',
    cases: () => pairedCases(TASKS, 'wrong', JS_ASSERT, ['fail', 'error']),
  }),
  defineGenerator({
    name: 'js-program-timers-attacks',
    language: 'javascript',
    about:
      "a program clearing every timer id it can name leaves the tests' timers; exiting or throwing from a timer never passes",
    cases: attacks,
  }),
  defineGenerator({
    name: 'js-program-timers-after-failure',
    language: 'javascript',
    about: "a wrong program's timers left running after the tests' uncaught failure: fail, as Node ends there (not a timeout)",
    cases: () =>
      grid(20, FAILING_TESTS, LEFT_RUNNING, (tests, completion) => ({
        prompt: '// Return x doubled.\nfunction double(x) {\n',
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
];
