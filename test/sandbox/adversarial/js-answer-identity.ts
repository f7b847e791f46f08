/**
 * JavaScript (red-team rt61 B1, B7): the identity of what the program answers with, and the
 * prototype of what it hands back. An object of the program crossed as a new copy on every answer:
 * a program handing out its cached array where a new one is asked for passed
 * `notStrictEqual(rows(3), rows(3))` and the tests' change to one answer never showed in the
 * next, while an honest program answering with its one registry failed
 * `strictEqual(registry(), registry())`. And an argument whose prototype the program set to null
 * came back with its old one, so a program stripping the tests' object passed checks of its
 * methods. Now an object answered again is the tests' copy from before — as the tests left it
 * when the program did not change it since, else brought in line with the program's — and a
 * prototype set to null or to `Object.prototype` is written back (sandbox/snapshot.js,
 * `keepAnswer`, `answeredAs`).
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  '// rows(n): a new array [0, 1, ..., n - 1] on every call (callers may change what they get)\n' +
  '// registry(): the one shared registry { items: [] }, the same object on every call\n' +
  '// tally(o): counts o.hits up by one, leaving o otherwise as it was (its prototype too)\n' +
  'function rows(n) {\n';

const HONEST =
  '  return Array.from({ length: n }, (_, i) => i);\n}\n' +
  'const shared = { items: [] };\nfunction registry() {\n  return shared;\n}\n' +
  'function tally(o) {\n  o.hits = (o.hits ?? 0) + 1;\n  return o.hits;\n}\n';
const REST = HONEST.slice(HONEST.indexOf('const shared'));

/** rows(n) answering with an array it keeps (a cache), where a new one is asked for. */
const CACHED: readonly string[] = [
  '  if (!memo.has(n)) memo.set(n, Array.from({ length: n }, (_, i) => i));\n  return memo.get(n);\n}\nconst memo = new Map();\n',
  '  return (memo[n] ??= [...Array(n).keys()]);\n}\nconst memo = {};\n',
  '  if (lastN === n) return last;\n  lastN = n;\n  last = Array.from({ length: n }, (_, i) => i);\n  return last;\n}\nlet lastN = -1;\nlet last;\n',
];
const TESTS_NEW: readonly string[] = [
  'assert.notStrictEqual(rows(3), rows(3));\n',
  'const a = rows(3);\na.push(9);\nassert.deepStrictEqual(rows(3), [0, 1, 2]);\n',
  'const a = rows(4);\na.reverse();\nassert.deepStrictEqual(rows(4), [0, 1, 2, 3]);\n',
  'const s = new Set([rows(2), rows(2), rows(2)]);\nassert.strictEqual(s.size, 3);\n',
  'const a = rows(2);\na[0] = 7;\nconst b = rows(2);\nassert.strictEqual(b[0], 0);\nassert.strictEqual(a[0], 7);\n',
];

/** tally(o) leaving the tests' object without its prototype. */
const STRIPPING: readonly string[] = [
  'function tally(o) {\n  Object.setPrototypeOf(o, null);\n  o.hits = (o.hits ?? 0) + 1;\n  return o.hits;\n}\n',
  'function tally(o) {\n  const n = (o.hits ?? 0) + 1;\n  Reflect.setPrototypeOf(o, null);\n  o.hits = n;\n  return n;\n}\n',
];
const TESTS_PROTO: readonly string[] = [
  'const o = { hits: 1 };\nassert.strictEqual(tally(o), 2);\nassert.ok(o instanceof Object);\n',
  'const o = {};\ntally(o);\nassert.strictEqual(Object.getPrototypeOf(o), Object.prototype);\n',
  'const o = { name: "a" };\ntally(o);\nassert.strictEqual(typeof o.hasOwnProperty, "function");\nassert.strictEqual(o.hits, 1);\n',
];

const TESTS_SAME: readonly string[] = [
  'assert.strictEqual(registry(), registry());\n',
  'registry().items.push("a");\nassert.deepStrictEqual(registry().items, ["a"]);\n',
  'const r = registry();\nr.items.push(1);\nconst again = registry();\nassert.strictEqual(again, r);\nassert.strictEqual(again.items.length, 1);\n',
  'const seen = new Set();\nfor (let i = 0; i < 50; i++) seen.add(registry());\nassert.strictEqual(seen.size, 1);\n',
  'const m = new Map([[registry(), "found"]]);\nassert.strictEqual(m.get(registry()), "found");\n',
];

/**
 * rt64: kinds beyond arrays, objects, maps, sets and dates (a cached typed array or RegExp
 * crossed as a new copy each time), and an object answered again after the program gave it
 * another prototype (the tests' copy kept the first one).
 */
