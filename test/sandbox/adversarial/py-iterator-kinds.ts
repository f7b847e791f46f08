/**
 * Python (red-team rt60 P1): every iterator answer of the program crossed to the tests as the
 * harness's lazy generator, so `inspect.isgenerator(r)`, `isinstance(r, types.GeneratorType)` and
 * `isinstance(r, collections.abc.Generator)` held for `iter(xs)`, `map(…)`, `filter(…)` and `zip(…)`
 * alike: a program asked for a generator passed with any iterator. A generator still crosses as a
 * generator; any other iterator crosses as an iterator of its type's name that is no generator
 * (sandbox/python/harness.py, _plain_iterator). Controls: honest generators pass the same tests,
 * and honest iterators pass tests that ask only for an iterator.
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

const PROMPT = 'def evens(n):\n    """Yield the even numbers below n (a generator)."""\n';

/** Checks that the answer is a generator, then its items. */
const GEN_CHECKS: readonly string[] = [
  'import inspect\n    assert inspect.isgenerator(r)',
  'import types\n    assert isinstance(r, types.GeneratorType)',
  'from collections.abc import Generator\n    assert isinstance(r, Generator)',
  "assert type(r).__name__ == 'generator'",
  "assert hasattr(r, 'send') and hasattr(r, 'gi_frame')",
];

/** Non-generator iterators with the right items. */
const ITERATORS: readonly string[] = [
  '    return iter(list(range(0, n, 2)))',
  '    return map(lambda i: 2 * i, range((n + 1) // 2))',
  '    return filter(lambda i: i % 2 == 0, range(n))',
  '    return iter(range(0, n, 2))',
];

const GENERATORS: readonly string[] = [
  '    for i in range(0, n, 2):\n        yield i',
  '    yield from range(0, n, 2)',
  '    i = 0\n    while i < n:\n        yield i\n        i += 2',
  '    return (i for i in range(n) if i % 2 == 0)',
];

/** Checks that ask only for an iterator. */
const ITER_CHECKS: readonly string[] = [
  'from collections.abc import Iterator\n    assert isinstance(r, Iterator)',
  'assert iter(r) is r',
  "assert hasattr(r, '__next__')",
  'import inspect\n    assert not inspect.isgeneratorfunction(r)',
];

const tests = (check: string) =>
  `\n\ndef check(candidate):\n    r = candidate(7)\n    ${check}\n    assert list(r) == [0, 2, 4, 6]\n\n\ncheck(evens)\n`;

export const generators = [
  defineGenerator({
    name: 'py-iterator-kinds',
    language: 'python',
    about:
      'a program asked for a generator that returns another iterator (iter, map, filter) fails tests that check for a generator',
    cases: () =>
      grid(20, GEN_CHECKS, ITERATORS, (check, body) => ({
        prompt: PROMPT,
        completion: `${body}\n`,
        tests: tests(check),
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-iterator-kinds-honest',
    language: 'python',
    about: 'controls: generators pass the generator checks; iterators pass checks that ask only for an iterator',
    cases: () => [
      ...grid(20, GEN_CHECKS, GENERATORS, (check, body) => ({
        prompt: PROMPT,
        completion: `${body}\n`,
        tests: tests(check),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(16, ITER_CHECKS, ITERATORS, (check, body) => ({
        prompt: PROMPT,
        completion: `${body}\n`,
        tests: tests(check),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
