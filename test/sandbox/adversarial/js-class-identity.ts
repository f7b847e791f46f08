/**
 * JavaScript (red-team rt61 B1): the class an answer crosses as. The tests realm rebuilt an
 * instance or error by its class's *name*: a class of the program's own named like the prompt's
 * (`const VE = class ValidationError …`, a class local to a function) was rebuilt as the prompt's
 * class, so `assert.throws(f, ValidationError)` and `instanceof` held where Node fails them; and a
 * subclass of Map, Set or a native error crossed as the builtin itself, so `deepStrictEqual` with a
 * plain one held (Node compares prototypes). Now the program realm tells the prompt's classes (as
 * the program left their names) from look-alikes, and a builtin's subclass crosses with its class.
 * Controls: the prompt's own classes, the program's subclasses of them, and builtin subclasses
 * under checks Node passes.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  'class ValidationError extends Error {\n  constructor(m) {\n    super(m);\n    this.name = "ValidationError";\n  }\n}\n' +
  'class Point {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n}\n' +
  '// check(x): x when x >= 0, else throws a ValidationError("neg"); origin(): a Point at (0, 0)\n' +
  'function check(x) {\n';

/** Tests on the prompt's classes. */
const PROMPT_TESTS: readonly string[] = [
  'assert.throws(() => check(-1), ValidationError);\nassert.strictEqual(check(2), 2);\n',
  'let e;\ntry {\n  check(-5);\n} catch (x) {\n  e = x;\n}\nassert.ok(e instanceof ValidationError);\n',
  'assert.ok(origin() instanceof Point);\nassert.strictEqual(origin().x, 0);\n',
  'assert.deepStrictEqual(origin(), new Point(0, 0));\n',
  "assert.throws(() => check(-2), (e) => e instanceof ValidationError && e.message === 'neg');\n",
];

/** Completions whose errors and points are classes of their own that borrow the prompt's names. */
const LOOKALIKE: readonly string[] = [
  '  if (x < 0) throw new VE("neg");\n  return x;\n}\nconst VE = class ValidationError extends Error {\n  constructor(m) {\n    super(m);\n    this.name = "ValidationError";\n  }\n};\nconst PT = class Point {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n};\nfunction origin() {\n  return new PT(0, 0);\n}\n',
  '  class ValidationError extends Error {}\n  if (x < 0) throw new ValidationError("neg");\n  return x;\n}\nfunction origin() {\n  class Point {\n    constructor() {\n      this.x = 0;\n      this.y = 0;\n    }\n  }\n  return new Point();\n}\n',
  '  if (x < 0) {\n    const ValidationError = class extends Error {};\n    Object.defineProperty(ValidationError, "name", { value: "ValidationError" });\n    throw new ValidationError("neg");\n  }\n  return x;\n}\nfunction origin() {\n  const Point = function Point() {\n    this.x = 0;\n    this.y = 0;\n  };\n  return new Point();\n}\n',
  '  if (x < 0) {\n    const e = new Error("neg");\n    Object.setPrototypeOf(e, own.ValidationError.prototype);\n    throw e;\n  }\n  return x;\n}\nconst own = {\n  ValidationError: class ValidationError extends Error {},\n  Point: class Point {},\n};\nfunction origin() {\n  return Object.assign(new own.Point(), { x: 0, y: 0 });\n}\n',
];

/** Honest completions: the prompt's classes, or the program's subclasses of them. */
const PROMPT_HONEST: readonly string[] = [
  '  if (x < 0) throw new ValidationError("neg");\n  return x;\n}\nfunction origin() {\n  return new Point(0, 0);\n}\n',
  '  if (x < 0) throw new NegativeError("neg");\n  return x;\n}\nclass NegativeError extends ValidationError {}\nfunction origin() {\n  return new Point(0, 0);\n}\n',
  '  return x < 0 ? fail() : x;\n}\nfunction fail() {\n  throw new ValidationError("neg");\n}\nfunction origin() {\n  return new Point(-0 + 0, 0);\n}\n',
];

/** Builtin subclasses: the tests compare with the builtin itself (fails under Node) or not. */
const BUILTIN_PROMPT =
  '// counts(s): a Map of each character of s to its count; bad(): a TypeError("bad")\nfunction counts(s) {\n';
const SUBCLASSED: readonly string[] = [
  '  const m = new Tally();\n  for (const c of s) m.set(c, (m.get(c) || 0) + 1);\n  return m;\n}\nclass Tally extends Map {}\nclass Bad extends TypeError {}\nfunction bad() {\n  return new Bad("bad");\n}\nfunction letters(s) {\n  return new Letters(s);\n}\nclass Letters extends Set {}\n',
  '  class Counter extends Map {\n    add(c) {\n      return this.set(c, (this.get(c) || 0) + 1);\n    }\n  }\n  const m = new Counter();\n  for (const c of s) m.add(c);\n  return m;\n}\nfunction bad() {\n  class Oops extends TypeError {}\n  return new Oops("bad");\n}\nfunction letters(s) {\n  class Chars extends Set {}\n  return new Chars(s);\n}\n',
];
const PLAIN_TESTS: readonly string[] = [
  "assert.deepStrictEqual(counts('aab'), new Map([['a', 2], ['b', 1]]));\n",
  "assert.deepStrictEqual(bad(), new TypeError('bad'));\n",
  "assert.deepStrictEqual(letters('aba'), new Set(['a', 'b']));\n",
];
const SUBCLASS_TESTS: readonly string[] = [
  "const m = counts('aab');\nassert.ok(m instanceof Map);\nassert.strictEqual(m.get('a'), 2);\nassert.strictEqual(m.size, 2);\n",
  "assert.notDeepStrictEqual(counts('ab'), new Map([['a', 1], ['b', 1]]));\nassert.deepEqual([...counts('ab')], [['a', 1], ['b', 1]]);\n",
  "assert.throws(() => {\n  throw bad();\n}, TypeError);\nassert.strictEqual(bad().message, 'bad');\n",
  "assert.notDeepStrictEqual(letters('ab'), new Set(['a', 'b']));\nassert.ok(letters('ab').has('b'));\n",
];

export const generators = [
  defineGenerator({
    name: 'js-class-identity',
    language: 'javascript',
    about: "wrong programs whose classes only borrow the prompt's names, or subclass a builtin the tests compare with: fail",
    cases: () => [
      ...grid(20, PROMPT_TESTS, LOOKALIKE, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
      ...grid(6, PLAIN_TESTS, SUBCLASSED, (tests, completion) => ({
        prompt: BUILTIN_PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
    ],
  }),
  defineGenerator({
    name: 'js-class-identity-honest',
    language: 'javascript',
    about: "controls: the prompt's classes, the program's subclasses of them, builtin subclasses under checks Node passes",
    cases: () => [
      ...grid(15, PROMPT_TESTS, PROMPT_HONEST, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(8, SUBCLASS_TESTS, SUBCLASSED, (tests, completion) => ({
        prompt: BUILTIN_PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
    ],
  }),
];
