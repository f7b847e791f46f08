import { describe, expect, it } from 'vitest';
import { runScaling, uncertaintyPick } from '../../../src/research/experiments/settlement-scaling.ts';
import { linearFit, sndAuc } from '../../../src/research/experiments/common.ts';
import { sndCurve } from '../../../src/research/verifiers/snd.ts';
import { expectedBestOfNCurve, powersOfTwo } from '../../../src/research/verifiers/best-of-n.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runMain } from './run-main.ts';
import { main } from '../../../src/cli/main.ts';

describe('settlement-scaling pieces', () => {
  it('linearFit recovers a line with R² = 1 and reports a lower R² for noise', () => {
    const f = linearFit([1, 2, 3, 4], [1, 3, 5, 7]);
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.intercept).toBeCloseTo(-1, 12);
    expect(f.r2).toBeCloseTo(1, 12);
    expect(linearFit([1, 2, 3, 4], [1, 0, 1, 0]).r2).toBeLessThan(0.5);
  });

  it('sndAuc equals the verifiers module on the same pools', () => {
    const rng = new Rng(2);
    const pools = [0, 1, 2, 3].map(() => {
      const gold = Array.from({ length: 64 }, () => Math.floor(rng.next() * 5) / 4);
      return { scores: gold.map((g) => g + rng.normal()), gold };
    });
    const ns = powersOfTwo(6);
    const a = sndAuc(
      pools.map((p) => expectedBestOfNCurve(p, ns)),
      pools.map((p) => expectedBestOfNCurve({ scores: p.gold, gold: p.gold }, ns)),
    );
    const b = sndCurve(pools, 6);
    expect(a.auc).toBeCloseTo(b.auc, 12);
    a.snd.forEach((s, k) => {
      expect(s.value).toBeCloseTo(b.points[k]!.snd, 12);
      expect(s.se).toBeCloseTo(b.points[k]!.se, 12);
    });
    expect(a.se).toBeGreaterThan(0);
  });

  it('uncertainty sampling prefers candidates far from the labelled data', () => {
    const rng = new Rng(3);
    const X = Array.from({ length: 60 }, () => Float32Array.from([rng.next(), rng.next()]));
    const y = X.map((x) => x[0]! + 0.1 * rng.normal());
    const cand = [Float32Array.from([0.5, 0.5]), Float32Array.from([40, -40]), Float32Array.from([0.4, 0.6])];
    expect(uncertaintyPick(X, y, cand, 1, 5, 1, rng)).toEqual([1]);
  });

  it('every strategy starts from the same labels; budgets are validated', async () => {
    const r = runScaling({
      domain: 'dsl6',
      tasks: 2,
      seed: 1,
      budgets: [16, 32, 48],
      init: 16,
      batch: 16,
      candidates: 64,
      evalPool: 128,
      maxLog2: 6,
    });
    const first = r.strategies.map((s) => s.auc[0]!.auc);
    expect(first[1]).toBe(first[0]);
    expect(first[2]).toBe(first[0]);
    for (const s of r.strategies) {
      expect(s.auc.map((a) => a.budget)).toEqual([16, 32, 48]);
      expect(Number.isFinite(s.trend.r2)).toBe(true);
    }
    expect(() => runScaling({ domain: 'dsl6', tasks: 1, seed: 0, budgets: [16, 40], init: 16, batch: 16 })).toThrow(/multiples/);
    const cli = await runMain([
      'experiment',
      'settlement-scaling',
      '--tasks',
      '1',
      '--budgets',
      '16',
      '32',
      '--init',
      '16',
      '--batch',
      '16',
      '--candidates',
      '64',
      '--eval-pool',
      '128',
      '--max-log2',
      '6',
    ]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/uncertainty: AUC/);
    expect(await main(['experiment', 'settlement-scaling', '--tasks', '1', '--budgets', '10', '--init', '16'])).toBe(2);
  });
});
