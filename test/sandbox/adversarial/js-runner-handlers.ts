/**
 * JavaScript (red-team rt6 J01/J02): a recursive runner whose `catch` carries on with the next
 * case by calling itself — through an alias (`const next = run`), as an object's or class's
 * method (`R.run(i + 1)`), or by a named function expression's own name. That call is not the
 * handler judging the error (test-plan.ts `skipScopes.check`: any callee resolving to the
 * handler's own function), so a program right on the easy cases and throwing on the rest fails;
 * and it is not a check an honest run must reach (the J02h control failed before). Attacks: the
 * raising `fact` fails with no site passed; controls: honest programs pass, also when the handler
 * judges an expected error.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

const RUNS = ['run', 'step', 'go', 'runFrom', 'next_'];
const ALIASES = ['next', 'again', 'cont', 'more'];
const HOLDERS = ['R', 'Runner', 'Suite', 'T'];
const LOGS = ["console.log('case', n, 'failed')", "console.error('FAIL', n)", 'console.log(String(e))'];

/** The runner's body around `call` (how it carries on), in a handler that logs. */
const body = (rng: Rng, call: string, judge = '') =>
  `if (i >= cases.length) return;\n  const [n, w] = cases[i];\n  try {\n    const got = fact(n);\n    assert.strictEqual(got, w);\n    ${call}(i + 1);\n  } catch (e) {\n    ${judge || rng.pick(LOGS)};\n    ${call}(i + 1);\n  }`;

type Shape = (rng: Rng, cases: string, judge?: string) => string;
const SHAPE_LIST: readonly Shape[] = [
  // An alias of the runner, in the handler only.
  (rng, cases, judge) => {
    const r = rng.pick(RUNS);
    const a = rng.pick(ALIASES);
    return `const cases = ${cases};\nfunction ${r}(i) {\n  ${body(rng, a, judge).replace(`    ${a}(i + 1);\n  } catch`, `    ${r}(i + 1);\n  } catch`)}\n}\nconst ${a} = ${r};\n${r}(0);\n`;
  },
  // An object's method.
  (rng, cases, judge) => {
    const h = rng.pick(HOLDERS);
    return `const cases = ${cases};\nconst ${h} = {\n  run(i) {\n  ${body(rng, `${h}.run`, judge)}\n  },\n};\n${h}.run(0);\n`;
  },
  // A class's static method.
  (rng, cases, judge) => {
    const h = rng.pick(HOLDERS);
    return `const cases = ${cases};\nclass ${h} {\n  static run(i) {\n  ${body(rng, `${h}.run`, judge)}\n  }\n}\n${h}.run(0);\n`;
  },
  // `this.run` in a method.
  (rng, cases, judge) =>
    `const cases = ${cases};\nconst suite = {\n  run(i) {\n  ${body(rng, 'this.run', judge)}\n  },\n};\nsuite.run(0);\n`,
  // A named function expression calling itself by its own name.
  (rng, cases, judge) => {
    const r = rng.pick(RUNS);
    return `const cases = ${cases};\nconst ${r} = function self(i) {\n  ${body(rng, 'self', judge)}\n};\n${r}(0);\n`;
  },
];

export const generators = factShapeGenerators(
  'js-runner-handlers',
  {
    attacks: 'a recursive runner carrying on from its handler by an alias or a method: the call is no judgement, fail',
    honest: 'controls: the runners on an honest program, and judging an expected error in the handler',
  },
  SHAPE_LIST.map((s) => (rng: Rng) => s(rng, factCases(rng))),
  SHAPE_LIST.map(
    (s) => (rng: Rng) =>
      s(rng, `[[3, 6], [-${rng.int(1, 4)}, null], [5, 120]]`, "assert.ok(w === null, 'only the null cases throw')"),
  ),
);
