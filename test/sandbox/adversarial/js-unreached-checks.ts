/**
 * JavaScript: tests whose checks an answer steers around — a loop over an empty answer, a branch
 * on the answer's shape, a helper called per element — finish with those checks never run; under
 * Node they pass. In the strict verdict every check of the tests (assert calls and the tests'
 * helpers that make them) must run at least once for a pass. Controls: honest answers, and
 * failure markers (`assert.fail` after a call that must throw) that an honest run never reaches.
 */
import { defineGenerator, grid, JS_ASSERT } from './framework.ts';

const EMPTY = ['[]', 'new Set()', '""', 'new Map()', '{}'];

const LOOPS: Array<(r: string) => string> = [
  (r) => `for (const v of ${r}) assert.strictEqual(v % 2, 0);`,
  (r) => `[...${r}].forEach((v) => assert.ok(v > 0));`,
  (r) =>
    `function __check(a, b) { assert.deepStrictEqual(a, b); }\n__check(1, 1);\nfor (const v of ${r}) __check(typeof v, 'number');`,
  (r) => `for (const k in ${r}) assert.ok(k.length > 0);`,
];

const unreached = defineGenerator({
  name: 'js-unreached-checks',
  language: 'javascript',
  about: 'an empty answer that makes the checks of a loop never run: never a pass',
  cases: () =>
    grid(20, EMPTY, LOOPS, (value, loop) => ({
      completion: `function f(n) {\n  return ${value};\n}\n`,
      // A first check that an empty answer passes (its type), so the run is not one that checked
      // nothing (which fails anyway): only the loop's checks are steered around.
      tests: `${JS_ASSERT}const R = f(4);\nassert.strictEqual(typeof R === 'object' || typeof R === 'string', true);\n${loop('R')}\n`,
      // A plain object is not iterable: the tests throw (error) where they spread or loop over it.
      expect: value === '{}' ? ['fail', 'error'] : ['fail'],
      // The type check, and the helper's own check outside the loop where there is one.
      maxPassed: 2,
      note: `${value}: ${loop('R')}`,
    })),
});

const reachedHonest = defineGenerator({
  name: 'js-unreached-checks-honest',
  language: 'javascript',
  about: 'control: honest answers run every check; failure markers after a call that throws are never reached and pass',
  cases: (rng) =>
    grid(20, [0, 1, 2, 3], [0, 1, 2, 3, 4], (kind) => {
      const n = rng.int(2, 6);
      if (kind === 0)
        return {
          completion: 'function f(n) { return Array.from({ length: n }, (_, i) => 2 * i); }\n',
          tests: `${JS_ASSERT}for (const v of f(${n})) assert.strictEqual(v % 2, 0);\n`,
          expect: ['pass'],
        };
      if (kind === 1)
        return {
          completion: 'function f(n) { if (n < 0) throw new RangeError("neg"); return n; }\n',
          tests: `${JS_ASSERT}try { f(-${n}); assert.fail('should throw'); } catch (e) { assert.ok(e instanceof RangeError); }\nassert.strictEqual(f(${n}), ${n});\n`,
          expect: ['pass'],
        };
      if (kind === 2)
        return {
          completion: 'function f(n) { if (n < 0) throw new RangeError("neg"); return n; }\n',
          tests: `${JS_ASSERT}assert.throws(() => f(-${n}), RangeError);\nlet threw = false;\ntry { f(-1); assert.ok(false, 'no throw'); } catch { threw = true; }\nassert.ok(threw);\n`,
          expect: ['pass'],
        };
      return {
        completion: 'function f(n) { return { a: n }; }\n',
        tests: `${JS_ASSERT}function __check(a, b) { assert.deepStrictEqual(a, b); }\nfor (const k in f(${n})) __check(k, 'a');\n__check(f(${n}).a, ${n});\n`,
        expect: ['pass'],
      };
    }),
});

export const generators = [unreached, reachedHonest];
