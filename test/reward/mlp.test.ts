import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initTf, tf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';
import { MlpRewardModel } from '../../src/reward/models/mlp.ts';
import { loadRewardModel } from '../../src/reward/models/kinds.ts';

beforeAll(async () => {
  await initTf(() => {});
});

// XOR-like target a linear model cannot fit: y = 1 when exactly one of x0, x1 is above 0.5.
function xorData(seed: number, n: number): { X: Float32Array[]; y: number[] } {
  const rng = new Rng(seed);
  const X = Array.from({ length: n }, () => Float32Array.from([rng.next(), rng.next(), rng.next()]));
  const y = X.map((r) => (r[0]! > 0.5 !== r[1]! > 0.5 ? 1 : 0));
  return { X, y };
}

const mse = (p: Float32Array, y: number[]): number => y.reduce((s, v, i) => s + (p[i]! - v) ** 2, 0) / y.length;
const opts = { hidden: [16], epochs: 150, lr: 0.01, batchSize: 64, weightDecay: 0, seed: 3 };

describe('MlpRewardModel', () => {
  it('learns a nonlinear function (XOR quadrants) far below the constant-predictor error', async () => {
    const train = xorData(1, 400);
    const test = xorData(2, 200);
    const m = new MlpRewardModel(opts);
    await m.fit(train.X, train.y);
    const base = test.y.reduce((a, b) => a + b, 0) / test.y.length;
    const constMse = test.y.reduce((s, v) => s + (v - base) ** 2, 0) / test.y.length;
    const err = mse(await m.predict(test.X), test.y);
    expect(err).toBeLessThan(constMse * 0.4);
    m.dispose();
  });

  it('is deterministic for a seed, keeps tensor count flat, and round-trips save/load', async () => {
    const d = xorData(4, 120);
    const o = { ...opts, epochs: 20 };
    const a = new MlpRewardModel(o);
    const b = new MlpRewardModel(o);
    await a.fit(d.X, d.y);
    await b.fit(d.X, d.y);
    const pa = await a.predict(d.X);
    expect(Array.from(await b.predict(d.X))).toEqual(Array.from(pa));
    b.dispose();
    const count = tf.memory().numTensors;
    await a.refit(d.X.slice(0, 10), d.y.slice(0, 10));
    await a.predict(d.X);
    expect(tf.memory().numTensors).toBe(count);
    expect(a.labelCount).toBe(130);
    const dir = mkdtempSync(join(tmpdir(), 'mlp-'));
    try {
      await a.save(dir);
      const loaded = await loadRewardModel(dir);
      expect(loaded.kind).toBe('mlp');
      expect(Array.from(await loaded.predict(d.X))).toEqual(Array.from(await a.predict(d.X)));
      (loaded as MlpRewardModel).dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    a.dispose();
  });
});
