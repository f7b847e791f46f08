/**
 * Attack class: memory bombs — huge lists, bytes, strings, growing containers. The wasm heap is
 * capped at the pristine image plus memory_mb, so a bomb raises MemoryError (`oom`) instead of
 * growing the worker; the heap is restored afterwards and the runtime keeps working.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

// Python workers boot Pyodide and some attacks force a reboot: generous on a loaded 2-core CI.
describe('python attack: memory bombs', { timeout: 180_000 }, () => {
  const ex = pyExecutor({ memoryMb: 64, timeoutMs: 5000 });
  afterAll(() => ex.close());

  it('allocations past the cap are oom and the runtime recovers', async () => {
    const bombs: Record<string, string> = {
      list: 'x = [0] * (10**8)\n',
      bytes: 'x = bytes(2**30)\n',
      bytearray: 'x = bytearray(10**9)\n',
      string: 'x = "a" * (2**30)\n',
      growing: 'x = []\nwhile True:\n    x.append(bytearray(10**6))\n',
      'dict-of-lists': 'd = {i: [i] * 1000 for i in range(10**6)}\n',
    };
    const rs = await runPy(
      ex,
      Object.entries(bombs).map(([id, code]) => [id, code, 'assert True\n']),
    );
    for (const id of Object.keys(bombs)) expect(rs[id]!.status, JSON.stringify(rs[id])).toBe('oom');
    await expectStillWorks(ex);
  });

  it('a request beyond the address space is refused by Python before the heap: error, not oom', async () => {
    // 8 GB cannot exist in wasm32: Python raises MemoryError from its own size check without the
    // heap cap being asked, which is indistinguishable from `raise MemoryError` — a program's own
    // exception, so `error` (`oom` is only the heap cap refusing to grow; see status-signals).
    const rs = await runPy(ex, [['impossible', 'x = [0] * (10**9)\n', 'assert True\n']]);
    expect(rs.impossible!.status, JSON.stringify(rs.impossible)).toBe('error');
    expect(rs.impossible!.error).toMatch(/MemoryError/);
  });

  it('a program that catches MemoryError and continues is judged on its tests', async () => {
    const rs = await runPy(ex, [
      ['caught', 'try:\n    x = [0] * (10**9)\nexcept MemoryError:\n    x = None\ndef f():\n    return 1\n', 'assert f() == 1\n'],
    ]);
    expect(rs.caught!.status, JSON.stringify(rs.caught)).toBe('pass');
  });
});
