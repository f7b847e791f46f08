import { describe, expect, it } from 'vitest';
import { runGoodhart } from '../../../src/research/experiments/goodhart.ts';
import { runCli } from '../../helpers/cli.ts';
import { main } from '../../../src/cli/main.ts';

describe('goodhart experiment (tiny sizes)', () => {
  const opts = { domain: 'dsl6' as const, tasks: 2, seed: 3, train: 150, pool: 64 };

  it('produces consistent curves: N=1 equals the pool mean, execution is non-decreasing, Snd@1 = 1', () => {
    const r = runGoodhart({ ...opts, maxLog2: 6 });
    expect(r.rows.map((x) => x.n)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    const first = r.rows[0]!;
    expect(first.learned['ridge-43']!.mean).toBeCloseTo(first.execution.mean, 12);
    expect(first.execution.mean).toBeCloseTo(r.poolMeanGold.mean, 12);
    expect(first.snd['ridge-43']!.value).toBeCloseTo(1, 12);
    for (let k = 1; k < r.rows.length; k++) {
      expect(r.rows[k]!.execution.mean).toBeGreaterThanOrEqual(r.rows[k - 1]!.execution.mean - 1e-12);
      expect(r.rows[k]!.learned['ridge-43']!.mean).toBeLessThanOrEqual(r.rows[k]!.execution.mean + 1e-12);
    }
    expect(r.auc['ridge-43']).toBeGreaterThan(0);
    expect(r.auc['ridge-43']).toBeLessThanOrEqual(1 + 1e-12);
  });

  it('is deterministic for a seed and changes with it', () => {
    const a = runGoodhart({ ...opts, maxLog2: 4 });
    expect(runGoodhart({ ...opts, maxLog2: 4 })).toEqual(a);
    expect(runGoodhart({ ...opts, seed: 4, maxLog2: 4 }).rows).not.toEqual(a.rows);
  });

  it('CLI: dsl6 and richdsl smoke runs, --json', () => {
    const r = runCli(['experiment', 'goodhart', '--tasks', '2', '--train', '100', '--pool', '64', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.rows).toHaveLength(7);
    expect(j.verifiers[0].dim).toBe(43);
    const rich = runCli(['experiment', 'goodhart', '--domain', 'richdsl', '--tasks', '2', '--train', '100', '--pool', '32']);
    expect(rich.code, rich.stderr).toBe(0);
    expect(rich.stdout).toMatch(/ridge-weak-111/);
    expect(rich.stdout).toMatch(/ridge-strong-359/);
    expect(rich.stdout).toMatch(/gbt-strong-359/);
    expect(rich.stdout).toMatch(/AUC of Snd@N/);
  });

  it('CLI (in-process): bad arguments exit 2', async () => {
    expect(await main(['experiment', 'goodhart', '--tasks', '0'])).toBe(2);
    expect(await main(['experiment', 'goodhart', '--tasks', '1', '--pool', '16', '--max-log2', '5'])).toBe(2);
    expect(await main(['experiment', 'goodhart', '--domain', 'dsl7'])).toBe(2);
  });
});
