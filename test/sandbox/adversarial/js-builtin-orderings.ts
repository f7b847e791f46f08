/**
 * JavaScript (issue 25): a NaN through a comparison a builtin makes on the tests' behalf. A sort
 * calls the tests' comparator and reads a NaN it returns as "equal", so an unsorted array holding
 * a NaN the tests made themselves (`f().map(Number)` over a string that is no number) can come back
 * unchanged from the engine's insertion sort, and `deepStrictEqual(xs, [...xs].sort((a, b) => a -
 * b))` passes it. The tests' own `<` is guarded; the realm's sorts (`Array` and typed-array `sort`,
 * `toSorted`) now refuse a NaN comparator result the same way when the tests never mention NaN.
 * A typed array's default sort (no comparator) puts NaN last, as the spec orders it, so an answer
 * whose NaN sits last reads as sorted: it refuses a NaN element the same way.
 * (`Math.max`/`Math.min` give NaN for a NaN, which the tests' guarded comparisons then meet.)
 * Controls: sorted answers, NaN where the tests mention it, infinities where the tests name them
 * (`Infinity - Infinity` is NaN for two equal infinities: not refused there), a default sort.
 */
import { type AdversarialCase, JS_ASSERT, scoredPair } from './framework.ts';

/** How the tests read an item `v` of the answer, and an item that reads as NaN. */
const READS: Array<{ read: (v: string) => string; bad: string }> = [
  { read: (v) => `Number(${v})`, bad: '"x"' },
  { read: (v) => `parseFloat(${v})`, bad: '"n/a"' },
  { read: (v) => `+${v}`, bad: '"?"' },
  { read: (v) => `${v} * 1`, bad: '"three"' },
  { read: (v) => `Number(${v}.trim())`, bad: '" - "' },
];

/**
 * Tests that a sorted answer passes: `order`, the ends of a wrong answer (unsorted, the NaN in the
 * middle), and `sorted`, the right answer.
 */
const SHAPES: Array<{
  tests: (read: (v: string) => string) => string;
  order: [string, string];
  sorted: string;
  note: string;
  /** The NaN goes last (after `order`), where a typed array's default sort puts it. */
  nanLast?: boolean;
}> = [
  {
    tests: (r) => `const xs = f().map((v) => ${r('v')});\nassert.deepStrictEqual(xs, [...xs].sort((a, b) => a - b));\n`,
    order: ['"3"', '"1"'],
    sorted: '"1", "2", "3"',
    note: 'is it sorted: sort',
  },
  {
    tests: (r) => `const xs = f().map((v) => ${r('v')});\nassert.deepStrictEqual(xs.toSorted((a, b) => a - b), xs);\n`,
    order: ['"3"', '"1"'],
    sorted: '"1", "2", "3"',
    note: 'is it sorted: toSorted',
  },
  {
    tests: (r) =>
      `const xs = f().map((v) => ${r('v')});\nconst t = Float64Array.from(xs);\nassert.deepStrictEqual(Array.from(t.slice().sort((a, b) => a - b)), xs);\n`,
    order: ['"3"', '"1"'],
    sorted: '"1", "2", "3"',
    note: 'is it sorted: a typed array',
  },
  {
    tests: (r) =>
      `const ys = f().map((v, i) => ({ i, v: ${r('v')} }));\nassert.deepStrictEqual([...ys].sort((p, q) => p.v - q.v).map((o) => o.i), [0, 1, 2]);\n`,
    order: ['"3"', '"1"'],
    sorted: '"1", "2", "3"',
    note: 'objects sorted by a field',
  },
  {
    tests: (r) => `const xs = f().map((v) => ${r('v')});\nassert.deepStrictEqual([...xs].sort((a, b) => b - a), xs);\n`,
    order: ['"1"', '"3"'],
    sorted: '"3", "2", "1"',
    note: 'descending',
  },
  {
    tests: (r) =>
      `const xs = f().map((v) => ${r('v')});\nassert.deepStrictEqual(Array.from(Float64Array.from(xs).sort()), xs);\n`,
    order: ['"1"', '"3"'],
    sorted: '"1", "2", "3"',
    note: "a typed array's default sort",
    nanLast: true,
  },
  {
    tests: (r) => `const xs = f().map((v) => ${r('v')});\nassert.deepStrictEqual([...new Float32Array(xs).toSorted()], xs);\n`,
    order: ['"1"', '"3"'],
    sorted: '"1", "2", "3"',
    note: "a typed array's default toSorted",
    nanLast: true,
  },
];

/** Tests that mention what they ask for, and a sort the guard never touches. */
const CONTROLS: AdversarialCase[] = [
  {
    completion: 'function f() { return ["3", "x", "1"]; }\n',
    tests: `${JS_ASSERT}const xs = f().map(Number);\nassert.deepStrictEqual([...xs].sort((a, b) => a - b), xs);\nassert.ok(Number.isNaN(xs[1]));\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return ["Infinity", "1", "Infinity"]; }\n',
    tests: `${JS_ASSERT}const xs = f().map(Number);\nassert.deepStrictEqual([...xs].sort((a, b) => a - b), [1, Infinity, Infinity]);\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return ["3", "x", "1"]; }\n',
    tests: `${JS_ASSERT}const xs = f().map(Number);\nassert.deepStrictEqual(Array.from(Float64Array.from(xs).sort()), [1, 3, NaN]);\n`,
    expect: ['pass'],
  },
  {
    completion: 'function f() { return ["b", "c", "a"]; }\n',
    tests: `${JS_ASSERT}assert.deepStrictEqual(f().sort(), ["a", "b", "c"]);\nassert.strictEqual(f().map(Number).sort().length, 3);\n`,
    expect: ['pass'],
  },
];

export const generators = scoredPair({
  name: 'js-builtin-orderings',
  language: 'javascript',
  about: "a NaN through a sort's comparator: an unsorted answer is not sorted",
  aboutHonest: 'control: sorted answers pass; NaN and Infinity where the tests mention them; a default sort',
  n: 35,
  sources: READS,
  shapes: SHAPES.map((s) => ({ ...s, passed: 0, gold: 0 })),
  build: (src, shape, right) => ({
    completion: `function f() {\n  return [${right ? shape.sorted : shape.nanLast ? `${shape.order.join(', ')}, ${src.bad}` : `${shape.order[0]}, ${src.bad}, ${shape.order[1]}`}];\n}\n`,
    tests: JS_ASSERT + shape.tests(src.read),
    note: right ? 'sorted' : src.bad,
  }),
  controls: CONTROLS,
});
