import { beforeAll, describe, expect, it } from 'vitest';
import { runSettlementLoop, topK } from '../../../src/research/experiments/settlement-loop.ts';
import { fitRidgeF64, predictLinear } from '../../../src/reward/models/ridge-math.ts';
import { RidgeRewardModel } from '../../../src/reward/models/ridge.ts';
import { initTf } from '../../../src/tf/backend.ts';
import { dsl6 } from '../../../src/tasks/index.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runCli } from '../../helpers/cli.ts';
import { main } from '../../../src/cli/main.ts';

describe('settlement loop (tiny sizes)', () => {
  it('topK takes the largest scores, lower index first on ties', () => {
    expect(topK([0.1, 0.5, 0.5, 0.9, 0.2], 3)).toEqual([3, 1, 2]);
  });

  it('arms agree in round 1 (same fit, same pool) and anchored accumulates labels', () => {
    const r = runSettlementLoop({ domain: 'dsl6', tasks: 2, seed: 1, rounds: 4, pool: 128, top: 16, base: 100 });
    expect(r.perRound).toHaveLength(4);
    expect(r.perRound[0]!.anchored).toEqual(r.perRound[0]!.frozen);
    expect(r.anchoredFinalLabels).toBe(100 + 4 * 16);
    // After a refit the arms are different models: some later round must differ.
    expect(r.perRound.slice(1).some((x) => x.anchored.drift.mean !== x.frozen.drift.mean)).toBe(true);
    for (const x of r.perRound) {
      expect(x.oracleTopGold.mean).toBeGreaterThanOrEqual(x.anchored.gold.mean - 1e-12);
      expect(x.oracleTopGold.mean).toBeGreaterThanOrEqual(x.frozen.gold.mean - 1e-12);
    }
  });

  it('CLI smoke: --tasks 2 --json, and the text table', async () => {
    const r = runCli(['experiment', 'settlement-loop', '--tasks', '2', '--rounds', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).perRound).toHaveLength(3);
    expect(await main(['experiment', 'settlement-loop', '--tasks', '2', '--rounds', '2'])).toBe(0);
    expect(await main(['experiment', 'settlement-loop', '--tasks', '2', '--top', '600'])).toBe(2);
  });
});

describe("the sweeps' float64 ridge equals the tfjs reward model on DSL-6 features", () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('same predictions (float32 tolerance) on 300 labelled random programs', async () => {
    const rng = new Rng(11);
    const task = dsl6.sampleTask(rng);
    const progs = Array.from({ length: 300 }, () => dsl6.randomProgram(rng));
    const X = progs.map((p) => dsl6.features(p));
    const y = progs.map((p) => dsl6.evaluate(p, task));
    const m = new RidgeRewardModel({ alpha: 1, standardize: false });
    await m.fit(X, y);
    const a = await m.predict(X);
    const b = predictLinear(fitRidgeF64(X, y, { alpha: 1 }), X);
    let maxDiff = 0;
    for (let i = 0; i < 300; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
    expect(maxDiff).toBeLessThan(1e-4);
  });
});
