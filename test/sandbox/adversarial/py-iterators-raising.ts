/**
 * Python: an iterator answer that raises after some items. The boundary drained an answer's
 * iterator whole before the tests saw any of it, so a generator yielding five items and raising
 * after them was an `error` even for tests reading only those five (`list(islice(f(), 5))`), which
 * CPython passes (found by a fresh hostile pass at aeee968: an honest control failed). The items
 * yielded before the exception now cross, and the exception is raised in the tests when they ask
 * for one more — so tests that read past it see it, as under CPython. Controls: prefixes read with
 * islice, zip or next pass; wrong: tests that read the whole iterator get the exception (`error`),
 * and a wrong item in the prefix fails.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

/** Programs yielding 0..k-1 and then raising (generator functions, and a class iterator). */
const RAISING = [
  (k: number) => `def f():\n    for i in range(${k}):\n        yield i\n    raise ValueError('done')\n`,
  (k: number) =>
    `def f():\n    i = 0\n    while True:\n        if i == ${k}:\n            raise KeyError(i)\n        yield i\n        i += 1\n`,
  (k: number) => `def f():\n    yield from range(${k})\n    1 // 0\n`,
  (k: number) => `def f():\n    return (i if i < ${k} else [][i] for i in range(${k} + 3))\n`,
];
/** Reads of the first k items (k = 5). */
const PREFIX = [
  'from itertools import islice\nassert list(islice(f(), 5)) == [0, 1, 2, 3, 4]\n',
  'it = f()\nassert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]\n',
  "assert list(zip('abcde', f())) == [('a', 0), ('b', 1), ('c', 2), ('d', 3), ('e', 4)]\n",
  'from itertools import islice\nassert sum(islice(f(), 3)) == 3\n',
  'it = iter(f())\nassert next(it) == 0\nassert next(it) == 1\n',
];

export const generators = [
  defineGenerator({
    name: 'py-iterators-raising-honest',
    language: 'python',
    about: 'controls: an iterator raising after its items, read only up to them, passes',
    cases: () =>
      grid(20, RAISING, PREFIX, (make, tests) => ({
        prompt: '',
        completion: make(5),
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-iterators-raising-wrong',
    language: 'python',
    about: 'tests reading past the items get the exception, and a wrong item in the prefix fails: never a pass',
    cases: () => [
      ...grid(
        12,
        RAISING,
        ['assert list(f()) == [0, 1, 2, 3, 4]\n', 'assert sum(f()) == 10\n', 'assert len(list(f())) == 5\n'],
        (make, tests) => ({
          prompt: '',
          completion: make(5),
          tests,
          expect: ['error'],
          maxPassed: 0,
          timeoutMs: TIMEOUT_MS,
        }),
      ),
      ...grid(8, RAISING, PREFIX.slice(0, 2), (make, tests) => ({
        prompt: '',
        completion: make(4),
        tests,
        expect: ['error', 'fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
