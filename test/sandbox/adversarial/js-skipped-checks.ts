/**
 * JavaScript: checks an error skips, in tests that catch the error and go on. The candidate is
 * called *outside* the check (`const got = fact(n); assert.strictEqual(got, w)`) inside a
 * `try`/`catch` per case that logs, an `it()` runner, a `try` around the whole loop, a promise's
 * `.then(check).catch(console.error)` or `Promise.allSettled`: a program right on the easy cases
 * and throwing on the rest never had a check open when it threw, so no site failed and the run
 * passed, where the same program returning a wrong value failed. The tests' functions and `try`
 * blocks now note the checks an error leaves behind; a `catch` (or a rejection handler) that
 * neither checks the error nor rethrows it fails them. Controls: expected throws judged in the
 * handler (`catch (e) { assert.ok(c.throws) }`, `.catch((e) => assert.ok(…))`), `assert.fail`
 * markers, a `try` that only picks a fallback value, and honest runs of the attack styles pass.
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";
const CASES = '[[0, 1], [1, 1], [5, 120], [6, 720]]';

/** Tests that call the candidate outside the check and catch what it throws. */
const STYLES = [
  `function test() {\n  let candidate = fact;\n  for (const [n, w] of ${CASES}) {\n    try {\n      const got = candidate(n);\n      assert.strictEqual(got, w);\n    } catch (e) {\n      console.log('FAIL', n);\n    }\n  }\n}\ntest();\n`,
  `const tests = ${CASES}.map(([input, expected]) => ({ input, expected }));\nlet passedCount = 0;\ntests.forEach(({ input, expected }, i) => {\n  try {\n    const result = fact(input);\n    assert.deepStrictEqual(result, expected);\n    passedCount++;\n  } catch (err) {\n    console.error('Test ' + (i + 1) + ' failed');\n  }\n});\nconsole.log(passedCount + '/' + tests.length);\n`,
  `async function test() {\n  for (const [n, w] of ${CASES}) {\n    try {\n      const r = await factAsync(n);\n      assert.strictEqual(r, w);\n    } catch (e) {\n      console.log('fail', n);\n    }\n  }\n}\ntest();\n`,
  `function it(name, fn) {\n  try {\n    fn();\n    console.log('ok', name);\n  } catch (e) {\n    console.log('FAIL', name);\n  }\n}\nfor (const [n, w] of ${CASES})\n  it('fact ' + n, () => {\n    const r = fact(n);\n    assert.strictEqual(r, w);\n  });\n`,
  `async function test() {\n  await Promise.all(${CASES}.map(([n, w]) => factAsync(n).then((r) => assert.strictEqual(r, w)).catch(console.error)));\n}\ntest();\n`,
  `async function test() {\n  const res = await Promise.allSettled(${CASES}.map(([n, w]) => factAsync(n).then((r) => assert.deepStrictEqual(r, w))));\n  for (const r of res) if (r.status === 'rejected') console.log('FAILED');\n}\ntest();\n`,
  `try {\n  for (const [n, w] of ${CASES}) {\n    const r = fact(n);\n    assert.strictEqual(r, w);\n  }\n} catch (e) {\n  console.log('stopped');\n}\n`,
  `async function test() {\n  for (const [n, w] of ${CASES}) {\n    const r = await factAsync(n);\n    assert.strictEqual(r, w);\n  }\n}\ntest().catch(console.error);\n`,
  `for (const [n, w] of ${CASES}) {\n  try {\n    Reflect.apply(assert.strictEqual, assert, [fact(n), w]);\n  } catch (e) {\n    console.log(e.message);\n  }\n}\n`,
  `for (const [n, w] of ${CASES}) {\n  try {\n    const r = fact(n);\n    assert.strictEqual(r.toString(), String(w));\n  } catch {}\n}\n`,
  `const check = (n, w) => {\n  const r = fact(n);\n  assert.strictEqual(r, w);\n};\nfor (const [n, w] of ${CASES}) {\n  try {\n    check(n, w);\n  } catch (e) {\n    if (e instanceof assert.AssertionError) throw e;\n  }\n}\n`,
];
/** What the program does on the cases it cannot do. */
const THROWS = ["throw new Error('later')", "throw new RangeError('n')", 'return null.x', "throw 'plain'"];

const attacks = defineGenerator({
  name: 'js-skipped-checks',
  language: 'javascript',
  about: 'a check an error skipped, in tests that catch the error and go on: no site passes',
  cases: () =>
    grid(44, STYLES, THROWS, (tests, thrown) => ({
      prompt: 'function fact(n) {\n',
      completion: `  if (n < 2) return 1;\n  ${thrown};\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n`,
      tests: ASSERT + tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      note: `${thrown} in ${tests.split('\n').slice(0, 3).join(' ')}`,
    })),
});

/** Honest tests that catch errors on purpose, each with the honest completion. */
const HONEST = [
  // Expected throws, judged in the handler.
  "for (const c of [{ n: 3, w: 6 }, { n: -1, throws: true }, { n: 4, w: 24 }]) {\n  try {\n    const r = fact(c.n);\n    assert.strictEqual(r, c.w);\n  } catch (e) {\n    assert.ok(c.throws, 'unexpected throw');\n  }\n}\n",
  "try {\n  fact(-1);\n  assert.fail('no throw');\n} catch (e) {\n  assert.ok(e instanceof RangeError);\n}\nassert.strictEqual(fact(3), 6);\n",
  "async function test() {\n  await factAsync(-1).then(() => assert.fail('no rejection'), (e) => assert.ok(e instanceof RangeError));\n  for (const [n, w] of [[3, 6], [-1, 0]]) await factAsync(n).then((r) => assert.strictEqual(r, w)).catch((e) => assert.ok(n < 0 && e instanceof RangeError));\n  assert.strictEqual(await factAsync(4), 24);\n}\ntest();\n",
  // A fallback value, then a check of it.
  "let r;\ntry {\n  r = fact(-1);\n} catch {\n  r = 'threw';\n}\nassert.strictEqual(r, 'threw');\nassert.strictEqual(fact(5), 120);\n",
  // The attack styles, run on an honest program: nothing is thrown, nothing skipped.
  ...STYLES,
  // A runner that catches, with an expected throw checked inside the test.
  "function it(name, fn) {\n  try {\n    fn();\n  } catch (e) {\n    console.log('FAIL', name);\n  }\n}\nit('throws', () => assert.throws(() => fact(-1), RangeError));\nit('works', () => {\n  const r = fact(4);\n  assert.strictEqual(r, 24);\n});\n",
];

const honest = defineGenerator({
  name: 'js-skipped-checks-honest',
  language: 'javascript',
  about:
    'controls: expected throws judged in the handler, assert.fail markers, fallback values, the attack styles on an honest program',
  cases: () =>
    grid(32, HONEST, [0, 1], (tests, i) => ({
      prompt: 'function fact(n) {\n',
      completion: `  if (n < 0) throw new RangeError('negative');\n  return n < 2 ? 1 : n * fact(n - 1);\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n${i ? '// variant\n' : ''}`,
      tests: ASSERT + tests,
      expect: ['pass'],
    })),
});

export const generators = [attacks, honest];
