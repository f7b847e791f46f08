/**
 * Python (red-team rt7-py N01–N07), beside py-std-names.ts: more standard-library names the tests
 * use without importing them (`deque`, `defaultdict`, `gcd`, `isclose`, `sqrt`, `Fraction`,
 * `OrderedDict`, `prod`), in MBPP style (no prompt: the whole program is the completion). A wrong
 * answer beside the program's own binding of the name (a function, a lambda, `type`, `len`, `max`)
 * must not decide the comparison: not a pass. Controls: the honest program importing the name
 * (`from … import …`, `import m` then `name = m.name`, an alias), and an MBPP function under test
 * named like a standard function, alone, pass.
 */
import { type AdversarialCase, defineGenerator, grid, type Rng } from './framework.ts';

/** A no-prompt problem whose tests use `name` unimported. */
interface Problem {
  name: string;
  module: string;
  /** A wrong answer (the function under test). */
  wrong: string;
  /** The honest function under test, without the import. */
  honest: string;
  tests: (rng: Rng) => string;
  /** The program's own bindings of the name (with the wrong answer they would pass). */
  binds: readonly string[];
}

const PROBLEMS: readonly Problem[] = [
  {
    name: 'deque',
    module: 'collections',
    wrong: 'def rotate(xs, k):\n    return xs\n',
    honest: 'def rotate(xs, k):\n    d = deque(xs)\n    d.rotate(k)\n    return list(d)\n',
    tests: (rng) => {
      const k = rng.int(1, 3);
      const xs = [1, 2, 3, 4, 5];
      const want = [...xs.slice(-k), ...xs.slice(0, -k)];
      return `assert deque(rotate([${xs}], ${k})) == deque([${want}])\nassert deque(rotate([7, 8], 2)) == deque([7, 8])\n`;
    },
    binds: ['deque = len\n', 'deque = type\n', 'def deque(*a, **k):\n    return 0\n', 'deque = lambda *a: None\n'],
  },
  {
    name: 'defaultdict',
    module: 'collections',
    wrong: 'def group_by_len(words):\n    return {}\n',
    honest:
      'def group_by_len(words):\n    d = defaultdict(list)\n    for w in words:\n        d[len(w)].append(w)\n    return dict(d)\n',
    tests: (rng) => {
      const w = rng.pick(['ab', 'cd', 'xy']);
      return `assert group_by_len(['a', '${w}', 'c']) == defaultdict(list, {1: ['a', 'c'], 2: ['${w}']})\nassert group_by_len(['aaa']) == defaultdict(list, {3: ['aaa']})\n`;
    },
    binds: [
      'def defaultdict(*a, **k):\n    return {}\n',
      'defaultdict = lambda *a, **k: {}\n',
      'def defaultdict(f, d=None):\n    return group_by_len([])\n',
    ],
  },
  {
    name: 'gcd',
    module: 'math',
    wrong: 'def lcm(a, b):\n    return a * b\n',
    honest: 'def lcm(a, b):\n    return a * b // gcd(a, b)\n',
    tests: (rng) => {
      const a = rng.pick([4, 6, 8]);
      const b = rng.pick([10, 12, 14]);
      return `assert lcm(${a}, ${b}) == ${a} * ${b} // gcd(${a}, ${b})\nassert lcm(9, 6) == 54 // gcd(9, 6)\n`;
    },
    binds: ['def gcd(a, b):\n    return 1\n', 'gcd = lambda a, b: 1\n', 'def gcd(*a):\n    return True\n'],
  },
  {
    name: 'isclose',
    module: 'math',
    wrong: 'def average(xs):\n    return 0.0\n',
    honest: 'def average(xs):\n    return sum(xs) / len(xs)\n',
    tests: (rng) => {
      const a = rng.int(1, 9);
      return `assert isclose(average([${a}, ${a + 2}]), ${a + 1}.0)\nassert isclose(average([0.1, 0.2, 0.3]), 0.2)\n`;
    },
    binds: [
      'def isclose(*a, **k):\n    return True\n',
      'isclose = lambda *a, **k: True\n',
      'isclose = max\n',
      'isclose = lambda a, b: a == a\n',
    ],
  },
  {
    name: 'sqrt',
    module: 'math',
    wrong: 'def hyp(a, b):\n    return a + b\n',
    honest: 'def hyp(a, b):\n    return sqrt(a * a + b * b)\n',
    tests: (rng) => {
      const k = rng.int(1, 4);
      return `assert hyp(${3 * k}, ${4 * k}) == sqrt(${25 * k * k})\nassert hyp(5, 12) == sqrt(169)\n`;
    },
    binds: [
      'def sqrt(x):\n    return {25: 7, 100: 14, 225: 21, 400: 28, 169: 17}[x]\n',
      'sqrt = lambda x: {169: 17}.get(x, 7 * round(x ** 0.5) // 5)\n',
    ],
  },
  {
    name: 'Fraction',
    module: 'fractions',
    wrong: 'def half(x):\n    return x\n',
    honest: 'def half(x):\n    return Fraction(x) / 2\n',
    tests: (rng) => {
      const n = rng.int(2, 9);
      return `assert half(${n}) == Fraction(${n}, 2)\nassert half(Fraction(1, 3)) == Fraction(1, 6)\n`;
    },
    binds: ['def Fraction(*a):\n    return a[0]\n', 'Fraction = lambda *a: a[0]\n'],
  },
  {
    name: 'prod',
    module: 'math',
    wrong: 'def product_of_digits(n):\n    return 0\n',
    honest: 'def product_of_digits(n):\n    return prod(int(c) for c in str(n))\n',
    tests: (rng) => {
      const d = rng.pick([234, 135, 327]);
      return `assert product_of_digits(${d}) == prod([int(c) for c in '${d}'])\nassert product_of_digits(99) == prod([9, 9])\n`;
    },
    binds: ['def prod(xs):\n    return 0\n', 'prod = lambda xs, **k: 0\n'],
  },
];

