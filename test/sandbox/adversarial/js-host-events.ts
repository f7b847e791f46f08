/**
 * JavaScript (red-team rt63 X_F02, X_F03): Node's `Event`, `CustomEvent`, `EventTarget`,
 * `AbortController` and `AbortSignal` in each realm. Neither realm had them: tests cancelling
 * with an `AbortController` and programs dispatching on an `EventTarget` were an `error` however
 * right the program was. Each realm now has its own (sandbox/node-globals.js), used within it;
 * the wrong twins show the tests can still fail. (Instances of them do not cross between the
 * realms: docs/sandbox.md.)
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  '// emitter(): an EventTarget that counts its "tick" events (count()) and re-dispatches each\n' +
  '// as a CustomEvent "seen" whose detail is the running count\n' +
  '// firstAbove(xs, limit, signal): the first x > limit, or throws signal.reason once aborted\n' +
  'function emitter() {\n';

const HONEST =
  '  const t = new EventTarget();\n  let n = 0;\n  t.addEventListener("tick", () => {\n    n++;\n    t.dispatchEvent(new CustomEvent("seen", { detail: n }));\n  });\n  t.count = () => n;\n  return t;\n}\n' +
  'function firstAbove(xs, limit, signal = AbortSignal.abort("unused")) {\n  for (const x of xs) if (x > limit) return x;\n  return undefined;\n}\n' +
  'function run() {\n  const t = emitter();\n  const seen = [];\n  t.addEventListener("seen", (e) => seen.push(e.detail));\n  for (let i = 0; i < 3; i++) t.dispatchEvent(new Event("tick"));\n  return [t.count(), seen];\n}\n' +
  'function timed(ms) {\n  const s = AbortSignal.timeout(ms);\n  return new Promise((resolve) => {\n    s.addEventListener("abort", () => resolve(s.reason.name));\n    setTimeout(() => {}, ms + 1);\n  });\n}\n';
/** Each miscounts or re-dispatches wrongly (every one of the tests checks `run()`). */
const WRONG: readonly string[] = [
  HONEST.replace('n++;', 'n += 2;'),
  HONEST.replace('{ detail: n }', '{ detail: -n }'),
  HONEST.replace('for (let i = 0; i < 3; i++)', 'for (let i = 0; i < 2; i++)'),
  HONEST.replace('t.addEventListener("tick", () => {', 't.addEventListener("tick", () => {\n    if (n === 1) return;'),
];
const TESTS: readonly string[] = [
  'assert.deepStrictEqual(run(), [3, [1, 2, 3]]);\n',
  'const ac = new AbortController();\nlet aborted = 0;\nac.signal.addEventListener("abort", () => aborted++);\nassert.strictEqual(firstAbove([1, 5, 9], 4), 5);\nac.abort();\nassert.strictEqual(aborted, 1);\nassert.deepStrictEqual(run(), [3, [1, 2, 3]]);\n',
  'timed(20).then((name) => {\n  assert.strictEqual(name, "TimeoutError");\n  assert.deepStrictEqual(run(), [3, [1, 2, 3]]);\n});\n',
  'const target = new EventTarget();\nconst got = [];\ntarget.addEventListener("x", (e) => got.push(e.detail), { once: true });\ntarget.dispatchEvent(new CustomEvent("x", { detail: firstAbove([2, 3], 2) }));\ntarget.dispatchEvent(new CustomEvent("x", { detail: 0 }));\nassert.deepStrictEqual(got, [3]);\nassert.deepStrictEqual(run(), [3, [1, 2, 3]]);\n',
  'const ac = new AbortController();\nac.abort(new RangeError("stop"));\nassert.throws(() => ac.signal.throwIfAborted(), RangeError);\nassert.strictEqual(firstAbove([10], 9), 10);\nassert.strictEqual(AbortSignal.any([ac.signal]).reason.message, "stop");\nassert.deepStrictEqual(run(), [3, [1, 2, 3]]);\n',
];

export const generators = [
  defineGenerator({
    name: 'js-host-events',
    language: 'javascript',
    about: 'controls: events, event targets and abort signals in the tests and in the program',
    cases: () =>
      grid(20, TESTS, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-host-events-wrong',
    language: 'javascript',
    about: 'wrong twins: a miscounting or misreporting program still fails these tests',
    cases: () =>
      grid(20, TESTS, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail', 'error'],
      })),
  }),
];
