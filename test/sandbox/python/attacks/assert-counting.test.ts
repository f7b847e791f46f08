/**
 * Attack class: inflating the pass fraction. Gold is the fraction of the tests' own `assert`
 * statements (numbered statically in the test file) that held: `total` is their number, an
 * assertion in a loop counts once (and only if it never failed), asserts the solution executes
 * count for nothing, and nothing the solution can call records a pass.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

describe('python attack: assertion counting', { timeout: 180_000 }, () => {
  const ex = pyExecutor();
  afterAll(() => ex.close());

  it("passed/total are over the test file's assert statements", async () => {
    const tests = 'for x in range(100):\n    assert f(x) == x\nassert f(-1) == 0\nassert f(-2) == 0\nassert f(-3) == 0\n';
    const rs = await runPy(ex, [
      // Right on the 100 loop cases, wrong on the first single case.
      ['loop-heavy', 'def f(x):\n    return x\n', tests],
      // The solution runs many asserts of its own, at load time and inside the candidate.
      [
        'own-asserts',
        'for _ in range(1000):\n    assert True\ndef f(x):\n    for _ in range(1000):\n        assert True\n    return x\n',
        tests,
      ],
      ['all-right', 'def f(x):\n    return max(x, 0)\n', tests],
      ['loop-fails-late', 'def f(x):\n    return x if x < 99 else 0\n', tests],
    ]);
    expect(rs['loop-heavy']).toMatchObject({ status: 'fail', passed: 1, total: 4 });
    expect(rs['own-asserts']).toMatchObject({ status: 'fail', passed: 1, total: 4 });
    expect(rs['all-right']).toMatchObject({ status: 'pass', passed: 4, total: 4 });
    // The loop's assert failed on its 100th run: it does not count as passed.
    expect(rs['loop-fails-late']).toMatchObject({ status: 'fail', passed: 0, total: 4 });
  });

  it('a failure marker the run never reached is no site of its total; one that ran is a failed site', async () => {
    // The "must raise" idiom: `assert False` after a call that must raise. An honest run never
    // reaches it (it showed pass 1/2); a program accepting the bad input reaches it and fails.
    const tests = "try:\n    f(-1)\n    assert False, 'accepted'\nexcept ValueError:\n    pass\nassert f(2) == 4\n";
    const rs = await runPy(ex, [
      ['raises', "def f(x):\n    if x < 0:\n        raise ValueError('negative')\n    return x * x\n", tests],
      ['accepts', 'def f(x):\n    return x * x\n', tests],
    ]);
    expect(rs.raises).toMatchObject({ status: 'pass', passed: 1, total: 1 });
    expect(rs.accepts).toMatchObject({ status: 'fail', passed: 0, total: 2 });
  });

  it("hooks a solution might guess (names, AssertionError, the tests' helpers) record nothing", async () => {
    const tests = 'def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(2) == 2\n\ncheck(f)\n';
    const rs = await runPy(ex, [
      [
        'guess-hooks',
        [
          'import builtins',
          'for k, v in list(globals().items()) + list(vars(builtins).items()):',
          '    if "anchor" in k and callable(v):',
          '        for i in range(10):',
          '            try:',
          '                v(i, True)',
          '            except Exception:',
          '                pass',
          'def f(x):',
          '    return 0',
        ].join('\n') + '\n',
        tests,
      ],
      [
        'swallow',
        'def f(x):\n    return 0\n',
        'def check(candidate):\n    try:\n        assert candidate(1) == 1\n    except AssertionError:\n        pass\n    assert candidate(0) == 0\n\ncheck(f)\n',
      ],
    ]);
    expect(rs['guess-hooks']).toMatchObject({ status: 'fail', passed: 0, total: 2 });
    // A failed assertion is recorded before it raises: swallowing it does not make a pass.
    expect(rs.swallow).toMatchObject({ status: 'fail', passed: 1, total: 2 });
    await expectStillWorks(ex);
  });
});
