/**
 * Attack class: output floods — printing far more than the capture limit, huge single lines,
 * binary junk. Output is capped (stdout_limit bytes) and marked truncated; the verdict is
 * unaffected and the runtime keeps working.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_OK, ADD_TESTS, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: output floods', { timeout: 180_000 }, () => {
  const ex = pyExecutor({ stdoutLimit: 4096, timeoutMs: 5000 });
  afterAll(() => ex.close());

  it('floods are capped and do not change verdicts', async () => {
    const rs = await runPy(ex, [
      ['lines', 'for i in range(200000):\n    print("x" * 20)\n' + ADD_OK, ADD_TESTS],
      ['one-line', 'print("y" * 10**7)\n' + ADD_OK, ADD_TESTS],
      ['stderr', 'import sys\nfor i in range(10000):\n    sys.stderr.write("z" * 100)\n' + ADD_OK, ADD_TESTS],
      ['binary', 'import sys\nsys.stdout.buffer.write(bytes(range(256)) * 1000)\n' + ADD_OK, ADD_TESTS],
    ]);
    for (const r of Object.values(rs)) {
      expect(r.status, JSON.stringify({ ...r, stdout: r.stdout.slice(0, 100) })).toBe('pass');
      expect(Buffer.byteLength(r.stdout)).toBeLessThan(4096 * 3 + 200);
      expect(r.stdout).toMatch(/output truncated/);
    }
    await expectStillWorks(ex);
  });
});
