/**
 * Python: generator answers the tests take items of. They were drained to 10,000 items as they
 * crossed: an endless generator of costly items (primes by trial division, perfect numbers,
 * look-and-say) that the tests take a few of timed out, and a generator yielding one list it
 * changes between steps crossed in its final state for every item (a fresh hostile pass,
 * 2026-12-06, rt55 F09). The program's iterator now advances as the tests take items, each item
 * as it was when yielded, and an object yielded again is the tests' one copy of it brought in line
 * (so `list(gen)` of such a generator holds one list n times, as under CPython). Controls: honest
 * generators pass; wrong twins (wrong items, an aliasing generator consumed whole) fail.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

interface Gen {
  prompt: string;
  honest: string;
  wrong: string;
  tests: string;
}

const PERMS =
  '    xs = list(xs)\n\n    def rec(k):\n        if k == len(xs):\n            yield xs\n            return\n        for i in range(k, len(xs)):\n            xs[k], xs[i] = xs[i], xs[k]\n            yield from rec(k + 1)\n            xs[k], xs[i] = xs[i], xs[k]\n\n    yield from rec(0)\n';

const GENS: readonly Gen[] = [
  {
    prompt: 'def perfect():\n    """The perfect numbers, in order, without end."""\n',
    honest:
      '    n = 2\n    while True:\n        if sum(d for d in range(1, n // 2 + 1) if n % d == 0) == n:\n            yield n\n        n += 1\n',
    wrong:
      '    n = 2\n    while True:\n        if sum(d for d in range(1, n // 2 + 1) if n % d == 0) >= n:\n            yield n\n        n += 1\n',
    tests: 'from itertools import islice\nassert list(islice(perfect(), 3)) == [6, 28, 496]\n',
  },
  {
    prompt: 'def primes():\n    """The primes, in order, without end."""\n',
    honest:
      '    n = 2\n    while True:\n        if all(n % p for p in range(2, int(n ** 0.5) + 1)):\n            yield n\n        n += 1\n',
    wrong:
      '    n = 1\n    while True:\n        if all(n % p for p in range(2, int(n ** 0.5) + 1)):\n            yield n\n        n += 1\n',
    tests:
      'from itertools import islice\nassert list(islice(primes(), 8)) == [2, 3, 5, 7, 11, 13, 17, 19]\nit = primes()\nassert next(it) == 2 and next(it) == 3\n',
  },
  {
    prompt: 'def look_and_say():\n    """1, 11, 21, 1211, ... as strings, without end."""\n',
    honest:
      "    s = '1'\n    while True:\n        yield s\n        out, i = [], 0\n        while i < len(s):\n            j = i\n            while j < len(s) and s[j] == s[i]:\n                j += 1\n            out.append(str(j - i) + s[i])\n            i = j\n        s = ''.join(out)\n",
    wrong: "    s = '1'\n    while True:\n        yield s\n        s = s + '1'\n",
    tests: "from itertools import islice\nassert list(islice(look_and_say(), 5)) == ['1', '11', '21', '1211', '111221']\n",
  },
  {
    prompt: 'def permutations(xs):\n    """Every ordering of xs, as lists (one list, rearranged in place between steps)."""\n',
    honest: PERMS,
    wrong: PERMS.replace('range(k, len(xs))', 'range(k + 1, len(xs))'),
    tests:
      'import itertools\ngot = sorted(p[:] for p in permutations([1, 2, 3, 4, 5]))\nassert got == sorted(list(p) for p in itertools.permutations([1, 2, 3, 4, 5]))\n',
  },
  {
    // More fresh objects than the identities kept (64): an address P let go of may be reused.
    prompt: 'def pairs(n):\n    """[i, i * i] for i below n, each a new list."""\n',
    honest: '    for i in range(n):\n        yield [i, i * i]\n',
    wrong: '    for i in range(n):\n        yield [i, i * i + (i == 150)]\n',
    tests: 'out = list(pairs(300))\nassert out == [[i, i * i] for i in range(300)]\nassert len({id(p) for p in out}) == 300\n',
  },
  {
    prompt:
      'def windows(xs, k):\n    """The windows of k items of xs, as one deque that slides between steps."""\n    from collections import deque\n',
    honest: '    d = deque(maxlen=k)\n    for x in xs:\n        d.append(x)\n        if len(d) == k:\n            yield d\n',
    wrong: '    d = deque(maxlen=k)\n    for x in xs:\n        d.append(x)\n        if len(d) >= k - 1:\n            yield d\n',
    tests: 'assert [list(w) for w in windows(range(30), 3)] == [[i, i + 1, i + 2] for i in range(28)]\n',
  },
];

/** A generator that yields one list it changes, consumed whole: one list n times under CPython. */
const ALIASING = {
  prompt: 'def prefixes(xs):\n    """Each prefix of xs, as a new list."""\n',
  wrong: '    out = []\n    for x in xs:\n        out.append(x)\n        yield out\n',
  tests: 'assert list(prefixes([1, 2, 3])) == [[1], [1, 2], [1, 2, 3]]\n',
};

export const generators = [
  defineGenerator({
    name: 'py-lazy-iterators-honest',
    language: 'python',
    about: 'controls: honest generators the tests take items of (endless and costly, or yielding one changing object) pass',
    cases: () =>
      grid(24, GENS, [0, 1, 2, 3], (g, i) => ({
        prompt: g.prompt,
        completion: g.honest + '\n'.repeat(i),
        tests: g.tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-lazy-iterators',
    language: 'python',
    about: 'wrong generators under the same tests, and an aliasing generator consumed whole: fail',
    cases: () => [
      ...grid(24, GENS, [0, 1, 2, 3], (g, i) => ({
        prompt: g.prompt,
        completion: g.wrong + '\n'.repeat(i),
        tests: g.tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(4, [ALIASING], [0, 1, 2, 3], (g, i) => ({
        prompt: g.prompt,
        completion: g.wrong + '\n'.repeat(i),
        tests: g.tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
