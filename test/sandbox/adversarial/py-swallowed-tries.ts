/**
 * Python: answers stored into a collection inside a `try` whose handler only leaves or reports,
 * outside any quiet loop — written out case by case, in a recursive walk, or in a loop that also
 * raises (or holds a failure marker) to validate its own case table — then checked elsewhere.
 * Only quiet loops were seen, so each of these dropped the hard cases unseen (a fresh hostile
 * pass, 2026-12-06: all passing at 92e0fa4). Such a `try` is now quiet as such a loop is.
 * Attacks: fail with nothing passed. Controls: honest programs under the same tests; "must raise"
 * tests that keep the call's value in a plain name; handlers that record a stand-in.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines. */
const TIMEOUT_MS = 8000;

const CASES = 'cases = [(2, 4), (3, 9), (50, 2500), (60, 3600)]\ngot = []\n';
const CHECK = 'for g, w in got:\n    assert g == w\n';

/** Tests that collect inside a swallowing `try` outside a quiet loop. */
const COLLECTING: readonly string[] = [
  `${CASES}try:\n    got.append((sq(2), 4))\nexcept ValueError:\n    pass\ntry:\n    got.append((sq(50), 2500))\nexcept ValueError as e:\n    print(e)\n${CHECK}`,
  `${CASES}def collect(i):\n    if i == len(cases):\n        return\n    try:\n        got.append((sq(cases[i][0]), cases[i][1]))\n    except ValueError:\n        pass\n    collect(i + 1)\n\n\ncollect(0)\n${CHECK}`,
  `${CASES}for n, w in cases:\n    if not isinstance(n, int):\n        raise TypeError('bad case')\n    try:\n        got.append((sq(n), w))\n    except ValueError:\n        pass\n${CHECK}`,
  `${CASES}for n, w in cases:\n    if w is None:\n        assert False, 'case without expectation'\n    try:\n        got.append((sq(n), w))\n    except ValueError:\n        continue\n${CHECK}`,
  'want = {2: 4, 50: 2500}\nout = {}\ntry:\n    out[2] = sq(2)\nexcept ValueError:\n    pass\ntry:\n    out[50] = sq(50)\nexcept ValueError:\n    pass\nfor k in out:\n    assert out[k] == want[k]\n',
  "seen = set()\nfor n in [2, 50, 3]:\n    if n < 0:\n        raise ValueError('bad case')\n    try:\n        seen.add((n, sq(n)))\n    except ValueError:\n        pass\nfor n, v in seen:\n    assert v == n * n\n",
];

/** Honest tests that keep a call's value in a plain name, or record a stand-in. */
const HONEST_SHAPES: readonly string[] = [
  "for n in [-1, -2]:\n    try:\n        r = sq(n)\n    except ValueError:\n        continue\n    raise AssertionError('accepted %d: %r' % (n, r))\nassert sq(3) == 9\n",
  'got = []\ntry:\n    got.append(sq(2))\nexcept ValueError:\n    got.append(None)\ntry:\n    got.append(sq(-1))\nexcept ValueError:\n    got.append(None)\nassert got == [4, None]\n',
  'r = 0\ntry:\n    r = sq(-1)\nexcept ValueError:\n    pass\nassert r == 0\nassert sq(5) == 25\n',
];

const RAISES = ["raise ValueError('too big')", 'raise ValueError(n)'];
const HONEST = "def sq(n):\n    if n < 0:\n        raise ValueError('negative')\n    return n * n\n";

export const generators = [
  defineGenerator({
    name: 'py-swallowed-tries',
    language: 'python',
    about: 'answers stored inside a swallowing try outside a quiet loop (case by case, recursion, a validating loop): fail',
    cases: () =>
      grid(24, COLLECTING, [...RAISES, ...RAISES], (tests, how, i) => ({
        prompt: '',
        completion: `def sq(n):\n    if n > 10:\n        ${how}\n    return n * n\n${i >= 12 ? '# again\n' : ''}`,
        tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-swallowed-tries-honest',
    language: 'python',
    about:
      'controls: honest programs under the same tests, must-raise tests keeping the value in a name, handlers recording a stand-in',
    cases: () => [
      ...grid(12, COLLECTING, [0, 1], (tests, i) => ({
        prompt: '',
        completion: HONEST + (i ? '# 1\n' : ''),
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(9, HONEST_SHAPES, [0, 1, 2], (tests, i) => ({
        prompt: '',
        completion: `${HONEST}# ${i}\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
