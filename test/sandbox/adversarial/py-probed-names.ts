/**
 * Python (red-team rt6 N01, the JavaScript finding's twin): a free name the tests probe for
 * truth. With a prompt naming the entry point, a name beside it is taken from the program only
 * when it is a function or class the tests only call (or ask `isinstance` about): a flag the tests
 * probe (`try: QUICK = bool(FAST) / except NameError`) stays undefined, so a program right only on
 * the short case list cannot choose it by defining `def FAST(): pass`. Attacks: `fact` wrong past
 * 6 with the flag defined: fail. Controls: an honest `fact` with the flag passes; a second
 * function and a class of the completion the tests call and `isinstance` are the program's.
 */
import { grid } from './framework.ts';
import { probedNamesGenerators } from './probed-names.ts';

const PROMPT = 'def fact(n):\n    """n! for 0 <= n <= 12"""\n';
const SHORT = '    if n > 6:\n        return 0\n    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n';
const HONEST = '    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n';

/** A probe of flag `f` into `QUICK`. */
const PROBES: ReadonlyArray<(f: string) => string> = [
  (f) => `try:\n    QUICK = bool(${f})\nexcept NameError:\n    QUICK = False\n`,
  (f) => `try:\n    ${f}\n    QUICK = True\nexcept NameError:\n    QUICK = False\n`,
  (f) => `try:\n    QUICK = ${f} is not None\nexcept NameError:\n    QUICK = False\n`,
  (f) => `try:\n    QUICK = callable(${f})\nexcept NameError:\n    QUICK = False\n`,
  (f) => `try:\n    QUICK = True if ${f} else False\nexcept NameError:\n    QUICK = False\n`,
];
/** The program's binding of flag `f`. */
const DEFINES: ReadonlyArray<(f: string) => string> = [
  (f) => `def ${f}():\n    pass\n`,
  (f) => `class ${f}:\n    pass\n`,
  (f) => `def ${f}(*args):\n    return True\n`,
  (f) => `class ${f}:\n    def __bool__(self):\n        return True\n`,
];

const tests = (probe: string, short: number) =>
  `import math\n${probe}N = ${short} if QUICK else 12\nfor i in range(N + 1):\n    assert fact(i) == math.factorial(i)\n`;

export const generators = probedNamesGenerators({
  name: 'py-probed-names',
  language: 'python',
  prompt: PROMPT,
  short: SHORT,
  honest: HONEST,
  probes: PROBES,
  defines: DEFINES,
  tests,
  called: () =>
    grid(4, ['double', 'twice', 'times_two', 'dbl'], ['Box', 'Cell'], (name, cls) => ({
      prompt: PROMPT,
      completion: `${HONEST}def ${name}(n):\n    return 2 * fact(n)\nclass ${cls}:\n    def __init__(self, v):\n        self.v = v\n`,
      tests: `assert ${name}(3) == 12\nassert isinstance(${cls}(1), ${cls})\nassert fact(5) == 120\n`,
      expect: ['pass'],
    })),
});
