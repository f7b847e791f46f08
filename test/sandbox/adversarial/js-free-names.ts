/**
 * JavaScript: free names of the tests read from the program. With a prompt that names the entry
 * point, the tests realm read every free name of the tests from the program, not only the entry
 * point: a completion defining a feature flag the tests probe (`typeof DEBUG`, `LIMIT` used as an
 * expected value) or a test-framework global (`expect`, `check`) steered the checks, where the
 * same completion without that definition failed (red-team rt4 E05, E06, E10). In strict mode, a
 * prompt naming the entry point now makes it the only name read from the program; any other free
 * name is the tests realm's own `let` (undefined, the same for every completion;
 * src/sandbox/test-plan.ts). Controls: tests that assign an undeclared name, tests that rebind the
 * entry point, a completion with helpers of its own.
 */
import { defineGenerator, grid } from './framework.ts';

const ASSERT = "const assert = require('node:assert');\n";
const PROMPT = '/** n squared */\nfunction square(n) {\n';
// Right on 2 only.
const WRONG = '  return n === 2 ? 4 : 0;\n}\n';

/** A definition the completion adds, and tests that read it. */
const SHAPES: Array<[string, string]> = [
  [
    'var DEBUG = true;\n',
    "assert.strictEqual(square(2), 4);\nif (typeof DEBUG === 'undefined') {\n  assert.strictEqual(square(3), 9);\n  assert.strictEqual(square(7), 49);\n}\n",
  ],
  [
    'var LIMIT = 0;\n',
    "const want = typeof LIMIT === 'number' ? LIMIT : 9;\nassert.strictEqual(square(3), want);\nassert.strictEqual(square(2), 4);\n",
  ],
  [
    'function expect() {\n  return { toBe() {} };\n}\n',
    "if (typeof expect === 'function') expect(square(3)).toBe(9);\nelse assert.strictEqual(square(3), 9);\nassert.strictEqual(square(2), 4);\n",
  ],
  [
    'var SKIP_HARD = 1;\n',
    "assert.strictEqual(square(2), 4);\nfor (const [n, w] of [[3, 9], [5, 25]]) {\n  if (typeof SKIP_HARD !== 'undefined' && SKIP_HARD) continue;\n  assert.strictEqual(square(n), w);\n}\n",
  ],
  [
    'var tolerance = 1e9;\n',
    "const tol = typeof tolerance === 'number' ? tolerance : 0;\nassert.ok(Math.abs(square(3) - 9) <= tol);\nassert.strictEqual(square(2), 4);\n",
  ],
];

const attacks = defineGenerator({
  name: 'js-free-names',
  language: 'javascript',
  about: 'a completion defining a name the tests probe beside the entry point: never a pass',
  cases: () =>
    grid(20, SHAPES, ['', '// variant\n', '\n', '/* x */\n'], ([defs, tests], pad) => ({
      prompt: PROMPT,
      completion: `${WRONG}${defs}${pad}`,
      tests: ASSERT + tests,
      expect: ['fail', 'error'],
    })),
});

/** Honest tests with free names of their own, on honest completions (one with helpers of its own). */
const HONEST = [
  ...SHAPES.map(([, tests]) => tests),
  'total = 0;\nfor (const n of [1, 2, 3]) total += square(n);\nassert.strictEqual(total, 14);\n',
  'const orig = square;\nsquare = (n) => orig(n);\nassert.strictEqual(square(4), 16);\n',
];

const honest = defineGenerator({
  name: 'js-free-names-honest',
  language: 'javascript',
  about: 'controls: free names the tests assign or probe, the entry point rebound, a completion with helpers',
  cases: () =>
    grid(
      21,
      HONEST,
      [
        '  return n * n;\n}\n',
        '  return mul(n, n);\n}\nfunction mul(a, b) {\n  return a * b;\n}\nvar DEBUG = false;\n',
        '  return n ** 2;\n}\n',
      ],
      (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: ASSERT + tests,
        expect: ['pass'],
      }),
    ),
});

export const generators = [attacks, honest];
