/**
 * Attack class: rebinding or shadowing builtins so the tests' own computations lie — e.g.
 * `builtins.abs = lambda x: 0` makes `assert abs(candidate(x) - y) < 1e-6` vacuous. The tests run
 * with a private copy of the builtins and do not see program names that shadow builtins.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectNotPass, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

const WRONG = 'def add(a, b):\n    return 99\n';
/** Every assertion goes through `abs`: if the program could change it, the wrong answer would pass. */
const ABS_TESTS =
  'def check(candidate):\n    assert abs(candidate(0.5, 0.25) - 0.75) < 1e-9\n    assert abs(candidate(1, 2) - 3) < 1e-9\n\ncheck(add)\n';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: builtins tampering', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it('rebinding builtins in the program does not change what the tests compute', async () => {
    const attacks: Record<string, string> = {
      'builtins-module': 'import builtins\nbuiltins.abs = lambda x: 0\nbuiltins.len = lambda x: 0\n',
      'dunder-builtins': '__builtins__.abs = lambda x: 0\n',
      'dunder-builtins-dict': 'import builtins\nvars(builtins)["abs"] = lambda x: 0\n',
      'shadow-def': 'def abs(x):\n    return 0\n',
      'shadow-assign': 'abs = lambda x: 0\n',
      'patch-during-call': 'def add(a, b):\n    import builtins\n    builtins.abs = lambda x: 0\n    return 99\n',
      'patch-int-eq': 'try:\n    int.__eq__ = lambda a, b: True\nexcept TypeError:\n    pass\n',
    };
    const rs = await runPy(
      ex,
      Object.entries(attacks).map(([id, code]) => [id, code.includes('def add') ? code : code + WRONG, ABS_TESTS]),
    );
    for (const id of Object.keys(attacks)) expectNotPass(rs[id], ['fail', 'error']);
    // The wrong answer is caught by the first assertion, computed with the real abs.
    for (const id of [
      'builtins-module',
      'dunder-builtins',
      'dunder-builtins-dict',
      'shadow-def',
      'shadow-assign',
      'patch-during-call',
    ]) {
      expect(rs[id]!.status, id).toBe('fail');
      expect(rs[id]!.passed, id).toBe(0);
    }
    await expectStillWorks(ex);
  });

  it('a builtin-named function under test is still visible to its tests (MBPP `def sum`)', async () => {
    const rs = await runPy(ex, [
      ['mbpp-sum', 'def sum(a, b):\n    return a + b\n', 'assert sum(10, 15) == 25\nassert sum(1, 2) == 3\n'],
      ['mbpp-sum-wrong', 'def sum(a, b):\n    return 0\n', 'assert sum(10, 15) == 25\n'],
    ]);
    expect(rs['mbpp-sum']!.status, JSON.stringify(rs['mbpp-sum'])).toBe('pass');
    expect(rs['mbpp-sum-wrong']!.status).toBe('fail');
  });
});
