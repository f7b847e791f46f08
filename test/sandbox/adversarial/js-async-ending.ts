/**
 * JavaScript (red-team rt7 T12, T13, B03, T01 with timers, S04): the program's error ends the run
 * asynchronously from inside a pass of a loop of the tests — an `await` of the program's rejected
 * promise in an async function nobody awaits, a `then` chain with no `catch`, a timer callback —
 * or the program's promise never settles and the tests race it against their own timer and go
 * on. A program right on the easy cases that throws (or hangs) on the first hard one kept the
 * loop's check passed on the easy cases (gold 1/2, where a wrong value scores 0): the rule that
 * fails an interrupted loop pass only saw a throw out of the tests' top level. The error is now
 * placed where it came into the tests (a call's throw: the tests' stack then; a promise's
 * rejection: where the tests received the promise), and the run may end on it by any door: the
 * tests' top level, a timer callback, their completion value, an unhandled rejection.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import { defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';

const EQS = ['strictEqual', 'deepStrictEqual', 'equal'];
const MAINS = ['main', 'run', 'suite', 'checkAll'];

/** A tests shape (names and cases from `rng`; easy cases first, so the loop's check passes first). */
type Shape = (rng: Rng) => string;

const SHAPES: Shape[] = [
  // An async IIFE, the script's completion value, awaiting the program's promise in a loop.
  (rng) =>
    `(async () => {\n  for (const [n, w] of ${factCases(rng, true)}) {\n    const got = await factAsync(n);\n    assert.${rng.pick(EQS)}(got, w);\n  }\n})();\n`,
  // An async main the tests call and never await (its rejection is unhandled).
  (rng) => {
    const m = rng.pick(MAINS);
    return `async function ${m}() {\n  for (const [n, w] of ${factCases(rng, true)}) {\n    const v = await factAsync(n);\n    assert.${rng.pick(EQS)}(v, w);\n  }\n}\n${m}();\nconsole.log('started');\n`;
  },
  // The same, awaiting the synchronous entry point (its throw comes in inside the async function).
  (rng) => {
    const m = rng.pick(MAINS);
    return `async function ${m}() {\n  for (const [n, w] of ${factCases(rng, true)}) {\n    await null;\n    const v = fact(n);\n    assert.${rng.pick(EQS)}(v, w);\n  }\n}\n${m}().then(() => console.log('done'));\n`;
  },
  // A `then` chain with no `catch`, built in a loop, calling the synchronous entry point.
  (rng) =>
    `let chain = Promise.resolve();\nfor (const [n, w] of ${factCases(rng, true)}) {\n  chain = chain.then(() => fact(n)).then((got) => assert.${rng.pick(EQS)}(got, w));\n}\n`,
  // The same with the program's promise.
  (rng) =>
    `let chain = Promise.resolve();\nfor (const [n, w] of ${factCases(rng, true)}) {\n  chain = chain.then(() => factAsync(n)).then((got) => assert.${rng.pick(EQS)}(got, w));\n}\n`,
  // A chain built by `reduce`.
  (rng) =>
    `${factCases(rng, true)}.reduce(\n  (p, [n, w]) => p.then(() => factAsync(n)).then((v) => assert.${rng.pick(EQS)}(v, w)),\n  Promise.resolve(),\n);\n`,
  // One timer per case, armed from an array callback.
  (rng) =>
    `${factCases(rng, true)}.forEach(([n, w], i) => {\n  setTimeout(() => {\n    const got = fact(n);\n    assert.${rng.pick(EQS)}(got, w);\n  }, 10 * i);\n});\n`,
  // One timer per case, armed from a `for` loop.
  (rng) =>
    `const cases = ${factCases(rng, true)};\nfor (let i = 0; i < cases.length; i++) {\n  setTimeout(() => {\n    const v = fact(cases[i][0]);\n    assert.${rng.pick(EQS)}(v, cases[i][1]);\n  }, ${rng.pick([1, 5, 20])} * i);\n}\n`,
  // Every case at once: `Promise.all` over async callbacks (the first rejection is unhandled).
  (rng) =>
    `Promise.all(\n  ${factCases(rng, true)}.map(async ([n, w]) => {\n    const v = await factAsync(n);\n    assert.${rng.pick(EQS)}(v, w);\n  }),\n);\n`,
  // An async helper per case, awaited by an async loop nobody awaits.
  (rng) =>
    `async function checkCase(n, w) {\n  const v = await factAsync(n);\n  assert.${rng.pick(EQS)}(v, w);\n}\n(async function () {\n  for (const [n, w] of ${factCases(rng, true)}) await checkCase(n, w);\n})();\n`,
];

