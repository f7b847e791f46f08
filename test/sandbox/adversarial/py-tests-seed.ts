/**
 * Python: tests that seed the module's generator (`random.seed(s)`) and check a program's shuffle,
 * sample, choice or randint against the draws of a generator seeded the same way. In one
 * interpreter the program draws from that very generator; with the program in its own interpreter
 * its generator kept the per-program seed and every honest program failed (a fresh hostile pass,
 * 2026-12-06, rt55 F10). The tests' `random.seed` now seeds the program's module generator too.
 * Controls: honest programs pass; wrong twins (not drawing, drawing twice) fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

interface Draw {
  prompt: string;
  honest: string;
  wrong: string;
  /** The tests' expected value from their own generator `r`, and the program's call. */
  want: string;
  call: string;
}

const DRAWS: readonly Draw[] = [
  {
    prompt: 'import random\n\n\ndef shuffled(xs):\n    """A shuffled copy of xs (random.shuffle)."""\n',
    honest: '    xs = list(xs)\n    random.shuffle(xs)\n    return xs\n',
    wrong: '    xs = list(xs)\n    xs.reverse()\n    return xs\n',
    want: 'want = list(range(12))\nr.shuffle(want)\n',
    call: 'shuffled(range(12))',
  },
  {
    prompt: 'import random\n\n\ndef pick(n, k):\n    """k distinct numbers below n (random.sample)."""\n',
    honest: '    return random.sample(range(n), k)\n',
    wrong: '    random.random()\n    return random.sample(range(n), k)\n',
    want: 'want = r.sample(range(100), 5)\n',
    call: 'pick(100, 5)',
  },
  {
    prompt: 'from random import choice\n\n\ndef one(s):\n    """One character of s (random.choice)."""\n',
    honest: '    return choice(s)\n',
    wrong: '    return s[0]\n',
    want: "want = r.choice('abcdefghij')\n",
    call: "one('abcdefghij')",
  },
  {
    prompt: 'import random\n\n\ndef dice(n):\n    """n throws of a die (random.randint)."""\n',
    honest: '    return [random.randint(1, 6) for _ in range(n)]\n',
    wrong: '    return [random.randint(1, 6) for _ in range(n)][::-1]\n',
    want: 'want = [r.randint(1, 6) for _ in range(20)]\n',
    call: 'dice(20)',
  },
];

const SEEDS = ['0', '7', "'abc'", '12345', '2 ** 40'];

const tests = (d: Draw, seed: string) =>
  `import random\nr = random.Random(${seed})\n${d.want}random.seed(${seed})\nassert ${d.call} == want\n`;

export const generators = [
  defineGenerator({
    name: 'py-tests-seed-honest',
    language: 'python',
    about: 'controls: honest programs drawing from the module generator the tests seeded pass',
    cases: () =>
      grid(20, DRAWS, SEEDS, (d, seed) => ({
        prompt: d.prompt,
        completion: d.honest,
        tests: tests(d, seed),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-tests-seed',
    language: 'python',
    about: 'wrong programs (not drawing, drawing an extra number) under the same tests: fail',
    cases: () =>
      grid(20, DRAWS, SEEDS, (d, seed) => ({
        prompt: d.prompt,
        completion: d.wrong,
        tests: tests(d, seed),
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
