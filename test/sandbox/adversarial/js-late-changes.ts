/**
 * JavaScript: the program changes the tests' object after it answered, in a microtask of its own
 * (a `queueMicrotask` callback, a promise job, an async function resumed), with no later crossing
 * of its own; the tests look after a microtask turn (an `await`, a `.then`, a timer). Under Node
 * they see the change. The change was made to the program realm's copy and reached the tests only
 * at the program's next crossing, so a program that should leave its input alone and empties it a
 * tick later passed (red-team rt66 J61). Now a check site reached after a microtask turn since the
 * last crossing, and each `await` of the tests as they resume, first bring the tests' objects in
 * line with the program's copies (sandbox/harness.js, `pullChanges`; docs/sandbox.md, "Top-level
 * objects both realms hold"); the reads are the second half of the attacks: a value read as the
 * tests resume and checked later or by hand (a hostile pass on the check-site pull alone, rt68 J02,
 * J03, J22, J32, passed them), and a value read in a handler a job runs (a `.then` or `.catch`
 * callback, the tests' own `queueMicrotask` callback or timer: rt68 J35; all 20 passed at 5dea8bd),
 * or where they resume without an `await` of their own (a `for await` body, a generator of theirs
 * after a `yield`, a `process.nextTick` callback, a 'beforeExit' listener: rt69; 20 of the 25
 * passed at e73f223), or in a thenable's `then`, which the engine calls (rt70; all 20 passed at
 * a723e7a: every function of tests that name `then` now pulls as it is entered).
 * Controls: a program changing a copy of its own, a change the tests look for (the program sorts
 * their array a tick later, as asked), and tests that check before the program's microtask ran
 * (they pass under Node too). Every case was run under Node 20 as one file (program, then tests):
 * the attacks fail, the controls pass. At 5959131 the first 40 attacks passed and
 * the 10 controls that look for the change failed.
 */
import { type AdversarialCase, defineGenerator, JS_ASSERT } from './framework.ts';

/** How the program defers its change of `xs` past its answer (CHANGE: the statement). */
const DEFERRALS: readonly string[] = [
  'queueMicrotask(() => { CHANGE });',
  'Promise.resolve().then(() => { CHANGE });',
  '(async () => { await null; CHANGE })();',
  'Promise.resolve().then(() => null).then(() => { CHANGE });',
  'new Promise((r) => r()).then(() => { CHANGE });',
];

/** How the tests look at `xs` after a microtask turn (CHECK: the check). */
const LOOKS: readonly string[] = [
  'async function test() {\n  TAKE\n  await null;\n  await null;\n  await null;\n  CHECK\n}\ntest();\n',
  'async function test() {\n  TAKE\n  await new Promise((r) => setTimeout(r, 0));\n  CHECK\n}\ntest();\n',
  'function test() {\n  TAKE\n  return Promise.resolve().then(() => null).then(() => null).then(() => null).then(() => { CHECK });\n}\ntest();\n',
  'async function test() {\n  TAKE\n  for (let i = 0; i < 4; i++) await Promise.resolve();\n  CHECK\n}\ntest();\n',
];

/**
 * The tests read `xs` as they resume after an `await` and check what they read later, or check
 * it by hand (no check site between the turn and the read).
 */
const READS: readonly string[] = [
  'async function test() {\n  TAKE\n  await null;\n  await null;\n  await null;\n  const seen = xs.join();\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'async function test() {\n  TAKE\n  await new Promise((r) => setTimeout(r, 0));\n  const snap = xs.slice();\n  assert.deepStrictEqual(snap, [3, 1, 2]);\n}\ntest();\n',
  "async function test() {\n  TAKE\n  await null;\n  await null;\n  if (JSON.stringify(xs) !== '[3,1,2]') throw new Error('changed');\n}\ntest();\n",
  'async function test() {\n  TAKE\n  for (let i = 0; i < 3; i++) await null;\n  const same = xs.length === 3 && xs[0] === 3;\n  assert.ok(same);\n}\ntest();\n',
];

