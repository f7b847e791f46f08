/**
 * Attack class: floods through the verdict rather than stdout — a 30 MB exception message, an
 * exception with a million arguments, a 3-million-element wrong answer. Error text is capped (and
 * says so) without running the exception's own code, answers are compared without formatting
 * them, and all of it ends as `fail`/`error` well inside the time limit, not `timeout`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_TESTS, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

describe('python attack: error and answer floods', { timeout: 180_000 }, () => {
  const ex = pyExecutor({ timeoutMs: 10_000, memoryMb: 128 });
  afterAll(() => ex.close());

  it('huge error messages and answers come back capped as fail/error', async () => {
    const rs = await runPy(ex, [
      ['msg-30mb', 'def add(a, b):\n    raise ValueError("x" * 30_000_000)\n', ADD_TESTS],
      ['assert-msg-30mb', 'def add(a, b):\n    raise AssertionError("y" * 30_000_000)\n', ADD_TESTS],
      ['many-args', 'def add(a, b):\n    raise ValueError(*range(1_000_000))\n', ADD_TESTS],
      [
        'slow-str',
        'class E(Exception):\n    def __str__(self):\n        return "z" * 30_000_000\ndef add(a, b):\n    raise E()\n',
        ADD_TESTS,
      ],
      ['huge-answer', 'def f():\n    return list(range(3_000_000))\n', 'assert f() == [0]\n'],
      ['large-answer-ok', 'def f():\n    return list(range(1_000_000))\n', 'assert f() == list(range(1_000_000))\n'],
    ]);
    for (const id of ['msg-30mb', 'many-args', 'slow-str']) expect(rs[id]!.status, id).toBe('error');
    expect(rs['assert-msg-30mb']!.status).toBe('fail');
    expect(rs['huge-answer']!.status).toBe('fail');
    expect(rs['large-answer-ok']!.status).toBe('pass');
    for (const id of ['msg-30mb', 'assert-msg-30mb']) {
      expect(rs[id]!.error!.length, id).toBeLessThan(2200);
      expect(rs[id]!.error, id).toMatch(/truncated at 2000 characters/);
    }
    for (const r of Object.values(rs)) expect(r.error?.length ?? 0).toBeLessThan(2200);
    await expectStillWorks(ex);
  });
});
