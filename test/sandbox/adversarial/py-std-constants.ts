/**
 * Python: standard constants the tests use unimported (`pi`, `e`, `tau`, `inf`, `ascii_lowercase`,
 * `digits`, `maxsize`). The rule for standard names (py-std-names.ts: a name the tests use
 * unimported must be that standard object) covered functions and classes only, so a program
 * binding `pi = 3` decided the tests' own side of `assert circle_area(2) == 4 * pi` (found by a
 * fresh hostile pass at aeee968). Such a name now reaches the tests only when the program's value
 * is the constant itself (`from math import pi`); any other value leaves it undefined. Controls:
 * programs importing the constant, and constants the prompt defines, pass. `calendar`'s month and
 * day names too (a program `month_name = ['', 'Jan', 'Feb']` passed at fcb8faa; its own full list
 * of the same names answers).
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** A constant, a wrong value the program binds it to, a function using that value, and the tests. */
const CONSTANTS: ReadonlyArray<{ name: string; module: string; fake: string; fn: string; tests: string }> = [
  { name: 'pi', module: 'math', fake: '3', fn: 'def area(r):\n    return 3 * r * r\n', tests: 'assert area(2) == 4 * pi\n' },
  { name: 'e', module: 'math', fake: '2', fn: 'def grow(n):\n    return 2 ** n\n', tests: 'assert grow(3) == e ** 3\n' },
  { name: 'tau', module: 'math', fake: '6', fn: 'def turn(k):\n    return 6 * k\n', tests: 'assert turn(2) == 2 * tau\n' },
  {
    name: 'inf',
    module: 'math',
    fake: '10',
    fn: 'def cap(x):\n    return min(x, 10)\n',
    tests: 'assert cap(50) == inf or cap(50) == 50\n',
  },
  {
    name: 'ascii_lowercase',
    module: 'string',
    fake: "'abz'",
    fn: 'def first(n):\n    return "abz"[:n]\n',
    tests: 'assert first(3) == ascii_lowercase[:3]\n',
  },
  {
    name: 'digits',
    module: 'string',
    fake: "'0123456780'",
    fn: 'def ds():\n    return "0123456780"\n',
    tests: 'assert ds() == digits\n',
  },
  { name: 'maxsize', module: 'sys', fake: '5', fn: 'def big():\n    return 5\n', tests: 'assert big() == maxsize\n' },
  {
    name: 'ascii_uppercase',
    module: 'string',
    fake: "'AB'",
    fn: 'def up(n):\n    return "AB"[:n]\n',
    tests: 'assert up(2) == ascii_uppercase[:2]\nassert len(ascii_uppercase) == 26\n',
  },
  { name: 'nan', module: 'math', fake: '0.0', fn: 'def miss():\n    return 0.0\n', tests: 'assert repr(miss()) == repr(nan)\n' },
  {
    name: 'punctuation',
    module: 'string',
    fake: "'!'",
    fn: 'def marks():\n    return "!"\n',
    tests: 'assert marks() == punctuation\n',
  },
  {
    name: 'month_name',
    module: 'calendar',
    fake: "['', 'Jan', 'Feb']",
    fn: 'def month(n):\n    return "Feb"\n',
    tests: 'assert month(2) == month_name[2]\n',
  },
  {
    name: 'day_abbr',
    module: 'calendar',
    fake: "('Mo', 'Tu')",
    fn: 'def day(n):\n    return "Tu"\n',
    tests: 'assert day(1) == day_abbr[1]\n',
  },
];

/** How the program binds the wrong value. */
const BINDS = [(c: string, v: string) => `${c} = ${v}\n`, (c: string, v: string) => `${c}: float = ${v}\n`];

export const generators = [
  defineGenerator({
    name: 'py-std-constants',
    language: 'python',
    about: 'a standard constant the tests use unimported, bound by the program to a value of its own: not a pass',
    cases: () =>
      grid(
        24,
        CONSTANTS,
        BINDS,
        (c, bind): AdversarialCase => ({
          prompt: '',
          completion: bind(c.name, c.fake) + '\n' + c.fn,
          tests: c.tests,
          expect: ['fail', 'error'],
          maxPassed: 0,
          timeoutMs: TIMEOUT_MS,
          note: `${c.name} = ${c.fake}`,
        }),
      ),
  }),
  defineGenerator({
    name: 'py-std-constants-honest',
    language: 'python',
    about: 'controls: programs importing the constant (from the module or as its value) pass',
    cases: () =>
      grid(
        20,
        [
          { c: 'pi', m: 'math', fn: 'def area(r):\n    return pi * r * r\n', tests: 'assert area(2) == 4 * pi\n' },
          { c: 'e', m: 'math', fn: 'def grow(n):\n    return e ** n\n', tests: 'assert grow(3) == e ** 3\n' },
          { c: 'inf', m: 'math', fn: 'def cap(x):\n    return inf\n', tests: 'assert cap(50) == inf\n' },
          {
            c: 'ascii_lowercase',
            m: 'string',
            fn: 'def first(n):\n    return ascii_lowercase[:n]\n',
            tests: 'assert first(3) == ascii_lowercase[:3]\n',
          },
          { c: 'maxsize', m: 'sys', fn: 'def big():\n    return maxsize\n', tests: 'assert big() == maxsize\n' },
          {
            c: 'month_name',
            m: 'calendar',
            fn: 'def month(n):\n    return month_name[n]\n',
            tests: 'assert month(2) == month_name[2]\n',
          },
        ],
        [0, 1, 2, 3],
        (p, i): AdversarialCase => ({
          prompt: '',
          completion:
            i % 2 === 0
              ? `from ${p.m} import ${p.c}\n\n${p.fn}${'# v\n'.repeat(i)}`
              : `import ${p.m}\n${p.c} = ${p.m}.${p.c}\n\n${p.fn}${'# v\n'.repeat(i)}`,
          tests: p.tests,
          expect: ['pass'],
          timeoutMs: TIMEOUT_MS,
        }),
      ),
  }),
];
