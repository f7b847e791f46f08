/**
 * JavaScript generators: completion is observed for the tests' async *methods* too — object
 * literal methods, class and static methods, private methods, computed keys, methods reached
 * through getters, `super` calls, and promises derived with `then`. A check inside one that never
 * runs (the method rejects, or awaits something that never calls back) must not read as done.
 */
import { type AdversarialCase, defineGenerator, JS_ASSERT as ASSERT, variants } from './framework.ts';

/**
 * Test shapes: each declares an async method whose body runs `check` (an awaiting check of the
 * answer), calls it without awaiting, then makes one passing check elsewhere.
 */
export const METHOD_SHAPES: Array<(check: string) => string> = [
  // Object literal method.
  (c) => `const suite = {\n  async run() {\n    ${c}\n  },\n};\nsuite.run();\n`,
  // Class method.
  (c) => `class Suite {\n  async run() {\n    ${c}\n  }\n}\nnew Suite().run();\n`,
  // Static method.
  (c) => `class Suite {\n  static async run() {\n    ${c}\n  }\n}\nSuite.run();\n`,
  // Private method called from a public one.
  (c) => `class Suite {\n  async #run() {\n    ${c}\n  }\n  start() {\n    return this.#run();\n  }\n}\nnew Suite().start();\n`,
  // Computed key.
  (c) => `const k = 'ru' + 'n';\nconst suite = {\n  async [k]() {\n    ${c}\n  },\n};\nsuite[k]();\n`,
  // A getter returning the method's promise.
  (c) =>
    `class Suite {\n  async run() {\n    ${c}\n  }\n  get done() {\n    return this.run();\n  }\n}\nvoid new Suite().done;\n`,
  // An async method calling the base class's async method through super.
  (c) =>
    `class Base {\n  async run() {\n    ${c}\n  }\n}\nclass Suite extends Base {\n  async run() {\n    return super.run();\n  }\n}\nnew Suite().run();\n`,
  // Methods called for each case.
  (c) => `const suite = {\n  async one(x) {\n    ${c}\n  },\n};\n[1, 2].forEach((x) => suite.one(x));\n`,
];

/** Ways the answer keeps an unawaited check from finishing (and what a sound harness says). */
const BREAKS: Array<{ completion: string; check: string; expect: AdversarialCase['expect'] }> = [
  // The answer rejects: the method rejects, nobody handles it (Node: unhandled rejection).
  {
    completion: 'function dbl(x) {\n  return Promise.reject(new Error("no"));\n}\n',
    check: 'assert.strictEqual(await dbl(3), 6);',
    expect: ['error', 'fail'],
  },
  // The answer throws: same, through the method's own promise.
  {
    completion: 'function dbl(x) {\n  throw new TypeError("no");\n}\n',
    check: 'assert.strictEqual(dbl(3), 6);',
    expect: ['error', 'fail'],
  },
  // The method awaits the tests' own thenable, which calls back only for a right answer.
  {
    completion: 'function dbl(x) {\n  return 0;\n}\n',
    check: 'await { then: (r) => { if (dbl(3) === 6) r(); } };\n    assert.ok(true);',
    expect: ['fail', 'timeout', 'error'],
  },
];

/** Unfinished async-method cases: every shape with every break. */
export const UNFINISHED_METHOD_CASES = METHOD_SHAPES.length * BREAKS.length;

/** The `i`-th unfinished async-method case; `combined`: program and tests as one script. */
export function unfinishedMethodCase(i: number, combined = false): AdversarialCase {
  const b = BREAKS[i % BREAKS.length]!;
  const shape = METHOD_SHAPES[Math.floor(i / BREAKS.length)]!;
  return {
    completion: b.completion,
    tests: `${ASSERT}${shape(b.check)}assert.strictEqual(1, 1);\n`,
    ...(combined ? { combined } : {}),
    expect: b.expect,
    maxPassed: 1,
    note: `shape ${Math.floor(i / BREAKS.length)}: ${b.check}`,
  };
}

const broken = defineGenerator({
  name: 'js-async-methods-unfinished',
  language: 'javascript',
  about: "a check inside the tests' async method never runs (the method rejects or never settles): never a pass",
  cases: () => variants(UNFINISHED_METHOD_CASES, (i) => unfinishedMethodCase(i)),
});

const honest = defineGenerator({
  name: 'js-async-methods-honest',
  language: 'javascript',
  about: 'honest answers checked inside async methods (awaited or not) pass',
  cases: (rng) =>
    variants(METHOD_SHAPES.length * 3, (i) => {
      const shape = METHOD_SHAPES[i % METHOD_SHAPES.length]!;
      const flavour = Math.floor(i / METHOD_SHAPES.length);
      const ms = rng.int(0, 3000);
      const completion =
        flavour === 0
          ? 'function dbl(x) {\n  return x * 2;\n}\n'
          : flavour === 1
            ? 'async function dbl(x) {\n  await null;\n  return x * 2;\n}\n'
            : 'function dbl(x) {\n  return Promise.resolve(x * 2);\n}\n';
      const check =
        flavour === 1
          ? `await new Promise((r) => setTimeout(r, ${ms}));\n    assert.strictEqual(await dbl(3), 6);`
          : 'assert.strictEqual(await dbl(3), 6);';
      return { completion, tests: `${ASSERT}${shape(check)}assert.strictEqual(1, 1);\n`, expect: ['pass'] };
    }),
});

/** Promises the tests derive with `then`/`catch`/`finally` that never settle. */
const DERIVED = [
  'Promise.resolve().then(() => ({ then(r) { if (dbl(3) === 6) r(); } })).then(() => assert.ok(true));',
  'Promise.resolve(0).then(() => dbl(3)).then((v) => ({ then(r) { if (v === 6) r(); } })).then(() => assert.ok(true));',
  'Promise.reject(new Error("x")).catch(() => ({ then(r) { if (dbl(3) === 6) r(); } })).then(() => assert.ok(true));',
  'Promise.resolve().finally(() => ({ then(r) { if (dbl(3) === 6) r(); } }));',
];

const derived = defineGenerator({
  name: 'js-derived-promise-unfinished',
  language: 'javascript',
  about: 'a promise the tests derive with then/catch adopts a thenable that calls back only for a right answer',
  cases: () =>
    variants(20, (i) => {
      const d = DERIVED[i % DERIVED.length]!;
      const before = i % 2 === 0;
      const other = 'assert.strictEqual(1, 1);\n';
      return {
        completion: `function dbl(x) {\n  return ${i % 5};\n}\n`,
        tests: `${ASSERT}${before ? other : ''}${d}\n${before ? '' : other}`,
        expect: ['fail', 'timeout', 'error'],
        maxPassed: 1,
        note: d,
      };
    }),
});

export const generators = [broken, honest, derived];
