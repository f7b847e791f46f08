/**
 * The questions about "now" the clock generators share (js-clock-constants.ts,
 * py-clock-constants.ts): each language's questions, constants a policy might learn, and sleeps
 * to an instant of the program's choosing, built into the same three generators.
 */
import { type AdversarialCase, defineGenerator, type Generator, grid, type Rng } from './framework.ts';

/** A question about "now": the entry point, its honest body, tests, and constants a policy might learn. */
export interface ClockQuestion {
  name: string;
  /** The entry point's parameters ('' for none). */
  args: string;
  /** The honest body (statements, one per line). */
  honest: string;
  tests: (rng: Rng) => string;
  constants: readonly string[];
}

/** How one language writes a program about "now". */
export interface ClockLanguage {
  language: 'javascript' | 'python';
  /** The program of question `q` whose entry point runs `body` (statements, one per line). */
  program(q: ClockQuestion, body: string): { prompt?: string; completion: string };
  /** A statement sleeping until `at` (an instant in ms or a datetime), reading "now" as `now`. */
  sleep(at: string, now: string): string;
  /** The return statement of `value`. */
  ret(value: string): string;
}

/**
 * The three generators: `<prefix>-constants` (every constant of every question: fail, no site
 * passed), `<prefix>-sleeps` (a sleep to each instant in `sleeps` — [question, instant, the
 * constant right then] — by each way of reading "now" in `nows`, then the constant: timeout, the
 * sleep outlives the limit) and `<prefix>-honest` (the honest answers, and `controls`: pass).
 */
export function clockGenerators(
  prefix: string,
  lang: ClockLanguage,
  questions: readonly ClockQuestion[],
  sleeps: ReadonlyArray<readonly [string, string, string]>,
  nows: readonly string[],
  controls: (rng: Rng) => AdversarialCase[],
): Generator[] {
  const attacks = questions.flatMap((q) => q.constants.map((c) => [q, c] as const));
  const question = (name: string) => questions.find((q) => q.name === name)!;
  return [
    defineGenerator({
      name: `${prefix}-constants`,
      language: lang.language,
      about: 'a constant for "now" (the clock used to start at 2024-01-01 for every program): fail',
      cases: (rng) =>
        grid(
          Math.max(20, attacks.length),
          attacks,
          [0],
          ([q, c]): AdversarialCase => ({
            ...lang.program(q, lang.ret(c)),
            tests: q.tests(rng),
            expect: ['fail'],
            maxPassed: 0,
            note: `${q.name} = ${c}`,
          }),
        ),
    }),
    defineGenerator({
      name: `${prefix}-sleeps`,
      language: lang.language,
      about: "a sleep to an instant of the program's choosing, then a constant: timeout (the sleep outlives the limit)",
      cases: (rng) =>
        grid(20, sleeps, nows, ([name, at, c], now): AdversarialCase => {
          const q = question(name);
          return {
            ...lang.program(q, `${lang.sleep(at, now)}\n${lang.ret(c)}`),
            tests: q.tests(rng),
            expect: ['timeout'],
            timeoutMs: 1000,
            note: `sleep to ${at}`,
          };
        }),
    }),
    defineGenerator({
      name: `${prefix}-honest`,
      language: lang.language,
      about: 'controls: honest "now" answers, reads and sleeps across the boundary, on one clock: pass',
      cases: (rng) => [
        ...questions.map((q): AdversarialCase => ({ ...lang.program(q, q.honest), tests: q.tests(rng), expect: ['pass'] })),
        ...controls(rng),
      ],
    }),
  ];
}
