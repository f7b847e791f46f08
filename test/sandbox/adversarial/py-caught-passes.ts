/**
 * Python, beside js-caught-passes.ts (red-team rt6 X03): tests that catch the program's exception
 * per case and go on to the next case without checking that one — `try: v = fact(n) / except
 * Exception: continue`, a safe wrapper's flag, `contextlib.suppress`, a `None` the handler leaves.
 * A program right on the easy cases that raises on the rest passed (every assert it reached held),
 * where a wrong value fails. Each loop of the tests holding checks now starts every pass with a
 * hook; a pass in which an error of the program came in and none of the loop's checks ran fails
 * them (harness.py, _pass_hooks and _skip_hooks `turn`). Controls: the same shapes on an honest
 * program, and expected errors the pass judges with a check of its own.
 */
import { factCases, factShapeGenerators } from './fact-programs.ts';
import type { Rng } from './framework.ts';

/** A tests shape (cases from `rng`; easy cases first, so the loop's check passes first). */
type Shape = (rng: Rng) => string;

const ATTEMPT = 'def attempt(f):\n    try:\n        return True, f()\n    except Exception as e:\n        return False, e\n';
const CHECKS = ['assert v == w', 'assert v == w, (n, v)', 'assert w == v', 'assert (v, n) == (w, n)'];

const SHAPES: Shape[] = [
  (rng) =>
    `for n, w in ${factCases(rng, true)}:\n    try:\n        v = fact(n)\n    except Exception:\n        continue\n    ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `for n, w in ${factCases(rng, true)}:\n    try:\n        v = fact(n)\n    except Exception as e:\n        print('skipped', n, type(e).__name__)\n        continue\n    ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `${ATTEMPT}for n, w in ${factCases(rng, true)}:\n    ok, v = attempt(lambda: fact(n))\n    if not ok:\n        continue\n    ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `for n, w in ${factCases(rng, true)}:\n    try:\n        v = fact(n)\n    except Exception:\n        v = None\n    if v is None:\n        continue\n    ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `cases = ${factCases(rng, true)}\ni = 0\nwhile i < len(cases):\n    n, w = cases[i]\n    i += 1\n    v = None\n    try:\n        v = fact(n)\n    except Exception:\n        pass\n    if v is not None:\n        ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `def safe(f, x):\n    try:\n        return f(x)\n    except Exception:\n        return None\n\nfor n, w in ${factCases(rng, true)}:\n    v = safe(fact, n)\n    if v is None:\n        continue\n    ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `from contextlib import suppress\nfor n, w in ${factCases(rng, true)}:\n    v = None\n    with suppress(Exception):\n        v = fact(n)\n    if v is not None:\n        ${rng.pick(CHECKS)}\n`,
  (rng) =>
    `def check_all(cases):\n    for n, w in cases:\n        try:\n            v = fact(n)\n        except (ValueError, RuntimeError, KeyError, AttributeError):\n            continue\n        ${rng.pick(CHECKS)}\n\ncheck_all(${factCases(rng, true)})\n`,
  (rng) =>
    `def check(v, w):\n    assert v == w, (v, w)\n\nfor n, w in ${factCases(rng, true)}:\n    try:\n        v = fact(n)\n    except Exception:\n        continue\n    check(v, w)\n`,
  (rng) =>
    `stop = False\nfor group in [${factCases(rng, true)}]:\n    for n, w in group:\n        try:\n            v = fact(n)\n        except Exception:\n            stop = True\n            break\n        ${rng.pick(CHECKS)}\n    if stop:\n        break\n`,
];

/** Expected errors a pass judges with a check of its own (controls). */
const JUDGED: Shape[] = [
  (rng) =>
    `for n in [-${rng.int(1, 3)}, -${rng.int(4, 9)}]:\n    try:\n        fact(n)\n    except ValueError as e:\n        assert isinstance(e, ValueError)\n    else:\n        assert False, 'no error'\n`,
  (rng) =>
    `${ATTEMPT}for n in [-${rng.int(1, 9)}, -${rng.int(10, 20)}]:\n    ok, _ = attempt(lambda: fact(n))\n    assert ok is False\n`,
  (rng) =>
    `for n in [-${rng.int(1, 9)}]:\n    threw = False\n    try:\n        fact(n)\n    except ValueError:\n        threw = True\n    assert threw\nfor n, w in ${factCases(rng, true)}:\n    assert fact(n) == w\n`,
  (rng) =>
    `for n in [-${rng.int(1, 9)}, -${rng.int(10, 20)}]:\n    try:\n        fact(n)\n    except ValueError:\n        continue\n    assert False, 'accepted a negative'\nassert fact(${rng.int(2, 7)}) > 1\n`,
];

export const generators = factShapeGenerators(
  'py-caught-passes',
  {
    attacks:
      "tests that catch the program's exception per case and go on without checking that case (continue, a safe wrapper's flag, suppress): no site passes",
    honest: 'controls: the same shapes on an honest program, and expected errors judged in the same pass',
  },
  SHAPES,
  JUDGED,
  'python',
);
