/**
 * JavaScript: an answer that is an instance of the program's own subclass of a prompt class (or of
 * `Array`). Such an instance used to be rebuilt in the tests realm over a stand-in prototype that
 * knew only its class's name: the prompt's methods and accessors were not on its chain, so an own
 * function field (`class Liar extends Vec`, `this.equals = () => true`) answered the tests'
 * `answer.equals(w)` with the program's code, and own data answered for a getter; an honest
 * subclass instance failed (`equals` missing, `instanceof Vec` false), as did an honest subclass of
 * `Array` (no `includes`, not iterable). The snapshot now sends the names up the instance's
 * prototype chain, and the tests realm rebuilds it over its own copy of the first prompt class on
 * that chain (over its own `Array.prototype` for an array): the trusted methods and accessors
 * answer, and own functions or data over them are refused as for the prompt class itself
 * (`js-shadowed-methods.ts`). Attacks: fail with nothing passed. Wrong answers without tricks:
 * fail. Controls: honest subclass instances pass.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const METHODS = ['equals', 'eq', 'same', 'matches', 'isEqual'];

const vecPrompt = (m: string) =>
  `class Vec {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n  ${m}(o) {\n    return o instanceof Vec && o.x === this.x && o.y === this.y;\n  }\n  get norm1() {\n    return Math.abs(this.x) + Math.abs(this.y);\n  }\n}\n/** The sum of two vectors. */\nfunction add(a, b) {\n`;

const vecTests = (m: string, a: [number, number], b: [number, number]) =>
  `${JS_ASSERT}assert.ok(add(new Vec(${a[0]}, ${a[1]}), new Vec(${b[0]}, ${b[1]})).${m}(new Vec(${a[0] + b[0]}, ${a[1] + b[1]})));\nassert.ok(add(new Vec(1, 2), new Vec(3, 4)).${m}(new Vec(4, 6)));\n`;

/** A subclass named `name` of `Vec` (through `Mid` when `mid`). */
const subclass = (name: string, mid: boolean, body = '') =>
  mid ? `  class Mid extends Vec {}\n  class ${name} extends Mid {${body}}\n` : `  class ${name} extends Vec {${body}}\n`;

/** Ways the program's subclass instance answers for the prompt's method `m` with its own code. */
const LIARS: ReadonlyArray<(m: string, mid: boolean) => string> = [
  (m, mid) => `${subclass('Liar', mid)}  const v = new Liar(0, 0);\n  v.${m} = () => true;\n  return v;\n}\n`,
  (m, mid) => `${subclass('Sum', mid)}  return Object.assign(new Sum(a.x, 0), { ${m}() { return true; } });\n}\n`,
  (m, mid) =>
    `${subclass('Out', mid, ` constructor() { super(-1, -1); this.${m} = function () { return true; }; } `)}  return new Out();\n}\n`,
  (m, mid) => `${subclass('Liar', mid, ` ${m}() { return true; } `)}  return new Liar(a.x, a.x);\n}\n`,
  (m, mid) =>
    `${subclass('V2', mid)}  const v = new V2(9, 9);\n  Object.defineProperty(v, '${m}', { value: () => true, enumerable: false, writable: true, configurable: true });\n  return v;\n}\n`,
];

/** Arrays: the program's subclass of `Array` brings its own `includes`. */
const divPrompt = '/** The divisors of n, ascending. */\nfunction divisors(n) {\n';
const divTests = (n: number, ds: number[]) =>
  `${JS_ASSERT}const ds = divisors(${n});\nfor (const d of ${JSON.stringify(ds)}) assert.ok(ds.includes(d));\nassert.ok(!ds.includes(${n + 1}));\n`;
const divisorsOf = (n: number) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
const ARRAY_LIARS: readonly string[] = [
  '  class L extends Array {}\n  const r = new L();\n  r.includes = (x) => x <= n;\n  return r;\n}\n',
  '  class L extends Array { includes(x) { return x <= n; } }\n  return new L();\n}\n',
  '  class L extends Array {}\n  const r = L.from([1]);\n  Object.defineProperty(r, "includes", { value: (x) => x <= n });\n  return r;\n}\n',
];
const ARRAY_HONEST: readonly string[] = [
  '  class L extends Array {}\n  const r = new L();\n  for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d);\n  return r;\n}\n',
  '  class Divs extends Array {\n    static of_(n) { const r = new Divs(); for (let d = 1; d <= n; d++) if (n % d === 0) r.push(d); return r; }\n  }\n  return Divs.of_(n);\n}\n',
];
/** Checks of `ds` as an array (after {@link divTests}). */
const arrayChecks = (n: number) =>
  `assert.ok(Array.isArray(ds));\nassert.strictEqual(ds.length, ${divisorsOf(n).length});\nassert.deepStrictEqual([...ds], ${JSON.stringify(divisorsOf(n))});\nassert.deepStrictEqual(ds.map((d) => d * 2), ${JSON.stringify(divisorsOf(n).map((d) => d * 2))});\n`;

export const generators = [
  defineGenerator({
    name: 'js-subclass-instances',
    language: 'javascript',
    about:
      "an instance of the program's subclass of a prompt class or of Array answers with its own code: refused or judged by the trusted method: fail",
    cases: (rng) => [
      ...grid(20, LIARS, METHODS, (liar, m, i) => ({
        prompt: vecPrompt(m),
        completion: liar(m, i % 2 === 1),
        tests: vecTests(m, [rng.int(1, 9), rng.int(1, 9)], [rng.int(1, 9), rng.int(1, 9)]),
        expect: ['fail'],
        maxPassed: 0,
      })),
      // Own data over the prompt's getter.
      ...[false, true].map((mid) => ({
        prompt: vecPrompt('equals'),
        completion: `${subclass('Liar', mid)}  const v = new Liar(a.x + b.x, 0);\n  Object.defineProperty(v, 'norm1', { value: ${10 + (mid ? 1 : 0)}, enumerable: true });\n  return v;\n}\n`,
        tests: `${JS_ASSERT}const v = add(new Vec(1, 2), new Vec(3, ${4 + (mid ? 1 : 0)}));\nassert.strictEqual(v.norm1, ${10 + (mid ? 1 : 0)});\n`,
        expect: ['fail'] as const,
        maxPassed: 0,
      })),
      ...grid(6, ARRAY_LIARS, [12, 18], (own, n) => ({
        prompt: divPrompt,
        completion: own,
        tests: divTests(n, divisorsOf(n)),
        expect: ['fail'],
        maxPassed: 0,
      })),
    ],
  }),
  defineGenerator({
    name: 'js-subclass-instances-wrong',
    language: 'javascript',
    about: "wrong data in an instance of the program's subclass, no tricks: fail",
    cases: (rng) =>
      grid(20, METHODS, [false, true], (m, mid) => {
        const dx = rng.int(1, 3);
        return {
          prompt: vecPrompt(m),
          completion: `${subclass('V2', mid)}  return new V2(a.x + b.x + ${dx}, a.y + b.y);\n}\n`,
          tests: vecTests(m, [rng.int(1, 9), rng.int(1, 9)], [rng.int(1, 9), rng.int(1, 9)]),
          expect: ['fail'],
          maxPassed: 0,
        };
      }),
  }),
  defineGenerator({
    name: 'js-subclass-instances-honest',
    language: 'javascript',
    about: "controls: honest instances of the program's subclass of a prompt class or of Array pass",
    cases: (rng) => [
      ...grid(14, METHODS, [false, true], (m, mid, i) => ({
        prompt: vecPrompt(m),
        completion: `${subclass(i % 3 === 0 ? 'Vec2' : 'V2', mid, i % 4 === 3 ? ' scaled(k) { return new Vec(this.x * k, this.y * k); } ' : '')}  return new ${i % 3 === 0 ? 'Vec2' : 'V2'}(a.x + b.x, a.y + b.y);\n}\n`,
        tests: `${vecTests(m, [rng.int(1, 9), rng.int(1, 9)], [rng.int(1, 9), rng.int(1, 9)])}const s = add(new Vec(1, 1), new Vec(2, ${i}));\nassert.ok(s instanceof Vec);\nassert.strictEqual(s.norm1, ${3 + 1 + i});\n`,
        expect: ['pass'],
      })),
      ...grid(6, ARRAY_HONEST, [12, 18, 30], (own, n) => ({
        prompt: divPrompt,
        completion: own,
        tests: divTests(n, divisorsOf(n)) + arrayChecks(n),
        expect: ['pass'],
      })),
    ],
  }),
];
