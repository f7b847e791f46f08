/**
 * Python (red-team rt61 ST01): a StopIteration the program let escape a plain call arrived in the
 * tests as a RuntimeError (so that it could not end an iteration of theirs: py-boundary-doors'
 * `all(map(lambda t: c(t[0]) == t[1], cases))`), and tests asking for a RuntimeError passed a
 * program that never raised one — under CPython the tests see the StopIteration (it becomes a
 * RuntimeError only when it leaves a generator's frame, PEP 479). It now arrives as itself
 * (sandbox/python/harness.py, `_came_in`); one that no handler of the tests takes — it ended a
 * `map`, a `for` over their iterator — fails the run, with every site that recorded after it.
 * Wrong: StopIteration escaping under tests that want RuntimeError, or that iterate over the
 * calls (CPython fails or errors). Controls: the tests catching StopIteration, a generator of the
 * tests turning it into RuntimeError, and programs raising RuntimeError themselves.
 */
import { type AdversarialCase, defineGenerator } from './framework.ts';

const TIMEOUT_MS = 8000;

const PROMPT = 'def first(xs):\n    """Return the first item of xs; raise RuntimeError when xs is empty."""\n';

/** Programs that let a StopIteration escape for an empty list. */
const ESCAPING: readonly string[] = [
  '    return next(iter(xs))\n',
  '    it = iter(xs)\n    return next(it)\n',
  '    if not xs:\n        raise StopIteration\n    return xs[0]\n',
  "    if not xs:\n        raise StopIteration('empty')\n    return xs[0]\n",
  '    class Done(StopIteration):\n        pass\n\n    if not xs:\n        raise Done()\n    return xs[0]\n',
  '    return next(x for x in xs)\n',
];

const wrap = (body: string) => `\n\ndef check(candidate):\n    assert candidate([4, 5]) == 4\n${body}\n\ncheck(first)\n`;

const WANT_RUNTIME: readonly string[] = [
  wrap('    try:\n        candidate([])\n    except RuntimeError:\n        pass\n    else:\n        assert False\n'),
  wrap(
    '    def raises():\n        try:\n            candidate([])\n        except RuntimeError:\n            return True\n        except StopIteration:\n            return False\n        return False\n\n    assert raises()\n',
  ),
  wrap(
    '    try:\n        candidate([])\n        ok = False\n    except (RuntimeError, ValueError):\n        ok = True\n    except Exception:\n        ok = False\n    assert ok\n',
  ),
  wrap(
    '    class Cases:\n        def __init__(self):\n            self.i = 0\n\n        def __iter__(self):\n            return self\n\n        def __next__(self):\n            self.i += 1\n            if self.i > 3:\n                raise StopIteration\n            return candidate([] if self.i == 2 else [self.i])\n\n    got = [v for v in Cases()]\n    assert len(got) == 3\n',
  ),
];

const CATCH_STOP: readonly string[] = [
  wrap('    try:\n        candidate([])\n    except StopIteration:\n        pass\n    else:\n        assert False\n'),
  wrap(
    '    try:\n        candidate([])\n    except Exception as e:\n        assert isinstance(e, StopIteration)\n    else:\n        assert False\n',
  ),
];

const PEP479 = wrap(
  '    def gen():\n        yield candidate([])\n\n    try:\n        list(gen())\n    except RuntimeError:\n        pass\n    else:\n        assert False\n',
);

const RAISING: readonly string[] = [
  "    if not xs:\n        raise RuntimeError('empty')\n    return xs[0]\n",
  "    try:\n        return next(iter(xs))\n    except StopIteration:\n        raise RuntimeError('empty') from None\n",
];

const mk = (completion: string, tests: string, expect: AdversarialCase['expect']): AdversarialCase => ({
  prompt: PROMPT,
  completion,
  tests,
  expect,
  timeoutMs: TIMEOUT_MS,
});

const across = (completions: readonly string[], tests: readonly string[], expect: AdversarialCase['expect']) =>
  completions.flatMap((c) => tests.map((t) => mk(c, t, expect)));

export const generators = [
  defineGenerator({
    name: 'py-stopiteration-calls',
    language: 'python',
    about: 'a StopIteration escaping a call is no RuntimeError, and cannot end the tests’ iteration',
    cases: () => across(ESCAPING, WANT_RUNTIME, ['fail', 'error']),
  }),
  defineGenerator({
    name: 'py-stopiteration-calls-honest',
    language: 'python',
    about: 'controls: tests catching StopIteration, PEP 479 in the tests, programs raising RuntimeError',
    cases: () => [
      ...across(ESCAPING, CATCH_STOP, ['pass']),
      ...across(RAISING, WANT_RUNTIME.slice(0, 2), ['pass']),
      ...across(ESCAPING.slice(0, 3), [PEP479], ['pass']),
      mk('    return next(iter(xs), None)\n', wrap('    assert candidate([]) is None\n'), ['pass']),
    ],
  }),
];
