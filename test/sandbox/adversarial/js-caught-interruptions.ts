/**
 * JavaScript: a check whose arguments the program's error interrupts, in tests that catch the
 * error and go on — a `try`/`catch` per case that logs, a hand-written `it()` runner, a failure
 * counter, `test().catch(console.error)`. The check never records that execution, so a program
 * right on the easy case and throwing on the rest kept the easy case's pass (and the run passed).
 * An assert call now reports when its arguments were all evaluated (`done`); one an error of the
 * program crossed while it was open, and that never finished, fails its sites. Also: a check
 * nested in another's arguments (a tests comparator the program calls) no longer takes over the
 * outer check's sites. Controls: expected throws checked the usual ways (`assert.throws`, `try` /
 * `catch` around the call, a `safe()` helper inside the check, `assert.rejects`) pass.
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";
const CASES = '[[0, 1], [1, 1], [5, 120], [6, 720]]';

/** Test styles that catch what a case throws and go on. */
const STYLES = [
  `for (const [n, w] of ${CASES}) {\n  try {\n    assert.strictEqual(fact(n), w);\n  } catch (e) {\n    console.log('case failed', n);\n  }\n}\n`,
  `function it(name, fn) {\n  try {\n    fn();\n    console.log('ok', name);\n  } catch (e) {\n    console.log('FAIL', name, e.message);\n  }\n}\nfor (const [n, w] of ${CASES}) it('fact ' + n, () => assert.strictEqual(fact(n), w));\n`,
  `let failures = 0;\nfor (const [n, w] of ${CASES}) {\n  try {\n    assert.deepStrictEqual(fact(n), w);\n  } catch {\n    failures++;\n  }\n}\nconsole.log(failures, 'failures');\n`,
  `async function test() {\n  for (const [n, w] of ${CASES}) assert.strictEqual(await factAsync(n), w);\n}\ntest().catch(console.error);\n`,
  // Concurrent cases: each execution of the one check is open while it awaits.
  `async function test() {\n  await Promise.all(\n    ${CASES}.map(async ([n, w]) => {\n      try {\n        assert.strictEqual(await factAsync(n), w);\n      } catch {}\n    }),\n  );\n}\ntest();\n`,
  `const results = [];\nfor (const [n, w] of ${CASES}) {\n  try {\n    assert.ok(fact(n) === w, 'fact ' + n);\n    results.push(true);\n  } catch (e) {\n    results.push(false);\n  }\n}\n`,
];
/** What the program throws on the cases it cannot do. */
const THROWS = ["throw new Error('later')", "throw new RangeError('n')", 'return null.x', "throw 'plain'"];

const attacks = defineGenerator({
  name: 'js-caught-interruptions',
  language: 'javascript',
  about: "a check interrupted by the program's error in tests that catch it and go on: no site passes",
  cases: () =>
    grid(24, STYLES, THROWS, (tests, thrown) => ({
      prompt: 'function fact(n) {\n',
      completion: `  if (n < 2) return 1;\n  ${thrown};\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n`,
      tests: ASSERT + tests,
      expect: ['fail', 'error'],
      maxPassed: 0,
      note: `${thrown} in ${tests.split('\n')[0]}`,
    })),
});

/** Honest tests of expected throws, each with the honest completion. */
const HONEST = [
  // A check whose arguments threw the tests' own error (caught and judged by them), then an
  // expected throw of the program inside assert.throws: the stale check is not the one the program
  // interrupted. (Swallowed without a check, that error would fail the skipped check: see
  // js-skipped-checks.ts.)
  "try {\n  assert.ok(JSON.parse('{'));\n} catch (e) {\n  assert.ok(e instanceof SyntaxError);\n}\nassert.throws(() => fact(-1), RangeError);\nassert.strictEqual(fact(4), 24);\n",
  'assert.throws(() => fact(-1), RangeError);\nassert.strictEqual(fact(5), 120);\n',
  "try {\n  fact(-1);\n  assert.fail('no throw');\n} catch (e) {\n  assert.ok(e instanceof RangeError);\n}\nassert.strictEqual(fact(3), 6);\n",
  "function safe(f) {\n  try {\n    return f();\n  } catch (e) {\n    return 'error';\n  }\n}\nassert.strictEqual(safe(() => fact(-1)), 'error');\nassert.strictEqual(safe(() => fact(4)), 24);\n",
  'async function test() {\n  await assert.rejects(factAsync(-1), RangeError);\n  assert.strictEqual(await factAsync(5), 120);\n}\ntest();\n',
  "async function test() {\n  try {\n    await factAsync(-1);\n    assert.fail('no rejection');\n  } catch (e) {\n    assert.ok(e instanceof RangeError);\n  }\n}\ntest();\n",
  `for (const [n, w] of ${CASES}) {\n  try {\n    assert.strictEqual(fact(n), w);\n  } catch (e) {\n    console.log('case failed', n);\n  }\n}\n`,
  "const cmp = (a, b) => {\n  assert.strictEqual(typeof a, 'number');\n  return a - b;\n};\nfor (const xs of [[2, 1], [3, 1, 2]]) assert.deepStrictEqual(sortBy(xs, cmp), [...xs].sort((a, b) => a - b));\n",
  'assert.deepStrictEqual([0, 1, 5].map((n) => { try { return fact(n); } catch { return -1; } }), [1, 1, 120]);\nassert.strictEqual([-1].map((n) => { try { return fact(n); } catch { return -1; } })[0], -1);\n',
  "assert.strictEqual(fact(3), 6, (() => { try { fact(-1); return 'x'; } catch { return 'msg'; } })());\n",
  'let caught = 0;\nfor (const n of [-1, -2]) {\n  try {\n    assert.strictEqual(fact(n), 1);\n  } catch (e) {\n    if (e instanceof RangeError) caught++;\n  }\n}\nassert.strictEqual(caught, 2);\n',
];

const honest = defineGenerator({
  name: 'js-caught-interruptions-honest',
  language: 'javascript',
  about:
    'controls: expected throws checked with assert.throws, try/catch around the call, a safe() helper, assert.rejects; nested tests callbacks',
  cases: () =>
    grid(20, HONEST, [0, 1], (tests, i) => {
      // The last style asks for throws inside a check's arguments: the tests expect them, but the
      // check never ran; a sound strict harness fails it (see docs/sandbox.md, "Assertion sites").
      const expectsFailure = tests.startsWith('let caught');
      return {
        prompt: 'function fact(n) {\n',
        completion:
          `  if (n < 0) throw new RangeError('negative');\n  return n < 2 ? 1 : n * fact(n - 1);\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n` +
          `function sortBy(xs, cmp) {\n  return xs.slice().sort(cmp);\n}\n${i ? '// variant\n' : ''}`,
        tests: ASSERT + tests,
        expect: expectsFailure ? ['fail'] : ['pass'],
      };
    }),
});

export const generators = [attacks, honest];
