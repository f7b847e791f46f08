/**
 * Python (red-team rt60 P2): the tests' `send()`, `throw()` and `close()` on a generator answer
 * acted on the tests' stand-in and never reached the program's generator: a generator that
 * swallows a thrown error (and keeps yielding) or yields on GeneratorExit passed tests checking it
 * does not, `send()` gave the program None (a coroutine-style accumulator failed), and an honest
 * generator catching a thrown error to reset was an `error`. They now reach it where it stands as
 * the tests do (sandbox/python/harness.py, _lazy_iter and _stepper). Controls pass; wrong twins
 * fail (or are an `error` where CPython's close() raises RuntimeError).
 */
import { defineGenerator, grid } from './framework.ts';

const TIMEOUT_MS = 8000;

interface Task {
  prompt: string;
  honest: readonly string[];
  wrong: readonly string[];
  tests: (v: number) => string;
}

const TASKS: readonly Task[] = [
  {
    prompt: 'def running_total():\n    """Coroutine: yields the running total of the numbers sent to it (starting at 0)."""\n',
    honest: [
      '    total = 0\n    while True:\n        x = yield total\n        if x is not None:\n            total += x\n',
      '    total = 0\n    x = yield total\n    while True:\n        total += x or 0\n        x = yield total\n',
    ],
    wrong: [
      '    total = 0\n    while True:\n        x = yield total\n        total += 1\n',
      '    while True:\n        yield 0\n',
    ],
    tests: (v) =>
      `\n\ndef check(candidate):\n    g = candidate()\n    assert next(g) == 0\n    assert g.send(${5 + v}) == ${5 + v}\n    assert g.send(3) == ${8 + v}\n    assert g.send(-8) == ${v}\n\n\ncheck(running_total)\n`,
  },
  {
    prompt:
      'def countdown(n):\n    """Yield n, n-1, ..., 1. An error thrown into it is not caught: it propagates to the caller."""\n',
    honest: ['    while n > 0:\n        yield n\n        n -= 1\n', '    yield from range(n, 0, -1)\n'],
    wrong: [
      '    while n > 0:\n        try:\n            yield n\n        except ValueError:\n            pass\n        n -= 1\n',
      '    for i in range(n, 0, -1):\n        try:\n            yield i\n        except Exception:\n            yield -1\n',
    ],
    tests: (v) =>
      `\n\ndef check(candidate):\n    g = candidate(${3 + v})\n    assert next(g) == ${3 + v}\n    try:\n        g.throw(ValueError('stop'))\n    except ValueError:\n        pass\n    else:\n        raise AssertionError('the error was swallowed')\n    assert list(g) == []\n\n\ncheck(countdown)\n`,
  },
  {
    prompt: 'def ticks(n):\n    """Yield 0..n-1; closing it early ends it cleanly (it never yields after GeneratorExit)."""\n',
    honest: [
      '    for i in range(n):\n        yield i\n',
      '    i = 0\n    try:\n        while i < n:\n            yield i\n            i += 1\n    finally:\n        i = -1\n',
    ],
    wrong: [
      '    for i in range(n):\n        try:\n            yield i\n        except GeneratorExit:\n            yield -1\n',
      '    i = 0\n    while i < n:\n        try:\n            yield i\n        except BaseException:\n            pass\n        i += 1\n',
    ],
    tests: (v) =>
      `\n\ndef check(candidate):\n    g = candidate(${5 + v})\n    assert next(g) == 0\n    assert next(g) == 1\n    g.close()\n    assert list(g) == []\n\n\ncheck(ticks)\n`,
  },
  {
    prompt:
      'def cycle_reset(xs):\n    """Yield the items of xs in a loop; a ValueError thrown into it restarts from the first item."""\n',
    honest: [
      '    i = 0\n    while True:\n        try:\n            yield xs[i % len(xs)]\n            i += 1\n        except ValueError:\n            i = 0\n',
    ],
    wrong: [
      '    i = 0\n    while True:\n        try:\n            yield xs[i % len(xs)]\n        except ValueError:\n            pass\n        i += 1\n',
    ],
    tests: (v) =>
      `\n\ndef check(candidate):\n    g = candidate([${7 + v}, 8, 9])\n    assert next(g) == ${7 + v}\n    assert next(g) == 8\n    assert g.throw(ValueError('again')) == ${7 + v}\n    assert next(g) == 8\n\n\ncheck(cycle_reset)\n`,
  },
];

const honestCases = TASKS.flatMap((t) => t.honest.map((completion) => ({ t, completion })));
const wrongCases = TASKS.flatMap((t) => t.wrong.map((completion) => ({ t, completion })));

export const generators = [
  defineGenerator({
    name: 'py-generator-control',
    language: 'python',
    about:
      "wrong generators (swallowing thrown errors, yielding on GeneratorExit, ignoring sent values) fail under the tests' send/throw/close",
    cases: () =>
      grid(21, wrongCases, [0, 1, 2], ({ t, completion }, v) => ({
        prompt: t.prompt,
        completion,
        tests: t.tests(v),
        expect: ['fail', 'error'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-generator-control-honest',
    language: 'python',
    about: "controls: honest generators driven by the tests' send/throw/close pass",
    cases: () =>
      grid(21, honestCases, [0, 1, 2], ({ t, completion }, v) => ({
        prompt: t.prompt,
        completion,
        tests: t.tests(v),
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
