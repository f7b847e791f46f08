/**
 * JavaScript (red-team rt7 B01–B09, T08–T11, G08): a throw that ends the run from inside a pass
 * of a loop of the tests. Tests with no `try` that call the program outside the check
 * (`for (…) { const got = fact(n); assert.strictEqual(got, w); }`) and a program right on the
 * easy cases that throws on the first hard one ended as `error` with the loop's check passed on
 * the easy cases: gold 1/2, where a wrong value fails the check (0). The interrupted pass is now
 * an execution of the loop's checks that did not pass (src/sandbox/test-plan.ts, LoopEntry): no
 * site passes. Shapes: `for`, `for…of`, `while`, `do…while`, array callbacks (`forEach`, `map`,
 * `reduce`), a loop in a tests function, a checking helper called per case, a tests generator
 * feeding a `for…of`. Controls: the same shapes on an honest program, and expected errors judged
 * by `assert.throws` in a loop.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

const EQS = ['strictEqual', 'deepStrictEqual', 'equal'];
const GOTS = ['got', 'r', 'actual', 'out'];

/** A tests shape (names and cases from `rng`; easy cases first, so the loop's check passes first). */
type Shape = (rng: Rng) => string;

const SHAPES: Shape[] = [
  (rng) => {
    const g = rng.pick(GOTS);
    return `for (const [n, w] of ${factCases(rng, true)}) {\n  const ${g} = fact(n);\n  assert.${rng.pick(EQS)}(${g}, w);\n}\n`;
  },
  (rng) => {
    const g = rng.pick(GOTS);
    return `const cases = ${factCases(rng, true)};\nfor (let i = 0; i < cases.length; i++) {\n  const ${g} = fact(cases[i][0]);\n  assert.${rng.pick(EQS)}(${g}, cases[i][1]);\n}\n`;
  },
  (rng) =>
    `const cases = ${factCases(rng, true)};\nlet i = 0;\nwhile (i < cases.length) {\n  const [n, w] = cases[i++];\n  const v = fact(n);\n  assert.${rng.pick(EQS)}(v, w);\n}\n`,
  (rng) =>
    `const cases = ${factCases(rng, true)};\nlet i = 0;\ndo {\n  const v = fact(cases[i][0]);\n  assert.${rng.pick(EQS)}(v, cases[i][1]);\n} while (++i < cases.length);\n`,
  (rng) => `${factCases(rng, true)}.forEach(([n, w]) => {\n  const v = fact(n);\n  assert.${rng.pick(EQS)}(v, w);\n});\n`,
  (rng) =>
    `const results = ${factCases(rng, true)}.map(([n, w]) => {\n  const v = fact(n);\n  assert.${rng.pick(EQS)}(v, w);\n  return v;\n});\nconsole.log(results.length);\n`,
  (rng) =>
    `const total = ${factCases(rng, true)}.reduce((acc, [n, w]) => {\n  const v = fact(n);\n  assert.${rng.pick(EQS)}(v, w);\n  return acc + 1;\n}, 0);\nconsole.log(total);\n`,
  (rng) => {
    const t = rng.pick(['test', 'main', 'runTests', 'check']);
    return `function ${t}() {\n  for (const [n, w] of ${factCases(rng, true)}) {\n    const v = fact(n);\n    assert.${rng.pick(EQS)}(v, w);\n  }\n}\n${t}();\n`;
  },
  (rng) => {
    const c = rng.pick(['checkCase', 'verify', 'expectFact']);
    return `function ${c}(n, w) {\n  const v = fact(n);\n  assert.${rng.pick(EQS)}(v, w);\n}\nfor (const [n, w] of ${factCases(rng, true)}) ${c}(n, w);\n`;
  },
  (rng) =>
    `function* outcomes() {\n  for (const [n, w] of ${factCases(rng, true)}) yield [fact(n), w];\n}\nfor (const [v, w] of outcomes()) assert.${rng.pick(EQS)}(v, w);\n`,
];

/** Expected errors judged in a loop (and a loop that completes before a later throwing statement). */
const JUDGED: Shape[] = [
  (rng) =>
    `for (const n of [-${rng.int(1, 3)}, -${rng.int(4, 9)}]) assert.throws(() => fact(n), RangeError);\nfor (const [n, w] of ${factCases(rng, true)}) {\n  const v = fact(n);\n  assert.strictEqual(v, w);\n}\n`,
  (rng) =>
    `[-${rng.int(1, 9)}].forEach((n) => {\n  let threw = false;\n  try {\n    fact(n);\n  } catch (e) {\n    threw = e instanceof RangeError;\n  }\n  assert.ok(threw);\n});\n`,
];

export const generators = factShapeGenerators(
  'js-run-ending-throws',
  {
    attacks:
      'a throw that ends the run from inside a pass of a loop of the tests (no try, the call outside the check): no site passes',
    honest: 'controls: the loop shapes on an honest program, and expected errors judged in loops',
  },
  SHAPES,
  JUDGED,
);
