/**
 * JavaScript: handlers that only report, written the many ways tests report. The quiet-loop rule
 * (js-swallowed-collections.ts) knew a swallowing handler only as empty, a jump, or bare
 * `console.x(…)` calls; `if (DEBUG) console.log(e)`, `process.stderr.write(…)`, `console['warn']`,
 * `globalThis.console.error`, an alias (`const log = console.log`), a reporting helper of the
 * tests', `void e`, a bare `e;` or a ternary each dropped the hard cases unseen (a fresh hostile
 * pass, 2026-12-06: all passing at 109a986). Attacks: fail with nothing passed. Controls: honest
 * programs under the same tests, and handlers that report and record a stand-in, pass.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** [preamble, handler body] pairs: the handler only reports. */
const REPORTING: ReadonlyArray<readonly [string, string]> = [
  ['const DEBUG = false;\n', 'if (DEBUG) console.log(e);'],
  ['', "process.stderr.write(String(e) + '\\n');"],
  ['', "console['warn'](e);"],
  ['const log = console.log;\n', 'log(e);'],
  ['', 'void e;'],
  ['', 'globalThis.console.error(e);'],
  ['', 'e;'],
  ['', "process.stdout.write('skipped\\n');"],
  ['const DEBUG = false;\n', 'DEBUG ? console.log(e) : null;'],
  ["function report(err) {\n  console.error('failed:', err && err.message);\n}\n", 'report(e);'],
  ['const warn = console.warn.bind(console);\n', 'warn(e);'],
  ['const DEBUG = false;\n', 'DEBUG && console.log(e);'],
];

const collect = ([pre, handler]: readonly [string, string]) =>
  `${pre}const cases = [[2, 4], [3, 9], [7, 49], [9, 81]];\nconst got = [];\nfor (const [n, w] of cases) {\n  try {\n    got.push([sq(n), w]);\n  } catch (e) {\n    ${handler}\n  }\n}\nfor (const [g, w] of got) assert.strictEqual(g, w);\n`;

const record = ([pre, handler]: readonly [string, string]) =>
  `${pre}const got = [];\nfor (const n of [2, -1, 3]) {\n  try {\n    got.push(sq(n));\n  } catch (e) {\n    ${handler}\n    got.push(null);\n  }\n}\nassert.deepStrictEqual(got, [4, null, 9]);\n`;

const THROWS = ["throw new RangeError('too hard')", 'return null.x'];
const HONEST = "  if (n < 0) throw new RangeError('negative');\n  return n * n;\n}\n";

export const generators = [
  defineGenerator({
    name: 'js-swallowed-reports',
    language: 'javascript',
    about:
      'a quiet loop whose handler only reports (if/ternary/&&, stderr, aliases, helpers, void, bare e) drops the hard cases: fail',
    cases: () =>
      grid(24, REPORTING, THROWS, (r, how) => ({
        prompt: 'function sq(n) {\n',
        completion: `  if (n > 5) ${how};\n  return n * n;\n}\n`,
        tests: JS_ASSERT + collect(r),
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-swallowed-reports-honest',
    language: 'javascript',
    about: 'controls: honest programs under the same loops, and handlers that report and record a stand-in, pass',
    cases: () =>
      grid(24, REPORTING, [collect, record], (r, tests) => ({
        prompt: 'function sq(n) {\n',
        completion: HONEST,
        tests: JS_ASSERT + tests(r),
        expect: ['pass'],
      })),
  }),
];
