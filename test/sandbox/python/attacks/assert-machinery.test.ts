/**
 * Attack class: patching what the assertions rely on — module functions the tests import
 * (`math.isclose`), comparison methods of standard classes (`Counter.__eq__`), AssertionError,
 * optimisation flags that strip asserts, or redefining the tests' helpers. The tests import
 * pristine copies of standard modules, standard classes are immutable, and the verdict comes
 * from the harness, so none of these pass.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

const WRONG = 'def f(x):\n    return x + 1\n';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: assert machinery', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('patched modules, classes and exceptions do not turn a wrong answer into a pass', async () => {
    const cases: Array<[string, string, string]> = [
      [
        'math-isclose',
        'import math\nmath.isclose = lambda *a, **k: True\n' + WRONG,
        'import math\nassert math.isclose(f(1), 1)\n',
      ],
      [
        'from-math-isclose',
        'import math\nmath.isclose = lambda *a, **k: True\n' + WRONG,
        'from math import isclose\nassert isclose(f(1), 1)\n',
      ],
      [
        'counter-eq',
        'from collections import Counter\nCounter.__eq__ = lambda a, b: True\n' + WRONG,
        'from collections import Counter\nassert Counter([f(1)]) == Counter([1])\n',
      ],
      [
        'fraction-eq',
        'from fractions import Fraction\nFraction.__eq__ = lambda a, b: True\n' + WRONG,
        'from fractions import Fraction\nassert Fraction(f(1)) == Fraction(1)\n',
      ],
      [
        'operator-eq',
        'import operator\noperator.eq = lambda a, b: True\n' + WRONG,
        'import operator\nassert operator.eq(f(1), 1)\n',
      ],
      [
        'assertionerror-rebind',
        'import builtins\nbuiltins.AssertionError = type("X", (Exception,), {})\nAssertionError = builtins.AssertionError\n' +
          WRONG,
        'assert f(1) == 1\n',
      ],
      [
        'unittest-patch',
        'import unittest\nunittest.TestCase.assertEqual = lambda *a: None\n' + WRONG,
        'import unittest\nunittest.TestCase().assertEqual(f(1), 1)\n',
      ],
      [
        'define-check-first',
        WRONG + 'def check(candidate):\n    pass\n',
        'def check(candidate):\n    assert candidate(1) == 1\n\ncheck(f)\n',
      ],
      [
        'optimize-flag',
        'import sys\ntry:\n    sys.flags.optimize = 2\nexcept Exception:\n    pass\n' + WRONG,
        'assert f(1) == 1\n',
      ],
      [
        're-cache-poison',
        'import re\nre.match = lambda *a, **k: True\n' + WRONG,
        'import re\nassert re.match("^2$", str(f(1))) is None and f(1) == 1\n',
      ],
    ];
    const rs = await runPy(ex, cases);
    for (const [id] of cases) expectNotPass(rs[id], ['fail', 'error']);
    expect(rs['math-isclose']!.status).toBe('fail');
    expect(rs['counter-eq']!.error).toMatch(/immutable type/);
    await expectStillWorks(ex);
  });

  it('the same tests pass for a correct solution (the defences do not break legit use)', async () => {
    const rs = await runPy(ex, [
      ['isclose-ok', 'import math\ndef f(x):\n    return math.sqrt(x * x)\n', 'import math\nassert math.isclose(f(2.0), 2.0)\n'],
      [
        'counter-ok',
        'from collections import Counter\ndef f(xs):\n    return Counter(xs)\n',
        'from collections import Counter\nassert f([1, 1]) == Counter({1: 2})\n',
      ],
      ['own-class-attr', 'class A:\n    pass\nA.x = 1\ndef f():\n    return A.x\n', 'assert f() == 1\n'],
    ]);
    for (const r of Object.values(rs)) expect(r.status, JSON.stringify(r)).toBe('pass');
  });
});
