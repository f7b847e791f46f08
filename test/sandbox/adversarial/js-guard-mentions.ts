/**
 * JavaScript: which texts count as mentioning a non-finite number, so the tests' comparisons keep
 * the language's semantics for it (src/sandbox/test-plan.ts `mentionsOf`). The rule is
 * case-sensitive whole words (runs of identifier characters) of the tests or the prompt: `NaN`,
 * `NaNs` or `isNaN` for NaN; `Infinity`, `isFinite`, `POSITIVE_INFINITY` or `NEGATIVE_INFINITY`
 * for the infinities. Tests or prompts that name
 * `Number.POSITIVE_INFINITY` / `Number.NEGATIVE_INFINITY` (an empty minimum, say) ask for an
 * infinity: a right answer failed there, refused by a guard for a value they do mention.
 * The wrong answers here meet tests (and prompts) that only come near a mention — `infinite`,
 * `INFINITY` as a name of their own, `nan` in `banana`, `NaN` in `BaNaNa`, `Infinity` in
 * `InfinityStone` — and must still be refused.
 */
import { type AdversarialCase, defineGenerator, grid, JS_ASSERT } from './framework.ts';

/** A problem whose empty case is an infinity: its entry point, what it answers, and its tests. */
interface EmptyCase {
  name: string;
  /** The named constant, and the literal the prompt's helper may use. */
  constant: string;
  literal: string;
  body: (none: string) => string;
  tests: string;
}

const PROBLEMS: EmptyCase[] = [
  {
    name: 'smallest',
    constant: 'Number.POSITIVE_INFINITY',
    literal: 'Infinity',
    body: (none) => `  let m = ${none};\n  for (const x of xs) if (x < m) m = x;\n  return m;\n}\n`,
    tests: 'assert.ok(smallest([]) > 1e300);\nassert.ok(smallest([4, 2, 9]) <= 2);\n',
  },
  {
    name: 'largest',
    constant: 'Number.NEGATIVE_INFINITY',
    literal: '-Infinity',
    body: (none) => `  let m = ${none};\n  for (const x of xs) if (x > m) m = x;\n  return m;\n}\n`,
    tests: 'assert.ok(largest([]) < -1e300);\nassert.ok(largest([4, 2, 9]) >= 9);\n',
  },
];

/** Where the mention sits: a prompt (header of the entry point), its body's value for "none", the tests' extra line. */
interface Place {
  prompt: (p: EmptyCase) => string;
  none: (p: EmptyCase) => string;
  extra: (p: EmptyCase) => string;
  note: string;
}

const SIG = (p: EmptyCase) => `function ${p.name}(xs) {\n`;
const PLACES: Place[] = [
  {
    prompt: SIG,
    none: (p) => p.constant,
    extra: (p) => `assert.strictEqual(${p.name}([]), ${p.constant});\n`,
    note: 'tests: strictEqual',
  },
  {
    prompt: SIG,
    none: (p) => p.constant,
    extra: (p) => `assert.ok(Object.is(${p.name}([]), ${p.constant}));\n`,
    note: 'tests: Object.is',
  },
  { prompt: SIG, none: (p) => p.constant, extra: (p) => `// empty: ${p.constant}\n`, note: 'tests: a comment' },
  { prompt: SIG, none: (p) => p.constant, extra: (p) => `assert.ok(${p.name}([]) === ${p.constant});\n`, note: 'tests: ===' },
  {
    prompt: (p) => `/** The ${p.name} item of xs, or ${p.constant} when xs is empty. */\n${SIG(p)}`,
    none: (p) => p.constant,
    extra: () => '',
    note: 'prompt: its doc comment',
  },
  {
    prompt: (p) => `/**\n * @param {number[]} xs\n * @returns {number} ${p.constant} for an empty list\n */\n${SIG(p)}`,
    none: (p) => p.literal,
    extra: () => '',
    note: 'prompt: @returns',
  },
  {
    prompt: (p) => `const NONE = ${p.constant};\n${SIG(p)}`,
    none: () => 'NONE',
    extra: () => '',
    note: "prompt: a helper constant (the tests realm's copy)",
  },
  {
    prompt: SIG,
    none: (p) => p.literal,
    extra: (p) => `assert.strictEqual(${p.name}([]), ${p.literal});\n`,
    note: 'tests: Infinity',
  },
  { prompt: SIG, none: (p) => p.literal, extra: (p) => `assert.ok(!isFinite(${p.name}([])));\n`, note: 'tests: isFinite' },
  {
    prompt: (p) => `// ${p.name}([]) is ${p.literal}\n${SIG(p)}`,
    none: (p) => `1 / ${p.literal.startsWith('-') ? '-0' : '0'}`,
    extra: () => '',
    note: 'prompt: Infinity in a comment',
  },
];

