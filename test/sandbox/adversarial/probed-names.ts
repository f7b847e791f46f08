/**
 * The two generators of the probed-flag class (js-probed-names.ts, py-probed-names.ts): a `fact`
 * right only on a short case list with the flag defined (fail), and an honest `fact` with it
 * (pass), plus the language's controls of names the tests only call.
 */
import { type AdversarialCase, defineGenerator, type Generator, grid, type Rng } from './framework.ts';

/** One language's pieces: each probe and definition takes the flag's name. */
export interface ProbedNames {
  name: string;
  language: 'javascript' | 'python';
  prompt: string;
  /** `fact` right up to 6, wrong after; and right everywhere. */
  short: string;
  honest: string;
  probes: ReadonlyArray<(flag: string) => string>;
  defines: ReadonlyArray<(flag: string) => string>;
  /** The tests: the probe, then `fact` checked up to `short` cases when the flag is on, else 12. */
  tests: (probe: string, short: number) => string;
  /** Controls of a second completion function (or class) the tests only call. */
  called: (rng: Rng) => AdversarialCase[];
}

const FLAGS = ['FAST', 'QUICK_MODE', 'SMOKE', 'LITE', 'SHORT_RUN', 'CI_FAST'];

/** The attack and control generators of one language. */
export function probedNamesGenerators(p: ProbedNames): Generator[] {
  const cases = (rng: Rng, completion: string, expect: AdversarialCase['expect']) =>
    grid(20, p.probes, p.defines, (probe, define): AdversarialCase => {
      const f = rng.pick(FLAGS);
      return {
        prompt: p.prompt,
        completion: completion + define(f),
        tests: p.tests(probe(f), rng.int(3, 6)),
        expect,
        note: `flag ${f}`,
      };
    });
  return [
    defineGenerator({
      name: p.name,
      language: p.language,
      about:
        'a flag the tests probe for truth is never the program\u2019s function: a program right only on the short list fails',
      cases: (rng) => cases(rng, p.short, ['fail']),
    }),
    defineGenerator({
      name: `${p.name}-honest`,
      language: p.language,
      about: 'controls: an honest fact with the flag defined passes; a second function the tests only call is the program\u2019s',
      cases: (rng) => [...cases(rng, p.honest, ['pass']), ...p.called(rng)],
    }),
  ];
}
