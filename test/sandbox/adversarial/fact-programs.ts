/**
 * The `fact(n)` programs the skip-scope generators share (Python and JavaScript): a program right
 * on the easy cases (0 and 1) that raises on the rest, and an honest one. A tests shape that lets
 * the raising program pass, where the same program returning a wrong value fails, is an exception
 * skipping a check.
 */
import { type AdversarialCase, defineGenerator, type Generator, grid } from './framework.ts';

type Language = 'python' | 'javascript';

const PROGRAMS: Record<
  Language,
  { prompt: string; raises: string[]; raising: (r: string) => string; honest: string; tests: (t: string) => string }
> = {
  python: {
    prompt: '',
    raises: ["raise ValueError('later')", 'raise RuntimeError', 'return None.x', 'raise KeyError(n)'],
    raising: (r) => `def fact(n):\n    if n < 2:\n        return 1\n    ${r}\n`,
    honest: "def fact(n):\n    if n < 0:\n        raise ValueError('negative')\n    return 1 if n < 2 else n * fact(n - 1)\n",
    tests: (t) => t,
  },
  // `factAsync` beside `fact`, for tests that hang their checks on promises.
  javascript: {
    prompt: 'function fact(n) {\n',
    raises: ["throw new Error('later')", "throw new RangeError('n')", 'return null.x', "throw 'plain'"],
    raising: (r) => `  if (n < 2) return 1;\n  ${r};\n}\nasync function factAsync(n) {\n  return fact(n);\n}\n`,
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
