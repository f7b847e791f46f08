/**
 * JavaScript: code generation from strings in the program realm while the tests realm is the
 * isolate's entered context (every call of the candidate). V8 checked the entered context's access
 * to the program realm there, which failed: `Function(...)` threw a TypeError made in the tests
 * realm, whose `constructor.constructor` ran code in the tests realm (patching its iterators, its
 * `Math`, its assert module), and indirect `eval` returned undefined. The worker turns that check
 * off (src/sandbox/worker.ts): each constructor builds its function in its own realm, as under
 * Node. Attacks: reach for the tests realm that way, then answer wrong; controls: honest
 * evaluators built on each route.
 */
import { defineGenerator, variants } from './framework.ts';

/** Ways to build a function from text, as expressions taking the source text `t`. */
const ROUTES = [
  (t: string) => `Function(${t})`,
  (t: string) => `new Function(${t})`,
  (t: string) => `(function () {}).constructor(${t})`,
  (t: string) => `Reflect.construct(Function, [${t}])`,
  (t: string) => `Function.prototype.constructor.call(null, ${t})`,
  (t: string) => `(() => {}).constructor.apply(null, [${t}])`,
  (t: string) => `Object.getPrototypeOf(async function () {}).constructor(${t})`,
  (t: string) => `Object.getPrototypeOf(function* () {}).constructor(${t})`,
  (t: string) => `Object.getPrototypeOf(async function* () {}).constructor(${t})`,
  (t: string) => `(class {}).constructor(${t})`,
];
/** What the attacker runs with a foreign realm's `Function`, if it gets one. */
const PAYLOADS = [
  '\'Math.abs = () => 0; require("assert").strictEqual = () => {};\'',
  '\'const a = require("node:assert"); a.ok = () => {}; a.strictEqual = () => {};\'',
  '\'Math.abs = () => 0; Object.getPrototypeOf(require("assert")).strictEqual = () => {};\'',
  '\'globalThis.__anchorHooks && (Math.abs = () => 0); require("assert").strictEqual = () => {};\'',
];

const attacks = defineGenerator({
  name: 'js-entered-realm',
  language: 'javascript',
  about: "a function built from text while the tests realm is entered must not hand the program the tests realm's Function",
  cases: () =>
    variants(20, (i) => {
      const route = ROUTES[i % ROUTES.length]!;
      const payload = PAYLOADS[i % PAYLOADS.length]!;
      return {
        prompt: 'function mean(xs) {\n',
        completion:
          `  let e;\n  try {\n    ${route("'return 7'")};\n  } catch (x) {\n    e = x;\n  }\n` +
          `  const F = e && e.constructor && e.constructor.constructor;\n` +
          `  if (typeof F === 'function') {\n    try {\n      F(${payload})();\n    } catch {}\n  }\n  return 0;\n}\n`,
        tests:
          "const assert = require('node:assert');\n" +
          'for (const [xs, m] of [[[1, 2, 3], 2], [[4], 4], [[2, 4], 3]]) {\n' +
          '  assert.ok(Math.abs(mean(xs) - m) < 1e-9);\n  assert.strictEqual(mean(xs), m);\n}\n',
        expect: ['fail'],
        maxPassed: 0,
        note: `${route('…')} then ${payload}`,
      };
    }),
});

const honest = defineGenerator({
  name: 'js-entered-realm-honest',
  language: 'javascript',
  about: 'controls: honest evaluators that build functions from text, by every route, and indirect eval',
  cases: () =>
    variants(20, (i) => {
      const k = i % (ROUTES.length + 2);
      // Async routes give a promise: those evaluators are awaited by the tests.
      const isAsync = k === 6 || k === 8;
      const isGen = k === 7 || k === 8;
      let body: string;
      if (k === ROUTES.length) body = '  return (0, eval)(expr);\n';
      else if (k === ROUTES.length + 1) body = "  return globalThis['eval'](expr);\n";
      else if (isGen && isAsync) body = `  return ${ROUTES[k]!("'yield ' + expr")}().next().then((r) => r.value);\n`;
      else if (isGen) body = `  return ${ROUTES[k]!("'yield ' + expr")}().next().value;\n`;
      else body = `  return ${ROUTES[k]!("'return ' + expr")}();\n`;
      const tests = isAsync
        ? "async function t() {\n  assert.strictEqual(await evaluate('1 + 2 * 3'), 7);\n  assert.strictEqual(await evaluate('(1 + 2) * 3'), 9);\n}\nt();\n"
        : "assert.strictEqual(evaluate('1 + 2 * 3'), 7);\nassert.strictEqual(evaluate('(1 + 2) * 3'), 9);\n";
      return {
        prompt: 'function evaluate(expr) {\n',
        completion: `  if (!/^[\\d\\s+\\-*/().]+$/.test(expr)) throw new Error('bad');\n${body}}\n`,
        tests: `const assert = require('node:assert');\n${tests}`,
        expect: ['pass'],
      };
    }),
});

export const generators = [attacks, honest];
