/**
 * JavaScript: the tests pass a callback to the candidate and check what it is given; the program
 * answers the first case right, then hands the callback a value that makes the check's own
 * arguments throw (`r.total` of null) inside a `try` of its own, and swallows the error. The check
 * never recorded that execution, so without a rule its site kept the first case's pass. An
 * execution interrupted inside a callback the program called is not one the check passed: its
 * sites fail, as a wrong value would fail them. Controls: honest callbacks, callbacks the tests
 * make throw on purpose (a retry helper), and program-caught errors of callbacks with no check
 * open all pass.
 */
import { defineGenerator, grid, variants } from './framework.ts';

/** What the program hands the callback from the second case on, and the check that throws on it. */
const POISONS: ReadonlyArray<readonly [given: string, check: string]> = [
  ['null', 'assert.strictEqual(r.total, e)'],
  ['undefined', 'assert.deepStrictEqual(r.items.length, e)'],
  ["'{'", 'assert.strictEqual(JSON.parse(r).total, e)'],
  ["'x'", 'assert.strictEqual(BigInt(r), BigInt(e))'],
  ['-1', 'assert.strictEqual(new Array(r).length, e)'],
];
/** How the program swallows what the callback threw. */
const SWALLOWS = [
  (call: string) => `try { ${call}; } catch {}`,
  (call: string) => `try { ${call}; } catch (err) { return 0; }`,
  (call: string) => `try { ${call}; } finally { return 0; }`,
  (call: string) => `Promise.resolve().then(() => ${call}).catch(() => {})`,
];
/** How the tests pass the callback (over three cases; e is the expected total). */
const TESTS = [
  (check: string) => `for (const [x, e] of [[1, 1], [2, 2], [3, 3]]) f(x, (r) => ${check});\n`,
  (check: string) =>
    `function got(e) {\n  return function (r) {\n    ${check};\n  };\n}\n[1, 2, 3].forEach((x) => f(x, got(x)));\n`,
  (check: string) => `for (const x of [1, 2, 3]) {\n  const e = x;\n  f(x, { done: (r) => ${check} }.done);\n}\n`,
  // An async callback: what its check's arguments throw rejects its promise instead.
  (check: string) => `for (const [x, e] of [[1, 1], [2, 2], [3, 3]]) f(x, async (r) => {\n  ${check};\n});\n`,
];

const swallowed = defineGenerator({
  name: 'js-callback-interrupted',
  language: 'javascript',
  about:
    'a check in a tests callback passed on case 1; later its arguments throw and the program swallows the error: no site passes',
  cases: () =>
    variants(24, (i) => {
      const [given, check] = POISONS[i % POISONS.length]!;
      const swallow = SWALLOWS[i % SWALLOWS.length]!;
      const tests = TESTS[Math.floor(i / SWALLOWS.length) % TESTS.length]!;
      // Case 1 gets the right shape for its check; the others get the poison.
      const right = check.includes('JSON.parse')
        ? 'JSON.stringify({ total: 1 })'
        : check.includes('BigInt')
          ? "'1'"
          : check.includes('new Array')
            ? '1'
            : check.includes('items')
              ? '{ items: [0] }'
              : '{ total: 1 }';
      return {
        prompt: 'function f(x, cb) {\n',
        completion: `  if (x === 1) { cb(${right}); return 1; }\n  ${swallow(`cb(${given})`)}\n  return 0;\n}\n`,
        tests: `const assert = require('node:assert');\n${tests(check)}`,
        expect: ['fail', 'error'],
        maxPassed: 0,
        note: `cb(${given}) swallowed by ${swallow('…')} in ${tests('…').split('\n')[0]}`,
      };
    }),
});

const honest = defineGenerator({
  name: 'js-callback-interrupted-honest',
  language: 'javascript',
  about: 'controls: honest callbacks, and errors of callbacks with no check open that the program catches',
  cases: () =>
    grid(20, [0, 1, 2, 3, 4], TESTS.concat([(check) => `f(1, (r) => ${check.replace(/\be\b/g, '1')});\n`]), (kind, tests) => {
      const check = 'assert.strictEqual(r.total, e)';
      if (kind === 4)
        // The tests' callback throws on purpose (no check open); the program retries it.
        return {
          prompt: 'function retry(fn, n) {\n',
          completion:
            '  for (let i = 0; i < n; i++) {\n    try {\n      return fn();\n    } catch (err) {}\n  }\n  return -1;\n}\n',
          tests:
            "const assert = require('node:assert');\nlet calls = 0;\nconst flaky = () => {\n  calls++;\n  if (calls < 3) throw new Error('not yet');\n  return calls;\n};\nassert.strictEqual(retry(flaky, 5), 3);\nassert.strictEqual(retry(() => { throw new Error('never'); }, 2), -1);\n",
          expect: ['pass'],
        };
      const body =
        kind === 0
          ? '  cb({ total: x });\n  return x;\n'
          : kind === 1
            ? '  const r = { total: 0 };\n  for (let i = 0; i < x; i++) r.total++;\n  Promise.resolve().then(() => 0);\n  cb(r);\n  return x;\n'
            : kind === 2
              ? '  try {\n    cb({ total: x });\n  } catch (err) {\n    throw err;\n  }\n  return x;\n'
              : '  try {\n    JSON.parse("{");\n  } catch {}\n  cb({ total: x });\n  return x;\n';
      return {
        prompt: 'function f(x, cb) {\n',
        completion: body + '}\n',
        tests: `const assert = require('node:assert');\n${tests(check)}`,
        expect: ['pass'],
      };
    }),
});

export const generators = [swallowed, honest];
