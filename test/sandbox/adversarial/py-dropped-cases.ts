/**
 * Python: a quiet loop of the tests (no assert, marker or raise of its own) that collects answers
 * in a `try` with no handler whose `finally` jumps out (`finally: continue`, a `break`, in a
 * helper that returns what it collected): the jump drops what the program raised, and the asserts
 * elsewhere judge the rest. Each passed a wrong program before (a fresh hostile pass, 2026-12-06,
 * rt55 F01); such a `try` now drops cases as a swallowing handler does. Attacks: not a pass.
 * Controls: honest programs under the same tests, and honest tests near the rules tried and
 * withdrawn this stop (a handler that removes the case to record its raise, then checks the list;
 * a helper raising its own error from the program's for a must-raise check: rt56 F07b, F08b).
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const CASES = 'cases = [(1, 1), (2, 4), (3, 9), (50, 2500), (70, 4900)]\n';
const CHECK_LIST = 'for g, w in got:\n    assert g == w\n';

/** Tests whose collecting loop drops a case the program raised on. */
const DROPPING: readonly string[] = [
  `${CASES}got = []\nfor n, w in cases:\n    try:\n        got.append((sq(n), w))\n    finally:\n        continue\n${CHECK_LIST}`,
  `${CASES}got = []\ni = 0\nwhile i < len(cases):\n    n, w = cases[i]\n    i += 1\n    try:\n        got.append((sq(n), w))\n    finally:\n        if i <= len(cases):\n            continue\n${CHECK_LIST}`,
  `${CASES}got = []\nfor n, w in cases:\n    try:\n        got.append((sq(n), w))\n    finally:\n        if n == cases[-1][0]:\n            break\n${CHECK_LIST}`,
  `${CASES}def collect():\n    got = []\n    for n, w in cases:\n        try:\n            got.append((sq(n), w))\n        finally:\n            continue\n    return got\n\nfor g, w in collect():\n    assert g == w\n`,
];

/** Honest tests near these shapes: removing a case to record its raise, a helper wrapping the error for a must-raise check. */
const HONEST_SHAPES: readonly string[] = [
  'remaining = [1, 2, -1, 3]\nresults = {}\nfor n in list(remaining):\n    try:\n        results[n] = sq(n)\n    except ValueError:\n        remaining.remove(n)\nassert remaining == [1, 2, 3]\nassert results == {1: 1, 2: 4, 3: 9}\n',
  "class Invalid(Exception):\n    pass\n\ndef sq_all(xs):\n    out = []\n    for x in xs:\n        try:\n            out.append(sq(x))\n        except ValueError as e:\n            raise Invalid(x) from e\n    return out\n\ntry:\n    sq_all([1, -1])\nexcept Invalid:\n    pass\nelse:\n    assert False, 'should raise'\nassert sq_all([1, 2, 3]) == [1, 4, 9]\n",
];

const WRONG = [
  "def sq(n):\n    if n > 10:\n        raise ValueError('too big')\n    return n * n\n",
  'def sq(n):\n    if n > 60:\n        raise ValueError(n)\n    return n * n\n',
];
const HONEST = 'def sq(n):\n    return n * n\n';
const HONEST_NEG = "def sq(n):\n    if n < 0:\n        raise ValueError('neg')\n    return n * n\n";

export const generators = [
  defineGenerator({
    name: 'py-dropped-cases',
    language: 'python',
    about: 'wrong programs whose errors a quiet loop drops through a finally that jumps (continue, break): fail',
    cases: () =>
      grid(
        20,
        DROPPING,
        [...WRONG, `${WRONG[0]}# again\n`, `${WRONG[1]}# again\n`, `${WRONG[0]}# twice\n`],
        (tests, completion) => ({
          prompt: '',
          completion,
          tests,
          expect: ['fail', 'error'],
          timeoutMs: TIMEOUT_MS,
        }),
      ),
  }),
  defineGenerator({
    name: 'py-dropped-cases-honest',
    language: 'python',
    about:
      'controls: honest programs under the same tests, and honest tests that record a raise by removing the case or wrap it for a must-raise check, pass',
    cases: () => [
      ...grid(20, DROPPING, [0, 1, 2, 3, 4], (tests, i) => ({
        prompt: '',
        completion: `${HONEST}${'\n'.repeat(i)}`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(10, HONEST_SHAPES, [0, 1, 2, 3, 4], (tests, i) => ({
        prompt: '',
        completion: `${HONEST_NEG}${'\n'.repeat(i)}`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
