/**
 * Python: a caught exception in a loop pass that ran an assert before the exception came in. The
 * rule for a caught exception in a pass (py-caught-passes.ts) let a pass that had run any of the
 * loop's asserts keep its cases' passes, so tests that assert something of the case first (`assert
 * n >= 0`, an assert of an earlier call), then catch what the program raises and go on past the
 * assert of its answer, kept the easy cases' pass for a program raising on the hard ones. Now a
 * pass judges its case only by an assert that ran after the exception came in, or when no assert
 * of the loop written after where it came in was skipped. Attacks: fail with at most the asserts
 * that ran before passed. Controls: honest programs under the same tests pass, as do loops that
 * assert on a good input and expect a bad one to raise (a failure marker after the `try`, or an
 * assert in the `except`).
 */
import { defineGenerator, grid } from './framework.ts';

/** Generous per-program limit: the suite runs on loaded CI machines and none of these cases loops. */
const TIMEOUT_MS = 8000;

const PROMPT = 'def sq(n):\n    """n squared (ValueError for a negative n)."""\n';
const CASES = '[(2, 4), (3, 9), (7, 49), (9, 81)]';

/** Loops that assert something first, then catch the program's exception and go on. */
const LOOPS: readonly string[] = [
  `def check(candidate):\n    for n, e in ${CASES}:\n        assert n >= 0\n        try:\n            r = candidate(n)\n        except Exception:\n            continue\n        assert r == e\n\ncheck(sq)\n`,
  `def check(candidate):\n    for n, e in ${CASES}:\n        assert candidate(1) == 1\n        ok = True\n        try:\n            r = candidate(n)\n        except Exception:\n            ok = False\n        if ok:\n            assert r == e\n\ncheck(sq)\n`,
  `import contextlib\n\n\ndef check(candidate):\n    for n, e in ${CASES}:\n        assert isinstance(n, int)\n        r = None\n        with contextlib.suppress(Exception):\n            r = candidate(n)\n        if r is None:\n            continue\n        assert r == e\n\ncheck(sq)\n`,
  `def check(candidate):\n    i = 0\n    cases = ${CASES}\n    while i < len(cases):\n        n, e = cases[i]\n        i += 1\n        assert n > 0\n        try:\n            r = candidate(n)\n        except (ValueError, ArithmeticError, KeyError):\n            continue\n        assert r == e\n\ncheck(sq)\n`,
  `def attempt(f, x):\n    try:\n        return True, f(x)\n    except Exception:\n        return False, None\n\n\ndef check(candidate):\n    for n, e in ${CASES}:\n        assert type(n) is int\n        ok, r = attempt(candidate, n)\n        if not ok:\n            continue\n        assert r == e\n\ncheck(sq)\n`,
];

/** How an attack raises on the hard cases (n > 5); it answers the easy ones. */
const RAISES = ["raise ValueError('too hard')", 'return 1 // 0', "return {}['k']", "raise ValueError('no')"];
const HONEST = "    if n < 0:\n        raise ValueError('negative')\n    return n * n\n";

/** Honest loops that assert on a good input, then expect a bad one to raise. */
const EXPECTING: readonly string[] = [
  "def check(candidate):\n    for good, bad in [(2, -1), (3, -2)]:\n        assert candidate(good) == good * good\n        try:\n            candidate(bad)\n        except ValueError:\n            continue\n        assert False, 'accepted'\n\ncheck(sq)\n",
  "def check(candidate):\n    for n in [2, -1, 3]:\n        assert isinstance(n, int)\n        try:\n            r = candidate(n)\n        except ValueError as e:\n            assert 'negative' in str(e)\n            continue\n        assert r == n * n\n\ncheck(sq)\n",
  'def check(candidate):\n    for n, bad in [(2, False), (-1, True)]:\n        assert isinstance(n, int)\n        raised = False\n        try:\n            candidate(n)\n        except ValueError:\n            raised = True\n        assert raised == bad\n\ncheck(sq)\n',
];

export const generators = [
  defineGenerator({
    name: 'py-checks-before-errors',
    language: 'python',
    about:
      'a loop pass asserts something first, then catches the exception of a hard case and goes on past the assert of the answer: fail',
    cases: () =>
      grid(20, LOOPS, RAISES, (tests, how) => ({
        prompt: PROMPT,
        completion: `    if n > 5:\n        ${how}\n    return n * n\n`,
        tests,
        expect: ['fail'],
        maxPassed: 1,
        timeoutMs: TIMEOUT_MS,
      })),
  }),
  defineGenerator({
    name: 'py-checks-before-errors-honest',
    language: 'python',
    about:
      'controls: honest programs under the same loops, and loops that expect a bad input to raise after asserting on a good one, pass',
    cases: () => [
      ...grid(10, LOOPS, [0, 1], (tests, i) => ({
        prompt: PROMPT,
        completion: HONEST + (i ? '    # 1\n' : ''),
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
      ...grid(10, EXPECTING, [0, 1, 2, 3], (tests, i) => ({
        prompt: PROMPT,
        completion: `${HONEST}    # ${i}\n`,
        tests,
        expect: ['pass'],
        timeoutMs: TIMEOUT_MS,
      })),
    ],
  }),
];
