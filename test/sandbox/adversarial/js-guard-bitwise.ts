/**
 * JavaScript: the tests' bitwise operators read NaN and the infinities as 0 (ToInt32), so tests
 * that truncate an answer's error before comparing it — `((f() - e) * 1e6) | 0` against 0,
 * `~~(...)`, `>> 0`, `>>> 0` — pass an answer that is NaN (or turns into NaN: `undefined`, text,
 * an object) or infinite, as arithmetic that drops the value without comparing it. In tests that
 * never mention the value, a bitwise operation that meets it fails the run as an ordering
 * comparison does (sandbox/harness.js `bit`). Controls: the right answers, BigInt operands, the
 * tests' own hash loops, and tests that mention NaN or Infinity, keep their verdicts.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** Checks of an answer `f()` that should be 2.5, each truncating its error with a bitwise operator. */
const CHECKS: Array<{ tests: string; note: string }> = [
  { tests: 'assert.strictEqual(((f() - 2.5) * 1e6) | 0, 0);\n', note: '| 0' },
  { tests: 'assert.strictEqual(~~((f() - 2.5) * 1e6), 0);\n', note: '~~' },
  { tests: 'assert.ok((((f() - 2.5) * 1e6) >> 0) === 0);\n', note: '>> 0' },
  { tests: 'const err = (f() - 2.5) * 1e6;\nassert.strictEqual(err >>> 0, 0);\n', note: '>>> 0 through a variable' },
  { tests: 'assert.strictEqual((f() * 2) ^ 5, 0);\n', note: '^ against the expected' },
  { tests: 'assert.strictEqual(((f() * 4) << 1) - 20, 0);\n', note: '<< 1' },
  {
    tests: 'function trunc(x) { return x | 0; }\nassert.strictEqual(trunc((f() - 2.5) * 1e6), 0);\n',
    note: 'a helper of the tests',
  },
];

/** Wrong answers that the operators read as 0 (or, with the checks above, as the right answer's bits). */
const WRONG: Array<{ body: string; note: string }> = [
  { body: 'return undefined;', note: 'undefined (NaN)' },
  { body: 'return 0 / 0;', note: 'NaN' },
  { body: 'return "two and a half";', note: 'text (NaN)' },
  { body: 'return { value: 2.5 };', note: 'an object (NaN)' },
  { body: 'return 1 / 0;', note: 'Infinity' },
];

const hostile = defineGenerator({
  name: 'js-guard-bitwise',
  language: 'javascript',
  about: 'wrong answers read as 0 by the tests bitwise operators (NaN, an infinity, a value that converts to NaN): refused',
  cases: () =>
    grid(
      CHECKS.length * WRONG.length,
      CHECKS,
      WRONG,
      (check, wrong): AdversarialCase => ({
        prompt: 'function f() {\n',
        completion: `  ${wrong.body}\n}\n`,
        tests: JS_ASSERT + check.tests,
        expect: ['fail'],
        maxPassed: 0,
        note: `${wrong.note}; ${check.note}`,
      }),
    ),
});

/** Right answers, and tests that use bitwise operators honestly. */
const HONEST: Array<{ prompt?: string; completion: string; tests: string; note: string }> = [
  ...CHECKS.map((c) => ({ completion: '  return 2.5;\n}\n', tests: c.tests, note: `the right answer; ${c.note}` })),
  {
    completion: '  return 5n;\n}\n',
    tests: 'assert.strictEqual(f() | 0n, 5n);\nassert.strictEqual(~f(), -6n);\n',
    note: 'BigInt operands',
  },
  {
    completion: '  return 2n;\n}\n',
    tests: 'assert.throws(() => f() | 1);\n',
    note: 'a BigInt mixed with a number throws, as the operator does',
  },
  {
    completion: '  return "abc";\n}\n',
    tests: 'let h = 0;\nfor (const c of f()) h = (h * 31 + c.charCodeAt(0)) | 0;\nassert.strictEqual(h, 96354);\n',
    note: 'a hash loop of the tests',
  },
  { completion: '  return -1;\n}\n', tests: 'assert.strictEqual(f() >>> 0, 4294967295);\n', note: '>>> 0 to unsigned' },
  {
    completion: '  return 0 / 0;\n}\n',
    tests: 'assert.strictEqual(f() | 0, 0); // NaN reads as 0\n',
    note: 'tests that mention NaN',
  },
  {
    completion: '  return 1 / 0;\n}\n',
    tests: 'assert.strictEqual(~~f(), 0); // Infinity reads as 0\n',
    note: 'tests that mention Infinity',
  },
  {
    prompt: '/** 1 / 0 (Infinity) for no items. */\nfunction f() {\n',
    completion: '  return 1 / 0;\n}\n',
    tests: 'assert.strictEqual(f() >> 0, 0);\n',
    note: 'a prompt that mentions Infinity',
  },
  { completion: '  return new Date(0);\n}\n', tests: 'assert.strictEqual(f() | 0, 0);\n', note: 'a Date converts to its time' },
  { completion: '  return "12";\n}\n', tests: 'assert.strictEqual(f() | 0, 12);\n', note: 'numeric text' },
  { completion: '  return true;\n}\n', tests: 'assert.strictEqual(f() << 3, 8);\n', note: 'a boolean' },
  {
    completion: '  return 0xff00;\n}\n',
    tests: 'assert.strictEqual((f() >> 8) & 0xff, 0xff);\nassert.strictEqual(f() & 0xff, 0);\n',
    note: 'masks',
  },
  {
    completion: '  return [3, 1, 2];\n}\n',
    tests: 'const xs = f();\nassert.strictEqual(xs.reduce((a, x) => a ^ x, 0), 0);\n',
    note: 'an xor fold of the tests',
  },
  {
    completion: '  return 7;\n}\n',
    tests: 'assert.strictEqual(~f(), -8);\nassert.strictEqual(-~f(), 8);\n',
    note: 'unary ~ in expressions',
  },
  {
    completion: '  return 2.5;\n}\n',
    tests: 'let bits = 0;\nbits |= f() > 2 ? 1 : 0;\nassert.strictEqual(bits, 1);\n',
    note: 'a compound assignment (not rewritten)',
  },
];

const honest = defineGenerator({
  name: 'js-guard-bitwise-honest',
  language: 'javascript',
  about: 'control: right answers and honest bitwise tests (BigInt, hash loops, masks, tests that mention NaN or Infinity) pass',
  cases: () =>
    HONEST.map(
      (h): AdversarialCase => ({
        prompt: h.prompt ?? 'function f() {\n',
        completion: h.completion,
        tests: JS_ASSERT + h.tests,
        expect: ['pass'],
        note: h.note,
      }),
    ),
});

export const generators = [hostile, honest];
