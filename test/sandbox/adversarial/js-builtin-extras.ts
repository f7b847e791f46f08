/**
 * JavaScript (red-team rt63 X_A01-X_A15): what a builtin answer is besides its contents. A Date,
 * RegExp, typed array or boxed primitive crossed without its prototype, and a Map, Set, Date,
 * RegExp, typed array, boxed string or array without its own data other than its elements: a
 * subclass's instance (or one with a null prototype) equalled the plain builtin under
 * `deepStrictEqual`, which Node fails on the prototype, and `m.total = 99` on a Map was dropped
 * where Node compares it, while the honest program whose tests read such a field failed. An array
 * with a null prototype made the snapshot itself throw. Now each carries its class (a null
 * prototype too) and its own enumerable data (sandbox/snapshot.js, `builtinTail`).
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  '// epoch(): the Date of time 0\n' +
  '// pattern(): the RegExp /ab+c/g\n' +
  '// bytes(): a Uint8Array of 1, 2, 3\n' +
  '// counts(s): a Map from each character of s to how often it occurs\n' +
  '// letters(s): a Set of the characters of s\n' +
  '// boxed(s): s as a String object\n' +
  '// pair(a, b): the array [a, b]\n' +
  'function epoch() {\n';

const HONEST: Record<string, string> = {
  epoch: '  return new Date(0);\n}\n',
  pattern: 'function pattern() {\n  return /ab+c/g;\n}\n',
  bytes: 'function bytes() {\n  return Uint8Array.of(1, 2, 3);\n}\n',
  counts: 'function counts(s) {\n  const m = new Map();\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);\n  return m;\n}\n',
  letters: 'function letters(s) {\n  return new Set(s);\n}\n',
  boxed: 'function boxed(s) {\n  return new String(s);\n}\n',
  pair: 'function pair(a, b) {\n  return [a, b];\n}\n',
};
const NAMES = Object.keys(HONEST);

/** A completion: the honest one with `name`'s function replaced by `body` (a whole function, or epoch's body). */
function completion(name: string, body: string): string {
  return NAMES.map((n) => (n === name ? body : HONEST[n])).join('');
}

