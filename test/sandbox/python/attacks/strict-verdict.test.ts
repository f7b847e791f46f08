/**
 * Attack class: answers that win the comparison instead of being right — objects whose __eq__
 * always returns True, builtin subclasses overriding __eq__/__ne__/__hash__, such objects nested
 * in lists, dicts and tuples. With `sandbox.verdict: strict` (the default) the tests run in their
 * own interpreter and the answer crosses as plain data: a builtin subclass arrives as its value
 * (its methods stay behind), an instance of a program class is a record whose use as a value
 * (==, <, bool, in, arithmetic) fails naming its type. Floats compare as Python's == does
 * (-0.0 == 0.0); a NaN answer passes only checks that ask for NaN. `parity` keeps plain Python ==
 * (the official harnesses' semantics), so the same attacks pass there — which is what parity means.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

const ALWAYS =
  'class A:\n    def __eq__(self, o):\n        return True\n    def __ne__(self, o):\n        return False\n    __hash__ = object.__hash__\n';
const ATTACKS: Array<[string, string, string]> = [
  ['always-eq', ALWAYS + 'def f(x):\n    return A()\n', 'assert f(1) == 2\nassert f(2) == [1, 2]\n'],
  ['always-eq-reversed', ALWAYS + 'def f(x):\n    return A()\n', 'assert 2 == f(1)\n'],
  ['always-ne', ALWAYS + 'def f(x):\n    return A()\n', 'assert not (f(1) != 2)\n'],
  [
    'int-eq',
    'class I(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\ndef f(x):\n    return I(0)\n',
    'assert f(1) == 2\n',
  ],
  [
    'int-ne',
    'class I(int):\n    def __ne__(self, o):\n        return False\ndef f(x):\n    return I(0)\n',
    'assert not f(1) != 2\n',
  ],
  [
    'str-hash',
    'class S(str):\n    def __hash__(self):\n        return hash("b")\n    def __eq__(self, o):\n        return True\ndef f(x):\n    return S("a")\n',
    'assert f(1) in {"b"}\n',
  ],
  ['nested-list', ALWAYS + 'def f(x):\n    return [1, A(), 3]\n', 'assert f(1) == [1, 2, 3]\n'],
  ['nested-dict', ALWAYS + 'def f(x):\n    return {"k": A()}\n', 'assert f(1) == {"k": 5}\n'],
  ['nested-tuple', ALWAYS + 'def f(x):\n    return (A(), A())\n', 'assert f(1) == (1, 2)\n'],
  ['in-list', ALWAYS + 'def f(x):\n    return A()\n', 'assert f(1) in [5, 6]\n'],
  ['bool-truth', 'class T:\n    def __bool__(self):\n        return True\ndef f(x):\n    return T()\n', 'assert f(1)\n'],
];

describe('python attack: comparisons won by the answer (strict vs parity)', { timeout: 180_000 }, () => {
  const strict = pyExecutor();
  const parity = pyExecutor({ verdict: 'parity' });
  afterAll(() => Promise.all([strict.close(), parity.close()]));

  it('strict: answers that override comparison fail', async () => {
    const rs = await runPy(strict, ATTACKS);
    for (const [id] of ATTACKS) expect(rs[id]!.status, JSON.stringify(rs[id])).toBe('fail');
    // A builtin subclass crosses as its value: the tests' own == compares 0 with 2.
    expect(rs['int-eq']!.error).toMatch(/AssertionError/);
    expect(rs['always-eq']!.error).toMatch(/answer of type A is not plain data/);
    await expectStillWorks(strict);
  });

  it('parity: plain Python == decides, as in the official harnesses', async () => {
    const rs = await runPy(parity, ATTACKS);
    for (const id of ['always-eq', 'always-eq-reversed', 'int-eq', 'nested-list', 'in-list', 'bool-truth']) {
      expect(rs[id]!.status, JSON.stringify(rs[id])).toBe('pass');
    }
    await expectStillWorks(parity);
  });

  it('legitimate answers pass in both modes', async () => {
    const legit: Array<[string, string, string]> = [
      [
        'int-subclass',
        'class I(int):\n    pass\ndef f(x):\n    return I(x)\n',
        'assert f(2) == 2\nassert [f(1)] == [1]\nassert f(3) in (3, 4)\n',
      ],
      ['bool-int', 'def f(x):\n    return x > 0\n', 'assert f(1) == True\nassert f(1) == 1\nassert f(0) == 0.0\n'],
      [
        'counter-as-dict',
        'from collections import Counter\ndef f(s):\n    return Counter(s)\n',
        'assert f("aab") == {"a": 2, "b": 1}\n',
      ],
      [
        'ordered-defaultdict',
        'from collections import OrderedDict, defaultdict\ndef f():\n    d = defaultdict(int)\n    d["x"] += 1\n    return OrderedDict(d)\n',
        'assert f() == {"x": 1}\n',
      ],
      [
        'namedtuple',
        'from collections import namedtuple\nP = namedtuple("P", "x y")\ndef f():\n    return P(1, 2)\n',
        'assert f() == (1, 2)\nassert f().x == 1\n',
      ],
      [
        'nan-negzero',
        'import math\ndef f(x):\n    return float("nan") if x else -0.0\n',
        'assert f(1) != f(1)\nassert f(0) == 0.0\nassert not (f(1) == f(1))\nassert math.isnan(f(1))\n',
      ],
      [
        'fraction',
        'from fractions import Fraction\ndef f():\n    return Fraction(1, 2)\n',
        'assert f() == 0.5\nassert f() == Fraction(2, 4)\n',
      ],
      ['generator', 'def f(n):\n    for i in range(n):\n        yield i\n', 'assert list(f(3)) == [0, 1, 2]\n'],
      [
        'none-and-str',
        'def f(x):\n    return None if x else "ab"\n',
        'assert f(1) is None\nassert f(0) == "ab"\nassert "a" in f(0)\nassert f(0) not in ["x"]\n',
      ],
      ['chained', 'def f(x):\n    return x\n', 'assert 0 < f(1) < 2\nassert f(1) == f(1) == 1\n'],
    ];
    for (const ex of [strict, parity]) {
      const rs = await runPy(ex, legit);
      for (const [id] of legit) expect(rs[id]!.status, JSON.stringify(rs[id])).toBe('pass');
    }
  });

  it("a program class's own __eq__ decides only in parity; strict reads its fields", async () => {
    const own: Array<[string, string, string]> = [
      [
        'own-objects',
        'class P:\n    def __init__(self, v):\n        self.v = v\n    def __eq__(self, o):\n        return isinstance(o, P) and o.v == self.v\ndef f():\n    return P(1)\n',
        'assert f() == P(1)\nassert f() != P(2)\n',
      ],
      [
        'own-fields',
        'class P:\n    def __init__(self, v):\n        self.v = v\ndef f():\n    return P(1)\n',
        'assert f().v == 1\n',
      ],
    ];
    const rs = await runPy(strict, own);
    expect(rs['own-objects']!.status).toBe('fail');
    expect(rs['own-objects']!.error).toMatch(/answer of type P is not plain data/);
    expect(rs['own-fields']!.status, JSON.stringify(rs['own-fields'])).toBe('pass');
    expect((await runPy(parity, own))['own-objects']!.status).toBe('pass');
  });
});
