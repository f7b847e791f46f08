/**
 * Python: a quiet loop of the tests (no assert, marker or raise of its own) that collects answers
 * and drops the cases the program raised on in three more ways — a `try` with no handler whose
 * `finally` jumps out (`finally: continue`), a handler that removes the case from the tests' own
 * bookkeeping (`got.pop(n, None)`, `pending.remove(n)`, `del got[n]`), or a handler that raises
 * the tests' own exception in its place (`raise Skip() from e`) for an outer handler to swallow.
 * Each passed a wrong program before (a fresh hostile pass, 2026-12-06, rt55 F01/F05/F06); they
 * are now dropped cases as a swallowing handler's are. Attacks: fail. Controls: honest programs
 * under the same tests pass.
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
  `${CASES}got = {}\nfor n, w in cases:\n    try:\n        got[n] = sq(n)\n    except ValueError:\n        got.pop(n, None)\nfor n, w in cases:\n    if n in got:\n        assert got[n] == w\n`,
  `${CASES}got = {}\nfor n, w in cases:\n    got[n] = None\n    try:\n        got[n] = sq(n)\n    except ValueError:\n        del got[n]\nfor n, w in cases:\n    if n in got:\n        assert got[n] == w\n`,
  `${CASES}pending = [n for n, _ in cases]\ngot = []\nfor n, w in cases:\n    try:\n        got.append((sq(n), w))\n    except ValueError:\n        pending.remove(n)\n${CHECK_LIST}`,
  `${CASES}class Skip(Exception):\n    pass\n\ngot = []\nfor n, w in cases:\n    try:\n        try:\n            got.append((sq(n), w))\n        except ValueError as e:\n            raise Skip() from e\n    except Skip:\n        pass\n${CHECK_LIST}`,
  `${CASES}class Skip(Exception):\n    pass\n\ngot = []\nfor n, w in cases:\n    try:\n        try:\n            got.append((sq(n), w))\n        except ValueError:\n            raise Skip(n)\n    except Skip:\n        continue\n${CHECK_LIST}`,
];

const WRONG = [
  "def sq(n):\n    if n > 10:\n        raise ValueError('too big')\n    return n * n\n",
  'def sq(n):\n    if n > 60:\n        raise ValueError(n)\n    return n * n\n',
];
const HONEST = 'def sq(n):\n    return n * n\n';

export const generators = [
  defineGenerator({
    name: 'py-dropped-cases',
    language: 'python',
    about: 'wrong programs whose errors a quiet loop drops (finally jump, removing handler, replaced and swallowed): fail',
    cases: () =>
      grid(21, DROPPING, [...WRONG, `${WRONG[0]}# again\n`], (tests, completion) => ({
        prompt: '',
        completion,
        tests,
        expect: ['fail'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-dropped-cases-honest',
    language: 'python',
    about: 'controls: honest programs under the same tests pass',
    cases: () =>
      grid(21, DROPPING, [0, 1, 2], (tests, i) => ({
        prompt: '',
        completion: `${HONEST}${'\n'.repeat(i)}`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
  }),
];
