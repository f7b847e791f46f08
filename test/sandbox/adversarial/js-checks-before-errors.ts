/**
 * JavaScript: a caught error in a loop pass that ran a check before the error came in. The rule for
 * a caught error in a pass (js-caught-passes.ts, js-caught-rejections.ts) let a pass that had run
 * any of the loop's checks keep its cases' passes, so tests that check something of the case first
 * (`assert.ok(n >= 0)`, a check of an earlier call), then catch what the program throws and go on
 * past the check of its answer, kept the easy cases' pass for a program throwing on the hard ones.
 * Now a pass judges its case only by a check that ran after the error came in, or when no check
 * of the loop written after where the error came in was skipped. Attacks: fail with nothing passed
 * beyond the checks that ran before. Controls: honest programs under the same tests pass, as do
 * loops that check a good input and expect a bad one to throw (a failure marker after the `try`,
 * or a check in the `catch`).
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const CASES = 'const cases = [[2, 4], [3, 9], [7, 49], [9, 81]];\n';

/** Loops that check something first, then catch the program's error and go on. */
const LOOPS: ReadonlyArray<{ prompt: string; tests: string }> = [
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}for (const [n, e] of cases) {\n  assert.ok(n >= 0);\n  let r;\n  try {\n    r = sq(n);\n  } catch (err) {\n    continue;\n  }\n  assert.strictEqual(r, e);\n}\n`,
  },
  {
    prompt: 'async function sq(n) {\n',
    tests: `${CASES}(async () => {\n  for (const [n, e] of cases) {\n    assert.ok(Number.isInteger(n));\n    let r;\n    try {\n      r = await sq(n);\n    } catch {\n      continue;\n    }\n    assert.strictEqual(r, e);\n  }\n})();\n`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}cases.forEach(([n, e]) => {\n  assert.strictEqual(typeof n, 'number');\n  let r;\n  try {\n    r = sq(n);\n  } catch {\n    return;\n  }\n  assert.deepStrictEqual(r, e);\n});\n`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}for (const [n, e] of cases) {\n  assert.strictEqual(sq(1), 1);\n  let ok = true;\n  let r;\n  try {\n    r = sq(n);\n  } catch {\n    ok = false;\n  }\n  if (ok) assert.strictEqual(r, e);\n}\n`,
  },
  {
    prompt: 'function sq(n) {\n',
    tests: `${CASES}function attempt(f) {\n  try {\n    return { ok: true, v: f() };\n  } catch (e) {\n    return { ok: false };\n  }\n}\nfor (const [n, e] of cases) {\n  assert.ok(n > 0);\n  const r = attempt(() => sq(n));\n  if (!r.ok) continue;\n  assert.strictEqual(r.v, e);\n}\n`,
  },
];

/** How an attack throws on the hard cases (n > 5); it answers the easy ones. */
const THROWS = ["throw new RangeError('too hard')", "throw new Error('no')", 'return null.x', "throw 'plain'"];
const HONEST = "  if (n < 0) throw new RangeError('negative');\n  return n * n;\n}\n";

/** Honest loops that check a good input, then expect a bad one to throw. */
const EXPECTING: readonly string[] = [
  "for (const [good, bad] of [[2, -1], [3, -2]]) {\n  assert.strictEqual(sq(good), good * good);\n  try {\n    sq(bad);\n  } catch (e) {\n    continue;\n  }\n  assert.fail('accepted ' + bad);\n}\n",
  'for (const n of [2, -1, 3]) {\n  assert.ok(Number.isInteger(n));\n  let r;\n  try {\n    r = sq(n);\n  } catch (e) {\n    assert.ok(e instanceof RangeError);\n    continue;\n  }\n  assert.strictEqual(r, n * n);\n}\n',
  'for (const n of [-1, -2]) {\n  assert.ok(n < 0);\n  assert.throws(() => sq(n), RangeError);\n}\n',
  "for (const [n, bad] of [[2, false], [-1, true]]) {\n  assert.strictEqual(typeof n, 'number');\n  let threw = false;\n  try {\n    sq(n);\n  } catch {\n    threw = true;\n  }\n  assert.strictEqual(threw, bad);\n}\n",
];

export const generators = [
  defineGenerator({
    name: 'js-checks-before-errors',
    language: 'javascript',
    about:
      'a loop pass checks something first, then catches the error of a hard case and goes on past the check of the answer: fail',
    cases: () =>
      grid(20, LOOPS, THROWS, (loop, how) => ({
        prompt: loop.prompt,
        completion: `  if (n > 5) ${how};\n  return n * n;\n}\n`,
        tests: JS_ASSERT + loop.tests,
        expect: ['fail'],
        maxPassed: 1,
      })),
  }),
  defineGenerator({
    name: 'js-checks-before-errors-honest',
    language: 'javascript',
    about:
      'controls: honest programs under the same loops, and loops that expect a bad input to throw after checking a good one, pass',
    cases: () => [
      ...grid(10, LOOPS, [0, 1], (loop, i) => ({
        prompt: loop.prompt,
        completion: HONEST + (i ? '// 1\n' : ''),
        tests: JS_ASSERT + loop.tests,
        expect: ['pass'],
      })),
      ...grid(12, EXPECTING, [0, 1, 2], (tests, i) => ({
        prompt: 'function sq(n) {\n',
        completion: HONEST + `// ${i}\n`,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
    ],
  }),
];
