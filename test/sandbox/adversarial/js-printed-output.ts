/**
 * JavaScript: tests that capture what the program logs (`console.log = (...a) => logs.push(…)`,
 * a whole `globalThis.console` of their own) and check the lines. With the program in its own
 * realm its `console` was its own: the tests' capture saw nothing and every honest logging
 * program failed. While the tests call the program and have replaced their console (or one of its
 * methods), what the program logs goes to the tests' console, its arguments as snapshots, as in
 * one realm. Controls: honest programs pass; wrong twins (a line short, the wrong method, values
 * returned instead of logged, extra text) fail.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT = '// Log the numbers 1..n, one per line.\nfunction show(n) {\n';

/** How the tests capture and check `show(3)`'s lines. */
const CAPTURES: readonly string[] = [
  "const logs = [];\nconst orig = console.log;\nconsole.log = (...a) => logs.push(a.join(' '));\nshow(3);\nconsole.log = orig;\nassert.deepStrictEqual(logs, ['1', '2', '3']);\n",
  "let out = '';\nconst saved = globalThis.console;\nglobalThis.console = { ...saved, log: (x) => { out += x + '\\n'; } };\ntry {\n  show(3);\n} finally {\n  globalThis.console = saved;\n}\nassert.strictEqual(out, '1\\n2\\n3\\n');\n",
  'const calls = [];\nconsole.log = (...a) => calls.push(a);\nshow(3);\nassert.deepStrictEqual(calls, [[1], [2], [3]]);\n',
  "function captured(f, ...args) {\n  const lines = [];\n  const log = console.log;\n  console.log = (...a) => lines.push(a.map(String).join(' '));\n  try {\n    f(...args);\n  } finally {\n    console.log = log;\n  }\n  return lines;\n}\nassert.deepStrictEqual(captured(show, 3), ['1', '2', '3']);\nassert.deepStrictEqual(captured(show, 1), ['1']);\n",
  'for (const n of [1, 2, 3]) {\n  const seen = [];\n  console.log = (v) => seen.push(v);\n  show(n);\n  assert.deepStrictEqual(seen, Array.from({ length: n }, (_, i) => i + 1));\n}\n',
];

/** Honest bodies: a loop, a while, recursion, a callback, a captured alias of console.log. */
const HONEST: readonly string[] = [
  '  for (let i = 1; i <= n; i++) console.log(i);\n}\n',
  '  let i = 0;\n  while (i < n) console.log(++i);\n}\n',
  '  if (n > 1) show(n - 1);\n  if (n > 0) console.log(n);\n}\n',
  '  Array.from({ length: n }, (_, i) => i + 1).forEach((v) => console.log(v));\n}\n',
  '  const log = console.log;\n  for (let i = 1; i <= n; i++) log(i);\n}\n',
];

/** Wrong bodies: one short, the wrong method, returned not logged, extra text, reversed. */
const WRONG: readonly string[] = [
  '  for (let i = 1; i < n; i++) console.log(i);\n}\n',
  '  for (let i = 1; i <= n; i++) console.error(i);\n}\n',
  '  return Array.from({ length: n }, (_, i) => i + 1);\n}\n',
  "  for (let i = 1; i <= n; i++) console.log('n=' + i);\n}\n",
  '  for (let i = n; i >= 1; i--) console.log(i);\n}\n',
];

const ASYNC_PROMPT = '// Log the numbers 1..n, one per line, asynchronously.\nasync function show(n) {\n';

/**
 * Tests that capture across an `await` of the program: its lines after its first `await` run
 * outside the tests' call (they were written to the program's own output, and honest programs
 * failed). The last capture restores the console and waits before checking, so a line the
 * program logs after that is not the tests' to see (as in one realm).
 */