/** Expected rejections judged in async loops (controls). */
const JUDGED: Shape[] = [
  (rng) =>
    `(async () => {\n  for (const n of [-${rng.int(1, 3)}, -${rng.int(4, 9)}]) await assert.rejects(factAsync(n), RangeError);\n  for (const [n, w] of ${factCases(rng, true)}) assert.strictEqual(await factAsync(n), w);\n})();\n`,
  (rng) =>
    `(async () => {\n  for (const n of [-${rng.int(1, 9)}]) {\n    let threw = false;\n    try {\n      await factAsync(n);\n    } catch (e) {\n      threw = e instanceof RangeError;\n    }\n    assert.ok(threw);\n  }\n})();\n`,
];

const [attacks, wrong, honest] = factShapeGenerators(
  'js-async-ending',
  {
    attacks:
      "the program's error ends the run asynchronously inside a pass of a loop of the tests (await, then chain, timer): no site passes",
    honest: 'controls: the async loop shapes on an honest program, and expected rejections judged in async loops',
  },
  SHAPES,
  JUDGED,
);

/** A `factAsync` right on the easy cases that never settles on the rest (one way per entry). */
const HANGS = [
  'return new Promise(() => {});',
  'await new Promise(() => {});\n  return 0;',
  'return new Promise((resolve) => {\n    if (n < 0) resolve(0);\n  });',
  'return { then() {} };',
];
const factHanging = (hang: string) =>
  `  if (n < 2) return 1;\n  return n * fact(n - 1);\n}\nasync function factAsync(n) {\n  if (n < 2) return 1;\n  ${hang}\n}\n`;
const factHonest = '  if (n < 2) return 1;\n  return n * fact(n - 1);\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n';

/** Tests racing each of the program's promises against their own timer, going on when it wins. */
const RACES: Shape[] = [
  (rng) =>
    `const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n(async () => {\n  for (const [n, w] of ${factCases(rng, true)}) {\n    const got = await Promise.race([factAsync(n), sleep(${rng.pick([10, 50])}).then(() => 'timeout')]);\n    if (got === 'timeout') {\n      console.log('case', n, 'timed out');\n      continue;\n    }\n    assert.strictEqual(got, w);\n  }\n})();\n`,
  (rng) =>
    `const TIMEOUT = Symbol('timeout');\nconst within = (p, ms) => Promise.race([p, new Promise((r) => setTimeout(() => r(TIMEOUT), ms))]);\n(async () => {\n  for (const [n, w] of ${factCases(rng, true)}) {\n    const v = await within(factAsync(n), ${rng.pick([5, 100])});\n    if (v !== TIMEOUT) assert.${rng.pick(EQS)}(v, w);\n  }\n})();\n`,
  (rng) =>
    `const cases = ${factCases(rng, true)};\nlet i = 0;\nconst tick = () => new Promise((r) => setTimeout(() => r(null), 1));\n(async function () {\n  while (i < cases.length) {\n    const [n, w] = cases[i++];\n    const v = await Promise.race([factAsync(n), tick()]);\n    if (v !== null) assert.${rng.pick(EQS)}(v, w);\n  }\n})();\n`,
];

/**
 * The program's promise never settles on the hard cases and the tests' own timer wins the race:
 * the loop passes the easy cases and skips the rest. The run fails (never settled) and now passes
 * no site.
 */
const unanswered = defineGenerator({
  name: 'js-async-unanswered',
  language: 'javascript',
  about: "a promise of the program that never settles, raced by the tests' timer inside a loop: fail, no site passes",
  cases: (rng) =>
    grid(20, RACES, HANGS, (race, hang) => ({
      prompt: 'function fact(n) {\n',
      completion: factHanging(hang),
      tests: `${JS_ASSERT}${race(rng)}`,
      expect: ['fail', 'timeout'],
      maxPassed: 0,
      timeoutMs: 8000,
      note: hang,
    })),
});

/** The race shapes on an honest program: pass. */
const unansweredHonest = defineGenerator({
  name: 'js-async-unanswered-honest',
  language: 'javascript',
  about: "controls: the tests' races on an honest program pass",
  cases: (rng) =>
    grid(20, RACES, [0, 1, 2], (race, i) => ({
      prompt: 'function fact(n) {\n',
      completion: `${factHonest}${i ? `// variant ${i}\n` : ''}`,
      tests: `${JS_ASSERT}${race(rng)}`,
      expect: ['pass'],
      timeoutMs: 8000,
    })),
});

