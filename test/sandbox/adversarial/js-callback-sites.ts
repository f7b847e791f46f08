/**
 * JavaScript: a check inside a callback of the tests counts as one site however the program calls
 * that callback. A site is the chain of the tests' frames; a callback the program called
 * synchronously had the tests' caller frames under it, one called from a microtask or deep in the
 * program's recursion (past the stack-trace limit) did not, so each way of calling it minted one
 * more passed site (red-team M01–M04: 2/3 where an honest wrong answer scores 1/2). While the
 * program calls a function of the tests, its checks' sites are now the callback's own frames plus
 * the chain where that function crossed to the program. Controls: an honest program's callback
 * checks pass, also for a callback given at two lines of the tests.
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";

/** How the wrong program calls the tests' callback (it returns [] whatever it does). */
const CALLS = [
  'f(1);\n  Promise.resolve().then(() => f(2));',
  'f(1);\n  queueMicrotask(() => f(2));',
  'function deep(d) {\n    if (d > 0) return deep(d - 1) + 0;\n    f(1);\n    return 0;\n  }\n  for (let d = 0; d < 40; d++) deep(d);',
  '(globalThis.__cbs ||= []).push(f);\n  for (const g of globalThis.__cbs) {\n    g(1);\n    Promise.resolve().then(() => g(1));\n  }',
  'f(1);\n  Promise.resolve().then(() => Promise.resolve().then(() => f(2)));\n  (async () => {\n    await null;\n    f(3);\n  })();',
];
/** Tests that give the candidate a callback holding a check. */
const TESTS = [
  'function test() {\n  const out = mapAll([1, 2, 3], (x) => {\n    assert.strictEqual(typeof x, "number");\n    return x * 2;\n  });\n  assert.deepStrictEqual(out, [2, 4, 6]);\n}\ntest();\n',
  'const out = mapAll([1, 2, 3], (x) => {\n  assert.ok(x > 0);\n  return x * 2;\n});\nassert.deepStrictEqual(out, [2, 4, 6]);\n',
  'function check(x) {\n  assert.ok(Number.isInteger(x));\n  return x + 1;\n}\nassert.deepStrictEqual(mapAll([1, 2], check), [2, 3]);\n',
  'async function test() {\n  const out = await Promise.resolve(mapAll([4], (x) => {\n    assert.notStrictEqual(x, undefined);\n    return -x;\n  }));\n  assert.deepStrictEqual(out, [-4]);\n}\ntest();\n',
];

const attacks = defineGenerator({
  name: 'js-callback-sites',
  language: 'javascript',
  about:
    'a wrong program calling the tests callback from microtasks or deep recursion: no more passed sites than an honest wrong answer',
  cases: () =>
    grid(20, CALLS, TESTS, (calls, tests) => ({
      prompt: 'function mapAll(xs, f) {\n',
      completion: `  ${calls}\n  return [];\n}\n`,
      tests: ASSERT + tests,
      expect: ['fail'],
      // An honest wrong answer that calls the callback: its one site passes, the result check fails.
      maxPassed: 1,
      note: calls.split('\n')[0],
    })),
});

const honest = defineGenerator({
  name: 'js-callback-sites-honest',
  language: 'javascript',
  about: 'controls: honest callbacks pass, also one given at two lines of the tests',
  cases: () =>
    grid(
      20,
      TESTS.concat([
        'const f = (x) => {\n  assert.ok(x > 0);\n  return x * 2;\n};\nassert.deepStrictEqual(mapAll([1], f), [2]);\nassert.deepStrictEqual(mapAll([2, 3], f), [4, 6]);\n',
      ]),
      [0, 1, 2, 3],
      (tests, i) => ({
        prompt: 'function mapAll(xs, f) {\n',
        completion:
          i % 2
            ? '  return xs.map((x) => f(x));\n}\n'
            : '  const out = [];\n  for (const x of xs) out.push(f(x));\n  return out;\n}\n',
        tests: ASSERT + tests,
        expect: ['pass'],
      }),
    ),
});

export const generators = [attacks, honest];
