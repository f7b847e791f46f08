/**
 * JavaScript: answers collected in a quiet loop of the tests through a promise, whose rejection
 * handler only leaves or logs (`await sq(n).then((v) => got.push([v, e])).catch(() => {})`), then
 * checked in another loop. The `catch`-clause form of this was closed by c2e1b3c; the promise form
 * (`.catch(() => {})`, `.then(ok, () => {})`, `.catch(console.error)`) dropped every case the
 * program rejected, so a program rejecting the hard cases passed on the easy ones (a limit
 * docs/sandbox.md listed). Such a handler written in place is now told to the harness as a
 * swallowing `catch` clause is. Attacks: fail with nothing passed. Controls: honest programs under
 * the same loops pass, as do loops whose handler records the case (a stand-in pushed, the error
 * kept) and "must reject" loops that throw when a bad input is accepted.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const CASES = 'const cases = [[2, 4], [3, 9], [7, 49], [9, 81]];\nconst got = [];\n';
const CHECK = 'for (const [g, w] of got) assert.strictEqual(g, w);\n';
/** The tests' body, run in an async function (they await). */
const run = (body: string) => `${CASES}(async () => {\n${body}${CHECK}})();\n`;

/** Quiet loops collecting answers through promises, dropping the rejections. */
const COLLECTING: readonly string[] = [
  run('for (const [n, e] of cases) await sq(n).then((v) => got.push([v, e])).catch(() => {});\n'),
  run('for (const [n, e] of cases) await sq(n).then((v) => got.push([v, e]), () => {});\n'),
  run(
    "for (const [n, e] of cases) {\n  await sq(n)\n    .then((v) => got.push([v, e]))\n    .catch((err) => console.log('skipped', n, err));\n}\n",
  ),
  run('for (const [n, e] of cases) await sq(n).then((v) => got.push([v, e])).catch(console.error);\n'),
  run('await Promise.all(cases.map(([n, e]) => sq(n).then((v) => got.push([v, e])).catch(function () {})));\n'),
  run(
    'for (const [n, e] of cases) {\n  const p = sq(n);\n  await p.then((v) => got.push([v, e])).catch(async () => {\n    return;\n  });\n}\n',
  ),
];

/** How an attack rejects on the hard cases (n > 5); it answers the easy ones. */
const THROWS = ["throw new RangeError('too hard')", "throw new Error('no')", 'return null.x', "throw 'plain'"];
const HONEST = "  if (n < 0) throw new RangeError('negative');\n  return n * n;\n}\n";

/** Honest tests whose promise handler records the case, or whose loop judges it itself. */
const RECORDING: readonly string[] = [
  'const got = [];\n(async () => {\n  for (const n of [2, -1, 3]) await sq(n).then((v) => got.push(v)).catch(() => got.push(null));\n  assert.deepStrictEqual(got, [4, null, 9]);\n})();\n',
  "(async () => {\n  for (const n of [-1, -2]) await sq(n).then(() => {\n    throw new Error('accepted ' + n);\n  }, () => {});\n  assert.strictEqual(await sq(3), 9);\n})();\n",
  'const errs = [];\n(async () => {\n  for (const n of [2, -1, -5]) await sq(n).catch((e) => errs.push(e));\n  assert.strictEqual(errs.length, 2);\n  assert.ok(errs.every((e) => e instanceof RangeError));\n})();\n',
  '(async () => {\n  await sq(-1).catch(() => {});\n  assert.strictEqual(await sq(4), 16);\n})();\n',
];

export const generators = [
  defineGenerator({
    name: 'js-swallowed-promises',
    language: 'javascript',
    about:
      'a quiet loop collects answers through promises whose rejection handler only leaves or logs, another loop checks what it kept: fail',
    cases: () =>
      grid(24, COLLECTING, THROWS, (tests, how) => ({
        prompt: 'async function sq(n) {\n',
        completion: `  if (n > 5) ${how};\n  return n * n;\n}\n`,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-swallowed-promises-honest',
    language: 'javascript',
    about:
      'controls: honest programs under the same loops, and promise handlers that record the case (stand-in, kept error) or loops that throw when a bad input is accepted, pass',
    cases: () => [
      ...grid(12, COLLECTING, [0, 1], (tests, i) => ({
        prompt: 'async function sq(n) {\n',
        completion: HONEST + (i ? '// 1\n' : ''),
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(12, RECORDING, [0, 1, 2], (tests, i) => ({
        prompt: 'async function sq(n) {\n',
        completion: HONEST + `// ${i}\n`,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
    ],
  }),
];
