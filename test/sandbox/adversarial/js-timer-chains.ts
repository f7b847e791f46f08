/**
 * JavaScript (red-team rt7 W01–W05): timers armed by an awaited timer's continuation. The host
 * runs the tests realm's timers in virtual time and read "the next timer" before the last timer's
 * microtasks had run, so the timer a continuation armed (`await sleep(1); await sleep(1)`, a
 * sleep per case, `await null; await sleep(5)`, a retry helper's backoff) never ran: honest tests
 * ended as `timeout` for every completion (gold 0), and `timeout` was no host measurement. The
 * worker now asks again once they have run (src/sandbox/worker.ts `settle`). Controls: the honest
 * `fact` passes; the same tests with a wrong value fail.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';
import { factCases } from './fact-programs.ts';

const PROMPT = 'function fact(n) {\n';
const HONEST = '  return n < 2 ? 1 : n * fact(n - 1);\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n';
const WRONG = '  return n < 2 ? 1 : 0;\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n';
const SLEEPS = [
  'const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n',
  'function sleep(ms) {\n  return new Promise((resolve) => setTimeout(() => resolve(ms), ms));\n}\n',
  'const sleep = (ms) => new Promise((r) => { const t = setTimeout(r, ms); void t; });\n',
];

/** Tests that sleep between checks; every shape checks at least one hard case. */
const SHAPES: ReadonlyArray<(rng: Rng) => string> = [
  (rng) =>
    `(async () => {\n  await sleep(${rng.int(1, 9)});\n  await sleep(${rng.int(1, 9)});\n  assert.strictEqual(fact(3), 6);\n})();\n`,
  (rng) =>
    `async function main() {\n  for (const [n, w] of ${factCases(rng)}) {\n    await sleep(${rng.int(1, 20)});\n    assert.strictEqual(fact(n), w);\n  }\n}\nmain();\n`,
  (rng) => `(async () => {\n  await null;\n  await sleep(${rng.int(1, 9)});\n  assert.strictEqual(fact(4), 24);\n})();\n`,
  () =>
    `async function retry(fn) {\n  for (let i = 0; i < 3; i++) {\n    try {\n      return await fn();\n    } catch (e) {\n      await sleep(10 * 2 ** i);\n    }\n  }\n  throw new Error('gave up');\n}\nlet calls = 0;\nconst flaky = async () => {\n  if (++calls < 3) throw new Error('flaky');\n  return factAsync(5);\n};\nretry(flaky).then((r) => assert.strictEqual(r, 120));\n`,
  (rng) =>
    `async function main() {\n  const t0 = Date.now();\n  await sleep(${rng.int(5, 50)});\n  const got = await factAsync(6);\n  await sleep(1);\n  assert.strictEqual(got, 720);\n  assert.ok(Date.now() > t0);\n}\nmain();\n`,
  (rng) =>
    `const steps = [];\nfor (let i = 0; i < 3; i++) steps.push(() => sleep(${rng.int(1, 5)}));\n(async () => {\n  for (const s of steps) await s();\n  assert.strictEqual(await factAsync(5), 120);\n})();\n`,
  (rng) =>
    `sleep(${rng.int(1, 9)})\n  .then(() => sleep(2))\n  .then(() => factAsync(4))\n  .then((r) => assert.strictEqual(r, 24));\n`,
];

const cases = (rng: Rng, completion: string, expect: AdversarialCase['expect']) =>
  grid(
    21,
    SHAPES,
    SLEEPS,
    (shape, sleep): AdversarialCase => ({
      prompt: PROMPT,
      completion,
      tests: `${JS_ASSERT}${sleep}${shape(rng)}`,
      expect,
    }),
  );

export const generators = [
  defineGenerator({
    name: 'js-timer-chains',
    language: 'javascript',
    about: 'controls: honest tests sleeping between checks (timers armed by timers) pass',
    cases: (rng) => cases(rng, HONEST, ['pass']),
  }),
  defineGenerator({
    name: 'js-timer-chains-wrong',
    language: 'javascript',
    about: 'the same tests on a wrong fact fail',
    cases: (rng) => cases(rng, WRONG, ['fail']),
  }),
];