/**
 * The tests read `xs` in a handler a job runs — a `.then` or `.catch` callback, their own
 * `queueMicrotask` callback or timer — and check the value later (rt68 J35: no check site or
 * `await` between the turn and the read).
 */
const HANDLER_READS: readonly string[] = [
  'function test() {\n  TAKE\n  return Promise.resolve().then(() => null).then(() => xs.join()).then((seen) => { assert.strictEqual(seen, "3,1,2"); });\n}\ntest();\n',
  'async function test() {\n  TAKE\n  const seen = await Promise.reject(new Error("x")).then(() => null).then(() => null).catch(() => xs.join());\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'async function test() {\n  TAKE\n  const seen = await new Promise((r) => queueMicrotask(() => queueMicrotask(() => r(xs.slice()))));\n  assert.deepStrictEqual(seen, [3, 1, 2]);\n}\ntest();\n',
  'async function test() {\n  TAKE\n  let seen = "";\n  setTimeout(() => { seen = xs.join(); }, 0);\n  await new Promise((r) => setTimeout(r, 5));\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
];

/**
 * The tests read `xs` where they resume without an `await` of their own (rt69): a `for await`
 * body, a generator of theirs after a `yield` (async, or sync under a `for await`), a
 * `process.nextTick` callback armed after a turn, a 'beforeExit' listener.
 */
const RESUME_READS: readonly string[] = [
  'async function test() {\n  TAKE\n  let seen = "";\n  for await (const v of [null, null, null]) seen = xs.join();\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'async function* gen(xs) {\n  yield 0;\n  yield 0;\n  yield xs.join();\n}\nasync function test() {\n  TAKE\n  let last;\n  for await (const v of gen(xs)) last = v;\n  assert.strictEqual(last, "3,1,2");\n}\ntest();\n',
  'function* gen(xs) {\n  yield 0;\n  yield 0;\n  yield xs.join();\n}\nasync function test() {\n  TAKE\n  let last;\n  for await (const v of gen(xs)) last = v;\n  assert.strictEqual(last, "3,1,2");\n}\ntest();\n',
  'async function test() {\n  TAKE\n  await null;\n  await null;\n  await null;\n  await null;\n  const seen = await new Promise((r) => process.nextTick(() => r(xs.join())));\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'function test() {\n  TAKE\n  process.once("beforeExit", () => {\n    if (xs.join() !== "3,1,2") process.exitCode = 1;\n  });\n}\ntest();\n',
];

/**
 * A thenable of the tests reads `xs` in its `then`, which the engine calls in a job of its own
 * (rt70 K01-K28).
 */
