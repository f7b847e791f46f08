/**
 * Attack class: answers whose reads change — list subclasses with lying __len__/__iter__/
 * __getitem__, int subclasses with a lying `real`/__index__, objects answering through
 * __getattr__ or properties, values that compare differently on each read. In strict mode (the
 * default) a solution function's answer is snapshotted once, by trusted C-level copies, when it
 * crosses into the tests; the tests then read the snapshot.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

describe('python attack: answers that change between reads', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('lying containers and attributes are read as what they hold', async () => {
    const cases: Array<[string, string, string]> = [
      [
        'lying-iter',
        'class L(list):\n    def __iter__(self):\n        return iter([1, 2, 3])\n    def __len__(self):\n        return 3\ndef f():\n    return L([9])\n',
        'assert len(f()) == 3\nassert list(f()) == [1, 2, 3]\nassert sorted(f()) == [1, 2, 3]\n',
      ],
      [
        'lying-getitem',
        'class L(list):\n    def __getitem__(self, i):\n        return 7\ndef f():\n    return L([1, 2])\n',
        'r = f()\nassert r[0] == 7 and r[1] == 7\n',
      ],
      [
        'lying-real',
        'class I(int):\n    @property\n    def real(self):\n        return 5\ndef f():\n    return I(4)\n',
        'assert f().real == 5\n',
      ],
      [
        'lying-dict',
        'class D(dict):\n    def keys(self):\n        return ["a"]\n    def __getitem__(self, k):\n        return 1\n    def get(self, k, d=None):\n        return 1\ndef f():\n    return D(b=2)\n',
        'r = f()\nassert list(r.keys()) == ["a"] and r["a"] == 1 and r.get("a") == 1\n',
      ],
      [
        'lying-str',
        'class S(str):\n    def upper(self):\n        return "ABC"\n    def __len__(self):\n        return 3\ndef f():\n    return S("x")\n',
        'assert f().upper() == "ABC" and len(f()) == 3\n',
      ],
      [
        'flip-flop',
        'class F:\n    n = 0\n    def __getattr__(self, k):\n        F.n += 1\n        return [1, 2] if F.n > 1 else None\ndef f():\n    return F()\n',
        'r = f()\nassert r.items == [1, 2]\n',
      ],
    ];
    const rs = await runPy(ex, cases);
    for (const [id] of cases) expectNotPass(rs[id], ['fail', 'error']);
    await expectStillWorks(ex);
  });

  it('plain answers and unmodified subclasses still read normally', async () => {
    const rs = await runPy(ex, [
      [
        'plain',
        'def f():\n    return [3, 1, 2]\n',
        'assert len(f()) == 3\nassert sorted(f()) == [1, 2, 3]\nassert f()[0] == 3\n',
      ],
      [
        'subclass',
        'class L(list):\n    pass\nclass I(int):\n    pass\ndef f():\n    return L([I(1), I(2)])\n',
        'assert list(f()) == [1, 2]\nassert f()[1].real == 2\n',
      ],
      [
        'nested',
        'def f():\n    return {"a": [1, (2, 3)], "b": {4, 5}}\n',
        'assert f() == {"a": [1, (2, 3)], "b": {4, 5}}\nassert 4 in f()["b"]\n',
      ],
    ]);
    for (const r of Object.values(rs)) expect(r.status, JSON.stringify(r)).toBe('pass');
  });
});
