/**
 * Python (red-team rt71 PH03): a compiled `re` pattern. It was no plain data: a tests' class
 * holding `PAT = re.compile(...)` reached the program's stand-in without it (an honest program
 * reading `type(x).PAT` raised AttributeError), a pattern answer was refused, and so was a pattern
 * the tests passed in. Now a pattern crosses by value, its source and flags, and is compiled again
 * on the other side (sandbox/python/harness.py, tag 'Pattern'); one compiled with `re.DEBUG` is
 * refused (compiling it again would print its dump in the tests' interpreter). Every case was run
 * under CPython 3.11.7 as one file (program, then tests): the honest programs pass, the wrong ones
 * fail an assert.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

/** [pattern source as Python, a string it fully matches, one it does not]. */
const PATTERNS: readonly (readonly [string, string, string])[] = [
  ["r'[a-z]+'", "'abc'", "'a1'"],
  ["r'\\d{2,3}'", "'123'", "'1'"],
  ["r'(?P<k>\\w+)=(?P<v>\\w+)'", "'a=b'", "'a='"],
  ["'x|y'", "'y'", "'xy'"],
];

/** Honest programs and their tests, for pattern `p`, a matching string `yes` and a non-matching `no`. */
const HONEST: readonly ((p: string, yes: string, no: string) => readonly [string, string])[] = [
  (p, yes, no) => [
    'def pat(x):\n    return bool(type(x).PAT.fullmatch(x.s))\n',
    `import re\nclass Word:\n    PAT = re.compile(${p})\n    def __init__(self, s):\n        self.s = s\nassert pat(Word(${yes}))\nassert not pat(Word(${no}))\n`,
  ],
  (p, yes) => [
    `import re\ndef pat():\n    return re.compile(${p})\n`,
    `import re\nr = pat()\nassert r == re.compile(${p})\nassert r.fullmatch(${yes})\n`,
  ],
  (p, yes, no) => [
    'def pat(r, s):\n    return r.fullmatch(s) is not None\n',
    `import re\nassert pat(re.compile(${p}), ${yes})\nassert not pat(re.compile(${p}), ${no})\n`,
  ],
  (p, yes) => [
    `import re\ndef pat():\n    return {'rule': re.compile(${p}, re.IGNORECASE), 'n': 1}\n`,
    `import re\nd = pat()\nassert d['rule'].flags & re.IGNORECASE\nassert d['rule'].fullmatch(${yes}.upper())\n`,
  ],
  (p) => [
    `import re\ndef pat():\n    return [re.compile(${p}.encode())]\n`,
    `import re\nassert pat()[0].pattern == ${p}.encode()\n`,
  ],
];

/** Wrong programs and the tests they fail under CPython. */
const WRONG: readonly ((p: string, yes: string, no: string) => readonly [string, string])[] = [
  (p) => [`import re\ndef pat():\n    return re.compile(${p} + 'z')\n`, `import re\nassert pat() == re.compile(${p})\n`],
  (p) => [
    `import re\ndef pat():\n    return re.compile(${p}, re.IGNORECASE)\n`,
    `import re\nassert pat().flags == re.compile(${p}).flags\n`,
  ],
  (p, yes) => [
    `import re\ndef pat():\n    return re.compile('(' + ${p} + ')?')\n`,
    `import re\nassert pat().fullmatch('') is None\nassert pat().fullmatch(${yes})\n`,
  ],
  (p, yes) => [
    'def pat(x):\n    type(x).PAT = None\n    return True\n',
    `import re\nclass Word:\n    PAT = re.compile(${p})\n    def __init__(self, s):\n        self.s = s\nassert pat(Word(${yes}))\nassert Word.PAT is not None\n`,
  ],
  (p) => [`import re\ndef pat():\n    return re.compile(${p}, re.DEBUG)\n`, `import re\nassert pat() == re.compile(${p})\n`],
];

const cases = (
  n: number,
  rows: readonly ((p: string, yes: string, no: string) => readonly [string, string])[],
  expect: readonly ('pass' | 'fail' | 'error')[],
): AdversarialCase[] =>
  grid(n, rows, PATTERNS, (make, [p, yes, no]) => {
    const [completion, tests] = make(p, yes, no);
    return { completion, tests, expect };
  });

export const generators = [
  defineGenerator({
    name: 'py-compiled-patterns',
    language: 'python',
    about: 'wrong programs answering a different compiled pattern, or changing a class-level one of the tests: not a pass',
    cases: () => cases(20, WRONG, ['fail', 'error']),
  }),
  defineGenerator({
    name: 'py-compiled-patterns-honest',
    language: 'python',
    about: 'controls: compiled patterns as class attributes of the tests, answers and arguments pass',
    cases: () => cases(20, HONEST, ['pass']),
  }),
];