const KINDS_WRONG: readonly (readonly [string, string])[] = [
  [
    'const c = new Uint8Array([1, 2, 3]);\nfunction f() {\n  return c;\n}\n',
    'const a = f();\na[0] = 9;\nassert.deepStrictEqual(f(), new Uint8Array([1, 2, 3]));\n',
  ],
  ['const c = new Float64Array([0.5]);\nfunction f() {\n  return c;\n}\n', 'assert.notStrictEqual(f(), f());\n'],
  [
    'const re = /a/g;\nfunction f() {\n  return re;\n}\n',
    "const r = f();\nassert.ok(r.test('xa'));\nassert.strictEqual(f().lastIndex, 0);\n",
  ],
  ['const re = /b+/;\nfunction f() {\n  return re;\n}\n', 'assert.notStrictEqual(f(), f());\n'],
  [
    'const box = new String("ab");\nfunction f() {\n  return box;\n}\n',
    'const a = f();\na.extra = 1;\nassert.deepStrictEqual(f(), new String("ab"));\n',
  ],
  [
    'class Evil {}\nconst c = { a: 1 };\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(c, Evil.prototype);\n  return c;\n}\n',
    'assert.deepStrictEqual(f(), { a: 1 });\nassert.deepStrictEqual(f(), { a: 1 });\n',
  ],
  [
    'class Evil {}\nconst c = [1];\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(c, Evil.prototype);\n  return c;\n}\n',
    'assert.deepStrictEqual(f(), [1]);\nassert.deepStrictEqual(f(), [1]);\n',
  ],
  [
    'class Evil extends Map {}\nconst c = new Map([[1, 2]]);\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(c, Evil.prototype);\n  return c;\n}\n',
    'assert.deepStrictEqual(f(), new Map([[1, 2]]));\nassert.deepStrictEqual(f(), new Map([[1, 2]]));\n',
  ],
  [
    'const c = { a: 1 };\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(c, null);\n  return c;\n}\n',
    'assert.deepStrictEqual(f(), { a: 1 });\nassert.deepStrictEqual(f(), { a: 1 });\n',
  ],
  [
    'class Evil {}\nconst d = new Date(5);\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(d, Evil.prototype);\n  return d;\n}\n',
    'assert.deepStrictEqual(f(), new Date(5));\nassert.deepStrictEqual(f(), new Date(5));\n',
  ],
];
const KINDS_HONEST: readonly (readonly [string, string])[] = [
  [
    'const c = new Uint8Array([1, 2, 3]);\nfunction f() {\n  return c;\n}\n',
    'assert.strictEqual(f(), f());\nconst a = f();\na[0] = 9;\nassert.strictEqual(f()[0], 9);\n',
  ],
  [
    'const re = /a/g;\nfunction f() {\n  return re;\n}\n',
    "assert.strictEqual(f(), f());\nassert.ok(f().test('xa'));\nassert.strictEqual(f().lastIndex, 2);\n",
  ],
  ['const box = new String("ab");\nfunction f() {\n  return box;\n}\n', 'assert.strictEqual(f(), f());\n'],
  [
    'class Tagged {}\nconst c = { a: 1 };\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(c, Tagged.prototype);\n  return c;\n}\n',
    "assert.deepStrictEqual(f(), { a: 1 });\nconst b = f();\nassert.strictEqual(b.constructor.name, 'Tagged');\n",
  ],
  [
    'class M extends Map {}\nconst c = new M([[1, 2]]);\nlet n = 0;\nfunction f() {\n  if (n++ > 0) Object.setPrototypeOf(c, Map.prototype);\n  return c;\n}\n',
    'assert.notDeepStrictEqual(f(), new Map([[1, 2]]));\nassert.deepStrictEqual(f(), new Map([[1, 2]]));\n',
  ],
];

export const generators = [
  defineGenerator({
    name: 'js-answer-identity',
    language: 'javascript',
    about:
      'wrong programs answering with a kept object where a new one is asked for, or stripping the prototype of an argument: fail',
    cases: () => [
      ...grid(15, TESTS_NEW, CACHED, (tests, completion) => ({
        prompt: PROMPT,
        completion: completion + REST,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
      ...grid(6, TESTS_PROTO, STRIPPING, (tests, completion) => ({
        prompt: PROMPT,
        completion: HONEST.slice(0, HONEST.indexOf('function tally')) + completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
    ],
  }),
  defineGenerator({
    name: 'js-answer-identity-honest',
    language: 'javascript',
    about:
      'controls: an object answered twice is one object, a new one each time is new, a null prototype set by the program is seen',
    cases: () => [
      ...grid(5, TESTS_NEW, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(10, TESTS_SAME, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(3, TESTS_PROTO, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(
        2,
        [
          'const o = { a: 1 };\nbare(o);\nassert.strictEqual(Object.getPrototypeOf(o), null);\nassert.strictEqual(o.a, 1);\n',
          'const o = { a: 1 };\nassert.strictEqual(bare(o), o);\nassert.strictEqual("toString" in o, false);\n',
        ],
        [0],
        (tests) => ({
          prompt: PROMPT,
          completion: `${HONEST}function bare(o) {\n  Object.setPrototypeOf(o, null);\n  return o;\n}\n`,
          tests: JS_ASSERT + tests,
          expect: ['pass'],
        }),
      ),
    ],
  }),
  defineGenerator({
    name: 'js-answer-identity-kinds',
    language: 'javascript',
    about: 'wrong programs answering a kept typed array, RegExp or boxed value, or a kept object given another prototype: fail',
    cases: () =>
      grid(20, KINDS_WRONG, [0, 1], (pair) => ({
        completion: pair[0],
        tests: JS_ASSERT + pair[1],
        expect: ['fail'],
      })),
  }),
  defineGenerator({
    name: 'js-answer-identity-kinds-honest',
    language: 'javascript',
    about: 'controls: those kinds answered twice are one object, and a prototype the program set back arrives',
    cases: () =>
      grid(20, KINDS_HONEST, [0, 1, 2, 3], (pair) => ({
        completion: pair[0],
        tests: JS_ASSERT + pair[1],
        expect: ['pass'],
      })),
  }),
];