const honest = defineGenerator({
  name: 'js-guard-mentions-honest',
  language: 'javascript',
  about: 'control: tests or prompts that name an infinity (POSITIVE_INFINITY, NEGATIVE_INFINITY, Infinity, isFinite) get it',
  cases: () =>
    grid(
      20,
      PLACES,
      PROBLEMS,
      (place, p): AdversarialCase => ({
        prompt: place.prompt(p),
        completion: p.body(place.none(p)),
        tests: JS_ASSERT + p.tests + place.extra(p),
        expect: ['pass'],
        note: `${p.name}: ${place.note}`,
      }),
    ),
});

/** A wrong answer (an infinity or text read as NaN) and a tolerance it defeats unguarded. */
const WRONG: Array<{ answer: string; tests: string; note: string }> = [
  {
    answer: '1 / 0',
    tests: 'const r = f();\nassert.ok(Math.abs(r - 2.5) <= 1e-9 * Math.max(Math.abs(r), 2.5));\n',
    note: 'an infinity, relative tolerance',
  },
  {
    answer: '-1 / 0',
    tests: 'const r = f();\nassert.ok(Math.abs(r - 2.5) <= 1e-9 * Math.abs(r));\n',
    note: 'minus infinity, relative tolerance',
  },
  { answer: '"n/a"', tests: 'const r = parseFloat(f());\nassert.ok(!(Math.abs(r - 2.5) > 1e-9));\n', note: 'text read as NaN' },
  { answer: '"2.5.1x"', tests: 'const r = Number(f());\nassert.ok(!(Math.abs(r - 2.5) > 1e-9));\n', note: 'text read as NaN' },
];

/** Texts that come near a mention without being one (case-sensitive), in the tests or the prompt. */
const NEAR: Array<{ prompt: string; tests: string; note: string }> = [
  { prompt: '', tests: '// never infinite, never nan\n', note: 'lowercase words in the tests' },
  { prompt: '/** Returns a finite number (no inf, no Nan). */\n', tests: '', note: 'lowercase words in the prompt' },
  { prompt: '', tests: 'const INFINITY = 1e308; // a bound of our own\nassert.ok(INFINITY > 1);\n', note: 'INFINITY as a name' },
  { prompt: 'const fruit = "banana";\n', tests: 'assert.strictEqual(typeof "NAN INF", "string");\n', note: 'banana, NAN' },
  {
    prompt: '',
    tests: 'const infinite = false, finite = true;\nassert.ok(finite && !infinite);\n',
    note: 'infinite / finite as names',
  },
  // Words that hold a mention as a substring only (a substring rule counted them).
  { prompt: 'const FRUIT = "BaNaNa";\n', tests: '', note: 'NaN inside BaNaNa' },
  { prompt: '', tests: 'const NaNoSeconds = 1e-9;\nassert.ok(NaNoSeconds < 1);\n', note: 'NaN inside a name of the tests' },
  { prompt: '/** InfinityStone counts, isFiniteStateMachine flags. */\n', tests: '', note: 'Infinity, isFinite inside words' },
];

const hostile = defineGenerator({
  name: 'js-guard-mentions',
  language: 'javascript',
  about: 'wrong non-finite answers against tests and prompts that only come near a mention: still refused',
  cases: () =>
    grid(
      WRONG.length * NEAR.length,
      WRONG,
      NEAR,
      (w, near): AdversarialCase => ({
        prompt: `${near.prompt}function f() {\n`,
        completion: `  return ${w.answer};\n}\n`,
        tests: JS_ASSERT + near.tests + w.tests,
        expect: ['fail'],
        // The near-miss lines of the tests may hold one check that passes of itself.
        maxPassed: near.tests.includes('assert') ? 1 : 0,
        note: `${w.note}; ${near.note}`,
      }),
    ),
});

export const generators = [hostile, honest];
