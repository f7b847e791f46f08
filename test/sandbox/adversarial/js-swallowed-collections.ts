/**
 * JavaScript: answers collected in one loop of the tests and checked in another, with the errors
 * of the program swallowed while collecting. A loop that holds no check (`for (const [n, e] of
 * cases) try { got.push([sq(n), e]) } catch { continue }`, then `for (const [g, w] of got)
 * assert.strictEqual(g, w)`) dropped every case the program threw on, so a program throwing on the
 * hard cases passed on the easy ones (a limit listed in docs/sandbox.md until now). Now an error of
 * the program that came in inside a quiet loop of the tests (no check, failure marker or `throw`
 * in it) and that a handler which only leaves or logs took fails every check that ran after it.
 * Attacks: fail with nothing passed. Controls: honest programs under the same tests pass, as do
 * handlers that record the case (a stand-in pushed, a flag set, the error kept and counted) and
 * "must throw" loops that `throw` when the program accepts a bad input.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const CASES = 'const cases = [[2, 4], [3, 9], [7, 49], [9, 81]];\nconst got = [];\n';
const CHECK = 'for (const [g, w] of got) assert.strictEqual(g, w);\n';

/** Loops that collect answers, swallowing what the program throws, and checks of what they kept. */
const COLLECTING: ReadonlyArray<{ prompt: string; tests: string }> = [
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}for (const [n, e] of cases) {\n  try {\n    got.push([sq(n), e]);\n  } catch {\n    continue;\n  }\n}\n${CHECK}`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}cases.forEach(([n, e]) => {\n  try {\n    got.push([sq(n), e]);\n  } catch (err) {\n    console.log('skipped', n, err && err.message);\n  }\n});\ngot.forEach(([g, w]) => assert.strictEqual(g, w));\n`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}try {\n  for (const [n, e] of cases) got.push([sq(n), e]);\n} catch {}\n${CHECK}`,
  },
  {
    prompt: 'async function sq(n) {\n',
    tests: `${CASES}(async () => {\n  for (const [n, e] of cases) {\n    try {\n      got.push([await sq(n), e]);\n    } catch {}\n  }\n  ${CHECK}})();\n`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `const cases = [[2, 4], [3, 9], [7, 49], [9, 81]];\nconst got = cases\n  .map(([n, e]) => {\n    try {\n      return [sq(n), e];\n    } catch {\n      return;\n    }\n  })\n  .filter(Boolean);\nassert.deepStrictEqual(\n  got.map((p) => p[0]),\n  got.map((p) => p[1]),\n);\n`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}for (let i = 0; i < cases.length; i++) {\n  try {\n    got.push([sq(cases[i][0]), cases[i][1]]);\n  } catch (e) {\n    break;\n  }\n}\n${CHECK}`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `function collect(cs) {\n  const out = [];\n  for (const [n, e] of cs) {\n    try {\n      out.push([sq(n), e]);\n    } catch (e) {\n      // not our problem here\n    }\n  }\n  return out;\n}\nfor (const [g, w] of collect([[2, 4], [3, 9], [7, 49], [9, 81]])) assert.strictEqual(g, w);\n`,
  },
];

/** How an attack throws on the hard cases (n > 5); it answers the easy ones. */
const THROWS = ["throw new RangeError('too hard')", "throw new Error('no')", 'return null.x', "throw 'plain'"];
const HONEST = "  if (n < 0) throw new RangeError('negative');\n  return n * n;\n}\n";

/** Honest tests whose quiet loop's handler records the case, or whose loop judges it itself. */
const RECORDING: readonly string[] = [
  'const got = [];\nfor (const n of [2, -1, 3]) {\n  try {\n    got.push(sq(n));\n  } catch {\n    got.push(null);\n  }\n}\nassert.deepStrictEqual(got, [4, null, 9]);\n',
  "for (const n of [-1, -2]) {\n  let threw = false;\n  try {\n    sq(n);\n  } catch {\n    threw = true;\n  }\n  if (!threw) throw new Error('accepted ' + n);\n}\nassert.strictEqual(sq(3), 9);\n",
  'const errs = [];\nfor (const n of [2, -1, -5]) {\n  try {\n    sq(n);\n  } catch (e) {\n    errs.push(e);\n  }\n}\nassert.strictEqual(errs.length, 2);\nassert.ok(errs.every((e) => e instanceof RangeError));\n',
  'let bad = 0;\nfor (const n of [2, -1, 3]) {\n  try {\n    sq(n);\n  } catch {\n    bad++;\n  }\n}\nassert.strictEqual(bad, 1);\n',
  "for (const n of [-1, -2]) {\n  try {\n    sq(n);\n  } catch {\n    continue;\n  }\n  assert.fail('accepted ' + n);\n}\nassert.strictEqual(sq(4), 16);\n",
];

export const generators = [
  defineGenerator({
    name: 'js-swallowed-collections',
    language: 'javascript',
    about: 'a quiet loop collects answers and swallows the errors of the hard cases, another loop checks what it kept: fail',
    cases: () =>
      grid(28, COLLECTING, THROWS, (loop, how) => ({
        prompt: loop.prompt,
        completion: `  if (n > 5) ${how};\n  return n * n;\n}\n`,
        tests: JS_ASSERT + loop.tests,
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-swallowed-collections-honest',
    language: 'javascript',
    about:
      'controls: honest programs under the same loops, and quiet loops whose handler records the case (stand-in, flag, kept error, counter) or that throw when a bad input is accepted, pass',
    cases: () => [
      ...grid(14, COLLECTING, [0, 1], (loop, i) => ({
        prompt: loop.prompt,
        completion: HONEST + (i ? '// 1\n' : ''),
        tests: JS_ASSERT + loop.tests,
        expect: ['pass'],
      })),
      ...grid(15, RECORDING, [0, 1, 2], (tests, i) => ({
        prompt: 'function sq(n) {\n',
        completion: HONEST + `// ${i}\n`,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
    ],
  }),
];
