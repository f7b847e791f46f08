/**
 * JavaScript: symbols across the boundary. A symbol crossed as a new one with its description, so
 * an honest program returning `Symbol.for('app.key')` (the registry's symbol, the same in every
 * realm under Node) or `Symbol.iterator` failed `strictEqual` against the tests' own (a fresh
 * hostile pass, 2026-12-06). A registered symbol now crosses by its key and a well-known one by
 * its name; any other symbol is still a new one. Controls: registered and well-known symbols,
 * alone and inside arrays, objects and Maps, pass. Attacks: another key, or an unregistered symbol
 * with the expected description, fail.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** [what the program returns, what the tests expect], built around a symbol expression. */
const SHAPES: ReadonlyArray<(s: string) => string> = [
  (s) => s,
  (s) => `[1, ${s}]`,
  (s) => `{ kind: ${s}, n: 2 }`,
  (s) => `new Map([[${s}, 'v']])`,
  (s) => `[{ deep: [${s}] }]`,
];

const HONEST = ["Symbol.for('app.key')", "Symbol.for('')", 'Symbol.iterator', 'Symbol.asyncIterator'];
/** [the program's symbol, the one the tests expect]. */
const WRONG: ReadonlyArray<readonly [string, string]> = [
  ["Symbol.for('app.other')", "Symbol.for('app.key')"],
  ["Symbol('app.key')", "Symbol.for('app.key')"],
  ["Symbol('Symbol.iterator')", 'Symbol.iterator'],
  ['Symbol.asyncIterator', 'Symbol.iterator'],
];

export const generators = [
  defineGenerator({
    name: 'js-registered-symbols',
    language: 'javascript',
    about: 'another registered key, an unregistered symbol with the expected description, another well-known symbol: fail',
    cases: () =>
      grid(20, SHAPES, WRONG, (shape, [mine, want]) => ({
        prompt: 'function f() {\n',
        completion: `  return ${shape(mine)};\n}\n`,
        tests: `${JS_ASSERT}assert.deepStrictEqual(f(), ${shape(want)});\n`,
        expect: ['fail'],
        maxPassed: 0,
      })),
  }),
  defineGenerator({
    name: 'js-registered-symbols-honest',
    language: 'javascript',
    about: 'controls: registered and well-known symbols, alone and inside arrays, objects and Maps, pass',
    cases: () =>
      grid(20, SHAPES, HONEST, (shape, sym) => ({
        prompt: 'function f() {\n',
        completion: `  return ${shape(sym)};\n}\n`,
        tests: `${JS_ASSERT}assert.deepStrictEqual(f(), ${shape(sym)});\n`,
        expect: ['pass'],
      })),
  }),
];
