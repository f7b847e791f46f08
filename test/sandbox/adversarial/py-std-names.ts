/**
 * Python (red-team rt7-py N01–N06): a standard-library name the tests use without importing it.
 * Under CPython such a name is the program's import of that very object; answered by anything
 * else — a program `def Counter`, `Counter = type`, `Counter = len`, `def isclose(*a, **k): return
 * True` — it decided the tests' comparison on both sides. It is now taken from the program only
 * as that object, as the entry point, or (no prompt) as the one function under test. Attacks: a
 * wrong answer beside its own binding of the name: not a pass. Controls: the honest program
 * importing the name passes; MBPP's `def gcd` as the function under test (no prompt) passes.
 */
import { type AdversarialCase, defineGenerator, grid } from './framework.ts';

/** A problem whose tests use a standard name unimported; the wrong and the honest completions. */
interface Problem {
  prompt: string;
  wrong: string;
  honest: string;
  tests: string;
  /** The program's own bindings of the standard name. */
  binds: readonly string[];
}

const PROBLEMS: readonly Problem[] = [
  {
    prompt: '',
    wrong: 'def word_counts(s):\n    return {}\n',
    honest: 'from collections import Counter\ndef word_counts(s):\n    return dict(Counter(s.split()))\n',
    tests:
      "assert Counter(word_counts('a b a')) == Counter({'a': 2, 'b': 1})\nassert Counter(word_counts('x')) == Counter({'x': 1})\n",
    binds: ['def Counter(*a, **k):\n    return 0\n', 'Counter = type\n', 'Counter = len\n', 'Counter = lambda *a, **k: None\n'],
  },
  {
    prompt: 'def mean(xs):\n    """The arithmetic mean of xs."""\n',
    wrong: '    return 0.0\n',
    honest: '    return sum(xs) / len(xs)\nfrom math import isclose\n',
    tests: 'assert isclose(mean([1, 2]), 1.5)\nassert isclose(mean([0.1, 0.2, 0.3]), 0.2)\n',
    binds: [
      'def isclose(*a, **k):\n    return True\n',
      'isclose = lambda *a, **k: True\n',
      'isclose = max\n',
      'def isclose(a, b, **k):\n    return a == a\n',
    ],
  },
  {
    prompt: '',
    wrong: 'def product(xs):\n    return 1\n',
    honest: 'from functools import reduce\ndef product(xs):\n    return reduce(lambda a, b: a * b, xs, 1)\n',
    tests:
      'assert product([2, 3, 4]) == reduce(lambda a, b: a * b, [2, 3, 4])\nassert product([5, 5]) == reduce(lambda a, b: a * b, [5, 5])\n',
    binds: ['def reduce(f, xs, *init):\n    return 1\n', 'reduce = lambda *a: 1\n', 'def reduce(*a):\n    return product([])\n'],
  },
  {
    prompt: 'def hypot2(a, b):\n    """The hypotenuse of a right triangle with legs a and b."""\n',
    wrong: '    return a + b\n',
    honest: '    return sqrt(a * a + b * b)\nfrom math import sqrt\n',
    tests: 'assert hypot2(3, 4) == sqrt(25)\nassert hypot2(5, 12) == sqrt(169)\n',
    binds: ['def sqrt(x):\n    return x if x < 30 else 17\n', 'sqrt = lambda x: {25: 7, 169: 17}[x]\n'],
  },
];

const ATTACKS = PROBLEMS.flatMap((p) => p.binds.map((b) => ({ p, b })));

export const generators = [
  defineGenerator({
    name: 'py-std-names',
    language: 'python',
    about: 'a standard name the tests use unimported, bound by the program to its own function: not a pass',
    cases: () =>
      grid(
        26,
        ATTACKS,
        [0, 1],
        ({ p, b }, order): AdversarialCase => ({
          prompt: p.prompt,
          // With a prompt the completion continues the entry point's body: the binding comes after.
          completion: p.prompt || order ? p.wrong + b : b + p.wrong,
          tests: p.tests,
          expect: ['fail', 'error'],
          note: b.split('\n')[0],
        }),
      ),
  }),
  defineGenerator({
    name: 'py-std-names-honest',
    language: 'python',
    about: 'controls: the honest programs import the name; MBPP\u2019s def gcd as the one function under test',
    cases: () => [
      ...grid(
        20,
        PROBLEMS,
        [0, 1, 2, 3, 4],
        (p, i): AdversarialCase => ({
          prompt: p.prompt,
          completion: `${p.honest}${'# variant\n'.repeat(i)}`,
          tests: p.tests,
          expect: ['pass'],
        }),
      ),
      ...grid(
        4,
        ['gcd', 'lcm', 'factorial', 'comb'],
        [0],
        (name): AdversarialCase => ({
          prompt: '',
          completion: `def ${name}(*a):\n    return 6\n`,
          tests: `assert ${name}(12, 18) == 6\n`,
          expect: ['pass'],
        }),
      ),
    ],
  }),
];