const THENABLE_READS: readonly string[] = [
  'async function test() {\n  TAKE\n  const seen = await { then(r) { r(xs.join()); } };\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'async function test() {\n  TAKE\n  const seen = await Promise.resolve({ then: (r) => r(xs.join()) });\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'async function test() {\n  TAKE\n  const [seen] = await Promise.all([{ then(r) { r(xs.join()); } }]);\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'class Later {\n  constructor(xs) {\n    this.xs = xs;\n  }\n  then(r) {\n    r(this.xs.join());\n  }\n}\nasync function test() {\n  TAKE\n  const seen = await new Later(xs);\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
  'async function test() {\n  TAKE\n  async function wrap() {\n    return { then(r) { r(xs.join()); } };\n  }\n  const seen = await wrap();\n  assert.strictEqual(seen, "3,1,2");\n}\ntest();\n',
];

const TAKE = 'const xs = [3, 1, 2];\n  assert.strictEqual(count(xs), 3);';

function program(deferral: string, change: string): string {
  return `function count(xs) {\n  const n = xs.length;\n  ${deferral.replace('CHANGE', change)}\n  return n;\n}\n`;
}

function look(shape: string, check: string): string {
  return JS_ASSERT + shape.replace('TAKE', TAKE).replace('CHECK', check);
}

/** Wrong: the program empties or rewrites the tests' array a tick after answering its length. */
function attacks(): AdversarialCase[] {
  const changes = ['xs.length = 0;', 'xs.push(9);', 'xs[0] = 42;', 'xs.reverse();', 'xs.splice(1);'];
  const out: AdversarialCase[] = [];
  DEFERRALS.forEach((d, i) =>
    LOOKS.forEach((shape) =>
      out.push({
        completion: program(d, changes[i]!),
        tests: look(shape, 'assert.deepStrictEqual(xs, [3, 1, 2]);'),
        expect: ['fail'],
      }),
    ),
  );
  // A value read and checked later or by hand (an uncaught Error is `error` or `fail`): as the
  // tests resume after an `await`; where they resume without one; in a thenable's `then`, which
  // the engine calls a tick after it is awaited (so after a change the program makes in its first
  // microtask, not one two ticks deep: that deferral left out); in a handler a job runs.
  const reads = (shapes: readonly string[], firstTickOnly = false) =>
    DEFERRALS.forEach((d, i) => {
      if (firstTickOnly && d.includes('.then(() => null).then')) return;
      for (const shape of shapes)
        out.push({
          completion: program(d, changes[i]!),
          tests: JS_ASSERT + shape.replace('TAKE', TAKE),
          expect: ['fail', 'error'],
        });
    });
  reads(READS);
  reads(RESUME_READS);
  reads(THENABLE_READS, true);
  reads(HANDLER_READS);
  return out;
}

/** Honest: a copy changed, a change the tests ask for (sorted in place), or a check made in time. */
function controls(): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  DEFERRALS.forEach((d, i) => {
    // The program's own copy changes: the tests' array stays as it was.
    out.push({
      completion: program(d.replace('CHANGE', 'const c = xs.slice(); CHANGE'), 'c.length = 0;'),
      tests: look(LOOKS[i % LOOKS.length]!, 'assert.deepStrictEqual(xs, [3, 1, 2]);'),
      expect: ['pass'],
    });
    // The task is to sort the tests' array in place, a tick later: the tests look for it.
    for (const shape of [LOOKS[i % LOOKS.length]!, LOOKS[(i + 1) % LOOKS.length]!])
      out.push({
        completion: program(d, 'xs.sort((p, q) => p - q);'),
        tests: look(shape, 'assert.deepStrictEqual(xs, [1, 2, 3]);'),
        expect: ['pass'],
      });
    // The program's own copy changes; a thenable of the tests reads theirs.
    out.push({
      completion: program(d.replace('CHANGE', 'const c = xs.slice(); CHANGE'), 'c.length = 0;'),
      tests: JS_ASSERT + THENABLE_READS[i % THENABLE_READS.length]!.replace('TAKE', TAKE),
      expect: ['pass'],
    });
    // The program's own copy changes; the tests read theirs where they resume.
    out.push({
      completion: program(d.replace('CHANGE', 'const c = xs.slice(); CHANGE'), 'c.length = 0;'),
      tests: JS_ASSERT + RESUME_READS[i % RESUME_READS.length]!.replace('TAKE', TAKE),
      expect: ['pass'],
    });
    // The program's own copy changes; the tests read theirs in a handler a job runs.
    out.push({
      completion: program(d.replace('CHANGE', 'const c = xs.slice(); CHANGE'), 'c.length = 0;'),
      tests: JS_ASSERT + HANDLER_READS[i % HANDLER_READS.length]!.replace('TAKE', TAKE),
      expect: ['pass'],
    });
    // The tests check right after the call, before the program's microtask ran (as under Node).
    out.push({
      completion: program(d, 'xs.length = 0;'),
      tests: `${JS_ASSERT}function test() {\n  ${TAKE}\n  assert.deepStrictEqual(xs, [3, 1, 2]);\n}\ntest();\n`,
      expect: ['pass'],
    });
  });
  return out;
}

export const generators = [
  defineGenerator({
    name: 'js-late-changes',
    language: 'javascript',
    about:
      "the program changes the tests' array in a microtask after answering; the tests look after a turn (Node: they see it) — a fail, never a pass",
    cases: () => attacks(),
  }),
  defineGenerator({
    name: 'js-late-changes-honest',
    language: 'javascript',
    about:
      'control: a copy changed, an in-place sort a tick later that the tests look for, a check before the microtask: each passes',
    cases: () => controls(),
  }),
];
