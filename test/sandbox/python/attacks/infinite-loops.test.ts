/**
 * Attack class: programs that never finish — busy loops, busy-waits on the (virtual) clock,
 * catastrophic regex backtracking, huge arithmetic, unbounded recursion with a raised recursion
 * limit. Each ends as `timeout` (or a RecursionError) once it used its CPU-time budget, the runtime
 * is recovered or replaced, and the next program runs normally. (`time.sleep` itself moves the
 * virtual clock and returns: determinism.test.ts.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: infinite loops', { timeout: 180_000 }, () => {
  const ex = pyExecutor({ timeoutMs: 400 });
  afterAll(() => ex.close());

  it('every non-terminating program is a timeout and the runtime recovers', async () => {
    const loops: Record<string, string> = {
      'while-true': 'while True:\n    pass\n',
      'clock-busy-wait': 'import time\nt = time.time()\nwhile time.time() < t + 30:\n    pass\n',
      redos: 'import re\nre.match(r"(a+)+$", "a" * 40 + "b")\n',
      'huge-sum': 'sum(range(10**13))\n',
      'catch-and-continue':
        'while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass\n',
    };
    const t0 = performance.now();
    const rs = await runPy(
      ex,
      Object.entries(loops).map(([id, code]) => [id, code, 'assert True\n']),
    );
    for (const id of Object.keys(loops)) expect(rs[id]!.status, JSON.stringify(rs[id])).toBe('timeout');
    // Each program was stopped for using its CPU time (the limit) — or, on a machine so loaded
    // that 20 x the budget + 5 s of wall time did not give it 400 ms of CPU, the host said it gave
    // up (code host_overloaded, not a verdict). How much wall time that took depends on the load,
    // so only its lower bound is checked.
    for (const id of Object.keys(loops)) {
      const r = rs[id]!;
      expect(r.error, JSON.stringify(r)).toMatch(r.code === 'host_overloaded' ? /^not a verdict/ : /used its 400 ms of CPU time/);
    }
    expect(performance.now() - t0).toBeGreaterThan(5 * 390);
    await expectStillWorks(ex);
  });

  it('deep recursion ends as an error, not a crash', async () => {
    const rs = await runPy(ex, [
      ['recursion', 'def r(n):\n    return r(n + 1)\nr(0)\n', 'assert True\n'],
      [
        'recursion-raised-limit',
        'import sys\nsys.setrecursionlimit(10**6)\ndef r(n):\n    return r(n + 1)\nr(0)\n',
        'assert True\n',
      ],
    ]);
    expect(['error', 'timeout', 'oom']).toContain(rs.recursion!.status);
    expect(rs.recursion!.error).toMatch(/RecursionError/);
    expect(['error', 'timeout', 'oom']).toContain(rs['recursion-raised-limit']!.status);
    await expectStillWorks(ex);
  });
});
