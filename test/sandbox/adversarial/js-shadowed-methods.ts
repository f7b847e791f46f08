/**
 * JavaScript (red-team rt6 M01): an answer's own function over a trusted method. An instance of a
 * prompt class crosses as its data and is rebuilt as the tests realm's class, and a function
 * nested in an answer crosses as a callable stub: an own `equals` field on the program's `Vec`
 * shadowed the prompt's `equals`, so `assert.ok(add(a, b).equals(w))` ran the program's code
 * (`() => true`). Likewise an own `includes` on an array or `hasOwnProperty` on a plain object.
 * In strict mode such a value is refused (snapshot.js `pairs`). Attacks: a wrong answer carrying
 * the shadowing function: fail. Controls: the honest answers (data only) pass. The same through
 * the program's own subclass of the prompt class (`class Liar extends Vec`): js-subclass-instances.ts.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const METHODS = ['equals', 'eq', 'same', 'matches', 'isEqual'];

const vecPrompt = (m: string) =>
  `class Vec {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n  ${m}(o) {\n    return o instanceof Vec && o.x === this.x && o.y === this.y;\n  }\n}\n/** The sum of two vectors. */\nfunction add(a, b) {\n`;

/** Ways the program puts an own function named `m` on the `Vec` it returns. */
const OWN: ReadonlyArray<(m: string) => string> = [
  (m) => `  const v = new Vec(0, 0);\n  v.${m} = () => true;\n  return v;\n}\n`,
  (m) => `  return Object.assign(new Vec(a.x, 0), { ${m}() { return true; } });\n}\n`,
  (m) =>
    `  const v = new Vec(-1, -1);\n  Object.defineProperty(v, '${m}', { value: function () { return true; }, enumerable: true, writable: true, configurable: true });\n  return v;\n}\n`,
];

const vecTests = (m: string, a: [number, number], b: [number, number]) =>
  `${JS_ASSERT}assert.ok(add(new Vec(${a[0]}, ${a[1]}), new Vec(${b[0]}, ${b[1]})).${m}(new Vec(${a[0] + b[0]}, ${a[1] + b[1]})));\nassert.ok(add(new Vec(1, 2), new Vec(3, 4)).${m}(new Vec(4, 6)));\n`;

/** Arrays and plain objects: the tests call the builtin method; the answer brings its own. */
const BUILTIN: ReadonlyArray<{ prompt: string; own: string; tests: string; honest: string }> = [
  {
    prompt: '/** The divisors of n, ascending. */\nfunction divisors(n) {\n',
    own: '  const r = [];\n  r.includes = () => true;\n  return r;\n}\n',
    honest: '  const r = [];\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n}\n',
    tests: `${JS_ASSERT}const ds = divisors(12);\nfor (const d of [1, 2, 3, 4, 6, 12]) assert.ok(ds.includes(d));\n`,
  },
  {
    prompt: '/** Letter counts of s. */\nfunction counts(s) {\n',
    own: '  return { hasOwnProperty: () => true };\n}\n',
    honest: '  const r = {};\n  for (const c of s) r[c] = (r[c] || 0) + 1;\n  return r;\n}\n',
    tests: `${JS_ASSERT}const c = counts('abca');\nfor (const k of ['a', 'b', 'c']) assert.ok(c.hasOwnProperty(k));\n`,
  },
  {
    prompt: '/** The words of s. */\nfunction words(s) {\n',
    own: "  const r = ['x'];\n  r.every = () => true;\n  r.some = () => true;\n  return r;\n}\n",
    honest: "  return s.split(' ').filter((w) => w !== '');\n}\n",
    tests: `${JS_ASSERT}const w = words('to be or');\nassert.ok(['to', 'be', 'or'].every((x) => w.indexOf(x) !== -1));\nassert.ok(w.every((x) => x.length === 2));\n`,
  },
];

export const generators = [
  defineGenerator({
    name: 'js-shadowed-methods',
    language: 'javascript',
    about: 'an own function over a method of the rebuilt prototype (prompt class, Array, Object) is refused: fail',
    cases: (rng) => [
      ...grid(20, OWN, METHODS, (own, m) => ({
        prompt: vecPrompt(m),
        completion: own(m),
        tests: vecTests(m, [rng.int(1, 9), rng.int(1, 9)], [rng.int(1, 9), rng.int(1, 9)]),
        expect: ['fail'],
        maxPassed: 0,
      })),
      ...BUILTIN.map((b) => ({ prompt: b.prompt, completion: b.own, tests: b.tests, expect: ['fail'] as const, maxPassed: 0 })),
    ],
  }),
  defineGenerator({
    name: 'js-shadowed-methods-honest',
    language: 'javascript',
    about: 'controls: the same tests on honest answers (data only) pass',
    cases: (rng) => [
      ...grid(20, METHODS, [0, 1, 2, 3], (m, i) => ({
        prompt: vecPrompt(m),
        completion: `  return new Vec(a.x + b.x, a.y + b.y);${i ? ` // ${i}` : ''}\n}\n`,
        tests: vecTests(m, [rng.int(1, 9), rng.int(1, 9)], [rng.int(1, 9), rng.int(1, 9)]),
        expect: ['pass'],
      })),
      ...BUILTIN.map((b) => ({ prompt: b.prompt, completion: b.honest, tests: b.tests, expect: ['pass'] as const })),
    ],
  }),
];
