/**
 * Python: answers collected in one loop of the tests and asserted in another, with the exceptions
 * of the program swallowed while collecting. A loop that holds no assert (`for n, w in cases: try:
 * got.append((sq(n), w)) except ValueError: continue`, then `for g, w in got: assert g == w`)
 * dropped every case the program raised on, so a program raising on the hard cases passed on the
 * easy ones (a limit listed in docs/sandbox.md until now). Now an exception of the program that
 * came in inside a quiet loop of the tests (no assert, failure marker or `raise` in it; a
 * comprehension too) and that a handler which only leaves or logs took (or a `suppress` dropped) fails every assert that
 * recorded after it. Attacks: fail with nothing passed. Controls: honest programs under the same
 * tests pass, as do handlers that record the case (a stand-in appended, a flag set, the exception
 * kept and counted) and "must raise" loops that `raise` when the program accepts a bad input.
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

const PROMPT = 'def sq(n):\n    """n squared (ValueError for a negative n)."""\n';
const CASES = '[(2, 4), (3, 9), (7, 49), (9, 81)]';
const CHECK = '    for g, w in got:\n        assert g == w\n';

/** Loops that collect answers, swallowing what the program raises, and asserts of what they kept. */
const COLLECTING: readonly string[] = [
  `def check(candidate):\n    got = []\n    for n, w in ${CASES}:\n        try:\n            got.append((candidate(n), w))\n        except (ValueError, ArithmeticError, KeyError, TypeError):\n            continue\n${CHECK}\ncheck(sq)\n`,
  `def check(candidate):\n    got = []\n    try:\n        for n, w in ${CASES}:\n            got.append((candidate(n), w))\n    except Exception:\n        pass\n${CHECK}\ncheck(sq)\n`,
  `def check(candidate):\n    got = []\n    try:\n        got = [(candidate(n), w) for n, w in ${CASES}]\n    except Exception as e:\n        print('skipped:', e)\n    assert all(g == w for g, w in got)\n\ncheck(sq)\n`,
  `def check(candidate):\n    cases = ${CASES}\n    got = []\n    i = 0\n    while i < len(cases):\n        n, w = cases[i]\n        i += 1\n        try:\n            got.append((candidate(n), w))\n        except Exception:\n            pass\n${CHECK}\ncheck(sq)\n`,
  `def check(candidate):\n    got = []\n    for n, w in ${CASES}:\n        try:\n            got.append((candidate(n), w))\n        except Exception:\n            break\n${CHECK}\ncheck(sq)\n`,
  `def check(candidate):\n    got = {}\n    try:\n        got = {n: (candidate(n), w) for n, w in ${CASES}}\n    except Exception:\n        'the rest are checked below'\n    for n, (g, w) in got.items():\n        assert g == w, n\n\ncheck(sq)\n`,
  `import contextlib\n\n\ndef check(candidate):\n    got = []\n    for n, w in ${CASES}:\n        with contextlib.suppress(Exception):\n            got.append((candidate(n), w))\n${CHECK}\ncheck(sq)\n`,
  `import sys\n\n\ndef check(candidate):\n    got = []\n    for n, w in ${CASES}:\n        try:\n            got.append((candidate(n), w))\n        except Exception as e:\n            sys.stderr.write('skipped %s: %s\\n' % (n, e))\n${CHECK}\ncheck(sq)\n`,
  `def collect(candidate, cases):\n    out = []\n    for n, w in cases:\n        try:\n            out.append((candidate(n), w))\n        except Exception:\n            pass\n    return out\n\n\ndef check(candidate):\n    for g, w in collect(candidate, ${CASES}):\n        assert g == w\n\ncheck(sq)\n`,
];

/** How an attack raises on the hard cases (n > 5); it answers the easy ones. */
const RAISES = ["raise ValueError('too hard')", 'return 1 // 0', "return {}['k']", "raise TypeError('no')"];
const HONEST = "    if n < 0:\n        raise ValueError('negative')\n    return n * n\n";

/** Honest tests whose quiet loop's handler records the case, or whose loop judges it itself. */
const RECORDING: readonly string[] = [
  'def check(candidate):\n    got = []\n    for n in [2, -1, 3]:\n        try:\n            got.append(candidate(n))\n        except ValueError:\n            got.append(None)\n    assert got == [4, None, 9]\n\ncheck(sq)\n',
  "def check(candidate):\n    for n in [-1, -2]:\n        try:\n            candidate(n)\n        except ValueError:\n            continue\n        raise AssertionError('accepted %d' % n)\n    assert candidate(3) == 9\n\ncheck(sq)\n",
  'def check(candidate):\n    errs = []\n    for n in [2, -1, -5]:\n        try:\n            candidate(n)\n        except ValueError as e:\n            errs.append(e)\n    assert len(errs) == 2\n    assert all(isinstance(e, ValueError) for e in errs)\n\ncheck(sq)\n',
  'def check(candidate):\n    bad = 0\n    for n in [2, -1, 3]:\n        try:\n            candidate(n)\n        except ValueError:\n            bad += 1\n    assert bad == 1\n\ncheck(sq)\n',
  "def check(candidate):\n    for n in [-1, -2]:\n        try:\n            candidate(n)\n            assert False, 'accepted'\n        except ValueError:\n            pass\n    assert candidate(4) == 16\n\ncheck(sq)\n",
];

export const generators = [
  defineGenerator({
    name: 'py-swallowed-collections',
    language: 'python',
    about: 'a quiet loop collects answers and swallows the exceptions of the hard cases, another loop asserts what it kept: fail',
    cases: () =>
      grid(36, COLLECTING, RAISES, (tests, how) => ({
        prompt: PROMPT,
        completion: `    if n > 5:\n        ${how}\n    return n * n\n`,
        tests,
        expect: ['fail'],
        maxPassed: 0,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-swallowed-collections-honest',
    language: 'python',
    about:
      'controls: honest programs under the same loops, and quiet loops whose handler records the case (stand-in, flag, kept exception, counter) or that raise when a bad input is accepted, pass',
    cases: () => [
      ...grid(18, COLLECTING, [0, 1], (tests, i) => ({
        prompt: PROMPT,
        completion: HONEST + (i ? '    # 1\n' : ''),
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(15, RECORDING, [0, 1, 2], (tests, i) => ({
        prompt: PROMPT,
        completion: `${HONEST}    # ${i}\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
