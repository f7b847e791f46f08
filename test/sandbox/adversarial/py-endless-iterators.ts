/**
 * Python: an endless generator (or another endless iterator) as the answer, read by the tests
 * with `islice` / `next` (an honest style: "return a generator of all primes"). The first 10,000
 * items cross at once and the rest stays in the program's interpreter, stepped one item per
 * round trip, so the tests read any prefix as in CPython (such answers failed: iterators were
 * drained whole). Wrong endless answers still fail.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 10000;

/** Endless answers as [completion, the item at index i]. */
const ENDLESS: Array<[string, (i: number) => string]> = [
  ['def f():\n    n = 0\n    while True:\n        yield n\n        n += 2\n', (i) => String(2 * i)],
  ['import itertools\n\ndef f():\n    return itertools.count(5)\n', (i) => String(5 + i)],
  ['import itertools\n\ndef f():\n    return map(lambda x: x * x, itertools.count())\n', (i) => String(i * i)],
  ['import itertools\n\ndef f():\n    return itertools.cycle("ab")\n', (i) => (i % 2 === 0 ? '"a"' : '"b"')],
];

/** How the tests read: the first four, items past the eager part, `next` three times, across its edge. */
const READS: Array<[string, number[]]> = [
  ['list(islice(f(), 4))', [0, 1, 2, 3]],
  ['list(islice(f(), 10001, 10003))', [10001, 10002]],
  ['[next(it) for it in [f()] for _ in range(3)]', [0, 1, 2]],
  ['list(islice(f(), 9998, 10002))', [9998, 9999, 10000, 10001]],
];

const honest = defineGenerator({
  name: 'py-endless-iterators-honest',
  language: 'python',
  about: 'control: endless iterators as answers, read in prefixes by the tests, pass',
  cases: () =>
    grid(20, ENDLESS, READS, ([body, item], [read, idx]) => ({
      completion: body,
      tests: `from itertools import islice\nassert ${read} == [${idx.map(item).join(', ')}]\n`,
      expect: ['pass'],
      timeoutMs: TIMEOUT_MS,
      note: `${body.split('\n').slice(-2).join(' ')} / ${read}`,
    })),
});

const wrong = defineGenerator({
  name: 'py-endless-iterators-wrong',
  language: 'python',
  about: 'an endless iterator whose last item read is wrong (before, at and past the eager part): never a pass',
  cases: () =>
    grid(20, [0, 1, 2, 3, 4], READS, (k, [read, idx]) => {
      const bad = idx[idx.length - 1]!;
      return {
        completion: `def f():\n    n = 0\n    while True:\n        yield n + ${k + 1} if n >= ${bad} else n\n        n += 1\n`,
        tests: `from itertools import islice\nassert ${read} == [${idx.join(', ')}]\n`,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
        note: `wrong from ${bad} / ${read}`,
      };
    }),
});

export const generators = [honest, wrong];
