/**
 * Python (red-team rt60 P3): `string.Template` compiles its pattern into `cls.pattern` and
 * `cls.flags` on first use (Python 3.14), but the sandbox makes the stdlib's classes immutable, so
 * every program and every test using a Template raised "cannot set 'flags' attribute of immutable
 * type 'Template'" and the run was an `error`. The harness now lets Template finish its set-up
 * before the classes are frozen (sandbox/python/harness.py). Controls: honest programs (and tests)
 * using `substitute`, `safe_substitute`, `${}` braces, `$$` escapes and a Template subclass pass;
 * wrong twins fail.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

/** Ways to build "Hello, <name>!" with a Template. */
const HONEST: readonly string[] = [
  "    return Template('Hello, $name!').substitute(name=name)",
  `    return Template('Hello, \${name}!').substitute({'name': name})`,
  "    return Template('Hello, $who!').safe_substitute(who=name)",
  "    return Template('Hello, $n!$$').substitute(n=name)[:-1]",
  "    class T(Template):\n        delimiter = '%'\n    return T('Hello, %name!').substitute(name=name)",
];

const WRONG: readonly string[] = [
  "    return Template('Hello $name!').substitute(name=name)",
  `    return Template('Hello, \${name}').substitute({'name': name})`,
  "    return Template('Hello, $who!').safe_substitute(name=name)",
  "    class T(Template):\n        delimiter = '%'\n    return T('Hello, %name!').substitute(name=name.upper())",
];

const TESTS: readonly string[] = [
  "assert greet('Ann') == 'Hello, Ann!'\nassert greet('bob') == 'Hello, bob!'\n",
  "from string import Template\n\nassert greet('Ann') == Template('Hello, $n!').substitute(n='Ann')\nassert greet('x') == 'Hello, x!'\n",
];

const PROMPT = 'from string import Template\n\n\ndef greet(name):\n    """Hello, <name>!"""\n';

export const generators = [
  defineGenerator({
    name: 'py-string-template-honest',
    language: 'python',
    about: 'controls: honest programs and tests using string.Template pass',
    cases: () =>
      grid(20, HONEST, TESTS, (completion, tests) => ({
        prompt: PROMPT,
        completion: `${completion}\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-string-template',
    language: 'python',
    about: 'wrong programs using string.Template fail',
    cases: () =>
      grid(20, WRONG, TESTS, (completion, tests) => ({
        prompt: PROMPT,
        completion: `${completion}\n`,
        tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
