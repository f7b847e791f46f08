/**
 * JavaScript: a check that passed on the first case of a loop (or of a helper the tests call
 * again) and whose next execution the program interrupts by throwing while the check's arguments
 * are evaluated. The interrupted execution is not one the check passed, so its sites fail, as a
 * wrong value would fail them: throwing is never worth more gold than a wrong answer. Controls:
 * honest loops, helpers and nested checks pass with every site counted.
 */
import { defineGenerator, grid } from './framework.ts';

/** What the program does on the second case. */
const THROWS = [
  "throw new Error('no')",
  "throw new TypeError('no')",
  'return f(x)',
  "throw { message: 'plain object' }",
  'return null.x',
];
/** Tests that repeat one check site over cases (sync and async). */
const REPEATS = [
  'for (const x of [1, 2]) assert.strictEqual(f(x), x);\n',
  'function check(x) {\n  assert.deepStrictEqual(f(x), x);\n}\nfor (const x of [1, 2, 3]) check(x);\n',
  '[1, 2].forEach((x) => assert.equal(f(x), x));\n',
  'async function test() {\n  for (const x of [1, 2]) assert.strictEqual(await g(x), x);\n}\ntest();\n',
];

const interrupted = defineGenerator({
  name: 'js-interrupted-sites',
  language: 'javascript',
  about: 'a check site passed on case 1 and interrupted on case 2 by what the program throws: no site passes',
  cases: () =>
    grid(20, THROWS, REPEATS, (thrown, tests) => ({
      prompt: 'function f(x) {\n',
      completion: `  if (x === 1) return 1;\n  ${thrown};\n}\nasync function g(x) {\n  return f(x);\n}\n`,
      tests: `const assert = require('node:assert');\n${tests}`,
      expect: ['error', 'fail'],
      maxPassed: 0,
      note: `${thrown} in ${tests.split('\n')[0]}`,
    })),
});

const honest = defineGenerator({
  name: 'js-interrupted-sites-honest',
  language: 'javascript',
  about: 'controls: honest loops, helpers, nested checks and caught throws keep their sites',
  cases: () =>
    grid(
      20,
      [0, 1, 2, 3],
      REPEATS.concat(['assert.ok([1, 2].every((x) => { assert.equal(f(x), x); return true; }));\n']),
      (kind, tests) => ({
        prompt: 'function f(x) {\n',
        completion:
          kind === 3
            ? '  if (x < 0) throw new RangeError("negative");\n  return x;\n}\nasync function g(x) {\n  return f(x);\n}\n'
            : `  return x${kind === 1 ? ' + 0' : kind === 2 ? ' * 1' : ''};\n}\nasync function g(x) {\n  return f(x);\n}\n`,
        tests: `const assert = require('node:assert');\n${tests}${kind === 3 ? 'assert.throws(() => f(-1), RangeError);\n' : ''}`,
        expect: ['pass'],
      }),
    ),
});

export const generators = [interrupted, honest];