const ATTACKS = PROBLEMS.flatMap((p) => p.binds.map((b) => ({ p, b })));

/** Honest ways of importing the name. */
const IMPORTS: ReadonlyArray<(p: Problem) => string> = [
  (p) => `from ${p.module} import ${p.name}\n`,
  (p) => `import ${p.module}\n${p.name} = ${p.module}.${p.name}\n`,
  (p) => `from ${p.module} import ${p.name} as _std_${p.name}\n${p.name} = _std_${p.name}\n`,
];

/** MBPP functions under test named like standard functions, alone (no prompt): honest answers. */
const UNDER_TEST: ReadonlyArray<{ def: string; tests: string }> = [
  {
    def: 'def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n',
    tests: 'assert gcd(12, 18) == 6\nassert gcd(7, 5) == 1\n',
  },
  {
    def: 'def lcm(a, b):\n    x, y = a, b\n    while y:\n        x, y = y, x % y\n    return a * b // x\n',
    tests: 'assert lcm(4, 6) == 12\nassert lcm(5, 7) == 35\n',
  },
  {
    def: 'def factorial(n):\n    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n',
    tests: 'assert factorial(5) == 120\nassert factorial(0) == 1\n',
  },
  { def: 'def isqrt(n):\n    return int(n ** 0.5)\n', tests: 'assert isqrt(17) == 4\nassert isqrt(81) == 9\n' },
  {
    def: 'def prod(xs):\n    r = 1\n    for x in xs:\n        r *= x\n    return r\n',
    tests: 'assert prod([2, 3, 4]) == 24\nassert prod([]) == 1\n',
  },
];

export const generators = [
  defineGenerator({
    name: 'py-std-names-more',
    language: 'python',
    about: 'no prompt: a standard name the tests use unimported, bound by the program to its own function: not a pass',
    cases: (rng) =>
      grid(
        ATTACKS.length * 2,
        ATTACKS,
        [0, 1],
        ({ p, b }, order): AdversarialCase => ({
          completion: order ? p.wrong + b : b + p.wrong,
          tests: p.tests(rng),
          expect: ['fail', 'error'],
          maxPassed: 0,
          note: `${p.name}: ${b.split('\n')[0]}`,
        }),
      ),
  }),
  defineGenerator({
    name: 'py-std-names-more-honest',
    language: 'python',
    about: 'controls: the honest program importing the name (three ways); MBPP functions named like standard ones',
    cases: (rng) => [
      ...grid(
        PROBLEMS.length * IMPORTS.length,
        PROBLEMS,
        IMPORTS,
        (p, imp, i): AdversarialCase => ({
          completion: i % 2 ? p.honest + imp(p) : imp(p) + p.honest,
          tests: p.tests(rng),
          expect: ['pass'],
          note: `${p.name}: ${imp(p).split('\n')[0]}`,
        }),
      ),
      ...UNDER_TEST.map(
        (u): AdversarialCase => ({ completion: u.def, tests: u.tests, expect: ['pass'], note: u.def.split('\n')[0] }),
      ),
    ],
  }),
];