const ASYNC_CAPTURES: readonly string[] = [
  "(async () => {\n  const logs = [];\n  const orig = console.log;\n  console.log = (...a) => logs.push(a.join(' '));\n  await show(3);\n  console.log = orig;\n  assert.deepStrictEqual(logs, ['1', '2', '3']);\n})();\n",
  "const logs = [];\nconsole.log = (...a) => logs.push(a.join(' '));\nshow(3).then(() => {\n  assert.deepStrictEqual(logs, ['1', '2', '3']);\n});\n",
  "async function captured(f, ...args) {\n  const lines = [];\n  const log = console.log;\n  console.log = (...a) => lines.push(a.map(String).join(' '));\n  try {\n    await f(...args);\n  } finally {\n    console.log = log;\n  }\n  return lines;\n}\n(async () => {\n  assert.deepStrictEqual(await captured(show, 3), ['1', '2', '3']);\n  assert.deepStrictEqual(await captured(show, 1), ['1']);\n})();\n",
  "(async () => {\n  let out = '';\n  const saved = globalThis.console;\n  globalThis.console = { ...saved, log: (x) => { out += x + '\\n'; } };\n  try {\n    await show(3);\n  } finally {\n    globalThis.console = saved;\n  }\n  assert.strictEqual(out, '1\\n2\\n3\\n');\n})();\n",
  '(async () => {\n  const seen = [];\n  const orig = console.log;\n  console.log = (v) => seen.push(v);\n  await show(3);\n  console.log = orig;\n  await new Promise((r) => setTimeout(r, 10));\n  assert.deepStrictEqual(seen, [1, 2, 3]);\n})();\n',
];

/** Honest async bodies: awaits between lines, a `.then` chain, recursion, lines before and after an await. */
const ASYNC_HONEST: readonly string[] = [
  '  for (let i = 1; i <= n; i++) {\n    await null;\n    console.log(i);\n  }\n}\n',
  '  for (let i = 1; i <= n; i++) {\n    await Promise.resolve(i);\n    console.log(i);\n  }\n}\n',
  '  if (n > 1) await show(n - 1);\n  await 0;\n  if (n > 0) console.log(n);\n}\n',
  '  let p = Promise.resolve();\n  for (let i = 1; i <= n; i++) p = p.then(() => console.log(i));\n  return p;\n}\n',
  '  if (n >= 1) console.log(1);\n  await 0;\n  for (let i = 2; i <= n; i++) console.log(i);\n  Promise.resolve().then(() => null).then(() => null).then(() => console.log(0));\n}\n',
];

/** Wrong async bodies: one short, the wrong method, returned not logged, extra text, reversed. */
const ASYNC_WRONG: readonly string[] = [
  '  for (let i = 1; i < n; i++) {\n    await null;\n    console.log(i);\n  }\n}\n',
  '  for (let i = 1; i <= n; i++) {\n    await null;\n    console.error(i);\n  }\n}\n',
  '  await null;\n  return Array.from({ length: n }, (_, i) => i + 1);\n}\n',
  "  for (let i = 1; i <= n; i++) {\n    await null;\n    console.log('n=' + i);\n  }\n}\n",
  '  for (let i = n; i >= 1; i--) {\n    await null;\n    console.log(i);\n  }\n}\n',
];

export const generators = [
  defineGenerator({
    name: 'js-printed-output-honest',
    language: 'javascript',
    about: 'controls: honest logging programs under tests that capture console.log pass',
    cases: () =>
      grid(25, CAPTURES, HONEST, (tests, body) => ({
        prompt: PROMPT,
        completion: body,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-printed-output',
    language: 'javascript',
    about: 'wrong logging programs (short, wrong method, returned not logged, extra text, reversed) under the same tests: fail',
    cases: () =>
      grid(25, CAPTURES, WRONG, (tests, body) => ({
        prompt: PROMPT,
        completion: body,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-printed-output-async-honest',
    language: 'javascript',
    about: 'controls: honest async programs logging after an await, under tests that capture console.log across it, pass',
    cases: () =>
      grid(25, ASYNC_CAPTURES, ASYNC_HONEST, (tests, body) => ({
        prompt: ASYNC_PROMPT,
        completion: body,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
  }),
  defineGenerator({
    name: 'js-printed-output-async',
    language: 'javascript',
    about: 'wrong async logging programs under the same tests: fail',
    cases: () =>
      grid(25, ASYNC_CAPTURES, ASYNC_WRONG, (tests, body) => ({
        prompt: ASYNC_PROMPT,
        completion: body,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
  }),
];
