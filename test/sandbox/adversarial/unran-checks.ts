/**
 * The problems the never-run-check generators share (js-unran-gold.ts, py-unran-gold.ts): tests
 * with a check an answer can keep from running (a loop over the answer, a callback the answer
 * calls) followed by checks that pass. A run with a check it never reached fails, and it went on
 * past that check where a wrong value's failed check would have ended it: its later passes must
 * not count (an empty answer scored 2/3 where a wrong one scored 0/1, red-team rt7-js U01–U03).
 * Attacks (the check kept from running): fail, no site passed. Wrong twins (a wrong value the
 * same check fails): fail, no site passed. Controls: honest answers pass.
 */
import { type AdversarialCase, defineGenerator, type Generator, grid, type Rng } from './framework.ts';

/** One problem: an honest answer, answers that keep the first check from running, a wrong one. */
export interface UnranProblem {
  /** The honest program. */
  honest: string;
  /** Programs right on the later checks whose answer keeps the first check from running. */
  dodges: readonly string[];
  /** A program right on the later checks whose answer fails the first check. */
  wrong: string;
  /** The tests: the dodgeable check first, then one to three checks every program here passes. */
  tests: (rng: Rng) => string;
}

/** The attacks, wrong twins and controls of `problems` as three generators named `<name>…`. */
export function unranGenerators(name: string, language: 'javascript' | 'python', problems: readonly UnranProblem[]): Generator[] {
  const dodges = problems.flatMap((p) => p.dodges.map((d) => [p, d] as const));
  return [
    defineGenerator({
      name,
      language,
      about: 'an answer that keeps a check from running, with passing checks after it: fail, no site passed',
      cases: (rng) =>
        grid(
          Math.max(20, dodges.length),
          dodges,
          [0],
          ([p, d]): AdversarialCase => ({
            completion: d,
            tests: p.tests(rng),
            expect: ['fail'],
            maxPassed: 0,
            note: d.split('\n').slice(0, 3).join(' '),
          }),
        ),
    }),
    defineGenerator({
      name: `${name}-wrong`,
      language,
      about: 'the same tests with a wrong answer that fails the first check: fail, no site passed',
      cases: (rng) =>
        grid(
          20,
          problems,
          [0],
          (p): AdversarialCase => ({ completion: p.wrong, tests: p.tests(rng), expect: ['fail'], maxPassed: 0 }),
        ),
    }),
    defineGenerator({
      name: `${name}-honest`,
      language,
      about: 'controls: honest answers run every check and pass',
      cases: (rng) =>
        grid(20, problems, [0], (p): AdversarialCase => ({ completion: p.honest, tests: p.tests(rng), expect: ['pass'] })),
    }),
  ];
}

/** Up to `n` of `lines` in a seeded order, at least one. */
export function someOf(rng: Rng, lines: readonly string[], n = 3): string {
  const pool = [...lines];
  const out: string[] = [];
  const k = rng.int(1, Math.min(n, pool.length));
  for (let i = 0; i < k; i++) out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out.join('\n');
}
