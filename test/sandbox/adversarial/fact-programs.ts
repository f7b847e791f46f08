/**
 * The Python `fact(n)` programs the skip-scope generators share: a program right on the easy cases
 * (0 and 1) that raises on the rest, and an honest one. A tests shape that lets the raising program
 * pass, where the same program returning a wrong value fails, is an exception skipping a check.
 */
import { type AdversarialCase, type Generator, defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** What the raising program does on the cases it cannot do. */
const RAISES = ["raise ValueError('later')", 'raise RuntimeError', 'return None.x', 'raise KeyError(n)'];

/**
 * A generator of `n` cases: each tests shape (with the passes an honest wrong value gets) against
 * each way of raising; a sound strict harness gives `fail` or `error`.
 */
export function raisingFact(name: string, about: string, n: number, styles: ReadonlyArray<[string, number]>): Generator {
  return defineGenerator({
    name,
    language: 'python',
    about,
    cases: () =>
      grid(
        n,
        styles,
        RAISES,
        ([tests, maxPassed], raised): AdversarialCase => ({
          completion: `def fact(n):\n    if n < 2:\n        return 1\n    ${raised}\n`,
          tests,
          expect: ['fail', 'error'],
          maxPassed,
          timeoutMs: TIMEOUT_MS,
          note: `${raised} in ${tests.split('\n').slice(0, 3).join(' ')}`,
        }),
      ),
  });
}

/** A generator of `n` controls: each tests text on an honest `fact` (raising only on n < 0) passes. */
export function honestFact(name: string, about: string, n: number, tests: readonly string[]): Generator {
  return defineGenerator({
    name,
    language: 'python',
    about,
    cases: () =>
      grid(
        n,
        tests,
        [0, 1],
        (t, i): AdversarialCase => ({
          completion: `def fact(n):\n    if n < 0:\n        raise ValueError('negative')\n    return 1 if n < 2 else n * fact(n - 1)\n${i ? '# variant\n' : ''}`,
          tests: t,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        }),
      ),
  });
}
