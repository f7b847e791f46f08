/**
 * Python (red-team rt57 F01/F02): recursion where every level goes through C code — an
 * `lru_cache`d or `@cache`d function, `max(f(c) for c in …)`, `sum(map(f, …))`, a `__len__`
 * calling `len()` on the next node. Each level takes the wasm call stack, whose limit was V8's
 * default: ~220 levels where CPython goes on to its recursion limit, so honest programs 300 to 650
 * deep were `error` ("the native stack overflowed"), and near that depth whether they overflowed
 * depended on what the worker had run before. The Python worker now runs with a larger V8 stack
 * (src/sandbox/local-executor.ts, pythonStackKiB). Controls: honest programs pass; wrong twins
 * (off by one at the bottom) fail.
 */
import { defineGenerator, grid } from './framework.ts';

const LIMIT = 'import sys\n\nsys.setrecursionlimit(5000)\n\n';

/** Honest programs computing depth(n) == n through C-level recursion, and their wrong twins. */
const PROGRAMS: ReadonlyArray<{ honest: string; wrong: string }> = [
  {
    honest:
      'from functools import lru_cache\n\n\n@lru_cache(maxsize=None)\ndef depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n',
    wrong:
      'from functools import lru_cache\n\n\n@lru_cache(maxsize=None)\ndef depth(n):\n    return 1 if n == 0 else 1 + depth(n - 1)\n',
  },
  {
    honest:
      'from functools import cache\n\n\n@cache\ndef depth(n):\n    if n <= 0:\n        return 0\n    return depth(n - 1) + 1\n',
    wrong:
      'from functools import cache\n\n\n@cache\ndef depth(n):\n    if n <= 1:\n        return 0\n    return depth(n - 1) + 1\n',
  },
  {
    honest: 'def depth(n):\n    return 1 + max((depth(k) for k in range(n - 1, n - 2, -1) if k >= 0), default=-1)\n',
    wrong: 'def depth(n):\n    return 1 + max((depth(k) for k in range(n - 1, n - 2, -1) if k >= 0), default=0)\n',
  },
  {
    honest: 'def depth(n):\n    return 0 if n == 0 else 1 + sum(map(depth, [n - 1]))\n',
    wrong: 'def depth(n):\n    return 0 if n == 0 else 2 + sum(map(depth, [n - 1])) - 1 + (n == 1)\n',
  },
  {
    honest:
      'class Node:\n    def __init__(self, nxt):\n        self.nxt = nxt\n\n    def __len__(self):\n        return 1 + (len(self.nxt) if self.nxt is not None else 0)\n\n\ndef depth(n):\n    node = None\n    for _ in range(n):\n        node = Node(node)\n    return len(node) if node is not None else 0\n',
    wrong:
      'class Node:\n    def __init__(self, nxt):\n        self.nxt = nxt\n\n    def __len__(self):\n        return 1 + (len(self.nxt) if self.nxt is not None else 1)\n\n\ndef depth(n):\n    node = None\n    for _ in range(n):\n        node = Node(node)\n    return len(node) if node is not None else 0\n',
  },
];

/**
 * Tests 300 to 650 deep. The programs raise their recursion limit (the tests' own
 * `sys.setrecursionlimit` would set only the tests' interpreter's); the image's CPython stops
 * C-level recursion near 700 levels of the generator shape with its own RecursionError, whatever
 * the stack: a limit of that interpreter, not of the sandbox.
 */
const TESTS: readonly string[] = [
  'assert depth(300) == 300\n',
  'assert depth(450) == 450\nassert depth(10) == 10\n',
  'assert depth(600) == 600\n',
  'assert depth(650) == 650\n',
];

export const generators = [
  defineGenerator({
    name: 'py-c-recursion-honest',
    language: 'python',
    about:
      'controls: honest C-level recursion (lru_cache, cache, max over a generator, sum(map), __len__) 300 to 650 deep passes',
    cases: () => grid(20, TESTS, PROGRAMS, (tests, p) => ({ completion: LIMIT + p.honest, tests, expect: ['pass'] })),
  }),
  defineGenerator({
    name: 'py-c-recursion',
    language: 'python',
    about: 'wrong twins of the same recursions (off by one at the bottom) fail',
    cases: () => grid(20, TESTS, PROGRAMS, (tests, p) => ({ completion: LIMIT + p.wrong, tests, expect: ['fail'] })),
  }),
];
