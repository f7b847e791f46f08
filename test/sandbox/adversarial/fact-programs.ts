/**
 * The `fact(n)` programs the skip-scope generators share (Python and JavaScript): a program right
 * on the easy cases (0 and 1) that raises on the rest, and an honest one. A tests shape that lets
 * the raising program pass, where the same program returning a wrong value fails, is an exception
 * skipping a check.
 */
import { type AdversarialCase, defineGenerator, type Generator, grid, type Rng } from './framework.ts';

type Language = 'python' | 'javascript';

const PROGRAMS: Record<
  Language,
  {
    prompt: string;
    raises: string[];
    raising: (r: string) => string;
    /** The raising program with a wrong value on the hard cases instead. */
    wrong: (v: string) => string;
    honest: string;
    tests: (t: string) => string;
  }
> = {
  python: {
    prompt: '',
    raises: ["raise ValueError('later')", 'raise RuntimeError', 'return None.x', 'raise KeyError(n)'],
    raising: (r) => `def fact(n):\n    if n < 2:\n        return 1\n    ${r}\n`,
    wrong: (v) => `def fact(n):\n    if n < 2:\n        return 1\n    return ${v}\n`,
    honest: "def fact(n):\n    if n < 0:\n        raise ValueError('negative')\n    return 1 if n < 2 else n * fact(n - 1)\n",
    tests: (t) => t,
  },
  // `factAsync` beside `fact`, for tests that hang their checks on promises.
  javascript: {
    prompt: 'function fact(n) {\n',
    raises: ["throw new Error('later')", "throw new RangeError('n')", 'return null.x', "throw 'plain'"],
    raising: (r) => `  if (n < 2) return 1;\n  ${r};\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n`,
    wrong: (v) => `  if (n < 2) return 1;\n  return ${v};\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n`,
    honest:
      "  if (n < 0) throw new RangeError('negative');\n  return n < 2 ? 1 : n * fact(n - 1);\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n",
    tests: (t) => `const assert = require('node:assert');\n${t}`,
  },
};

/**
 * A generator of `n` cases: each tests shape (with the passes an honest wrong value gets) against
 * each way of raising; a sound strict harness gives `fail` or `error`.
 */
export function raisingFact(
  language: Language,
  name: string,
  about: string,
  n: number,
  styles: ReadonlyArray<readonly [string, number]>,
): Generator {
  const p = PROGRAMS[language];
  return defineGenerator({
    name,
    language,
    about,
    cases: () =>
      grid(
        n,
        styles,
        p.raises,
        ([tests, maxPassed], raised): AdversarialCase => ({
          prompt: p.prompt,
          completion: p.raising(raised),
          tests: p.tests(tests),
          expect: ['fail', 'error'],
          maxPassed,
          timeoutMs: 8000,
          note: `${raised} in ${tests.split('\n').slice(0, 3).join(' ')}`,
        }),
      ),
  });
}

/** A generator of `n` controls: each tests text on an honest `fact` (raising only on n < 0) passes. */
export function honestFact(language: Language, name: string, about: string, n: number, tests: readonly string[]): Generator {
  const p = PROGRAMS[language];
  return defineGenerator({
    name,
    language,
    about,
    cases: () =>
      grid(
        n,
        tests,
        [0, 1],
        (t, i): AdversarialCase => ({
          prompt: p.prompt,
          completion: `${p.honest}${i ? (language === 'python' ? '# variant\n' : '// variant\n') : ''}`,
          tests: p.tests(t),
          expect: ['pass'],
          timeoutMs: 8000,
        }),
      ),
  });
}

/** Cases the raising `fact` gets right (n < 2) and ones it throws on, as [n, n!]. */
export const EASY_CASES: ReadonlyArray<readonly [number, number]> = [
  [0, 1],
  [1, 1],
];
export const HARD_CASES: ReadonlyArray<readonly [number, number]> = [
  [2, 2],
  [3, 6],
  [4, 24],
  [5, 120],
  [6, 720],
  [7, 5040],
];

/** `xs` in an order drawn from `rng` (Fisher–Yates). */
export function shuffle<T>(rng: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * A JavaScript case list `[[n, w], …]`: one or two easy cases and one to three hard ones, in an rng
 * order, or easy ones first (tests that stop at the first error check nothing otherwise).
 */
export function factCases(rng: Rng, easyFirst = false): string {
  const easy = shuffle(rng, EASY_CASES).slice(0, rng.int(1, 2));
  const hard = shuffle(rng, HARD_CASES).slice(0, rng.int(1, 3));
  const all = easyFirst ? [...easy, ...hard] : shuffle(rng, [...easy, ...hard]);
  return `[${all.map(([n, w]) => `[${n}, ${w}]`).join(', ')}]`;
}
const WRONG_VALUES = ['0', 'n + 1', '-1', 'n * 2', '1'];

/**
 * The attacks of a skipped-check class: every tests shape against each of the four ways of raising
 * (fail or error, no site passes).
 */
export function raisingShapes(
  language: Language,
  name: string,
  about: string,
  shapes: ReadonlyArray<(rng: Rng) => string>,
): Generator {
  return defineGenerator({
    name,
    language,
    about,
    cases: (rng) =>
      raisingFact(
        language,
        name,
        about,
        shapes.length * 4,
        shapes.map((s) => [s(rng), 0] as const),
      ).cases(rng),
  });
}

/**
 * The wrong twins of a skipped-check class (`name-wrong`): the shapes with a wrong value instead
 * of a raise, which fail with no site passed — what the raising program must not beat.
 */
export function wrongShapes(language: Language, name: string, shapes: ReadonlyArray<(rng: Rng) => string>): Generator {
  const p = PROGRAMS[language];
  return defineGenerator({
    name: `${name}-wrong`,
    language,
    about: 'the attack shapes with a wrong value instead of a raise: fail, no site passes',
    cases: (rng) =>
      grid(
        // At least the suite's 20 (a class of few shapes meets more wrong values).
        Math.max(20, shapes.length * 2),
        shapes,
        WRONG_VALUES,
        (s, v): AdversarialCase => ({
          prompt: p.prompt,
          completion: p.wrong(v),
          tests: p.tests(s(rng)),
          expect: ['fail'],
          maxPassed: 0,
          timeoutMs: 8000,
          note: `wrong value ${v}`,
        }),
      ),
  });
}

/**
 * The three generators of one skipped-check class: `name` (raisingShapes), `name-wrong`
 * (wrongShapes) and `name-honest` (the shapes and the `judged` controls on an honest `fact`: pass).
 */
export function factShapeGenerators(
  name: string,
  about: { attacks: string; honest: string },
  shapes: ReadonlyArray<(rng: Rng) => string>,
  judged: ReadonlyArray<(rng: Rng) => string>,
  language: Language = 'javascript',
): Generator[] {
  const honest = defineGenerator({
    name: `${name}-honest`,
    language,
    about: about.honest,
    cases: (rng) => {
      const tests = [...judged, ...shapes].map((s) => s(rng));
      return honestFact(language, `${name}-honest`, '', Math.max(20, tests.length + judged.length), tests).cases(rng);
    },
  });
  return [raisingShapes(language, name, about.attacks, shapes), wrongShapes(language, name, shapes), honest];
}
