/**
 * JavaScript (red-team rt71 JT13, JH01-JH03, JH16): an array's `length` or a RegExp's
 * `lastIndex` made read-only. Both crossed as plain values, writable again: a program answering
 * an array whose length it locked passed tests that push onto it (under Node the push throws),
 * a program locking the length of the tests' own array left theirs writable, and an honest
 * program whose locked array or sticky RegExp the tests expect to throw failed. Now a read-only
 * `length` or `lastIndex` crosses as such, both ways (sandbox/snapshot.js, `extras`). Each case's
 * expected status is what Node gives for the program and the tests in one file; a TypeError the
 * tests do not catch is the harness's `error` where Node's exit is a failure, and the tests run
 * as strict code (a write to a read-only property throws: `error` where Node's sloppy script
 * ignores it and the next check fails).
 */
import { checkCases, defineGenerator } from './framework.ts';

/** The arrays a case is made of (their elements, as source). */
const DATA = ['1, 2, 3', "'a'", '0.5, -1, 7, 9'] as const;

/** [program (entry `f`), the tests' statements]. */
type Row = (d: string) => readonly [string, string];

const lock = (name: string, key: string) => `Object.defineProperty(${name}, '${key}', { writable: false })`;

/** Wrong under Node (fail, or an uncaught TypeError: error). */
const WRONG: readonly Row[] = [
  (d) => [
    `function f() {\n  const a = [${d}];\n  ${lock('a', 'length')};\n  return a;\n}\n`,
    'const r = f();\n  const n = r.length;\n  r.push(4);\n  assert.strictEqual(r.length, n + 1);',
  ],
  (d) => [
    `function f(a) {\n  ${lock('a', 'length')};\n  return a.length;\n}\n`,
    `const a = [${d}];\n  f(a);\n  assert.strictEqual(Object.getOwnPropertyDescriptor(a, 'length').writable, true);`,
  ],
  (d) => [
    `function f(a) {\n  ${lock('a', 'length')};\n  return a[0];\n}\n`,
    `const a = [${d}];\n  f(a);\n  a.push(1);\n  assert.ok(a.length > 1);`,
  ],
  (d) => [
    `function f() {\n  const r = new RegExp('[' + String([${d}]).slice(0, 1) + ']', 'g');\n  ${lock('r', 'lastIndex')};\n  return r;\n}\n`,
    "assert.strictEqual(Object.getOwnPropertyDescriptor(f(), 'lastIndex').writable, true);",
  ],
  (d) => [
    `function f() {\n  const r = new RegExp(String([${d}]).slice(0, 1), 'y');\n  ${lock('r', 'lastIndex')};\n  return r;\n}\n`,
    `const s = String([${d}]);\n  assert.strictEqual(f().exec(s)[0], s.slice(0, 1));`,
  ],
  (d) => [
    `function f() {\n  const list = [${d}];\n  ${lock('list', 'length')};\n  return { list };\n}\n`,
    'const r = f();\n  r.list.push(0);\n  assert.strictEqual(r.list[r.list.length - 1], 0);',
  ],
  (d) => [
    `function f() {\n  const a = [${d}];\n  ${lock('a', 'length')};\n  return a;\n}\n`,
    'const r = f();\n  r.length = 0;\n  assert.strictEqual(r.length, 0);',
  ],
];

/** Honest under Node: pass. */
const HONEST: readonly Row[] = [
  (d) => [
    `function f() {\n  const a = [${d}];\n  ${lock('a', 'length')};\n  return a;\n}\n`,
    'const r = f();\n  assert.throws(() => r.push(4), TypeError);',
  ],
  (d) => [
    `function f() {\n  const a = [${d}];\n  ${lock('a', 'length')};\n  return a;\n}\n`,
    `assert.deepStrictEqual(f(), [${d}]);`,
  ],
  (d) => [
    'function f(a) {\n  let s = 0;\n  for (const x of a) s += typeof x === "number" ? x : 1;\n  return s;\n}\n',
    `const a = [${d}];\n  ${lock('a', 'length')};\n  f(a);\n  assert.strictEqual(Object.getOwnPropertyDescriptor(a, 'length').writable, false);`,
  ],
  (d) => [
    "function f(a) {\n  try {\n    a.push(1);\n    return 'grew';\n  } catch {\n    return 'locked';\n  }\n}\n",
    `const a = [${d}];\n  ${lock('a', 'length')};\n  assert.strictEqual(f(a), 'locked');\n  assert.strictEqual(a.length, [${d}].length);`,
  ],
  (d) => [
    `function f() {\n  const r = new RegExp(String([${d}]).slice(0, 1), 'y');\n  ${lock('r', 'lastIndex')};\n  return r;\n}\n`,
    `assert.throws(() => f().exec(String([${d}])), TypeError);`,
  ],
  (d) => [
    `function f() {\n  const r = new RegExp(String([${d}]).slice(0, 1));\n  ${lock('r', 'lastIndex')};\n  return r;\n}\n`,
    `const r = f();\n  assert.strictEqual(r.lastIndex, 0);\n  assert.strictEqual(r.source, String([${d}]).slice(0, 1));\n  assert.strictEqual(Object.getOwnPropertyDescriptor(r, 'lastIndex').writable, false);`,
  ],
  (d) => [
    `function f() {\n  return Object.freeze([${d}]);\n}\n`,
    "const r = f();\n  assert.ok(Object.isFrozen(r));\n  assert.strictEqual(Object.getOwnPropertyDescriptor(r, 'length').writable, false);",
  ],
  (d) => [
    `function f() {\n  const a = [${d}];\n  ${lock('a', 'length')};\n  return [...a];\n}\n`,
    'const r = f();\n  r.push(4);\n  assert.strictEqual(r[r.length - 1], 4);',
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-read-only-intrinsics',
    language: 'javascript',
    about: 'a read-only array `length` or RegExp `lastIndex` dropped on the way: fail or error, as under Node',
    cases: () => checkCases(21, WRONG, DATA, ['fail', 'error']),
  }),
  defineGenerator({
    name: 'js-read-only-intrinsics-honest',
    language: 'javascript',
    about: 'controls: arrays and RegExps with a read-only length or lastIndex, both ways: pass',
    cases: () => checkCases(24, HONEST, DATA, ['pass']),
  }),
];
