/**
 * JavaScript (red-team rt74 A32-A34): an error's `message` or `name` that is a getter or no
 * string. The encoder read both as data only and made anything else `''` (message) or the
 * class's name (name), so the tests saw what Node would not show them. Now a getter or a
 * non-string value there is refused (sandbox/snapshot.js, `errorField`). Each case's expected
 * status is what Node gives for the program and the tests in one file.
 */
import { checkCases, defineGenerator } from './framework.ts';

/** The native classes a case's error is made from. */
const CLASSES = ['Error', 'RangeError', 'TypeError'] as const;

/** [program (entry `f`), the tests' statements] for a class. */
type Row = (c: string) => readonly [string, string] | readonly [string, string, string];

/** Wrong under Node: fail. */
const WRONG: readonly Row[] = [
  (c) => [
    `class E extends ${c} {\n  get message() {\n    return 'nope';\n  }\n}\nfunction f() {\n  throw new E();\n}\n`,
    "assert.throws(() => f(), { message: '' });",
  ],
  (c) => [
    `function f() {\n  const e = new ${c}();\n  e.message = 42;\n  throw e;\n}\n`,
    "assert.throws(() => f(), (e) => e.message === '');",
  ],
  (c) => [
    `class E extends ${c} {}\nE.prototype.name = 0;\nfunction f() {\n  throw new E('x');\n}\n`,
    `assert.throws(() => f(), (e) => e instanceof ${c} && e.name === '${c}');`,
  ],
  (c) => [
    `function f() {\n  const e = new ${c}('x');\n  Object.defineProperty(e, 'message', { get() { return 'y'; } });\n  return e;\n}\n`,
    "assert.strictEqual(f().message, '');",
  ],
  (c) => [
    `class E extends ${c} {\n  get name() {\n    return 'Other';\n  }\n}\nfunction f() {\n  return new E('m');\n}\n`,
    `assert.strictEqual(f().name, '${c}');`,
  ],
  (c) => [
    `function f() {\n  const e = new ${c}('m');\n  e.message = null;\n  return e;\n}\n`,
    "assert.strictEqual(f().message, '');",
  ],
  (c) => [`function f() {\n  const e = new ${c}('m');\n  e.name = 7;\n  return e;\n}\n`, `assert.strictEqual(f().name, '${c}');`],
  (c) => [
    `function f() {\n  const e = new ${c}();\n  e.message = 'negative';\n  return e;\n}\n`,
    `assert.deepStrictEqual(f(), new ${c}('negative'));`,
  ],
  (c) => [
    `function f() {\n  const e = new ${c}();\n  e.message = 'missing';\n  e.code = 'E';\n  throw e;\n}\n`,
    "assert.throws(() => f(), (e) => {\n    assert.deepStrictEqual({ ...e }, { code: 'E' });\n    return true;\n  });",
  ],
  (c) => [
    `class E extends ${c} {\n  get message() {\n    return 'lie';\n  }\n}\nfunction f() {\n  const e = new E();\n  Object.defineProperty(e, 'message', { value: 'ok', enumerable: true, writable: true, configurable: true });\n  return e;\n}\n`,
    'assert.deepStrictEqual(Object.keys(f()), []);',
  ],
];

/** Honest under Node: pass. */
const HONEST: readonly Row[] = [
  (c) => [
    `class E extends ${c} {\n  constructor(m) {\n    super(m);\n    this.name = 'E';\n  }\n}\nfunction f() {\n  throw new E('bad');\n}\n`,
    "assert.throws(() => f(), { name: 'E', message: 'bad' });",
  ],
  (c) => [
    `function f() {\n  throw new ${c}('bad input');\n}\n`,
    `assert.throws(() => f(), ${c});\n  assert.throws(() => f(), /bad input/);`,
  ],
  (c) => [
    `class E extends ${c} {}\nE.prototype.name = 'Custom';\nfunction f() {\n  return new E('m');\n}\n`,
    "const e = f();\n  assert.strictEqual(e.name, 'Custom');\n  assert.strictEqual(e.message, 'm');",
  ],
  (c) => [
    `function f() {\n  const e = new ${c}();\n  return e;\n}\n`,
    `const e = f();\n  assert.strictEqual(e.message, '');\n  assert.ok(e instanceof ${c});`,
  ],
  (c) => [
    `function f() {\n  return new ${c}('outer', { cause: new Error('inner') });\n}\n`,
    "const e = f();\n  assert.strictEqual(e.cause.message, 'inner');\n  assert.strictEqual(e.message, 'outer');",
  ],
  (c) => [
    `function f() {\n  const e = new ${c}('first');\n  e.message = 'second';\n  throw e;\n}\n`,
    "assert.throws(() => f(), { message: 'second' });",
  ],
  (c) => [
    `function f() {\n  const e = new ${c}('m');\n  e.name = 'Renamed';\n  return e;\n}\n`,
    "assert.strictEqual(f().name, 'Renamed');",
  ],
  (c) => [
    `class ValidationError extends ${c} {\n  constructor(m) {\n    super();\n    this.message = m;\n    this.name = 'ValidationError';\n  }\n}\n`,
    "function f(s) {\n  if (s === '') throw new ValidationError('empty');\n  return s;\n}\n",
    "assert.throws(() => f(''), (e) => {\n    assert.deepStrictEqual(e, new ValidationError('empty'));\n    return true;\n  });",
  ],
  (c) => [
    `function f() {\n  const e = new ${c}();\n  e.message = 'late';\n  return e;\n}\n`,
    "assert.deepStrictEqual(Object.keys(f()), ['message']);\n  assert.strictEqual(f().message, 'late');",
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-error-fields',
    language: 'javascript',
    about: "an error's `message` or `name` that is a getter or no string: fail",
    cases: () => checkCases(30, WRONG, CLASSES, ['fail']),
  }),
  defineGenerator({
    name: 'js-error-fields-honest',
    language: 'javascript',
    about: 'controls: errors with string messages and names, custom or inherited: pass',
    cases: () => checkCases(27, HONEST, CLASSES, ['pass']),
  }),
];
