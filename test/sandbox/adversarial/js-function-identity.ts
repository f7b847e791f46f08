/**
 * JavaScript (red-team rt61 B2): a function's identity across the boundary. A function crossing
 * between the realms arrived as a new stand-in every time, and a stand-in sent back arrived as yet
 * another function: the tests' own callback returned by the program (`compose(g) === g`) and one
 * function of the program returned twice (`getHandler() === getHandler()`) were different
 * functions, so honest programs failed, and a wrong one that returns the same function where the
 * tests want a new one (`notStrictEqual(wrap(g), g)`, a cached adder) passed. Now each function
 * has one stand-in per run, and a stand-in sent back is its own realm's function again
 * (sandbox/snapshot.js, `stubAt`/`stubOf`/`handedOut`).
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const PROMPT =
  '// pick(f, g, first): f when first is true, else g (the same function, not a copy)\n' +
  '// wrap(f): a new function calling f (never f itself)\n' +
  '// adder(n): a new function adding n on every call\n' +
  'function pick(f, g, first) {\n';

const TESTS_SAME: readonly string[] = [
  'const f = (x) => x + 1;\nconst g = (x) => x * 2;\nassert.strictEqual(pick(f, g, true), f);\nassert.strictEqual(pick(f, g, false), g);\n',
  'const f = function named() {};\nassert.ok(pick(f, f, true) === pick(f, f, false));\nassert.strictEqual(pick(f, () => 0, true).name, "named");\n',
  'const seen = new Set([Math.max]);\nconst mine = (x) => x;\nseen.add(mine);\nassert.ok(seen.has(pick(mine, Math.max, true)));\nassert.ok(seen.has(pick(mine, Math.max, false)));\n',
  'const f = () => 1;\nconst m = new Map([[f, "found"]]);\nassert.strictEqual(m.get(pick(f, null, true)), "found");\n',
];
const TESTS_NEW: readonly string[] = [
  'const f = (x) => x + 1;\nconst w = wrap(f);\nassert.notStrictEqual(w, f);\nassert.strictEqual(w(1), 2);\n',
  'const a = adder(3);\nconst b = adder(3);\nassert.notStrictEqual(a, b);\nassert.strictEqual(a(1), 4);\n',
  'const f = (x) => -x;\nassert.ok(wrap(f) !== f);\nassert.ok(adder(1) !== adder(1));\n',
];

const HONEST =
  '  return first ? f : g;\n}\nfunction wrap(f) {\n  return (...a) => f(...a);\n}\nfunction adder(n) {\n  return (x) => x + n;\n}\n';
/** Returns the same function where a new one is asked for (or copies where the same is). */
const WRONG: readonly string[] = [
  '  return first ? f : g;\n}\nfunction wrap(f) {\n  return f;\n}\nconst cache = new Map();\nfunction adder(n) {\n  if (!cache.has(n)) cache.set(n, (x) => x + n);\n  return cache.get(n);\n}\n',
  '  return first ? f : g;\n}\nconst wrap = (f) => f;\nlet last;\nfunction adder(n) {\n  return (last ??= (x) => x + n);\n}\n',
];
const WRONG_SAME: readonly string[] = [
  '  const h = first ? f : g;\n  return (...a) => h(...a);\n}\n',
  '  return (first ? f : g).bind(null);\n}\n',
];

export const generators = [
  defineGenerator({
    name: 'js-function-identity',
    language: 'javascript',
    about: 'wrong programs returning the same function where a new one is asked for, or a copy where the same: fail',
    cases: () => [
      ...grid(12, TESTS_NEW, WRONG, (tests, completion) => ({
        prompt: PROMPT,
        completion,
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
      ...grid(8, TESTS_SAME, WRONG_SAME, (tests, completion) => ({
        prompt: PROMPT,
        completion: completion + HONEST.slice(HONEST.indexOf('function wrap')),
        tests: JS_ASSERT + tests,
        expect: ['fail'],
      })),
    ],
  }),
  defineGenerator({
    name: 'js-function-identity-honest',
    language: 'javascript',
    about: "controls: the tests' own functions come back as themselves, a program function is one function",
    cases: () => [
      ...grid(14, TESTS_SAME, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(6, TESTS_NEW, [HONEST], (tests) => ({
        prompt: PROMPT,
        completion: HONEST,
        tests: JS_ASSERT + tests,
        expect: ['pass'],
      })),
      ...grid(
        4,
        [
          'const h = handler();\nassert.strictEqual(handler(), h);\nassert.strictEqual(h(2), 4);\n',
          'const fs = [handler(), handler(), handler()];\nassert.strictEqual(new Set(fs).size, 1);\n',
        ],
        [0],
        (tests) => ({
          prompt: PROMPT,
          completion: `${HONEST}const twice = (x) => 2 * x;\nfunction handler() {\n  return twice;\n}\n`,
          tests: JS_ASSERT + tests,
          expect: ['pass'],
        }),
      ),
    ],
  }),
];
