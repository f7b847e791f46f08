/**
 * A Python runtime whose boot fails before the program ran tries one more boot on a fresh isolate
 * (src/sandbox/python/runtime.ts, run); a second failure is the run's `error`.
 */
import { describe, expect, it } from 'vitest';
import { PythonRuntime } from '../../../src/sandbox/python/runtime.ts';
import { ADD_OK, ADD_TESTS } from './helpers.ts';

/** A runtime whose first `failures` boots fail as the one seen in the adversarial suite did. */
function failing(failures: number): PythonRuntime {
  const rt = new PythonRuntime({ memoryMb: 64, stdoutLimit: 65536, minAssertions: 1, verdict: 'strict', seed: 0 });
  const self = rt as unknown as { boot: () => Promise<void> };
  const real = self.boot.bind(rt);
  let n = 0;
  self.boot = () => (n++ < failures ? Promise.reject(new Error('Array buffer allocation failed')) : real());
  return rt;
}

describe('python runtime: a failed boot', () => {
  it('is tried once more, and the program runs', async () => {
    const rt = failing(1);
    try {
      const r = await rt.run({ code: ADD_OK, tests: ADD_TESTS }, 5000);
      expect(`${r.status} ${r.passed}/${r.total}`).toBe('pass 3/3');
      expect(rt.stats.bootRetries).toBe(1);
    } finally {
      rt.close();
    }
  });

  it('twice is an error naming the cause', async () => {
    const rt = failing(2);
    try {
      const r = await rt.run({ code: ADD_OK, tests: ADD_TESTS }, 5000);
      expect(r.status).toBe('error');
      expect(r.error).toMatch(/could not start a Python runtime: Array buffer allocation failed/);
      expect(rt.stats.bootRetries).toBe(1);
    } finally {
      rt.close();
    }
  });
});
