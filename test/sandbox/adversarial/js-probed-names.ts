/**
 * JavaScript (red-team rt6 N01): a free name the tests probe for truth. With a prompt naming the
 * entry point, a name beside it is read from the program only when the program binds it to a
 * function or class — and, since rt6, only when every reference the tests make to it is a call
 * (`X(…)`, `new X`, `X.m(…)`). Tests that run a shorter case list under a flag
 * (`typeof FAST !== 'undefined' && !!FAST`) let a program right only on the short list choose it
 * by defining `function FAST() {}`: it passed where the same program without the flag failed.
 * Attacks: `fact` right up to 6 and wrong after, with the flag defined as a function, class or
 * arrow: fail. Controls: an honest `fact` with the flag defined passes; a second function of the
 * completion the tests only call (`double(…)`) is still the program's.
 */
import { grid, JS_ASSERT } from './framework.ts';
import { probedNamesGenerators } from './probed-names.ts';

const PROMPT = '/** n! for 0 <= n <= 12 */\nfunction fact(n) {\n';
const SHORT = '  if (n > 6) return 0;\n  let r = 1;\n  for (let i = 2; i <= n; i++) r *= i;\n  return r;\n}\n';
const HONEST = '  let r = 1;\n  for (let i = 2; i <= n; i++) r *= i;\n  return r;\n}\n';

/** A probe of flag `f` into `const QUICK`. */
const PROBES: ReadonlyArray<(f: string) => string> = [
  (f) => `const QUICK = typeof ${f} !== 'undefined' && !!${f};`,
  (f) => `let QUICK = false;\ntry {\n  QUICK = Boolean(${f});\n} catch {}`,
  (f) => `const QUICK = typeof ${f} === 'function';`,
  (f) => `const QUICK = (() => {\n  try {\n    return ${f} ? true : false;\n  } catch {\n    return false;\n  }\n})();`,
  (f) => `const QUICK = typeof ${f} !== 'undefined' ? ${f} !== undefined : false;`,
];
/** The program's binding of flag `f`. */
const DEFINES: ReadonlyArray<(f: string) => string> = [
  (f) => `function ${f}() {}\n`,
  (f) => `class ${f} {}\n`,
  (f) => `const ${f} = () => true;\n`,
  (f) => `var ${f} = function () { return 1; };\n`,
];

const tests = (probe: string, short: number) =>
  `${JS_ASSERT}${probe}\nconst N = QUICK ? ${short} : 12;\nlet w = 1;\nfor (let i = 0; i <= N; i++) {\n  if (i > 1) w *= i;\n  assert.strictEqual(fact(i), w);\n}\n`;

export const generators = probedNamesGenerators({
  name: 'js-probed-names',
  language: 'javascript',
  prompt: PROMPT,
  short: SHORT,
  honest: HONEST,
  probes: PROBES,
  defines: DEFINES,
  tests,
  called: () =>
    grid(4, ['double', 'twice', 'timesTwo', 'dbl'], [0], (name) => ({
      prompt: PROMPT,
      completion: `${HONEST}function ${name}(n) {\n  return 2 * fact(n);\n}\n`,
      tests: `${JS_ASSERT}assert.strictEqual(${name}(3), 12);\nassert.strictEqual(new Array(${name}(2)).length, 4);\nassert.strictEqual(fact(5), 120);\n`,
      expect: ['pass'],
    })),
});
