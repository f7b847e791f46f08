/**
 * JavaScript (red-team rt7-js G07h): a generator the program returns crossed as a handle on its
 * `next` only, so tests closing it as under Node — `it.return(v)`, `it.throw(e)` into a generator
 * that catches it, `for…of` with `break` (which calls `return` and runs the generator's `finally`)
 * — failed honest programs (`it.return is not a function`). A generator's `return` and `throw`
 * now cross as well. Controls: honest generators pass those tests. Wrong twins: a generator
 * yielding a wrong value still fails them, with no site passed.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT, type Rng } from './framework.ts';

/** `count(start)`: start, start + 1, … forever; `closed()` tells whether its `finally` ran. */
const program = (first: string) =>
  `let closedFlag = false;\nfunction* count(start) {\n  try {\n    let i = start;\n    for (;;) {\n      try {\n        yield ${first};\n      } catch (e) {\n        i = -100;\n      }\n      i++;\n    }\n  } finally {\n    closedFlag = true;\n  }\n}\nfunction closed() {\n  return closedFlag;\n}\n`;
const HONEST = program('i');
const WRONG = program('i * 2');

const SHAPES: ReadonlyArray<(rng: Rng) => string> = [
  (rng) => {
    const s = rng.int(0, 9);
    const v = rng.int(10, 99);
    return `const it = count(${s});\nassert.deepStrictEqual(it.next(), { value: ${s}, done: false });\nassert.deepStrictEqual(it.return(${v}), { value: ${v}, done: true });\nassert.deepStrictEqual(it.next(), { value: undefined, done: true });\nassert.strictEqual(closed(), true);\n`;
  },
  (rng) => {
    const s = rng.int(0, 9);
    const n = rng.int(2, 5);
    return `const seen = [];\nfor (const v of count(${s})) {\n  if (seen.length === ${n}) break;\n  seen.push(v);\n}\nassert.deepStrictEqual(seen, [${Array.from({ length: n }, (_, i) => s + i).join(', ')}]);\nassert.strictEqual(closed(), true);\n`;
  },
  (rng) => {
    const s = rng.int(1, 9);
    return `const it = count(${s});\nassert.strictEqual(it.next().value, ${s});\nassert.strictEqual(it.throw(new Error('reset')).value, -99);\nassert.strictEqual(it.next().value, -98);\n`;
  },
  (rng) => {
    const s = rng.int(0, 9);
    return `const [a, b] = count(${s});\nassert.deepStrictEqual([a, b], [${s}, ${s + 1}]);\nassert.strictEqual(closed(), true);\n`;
  },
];

export const generators = [
  defineGenerator({
    name: 'js-generator-closing',
    language: 'javascript',
    about: "controls: tests closing the program's generator (return, throw, break, destructuring) as under Node: pass",
    cases: (rng) =>
      grid(
        20,
        SHAPES,
        [0],
        (shape): AdversarialCase => ({ completion: HONEST, tests: JS_ASSERT + shape(rng), expect: ['pass'] }),
      ),
  }),
  defineGenerator({
    name: 'js-generator-closing-wrong',
    language: 'javascript',
    about: 'a generator yielding wrong values, closed the same ways: fail, no site passed',
    cases: (rng) =>
      grid(
        20,
        SHAPES,
        [0],
        (shape): AdversarialCase => ({
          // Start at 1 or more so that doubling is wrong on the first value.
          completion: WRONG,
          tests:
            JS_ASSERT +
            shape(rng)
              .replace(/count\(0\)/g, 'count(1)')
              .replace(/, \[0, 1\]/g, ', [1, 2]'),
          expect: ['fail'],
          maxPassed: 0,
        }),
      ),
  }),
];
