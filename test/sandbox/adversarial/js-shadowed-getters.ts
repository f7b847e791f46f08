/**
 * JavaScript (red-team rt7 G01/G02): own data over a prompt class's getter. An instance of the
 * prompt's `Vec` is rebuilt as the tests realm's class, whose getter (`isUnit`, `norm2`) computes
 * from the data; an own data property of that name on the program's answer hid it, so a wrong,
 * unnormalised vector carrying `isUnit: true` passed `assert.ok(normalize(v).isUnit)`. In strict
 * mode such a value is refused (snapshot.js `pairs`). Attacks: fail; controls: honest answers
 * (data only) pass.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';

/** A getter and the check the tests make with it. */
const GETTERS: ReadonlyArray<{ name: string; body: string; check: (e: string) => string; forged: string }> = [
  {
    name: 'isUnit',
    body: 'return Math.abs(this.x * this.x + this.y * this.y - 1) < 1e-9;',
    check: (e) => `assert.ok(${e}.isUnit)`,
    forged: 'true',
  },
  {
    name: 'norm2',
    body: 'return this.x * this.x + this.y * this.y;',
    check: (e) => `assert.ok(Math.abs(${e}.norm2 - 1) < 1e-9)`,
    forged: '1',
  },
  {
    name: 'length',
    body: 'return Math.hypot(this.x, this.y);',
    check: (e) => `assert.strictEqual(Math.round(${e}.length * 1e6), 1e6)`,
    forged: '1',
  },
  {
    name: 'unit',
    body: 'return Math.abs(Math.hypot(this.x, this.y) - 1) < 1e-9;',
    check: (e) => `assert.strictEqual(${e}.unit, true)`,
    forged: 'true',
  },
];
const prompt = (g: (typeof GETTERS)[number]) =>
  `class Vec {\n  constructor(x, y) {\n    this.x = x;\n    this.y = y;\n  }\n  get ${g.name}() {\n    ${g.body}\n  }\n}\n/** v scaled to length 1. */\nfunction normalize(v) {\n`;
/** Ways the program puts own data named like the getter on a wrong Vec. */
const FORGE: ReadonlyArray<(name: string, value: string) => string> = [
  (n, v) =>
    `  const r = new Vec(v.x, v.y);\n  Object.defineProperty(r, '${n}', { value: ${v}, enumerable: true, writable: true, configurable: true });\n  return r;\n}\n`,
  (n, v) => `  return Object.defineProperty(new Vec(1, 1), '${n}', { value: ${v}, enumerable: true });\n}\n`,
  (n, v) =>
    `  const r = Object.create(Vec.prototype);\n  Object.defineProperties(r, { x: { value: 3, enumerable: true }, y: { value: 4, enumerable: true }, ${n}: { value: ${v}, enumerable: true } });\n  return r;\n}\n`,
  (n, v) =>
    `  const r = new Vec(0, 0);\n  Reflect.defineProperty(r, '${n}', { value: ${v}, enumerable: true, writable: true, configurable: true });\n  return r;\n}\n`,
];
const tests = (g: (typeof GETTERS)[number], rng: Rng) => {
  const x = rng.int(1, 9);
  const y = rng.int(1, 9);
  return `${JS_ASSERT}${g.check(`normalize(new Vec(${x}, ${y}))`)};\n${g.check('normalize(new Vec(3, 4))')};\n`;
};

export const generators = [
  defineGenerator({
    name: 'js-shadowed-getters',
    language: 'javascript',
    about: 'own data over a getter of the prompt class the answer is rebuilt as is refused: fail',
    cases: (rng) =>
      grid(
        20,
        GETTERS,
        FORGE,
        (g, forge): AdversarialCase => ({
          prompt: prompt(g),
          completion: forge(g.name, g.forged),
          tests: tests(g, rng),
          expect: ['fail'],
          maxPassed: 0,
        }),
      ),
  }),
  defineGenerator({
    name: 'js-shadowed-getters-honest',
    language: 'javascript',
    about: 'controls: honest normalize (data only) passes',
    cases: (rng) =>
      grid(
        20,
        GETTERS,
        [0, 1, 2, 3, 4],
        (g, i): AdversarialCase => ({
          prompt: prompt(g),
          completion: `  const n = Math.hypot(v.x, v.y);${i ? ` // ${i}` : ''}\n  return new Vec(v.x / n, v.y / n);\n}\n`,
          tests: tests(g, rng),
          expect: ['pass'],
        }),
      ),
  }),
];
