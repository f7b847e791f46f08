/**
 * Python: asserts an exception skips, in tests that catch the exception and go on. The candidate
 * is called *outside* the assert (`got = fact(n)` / `assert got == w`) inside a `try` per case
 * that prints, a `try` around the loop, a runner calling test functions or test methods,
 * `contextlib.suppress`, or a handler that re-raises only AssertionError: a program right on the
 * easy cases and raising on the rest never had an assert open when it raised, so the assert kept
 * the pass of the cases it ran, where the same program returning a wrong value failed. The tests'
 * functions, `with` bodies and `try` statements now note the asserts an exception leaves behind;
 * a handler that neither asserts nor raises fails them (sandbox/python/harness.py,
 * `_skip_scopes`). Controls: expected raises judged in the handler, `assert False` markers, a
 * `try` that only picks a fallback value, and the attack styles on an honest program pass.
 */
import { honestFact, raisingFact } from './fact-programs.ts';

const CASES = '[(0, 1), (1, 1), (5, 120), (6, 720)]';

/** Tests that call the candidate outside the assert and catch what it raises; the passes an honest wrong value gets. */
const STYLES: Array<[string, number]> = [
  [
    `for n, w in ${CASES}:\n    try:\n        got = fact(n)\n        assert got == w\n    except Exception as e:\n        print('FAIL', n, e)\n`,
    0,
  ],
  [`try:\n    for n, w in ${CASES}:\n        got = fact(n)\n        assert got == w\nexcept BaseException:\n    pass\n`, 0],
  [
    `def run(name, fn):\n    try:\n        fn()\n    except Exception as e:\n        print('FAIL', name)\n\nfor n, w in ${CASES}:\n    def t(n=n, w=w):\n        got = fact(n)\n        assert got == w\n    run(str(n), t)\n`,
    0,
  ],
  [
    "class Tests:\n    def test_small(self):\n        assert fact(1) == 1\n\n    def test_big(self):\n        r = fact(5)\n        assert r == 120\n\nfor name in sorted(dir(Tests)):\n    if name.startswith('test_'):\n        try:\n            getattr(Tests(), name)()\n        except Exception:\n            print('FAIL', name)\n",
    1,
  ],
  [
    `import contextlib\nfor n, w in ${CASES}:\n    with contextlib.suppress(Exception):\n        got = fact(n)\n        assert got == w\n`,
    0,
  ],
  [
    `def check_eq(a, b):\n    assert a == b\n\nfor n, w in ${CASES}:\n    try:\n        r = fact(n)\n        check_eq(r, w)\n    except Exception:\n        pass\n`,
    0,
  ],
  [
    `for n, w in ${CASES}:\n    try:\n        got = fact(n)\n        assert got == w\n    except AssertionError:\n        raise\n    except Exception:\n        print('error case', n)\n`,
    0,
  ],
  // A post-order recursive walk: the children record the assert after the root was entered.
  [
    "tree = {'n': 6, 'w': 720, 'kids': [{'n': 1, 'w': 1, 'kids': []}, {'n': 0, 'w': 1, 'kids': []}]}\n\ndef walk(t):\n    for k in t['kids']:\n        walk(k)\n    got = fact(t['n'])\n    assert got == t['w']\n\ntry:\n    walk(tree)\nexcept Exception:\n    print('walk failed')\n",
    0,
  ],
  // The assert in the `else:` block, which runs only when nothing was raised.
  [
    `for n, w in ${CASES}:\n    try:\n        got = fact(n)\n    except Exception:\n        print('raised', n)\n    else:\n        assert got == w\n`,
    0,
  ],
  // `finally: return` drops the exception without a handler.
  [
    `def one(n, w):\n    try:\n        got = fact(n)\n        assert got == w\n    finally:\n        return\n\nfor n, w in ${CASES}:\n    one(n, w)\n`,
    0,
  ],
];
const attacks = raisingFact(
  'python',
  'py-skipped-checks',
  'an assert an exception skipped, in tests that catch the exception and go on: never a pass',
  40,
  STYLES,
);

/** Honest tests that catch exceptions on purpose. */
const HONEST = [
  "for c in [{'n': 3, 'w': 6}, {'n': -1, 'raises': True}, {'n': 4, 'w': 24}]:\n    try:\n        r = fact(c['n'])\n        assert r == c['w']\n    except ValueError:\n        assert c.get('raises'), 'unexpected raise'\n",
  "try:\n    fact(-1)\n    assert False, 'should raise'\nexcept ValueError:\n    pass\nassert fact(3) == 6\n",
  "try:\n    r = fact(-1)\nexcept ValueError:\n    r = 'raised'\nassert r == 'raised'\nassert fact(5) == 120\n",
  'import contextlib\nwith contextlib.suppress(ValueError):\n    fact(-1)\nwith contextlib.suppress(ValueError):\n    assert fact(4) == 24\n',
  ...STYLES.map(([tests]) => tests),
];

const honest = honestFact(
  'python',
  'py-skipped-checks-honest',
  'controls: expected raises judged in the handler, assert False markers, fallback values, the attack styles on an honest program',
  30,
  HONEST,
);

export const generators = [attacks, honest];
