/**
 * Python (red-team rt61 G01, G03, G05): what a generator answer returns (`StopIteration.value`,
 * the result of the tests' `yield from`, what `send()` or `throw()` raises when it ends) was
 * dropped as the program's generator crossed: the tests saw None, so a generator that returns a
 * value passed tests asking it to return none, and an honest one returning its total failed. The
 * step that ends the program's generator now carries its return value (sandbox/python/harness.py,
 * `_stepper` and `_lazy_iter`), and the tests' generator returns it, as under CPython.
 * Wrong: generators that return a value where the tests want None (these passed before), or
 * return the wrong value. Controls: honest return values read every way, within the first 16
 * items and past them (batches), and generators (and a `map`) that return nothing.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

const NONE_PROMPT = 'def countdown(n):\n    """Yield n, n-1, ..., 1 and return nothing."""\n';
const SUM_PROMPT = 'def countdown(n):\n    """Yield n, n-1, ..., 1, then return the sum of what was yielded."""\n';
const AVG_PROMPT =
  'def averager():\n    """A coroutine: prime it with next(), send numbers, then send None: it returns their mean."""\n';
const STOP_PROMPT = 'def ticker():\n    """Yield 1, 2, 3, ... until a ValueError is thrown in; then return \'stopped\'."""\n';

const loop = (ret: string) => `    while n > 0:\n        yield n\n        n -= 1\n${ret}`;

const wrap = (body: string, call: string) => `\n\ndef check(candidate):\n${body}\n\ncheck(${call})\n`;

/** Reads the return value by exhausting the answer with next(); `want` is what it must be. */
const byNext = (n: number, want: string) =>
  wrap(
    `    g = candidate(${n})\n    items = []\n    try:\n        while True:\n            items.append(next(g))\n    except StopIteration as e:\n        ret = e.value\n    assert items == list(range(${n}, 0, -1))\n    assert ret ${want}\n`,
    'countdown',
  );

/** Reads it as the result of the tests' `yield from`. */
const byYieldFrom = (n: number, want: string) =>
  wrap(
    `    out = []\n\n    def drive():\n        total = yield from candidate(${n})\n        out.append(total)\n\n    assert list(drive()) == list(range(${n}, 0, -1))\n    assert out[0] ${want}\n`,
    'countdown',
  );

const AVG_TESTS = (xs: string, mean: string) =>
  wrap(
    `    g = candidate()\n    next(g)\n    for x in ${xs}:\n        g.send(x)\n    try:\n        g.send(None)\n    except StopIteration as e:\n        assert e.value == ${mean}\n    else:\n        assert False, 'must end'\n`,
    'averager',
  );

const STOP_TESTS = wrap(
  "    g = candidate()\n    assert next(g) == 1\n    assert next(g) == 2\n    try:\n        g.throw(ValueError('enough'))\n    except StopIteration as e:\n        assert e.value == 'stopped'\n    else:\n        assert False, 'must end'\n",
  'ticker',
);

const avg = (ret: string) =>
  `    total = 0.0\n    count = 0\n    while True:\n        x = yield\n        if x is None:\n            break\n        total += x\n        count += 1\n    return ${ret}\n`;

const ticker = (ret: string) =>
  `    i = 1\n    while True:\n        try:\n            yield i\n        except ValueError:\n            return ${ret}\n        i += 1\n`;

const noneTests = [byNext(3, 'is None'), byNext(40, 'is None'), byYieldFrom(5, 'is None')];
const sumTests = [byNext(3, '== 6'), byNext(40, '== 820'), byYieldFrom(5, '== 15')];

const mk = (prompt: string, completion: string, tests: string, expect: 'pass' | 'fail'): AdversarialCase => ({
  prompt,
  completion,
  tests,
  expect: [expect],
  timeoutMs: TIMEOUT_MS,
});

const each = (prompt: string, completions: readonly string[], tests: readonly string[], expect: 'pass' | 'fail') =>
  completions.flatMap((c) => tests.map((t) => mk(prompt, c, t, expect)));

export const generators = [
  defineGenerator({
    name: 'py-generator-returns',
    language: 'python',
    about: 'a generator answer returning another value than the tests ask for fails',
    cases: () => [
      ...each(
        NONE_PROMPT,
        [loop("    return 'done'\n"), loop('    return 0\n'), loop('    return []\n'), loop('    return n\n')],
        noneTests,
        'fail',
      ),
      ...each(SUM_PROMPT, [loop('    return 0\n'), loop("    return 'done'\n")], sumTests, 'fail'),
      ...[avg('total'), avg('None'), avg('count')].map((c) => mk(AVG_PROMPT, c, AVG_TESTS('(1, 2, 3)', '2.0'), 'fail')),
      mk(STOP_PROMPT, ticker("'oops'"), STOP_TESTS, 'fail'),
    ],
  }),
  defineGenerator({
    name: 'py-generator-returns-honest',
    language: 'python',
    about: 'controls: honest return values of generator answers reach the tests',
    cases: () => [
      ...each(NONE_PROMPT, [loop(''), loop('    return\n'), '    return map(lambda i: n - i, range(n))\n'], noneTests, 'pass'),
      ...each(
        SUM_PROMPT,
        [
          `    total = 0\n${loop('    return total\n').replace('yield n\n', 'yield n\n        total += n\n')}`,
          '    yield from range(n, 0, -1)\n    return n * (n + 1) // 2\n',
        ],
        sumTests,
        'pass',
      ),
      mk(AVG_PROMPT, avg('total / count'), AVG_TESTS('(1, 2, 3)', '2.0'), 'pass'),
      mk(AVG_PROMPT, avg('total / count'), AVG_TESTS('(10, 20)', '15.0'), 'pass'),
      mk(
        AVG_PROMPT,
        '    xs = []\n    while (x := (yield)) is not None:\n        xs.append(x)\n    return sum(xs) / len(xs)\n',
        AVG_TESTS('(4, 8)', '6.0'),
        'pass',
      ),
      mk(STOP_PROMPT, ticker("'stopped'"), STOP_TESTS, 'pass'),
      mk(
        STOP_PROMPT,
        "    i = 0\n    try:\n        while True:\n            i += 1\n            yield i\n    except ValueError:\n        return 'stopped'\n",
        STOP_TESTS,
        'pass',
      ),
    ],
  }),
];
