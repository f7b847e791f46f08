/**
 * configs/mbpp.yaml and configs/humaneval.yaml (Python smoke training through the Python backend)
 * resolve against the run-config schema. The training itself is run by hand / in the smoke
 * benchmarks (minutes on 2 cores), not here.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

describe('python run configs', () => {
  for (const name of ['mbpp', 'humaneval']) {
    it(`configs/${name}.yaml resolves with py-surface features`, { timeout: 60_000 }, () => {
      const r = runCli(['config', 'show', '--config', `configs/${name}.yaml`], { timeoutMs: 55_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`dataset: ${name}\n`)); // a published dataset by name, from the dataset cache
      expect(r.stdout).toMatch(/features: py-surface/);
    });
  }
});