/**
 * The same races with a program that does answer the hard cases, but only after the tests' timer
 * won (its own timers, red-team rt58 F1): the tests went on without the answer, as when it never
 * comes; the pass that received it ran none of the loop's checks after the race. Fail, no site
 * passes (a pass before: 1/1).
 */
const LATE = [
  'return new Promise((resolve) => setTimeout(() => resolve(0), 1000));',
  'await new Promise((resolve) => setTimeout(resolve, 500));\n  return n;',
  "return new Promise((_, reject) => setTimeout(() => reject(new Error('slow')), 800));",
  'return new Promise((resolve) => {\n    const t = setInterval(() => {\n      clearInterval(t);\n      resolve(-1);\n    }, 2000);\n  });',
  'return new Promise((resolve) => setImmediate(() => setTimeout(resolve, 300, n * 2)));',
];
const late = defineGenerator({
  name: 'js-async-late',
  language: 'javascript',
  about:
    "a promise of the program that answers only after the tests' own timer won their race inside a loop: fail, no site passes",
  cases: (rng) =>
    grid(20, RACES, LATE, (race, hang) => ({
      prompt: 'function fact(n) {\n',
      completion: factHanging(hang),
      tests: `${JS_ASSERT}${race(rng)}`,
      expect: ['fail'],
      maxPassed: 0,
      timeoutMs: 8000,
      note: hang,
    })),
});

/**
 * Controls: a program of delays the tests race against a shorter timer of their own and judge
 * what the race gave (`'early'`), then the answer itself: the program's promise lost the race and
 * the pass went on to a check.
 */
const NOT_EARLY: Shape[] = [
  (rng) =>
    `const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n(async () => {\n  for (const [n, ms] of [[${rng.int(1, 9)}, 50], [${rng.int(10, 20)}, 80]]) {\n    const r = await Promise.race([later(n, ms), sleep(10).then(() => 'early')]);\n    assert.strictEqual(r, 'early');\n    assert.strictEqual(await later(n, 1), 2 * n);\n  }\n})();\n`,
  (rng) =>
    `(async () => {\n  const cases = [${rng.int(1, 5)}, ${rng.int(6, 9)}, 0];\n  for (let i = 0; i < cases.length; i++) {\n    const timer = new Promise((r) => setTimeout(r, 5, 'pending'));\n    const first = await Promise.race([later(cases[i], 40), timer]);\n    assert.equal(first, 'pending');\n  }\n  assert.deepStrictEqual(await Promise.all(cases.map((n) => later(n, 3))), cases.map((n) => 2 * n));\n})();\n`,
  (rng) =>
    `const sleep = (ms, v) => new Promise((r) => setTimeout(r, ms, v));\n(async () => {\n  for (const n of [${rng.int(1, 9)}, ${rng.int(10, 30)}]) {\n    const winner = await Promise.any([later(n, 100), sleep(20, 'timer')]);\n    assert.ok(winner === 'timer', 'the delay must not answer early');\n  }\n})();\n`,
  (rng) =>
    // An entry of the tests' `any` that rejects (a fallback they try first): honest, and no
    // rejection left unhandled by the harness's watch of the race.
    `(async () => {\n  for (const n of [${rng.int(1, 9)}, ${rng.int(10, 20)}]) {\n    const r = await Promise.any([Promise.reject(new Error('no cache')), later(n, 2)]);\n    assert.strictEqual(r, 2 * n);\n  }\n})();\n`,
];
const LATER = [
  '  return new Promise((resolve) => setTimeout(() => resolve(2 * n), ms));\n}\n',
  '  return new Promise((resolve) => setTimeout(resolve, ms, n * 2));\n}\n',
  '  await new Promise((r) => setTimeout(r, ms));\n  return n + n;\n}\n',
  '  const start = Date.now();\n  while (Date.now() - start < ms) await new Promise((r) => setTimeout(r, 1));\n  return 2 * n;\n}\n',
];
const lateHonest = defineGenerator({
  name: 'js-async-late-honest',
  language: 'javascript',
  about: "controls: honest delays the tests race against a shorter timer and check ('early'), then check the answer",
  cases: (rng) =>
    grid(20, NOT_EARLY, LATER, (tests, body) => ({
      prompt: `// Resolve to 2 * n after ms milliseconds.\n${body.includes('await') ? 'async ' : ''}function later(n, ms) {\n`,
      completion: body,
      tests: `${JS_ASSERT}${tests(rng)}`,
      expect: ['pass'],
      timeoutMs: 8000,
    })),
});

export const generators = [attacks!, wrong!, honest!, unanswered, unansweredHonest, late, lateHonest];
