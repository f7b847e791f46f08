/**
 * JavaScript: async generators as answers. An async generator crossed as "a Proxy or holds one"
 * and every honest answer of that shape failed (`for await (const v of f(4))`; found by a second
 * fresh hostile pass at d9c3ce2). It now crosses as generators do — a handle on the engine's own
 * `next`/`return`/`throw`, captured before the program ran — whose steps' promises cross as
 * promises, and the tests' stand-in is an async iterator. Controls: honest async generators read
 * with `for await`, `next()` and `return()` pass; wrong: a wrong item fails, one that throws or
 * never settles is never a pass.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Honest async generators of the squares below n. */
const HONEST = [
  'async function* f(n) {\n  for (let i = 0; i < n; i++) yield i * i;\n}\n',
  'async function* f(n) {\n  for (let i = 0; i < n; i++) {\n    await null;\n    yield i * i;\n  }\n}\n',
  'async function* f(n) {\n  let i = 0;\n  while (i < n) yield await Promise.resolve(i * i++);\n}\n',
  'async function* f(n) {\n  yield* [...Array(n).keys()].map((i) => i * i);\n}\n',
];
/** Wrong ones: a wrong item, a throw, a step that never settles. */
const WRONG = [
  'async function* f(n) {\n  for (let i = 0; i < n; i++) yield i * i + (i === 3 ? 1 : 0);\n}\n',
  "async function* f(n) {\n  yield 0;\n  throw new RangeError('no');\n}\n",
  'async function* f(n) {\n  yield 0;\n  await new Promise(() => {});\n}\n',
  'async function* f(n) {\n  for (let i = 0; i < n - 1; i++) yield i * i;\n}\n',
];
/** Tests reading the first four squares. */
const READS = [
  '(async () => {\n  const out = [];\n  for await (const v of f(4)) out.push(v);\n  assert.deepStrictEqual(out, [0, 1, 4, 9]);\n})();\n',
  '(async () => {\n  const it = f(4);\n  const out = [];\n  for (let r = await it.next(); !r.done; r = await it.next()) out.push(r.value);\n  assert.deepStrictEqual(out, [0, 1, 4, 9]);\n})();\n',
  '(async () => {\n  const out = [];\n  for await (const v of f(4)) {\n    out.push(v);\n    if (out.length === 4) break;\n  }\n  assert.deepStrictEqual(out, [0, 1, 4, 9]);\n})();\n',
  '(async () => {\n  const it = f(4);\n  const a = [];\n  for (let i = 0; i < 4; i++) a.push((await it.next()).value);\n  await it.return();\n  assert.deepStrictEqual(a, [0, 1, 4, 9]);\n  assert.deepStrictEqual(await it.next(), { value: undefined, done: true });\n})();\n',
  '(async () => {\n  const it = f(4);\n  assert.strictEqual(typeof it[Symbol.asyncIterator], "function");\n  let s = 0;\n  for await (const v of it) s += v;\n  assert.strictEqual(s, 14);\n})();\n',
];

export const generators = [
  defineGenerator({
    name: 'js-async-generators-honest',
    language: 'javascript',
    about: 'controls: honest async generators read with for await, next() and return() pass',
    cases: () => grid(20, HONEST, READS, (g, t) => ({ prompt: '', completion: g, tests: JS_ASSERT + t, expect: ['pass'] })),
  }),
  defineGenerator({
    name: 'js-async-generators-wrong',
    language: 'javascript',
    about: 'async generators with a wrong or missing item, a throw, or a step that never settles: never a pass',
    cases: () =>
      grid(20, WRONG, READS, (g, t) => ({
        prompt: '',
        completion: g,
        tests: JS_ASSERT + t,
        expect: ['fail', 'error', 'timeout'],
        maxPassed: 1,
      })),
  }),
];