/** [function, wrong body, the tests Node fails it on]. */
const WRONG: readonly (readonly [string, string, string])[] = [
  ['epoch', '  class Stamp extends Date {}\n  return new Stamp(0);\n}\n', 'assert.deepStrictEqual(epoch(), new Date(0));\n'],
  [
    'epoch',
    '  const d = new Date(0);\n  Object.setPrototypeOf(d, null);\n  return d;\n}\n',
    'assert.deepStrictEqual(epoch(), new Date(0));\n',
  ],
  [
    'epoch',
    '  const d = new Date(0);\n  d.zone = "UTC+14";\n  return d;\n}\n',
    'assert.deepStrictEqual(epoch(), new Date(0));\n',
  ],
  [
    'epoch',
    '  class Stamp extends Date {}\n  return new Stamp(0);\n}\n',
    'assert.strictEqual(Object.getPrototypeOf(epoch()), Date.prototype);\n',
  ],
  [
    'pattern',
    'function pattern() {\n  class Re extends RegExp {}\n  return new Re("ab+c", "g");\n}\n',
    'assert.deepStrictEqual(pattern(), /ab+c/g);\n',
  ],
  [
    'pattern',
    'function pattern() {\n  const r = /ab+c/g;\n  r.note = "x";\n  return r;\n}\n',
    'assert.deepStrictEqual(pattern(), /ab+c/g);\n',
  ],
  [
    'bytes',
    'function bytes() {\n  class Bytes extends Uint8Array {}\n  return Bytes.of(1, 2, 3);\n}\n',
    'assert.deepStrictEqual(bytes(), Uint8Array.of(1, 2, 3));\n',
  ],
  [
    'bytes',
    'function bytes() {\n  const b = Uint8Array.of(1, 2, 3);\n  b.scale = 2;\n  return b;\n}\n',
    'assert.deepStrictEqual(bytes(), Uint8Array.of(1, 2, 3));\n',
  ],
  [
    'bytes',
    'function bytes() {\n  const b = Uint8Array.of(1, 2, 3);\n  b.scale = 2;\n  return b;\n}\n',
    'assert.strictEqual(bytes().scale, undefined);\n',
  ],
  [
    'counts',
    'function counts(s) {\n  const m = new Map();\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);\n  m.total = 99;\n  return m;\n}\n',
    "assert.deepStrictEqual(counts('aab'), new Map([['a', 2], ['b', 1]]));\n",
  ],
  [
    'counts',
    'function counts(s) {\n  const m = new Map();\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);\n  m.total = 99;\n  return m;\n}\n',
    "assert.strictEqual(counts('aab').total, undefined);\n",
  ],
  [
    'counts',
    'function counts(s) {\n  class Counts extends Map {}\n  const m = new Counts();\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);\n  return m;\n}\n',
    "assert.deepStrictEqual(counts('ab'), new Map([['a', 1], ['b', 1]]));\n",
  ],
  [
    'counts',
    'function counts(s) {\n  const m = new Map();\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);\n  Object.setPrototypeOf(m, null);\n  return m;\n}\n',
    "assert.deepStrictEqual(counts('ab'), new Map([['a', 1], ['b', 1]]));\n",
  ],
  [
    'letters',
    'function letters(s) {\n  const t = new Set(s);\n  t.extra = true;\n  return t;\n}\n',
    "assert.deepStrictEqual(letters('aba'), new Set(['a', 'b']));\n",
  ],
  [
    'letters',
    'function letters(s) {\n  const t = new Set(s);\n  t.extra = true;\n  return t;\n}\n',
    "assert.ok(!('extra' in letters('aba')));\n",
  ],
  [
    'boxed',
    'function boxed(s) {\n  class Str extends String {}\n  return new Str(s);\n}\n',
    "assert.deepStrictEqual(boxed('hi'), new String('hi'));\n",
  ],
  [
    'boxed',
    'function boxed(s) {\n  const b = new String(s);\n  b.tag = 1;\n  return b;\n}\n',
    "assert.deepStrictEqual(boxed('hi'), new String('hi'));\n",
  ],
  [
    'pair',
    'function pair(a, b) {\n  const r = [a, b];\n  r.sum = a + b;\n  return r;\n}\n',
    'assert.deepStrictEqual(pair(1, 2), [1, 2]);\n',
  ],
  [
    'pair',
    'function pair(a, b) {\n  const r = [a, b];\n  Object.setPrototypeOf(r, null);\n  return r;\n}\n',
    'assert.deepStrictEqual(pair(1, 2), [1, 2]);\n',
  ],
  [
    'pair',
    'function pair(a, b) {\n  const r = [a, b];\n  r.sum = a + b;\n  return r;\n}\n',
    'assert.strictEqual(Object.keys(pair(1, 2)).length, 2);\n',
  ],
  [
    'pair',
    'function pair(a, b) {\n  class Two extends Array {}\n  return Two.of(a, b);\n}\n',
    'assert.deepStrictEqual(pair(1, 2), [1, 2]);\n',
  ],
];

/** Honest programs whose tests read what a builtin answer carries besides its contents. */
const CONTROLS: readonly (readonly [string, string, string])[] = [
  [
    'counts',
    'function counts(s) {\n  const m = new Map();\n  for (const c of s) m.set(c, (m.get(c) ?? 0) + 1);\n  m.total = s.length;\n  return m;\n}\n',
    "const m = counts('aab');\nassert.strictEqual(m.total, 3);\nassert.strictEqual(m.get('a'), 2);\n",
  ],
  [
    'epoch',
    '  const d = new Date(0);\n  d.zone = "UTC";\n  return d;\n}\n',
    "assert.strictEqual(epoch().zone, 'UTC');\nassert.strictEqual(epoch().getTime(), 0);\n",
  ],
  [
    'pair',
    'function pair(a, b) {\n  return /(\\d)-(\\d)/.exec("x" + a + "-" + b);\n}\n',
    'const m = pair(1, 2);\nassert.strictEqual(m.index, 1);\nassert.strictEqual(m.input, "x1-2");\nassert.strictEqual(m[2], "2");\n',
  ],
  [
    'pair',
    'function pair(a, b) {\n  const r = [a, b];\n  Object.setPrototypeOf(r, null);\n  return r;\n}\n',
    'const r = pair(1, 2);\nassert.strictEqual(Object.getPrototypeOf(r), null);\nassert.ok(Array.isArray(r));\nassert.strictEqual(r[1], 2);\n',
  ],
  [
    'bytes',
    'function bytes() {\n  const b = Uint8Array.of(1, 2, 3);\n  b.scale = 2;\n  return b;\n}\n',
    'assert.strictEqual(bytes().scale, 2);\nassert.strictEqual(bytes()[2], 3);\n',
  ],
];

