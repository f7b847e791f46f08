/**
 * Python: a prompt that ends on the entry point's header with no body (`def add(a, b):` and
 * nothing after: no docstring, as some prompt styles have). T compiles the prompt to run its own
 * definitions; such a prompt did not parse, so T ran none of it: tests that read a helper, class
 * or constant of the prompt next to the entry point failed every honest program (`NameError: name
 * 'add' is not defined`). T now lets `pass` stand for the missing body. Controls: honest programs
 * pass. Attacks: a completion that redefines the prompt's helper the tests use (so the helper
 * agrees with its wrong answer) fails, as with a prompt that has a docstring.
 */
import { type AdversarialCase, defineGenerator, grid, type Rng } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** What the prompt defines before the bare header, and how the tests use it. */
const SHAPES: ReadonlyArray<{ before: string; honest: string; tests: (k: number) => string; wrong: string }> = [
  {
    before: 'def helper(x):\n    return 2 * x\n\n\n',
    honest: '    return helper(a) + b\n',
    tests: (k) =>
      `def check(candidate):\n    assert candidate(${k}, 1) == helper(${k}) + 1\n    assert helper(3) == 6\n\ncheck(add)\n`,
    wrong: '    return 0\n\n\ndef helper(x):\n    return -1\n',
  },
  {
    before: 'MOD = 1000003\n\n\n',
    honest: '    return (a + b) % MOD\n',
    tests: (k) =>
      `def check(candidate):\n    assert candidate(MOD - 1, ${k}) == ${k - 1}\n    assert candidate(1, 2) == 3\n\ncheck(add)\n`,
    wrong: '    return 0\n\n\nMOD = 1\n',
  },
  {
    before: 'class Pair:\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n\n\n',
    honest: '    return Pair(a, b)\n',
    tests: (k) =>
      `def check(candidate):\n    p = candidate(${k}, 2)\n    assert isinstance(p, Pair)\n    assert (p.a, p.b) == (${k}, 2)\n\ncheck(add)\n`,
    wrong:
      '    return Pair(b, a)\n\n\nclass Pair:\n    def __init__(self, a, b):\n        self.a = a\n        self.b = b\n\n    def __eq__(self, o):\n        return True\n',
  },
  {
    before: 'import math\n\n\ndef near(x, y):\n    return math.isclose(x, y, rel_tol=1e-9)\n\n\n',
    honest: '    return a + b\n',
    tests: (k) =>
      `def check(candidate):\n    assert near(candidate(0.1, ${k}), 0.1 + ${k})\n    assert not near(1.0, 2.0)\n\ncheck(add)\n`,
    wrong: '    return 0\n\n\ndef near(x, y):\n    return True\n',
  },
];

/** The bare header, as prompts write it. */
const HEADERS = [
  'def add(a, b):\n',
  'def add(a, b):',
  'def add(a: int, b: int) -> int:\n',
  'def add(a, b):  \n',
  'def add(\n    a,\n    b,\n):\n',
];

/** 20 cases: each shape after each header, completed by `part`, with the verdict `verdict`. */
const bareCases =
  (part: 'honest' | 'wrong', verdict: Pick<AdversarialCase, 'expect' | 'maxPassed'>) =>
  (rng: Rng): AdversarialCase[] =>
    grid(20, SHAPES, HEADERS, (shape, header) => ({
      prompt: shape.before + header,
      completion: (header.endsWith('\n') ? '' : '\n') + shape[part],
      tests: shape.tests(rng.int(3, 9)),
      ...verdict,
      timeoutMs: TIMEOUT_MS,
    }));

export const generators = [
  defineGenerator({
    name: 'py-bare-prompts',
    language: 'python',
    about: "controls: a prompt ending on the entry point's bare header, tests reading the prompt's helpers: honest programs pass",
    cases: bareCases('honest', { expect: ['pass'] }),
  }),
  defineGenerator({
    name: 'py-bare-prompts-rebound',
    language: 'python',
    about: "a completion after a bare header redefines the prompt's helper the tests use: the tests use the prompt's own: fail",
    cases: bareCases('wrong', { expect: ['fail'], maxPassed: 1 }),
  }),
];
