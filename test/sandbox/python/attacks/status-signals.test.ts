/**
 * Attack class: claiming a status by the text of an error. `timeout` comes only from the host's
 * watchdogs and `oom` only from the heap cap refusing to grow linear memory during the program; a
 * program that raises MemoryError itself, or an exception whose message reads like a timeout or
 * out-of-memory, is an `error` (or `fail` for an AssertionError) like any other exception.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADD_TESTS, expectStillWorks, pyExecutor, runPy } from '../helpers.ts';

describe('python attack: statuses from error text', { timeout: 180_000 }, () => {
  const ex = pyExecutor({ memoryMb: 64, timeoutMs: 3000 });
  afterAll(() => ex.close());

  it('raised MemoryError / timeout-looking errors are not oom or timeout', async () => {
    const rs = await runPy(ex, [
      ['memoryerror-load', 'raise MemoryError("out of memory: the runtime exceeded the isolate memory limit")\n', ADD_TESTS],
      ['memoryerror-mid', 'def add(a, b):\n    raise MemoryError()\n', ADD_TESTS],
      [
        'memoryerror-subclass',
        'class M(MemoryError):\n    pass\ndef add(a, b):\n    raise M("Cannot allocate Wasm memory")\n',
        ADD_TESTS,
      ],
      ['timeout-text', 'def add(a, b):\n    raise TimeoutError("timed out after 1500 ms")\n', ADD_TESTS],
      ['script-timeout-text', 'raise RuntimeError("Script execution timed out.")\n', ADD_TESTS],
      ['oom-assert', 'def add(a, b):\n    raise AssertionError("out of memory")\n', ADD_TESTS],
    ]);
    for (const id of ['memoryerror-load', 'memoryerror-mid', 'memoryerror-subclass', 'timeout-text', 'script-timeout-text']) {
      expect(rs[id]!.status, JSON.stringify(rs[id])).toBe('error');
    }
    expect(rs['oom-assert']!.status).toBe('fail');
    await expectStillWorks(ex);
  });

  it('a real allocation past the cap is still oom, also when the program re-raises it', async () => {
    const rs = await runPy(ex, [
      ['real', 'x = [0] * (10**8)\n', 'assert True\n'],
      ['reraised', 'try:\n    x = bytearray(10**9)\nexcept MemoryError:\n    raise MemoryError("custom")\n', 'assert True\n'],
    ]);
    expect(rs.real!.status).toBe('oom');
    expect(rs.reraised!.status).toBe('oom');
  });
});