/** The honest program's own tests (one per function), each run against it. */
const PLAIN: readonly string[] = [
  'assert.deepStrictEqual(epoch(), new Date(0));\n',
  'assert.deepStrictEqual(pattern(), /ab+c/g);\n',
  'assert.deepStrictEqual(bytes(), Uint8Array.of(1, 2, 3));\n',
  "assert.deepStrictEqual(counts('aab'), new Map([['a', 2], ['b', 1]]));\n",
  "assert.deepStrictEqual(letters('aba'), new Set(['a', 'b']));\n",
  "assert.deepStrictEqual(boxed('hi'), new String('hi'));\n",
  'assert.deepStrictEqual(pair(1, 2), [1, 2]);\nassert.strictEqual(Object.keys(pair(1, 2)).length, 2);\n',
  'assert.strictEqual(Object.getPrototypeOf(epoch()), Date.prototype);\nassert.ok(!("extra" in letters("a")));\n',
];

/**
 * rt64 B01-B10: a builtin whose prototype chain no longer reaches its builtin (set to
 * `Object.prototype`, another class or another builtin's prototype) was rebuilt over the builtin,
 * so its methods worked in the tests where Node throws. [program, a use of the builtin's method].
 */
const CHAINS: readonly (readonly [string, string])[] = [
  [
    'function f() {\n  return Object.setPrototypeOf(new Date(7), Object.prototype);\n}\n',
    'assert.strictEqual(f().getTime(), 7);\n',
  ],
  [
    'function f() {\n  class Other {}\n  return Object.setPrototypeOf(new Date(7), Other.prototype);\n}\n',
    'assert.ok(f() instanceof Date);\n',
  ],
  [
    'function f() {\n  return Object.setPrototypeOf(new Map([["k", 1]]), Set.prototype);\n}\n',
    "assert.strictEqual(f().get('k'), 1);\n",
  ],
  [
    'function f() {\n  return Object.setPrototypeOf(new Map([["k", 1]]), Object.prototype);\n}\n',
    'assert.ok(f() instanceof Map);\n',
  ],
  [
    'function f() {\n  return Object.setPrototypeOf([1, 2], Object.prototype);\n}\n',
    'assert.deepStrictEqual(f().map((x) => x * 2), [2, 4]);\n',
  ],
  [
    'function f() {\n  class Other {}\n  return Object.setPrototypeOf([1, 2], Other.prototype);\n}\n',
    'assert.ok(f() instanceof Array);\n',
  ],
  ['function f() {\n  return Object.setPrototypeOf(/a+/, Object.prototype);\n}\n', "assert.ok(f().test('caab'));\n"],
  ['function f() {\n  return Object.setPrototypeOf(new Set([1]), Map.prototype);\n}\n', 'assert.ok(f().has(1));\n'],
  [
    'function f() {\n  return Object.setPrototypeOf(Uint8Array.of(1, 2), Object.prototype);\n}\n',
    'assert.strictEqual(f().length, 2);\n',
  ],
  [
    'function f() {\n  return Object.setPrototypeOf(new Number(2.5), Object.prototype);\n}\n',
    "assert.strictEqual(f().toFixed(1), '2.5');\n",
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-builtin-extras',
    language: 'javascript',
    about:
      "wrong programs answering a builtin's subclass, a null prototype or extra own data where the plain builtin is asked for: fail",
    cases: () =>
      WRONG.map(
        ([name, body, tests]): AdversarialCase => ({
          prompt: PROMPT,
          completion: completion(name, body),
          tests: JS_ASSERT + tests,
          expect: ['fail'],
        }),
      ),
  }),
  defineGenerator({
    name: 'js-builtin-extras-honest',
    language: 'javascript',
    about: 'controls: plain builtins equal their own kind, and own data the tests read arrives',
    cases: () => [
      ...[...CONTROLS, ...CONTROLS].map(
        ([name, body, tests], i): AdversarialCase => ({
          prompt: PROMPT,
          completion: completion(name, body),
          tests: JS_ASSERT + (i < CONTROLS.length ? tests : `${tests}${PLAIN[(i * 3) % PLAIN.length]}`),
          expect: ['pass'],
        }),
      ),
      ...WRONG.slice(0, 10).map(
        ([, , tests]): AdversarialCase => ({
          prompt: PROMPT,
          completion: completion('', ''),
          tests: JS_ASSERT + tests,
          expect: ['pass'],
        }),
      ),
    ],
  }),
  defineGenerator({
    name: 'js-builtin-extras-chains',
    language: 'javascript',
    about:
      'wrong programs answering a builtin whose prototype chain no longer reaches it: its methods are not there, as under Node',
    cases: () =>
      grid(20, CHAINS, [0, 1], (pair, i) => ({
        completion: pair[0],
        tests: JS_ASSERT + (i < CHAINS.length ? pair[1] : `assert.ok(f() !== undefined);\n${pair[1]}`),
        expect: ['fail', 'error'],
      })),
  }),
];
