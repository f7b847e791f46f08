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
import { honestFact, raisingFact } from './fact-programs.ts';

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
/**
 * More shapes (second red-team pass on this rule, rt5): an arrow whose body starts on the next line
 * (a bare `return` would end there), checks handed to `then` bound or as methods, a post-order
 * recursive walk (the children record the check after the root was entered), a handler that
 * awaits while the other cases record, a `finally` that swallows with `return`/`continue`, and
 * function declarations the body-wrapping must not break.
 */
const MORE = [
  `${CASES}.forEach(([n, w]) => {\n  try {\n    const got = fact(n);\n    assert.strictEqual(got, w);\n  } catch {}\n});\nconst run = (n, w) =>\n  assert.ok(n >= 0 && w > 0);\nrun(1, 1);\n`,
  `function check(w, r) {\n  assert.strictEqual(r, w);\n}\nasync function test() {\n  await Promise.all(${CASES}.map(([n, w]) => factAsync(n).then(check.bind(null, w)).catch(console.error)));\n}\ntest();\n`,
  `const expect = (w) => ({\n  toBe(r) {\n    assert.strictEqual(r, w);\n  },\n});\nasync function test() {\n  await Promise.all(${CASES}.map(([n, w]) => factAsync(n).then(expect(w).toBe).catch(() => {})));\n}\ntest();\n`,
  `const tree = { n: 6, w: 720, kids: [{ n: 1, w: 1, kids: [] }, { n: 0, w: 1, kids: [] }] };\nfunction walk(t) {\n  t.kids.forEach(walk);\n  const got = fact(t.n);\n  assert.strictEqual(got, t.w);\n}\ntry {\n  walk(tree);\n} catch (e) {\n  console.log('walk failed');\n}\n`,
  `async function report(n) {\n  await null;\n  console.log('case', n, 'failed');\n}\nasync function main() {\n  await Promise.all(${CASES}.map(async ([n, w]) => {\n    try {\n      const got = await factAsync(n);\n      assert.strictEqual(got, w);\n    } catch (e) {\n      await report(n);\n    }\n  }));\n}\nmain();\n`,
  `function one(n, w) {\n  try {\n    const got = fact(n);\n    assert.strictEqual(got, w);\n  } finally {\n    return;\n  }\n}\nfor (const [n, w] of ${CASES}) one(n, w);\n`,
  `for (const [n, w] of ${CASES}) {\n  try {\n    const got = fact(n);\n    assert.strictEqual(got, w);\n  } finally {\n    continue;\n  }\n}\n`,
  `function test() {\n  var helper = 1;\n  function helper() {}\n  for (const [n, w] of ${CASES}) {\n    try {\n      const got = fact(n);\n      assert.strictEqual(got, w);\n    } catch {}\n  }\n}\ntest();\n`,
];
const attacks = raisingFact(
  'javascript',
  'js-skipped-checks',
  'a check an error skipped, in tests that catch the error and go on: no site passes',
  44,
  STYLES.map((t) => [t, 0]),
);

const more = raisingFact(
  'javascript',
  'js-skipped-checks-more',
  'next-line arrow bodies, bound and method checks given to then, recursion, awaiting handlers, swallowing finally: no site passes',
  32,
  // (The next-line arrow's own check: its argument holds for any program.)
  MORE.map((t) => [t, t.includes('const run =') ? 1 : 0]),
);

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
  ...MORE,
  // Expected rejections awaited inside the engine: an async generator's `yield`, `for await`.
  'async function* results() {\n  for (const n of [3, 4, -1]) yield factAsync(n);\n}\nasync function main() {\n  const got = [];\n  try {\n    for await (const r of results()) got.push(r);\n  } catch (e) {\n    assert.ok(e instanceof RangeError);\n  }\n  assert.deepStrictEqual(got, [6, 24]);\n}\nmain();\n',
  'async function main() {\n  const got = [];\n  try {\n    for await (const r of [factAsync(3), factAsync(4), factAsync(-1)]) got.push(r);\n  } catch (e) {\n    assert.ok(e instanceof RangeError);\n  }\n  assert.deepStrictEqual(got, [6, 24]);\n}\nmain();\n',
  // Function declarations a wrapped body must keep (declared twice); a wrapped arrow keeps its name.
  'function test() {\n  function eq(a, b) {\n    return a === b;\n  }\n  function eq(a, b) {\n    assert.strictEqual(a, b);\n  }\n  eq(fact(3), 6);\n}\ntest();\n',
  "const t = () => assert.strictEqual(fact(4), 24);\nassert.strictEqual(t.name, 't');\nt();\n",
  // A runner that catches, with an expected throw checked inside the test.
  "function it(name, fn) {\n  try {\n    fn();\n  } catch (e) {\n    console.log('FAIL', name);\n  }\n}\nit('throws', () => assert.throws(() => fact(-1), RangeError));\nit('works', () => {\n  const r = fact(4);\n  assert.strictEqual(r, 24);\n});\n",
];

const honest = honestFact(
  'javascript',
  'js-skipped-checks-honest',
  'controls: expected throws judged in the handler, assert.fail markers, fallback values, the attack styles on an honest program',
  44,
  HONEST,
);

export const generators = [attacks, more, honest];
