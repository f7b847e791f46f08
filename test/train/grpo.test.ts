import { describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { computeAdvantages, grpoLoss, grpoLossReference, k3, type GrpoTokens } from '../../src/train/grpo.ts';

describe('advantages', () => {
  it('group scaling: (r − mean) / (std + eps) with the unbiased std, per group', () => {
    const { advantages, valid } = computeAdvantages([1, 0, 0, 1, 5, 5, 5, 5], 4, 'group', 0);
    // group 1: mean 0.5, std sqrt(1/3)
    const s = Math.sqrt(1 / 3);
    expect([...advantages.slice(0, 4)].map((x) => +x.toFixed(5))).toEqual([0.5 / s, -0.5 / s, -0.5 / s, 0.5 / s].map((x) => +x.toFixed(5)));
    // identical rewards → zero advantage (no division blow-up with eps)
    expect([...advantages.slice(4)]).toEqual([0, 0, 0, 0]);
    expect(valid.every(Boolean)).toBe(true);
  });

  it('none: centred only; batch: one std over the whole batch', () => {
    expect([...computeAdvantages([3, 1], 2, 'none').advantages]).toEqual([1, -1]);
    const r = [0, 2, 10, 14];
    const mean = 6.5;
    const std = Math.sqrt(r.reduce((a, x) => a + (x - mean) ** 2, 0) / 3);
    const a = computeAdvantages(r, 2, 'batch', 0).advantages;
    expect(a[0]).toBeCloseTo(-1 / std, 6);
    expect(a[3]).toBeCloseTo(2 / std, 6);
  });

  it('a null reward is excluded from its group statistics and gets advantage 0', () => {
    const { advantages, valid } = computeAdvantages([1, null, 0, 0.5], 4, 'none');
    expect(valid).toEqual([true, false, true, true]);
    expect(advantages[1]).toBe(0);
    expect(advantages[0]).toBeCloseTo(0.5, 6); // mean of {1, 0, 0.5} = 0.5
  });
});

describe('k3 and the reference loss', () => {
  it('k3 matches hand computation and is zero at equality', () => {
    expect(k3(-1, -1)).toBe(0);
    // ref − logp = 0.5 → e^0.5 − 0.5 − 1
    expect(k3(-1.5, -1)).toBeCloseTo(Math.exp(0.5) - 1.5, 12);
    expect(k3(-1, -1.5)).toBeCloseTo(Math.exp(-0.5) + 0.5 - 1, 12);
  });

  const tokens: GrpoTokens = {
    batch: 2,
    length: 3,
    oldLogp: new Float32Array([-1, -1, -1, -2, -2, 0]),
    refLogp: new Float32Array([-1, -1, -1, -2, -2, 0]),
    mask: new Float32Array([1, 1, 1, 1, 1, 0]),
    advantages: new Float32Array([1, -1]),
  };
  const newLogp = new Float32Array([-0.5, -1, -1, -2, -2.5, 0]);
  const rho0 = Math.exp(0.5); // clipped at 1.2 for A=+1

  it('aggregations differ exactly as specified', () => {
    const opts = { clipLow: 0.2, clipHigh: 0.2, beta: 0 } as const;
    const row0 = [-Math.min(rho0, 1.2), -1, -1];
    const rho4 = Math.exp(-0.5); // A=−1: −min(−ρ, −clip(ρ)) = max(ρ, clip(ρ)) = 0.8
    const row1 = [1, Math.max(rho4, 0.8)];
    const grpo = ((row0[0]! + row0[1]! + row0[2]!) / 3 + (row1[0]! + row1[1]!) / 2) / 2;
    const bnpo = (row0.reduce((a, b) => a + b) + row1.reduce((a, b) => a + b)) / 5;
    const dr = (row0.reduce((a, b) => a + b) + row1.reduce((a, b) => a + b)) / (2 * 3);
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'grpo' }).loss).toBeCloseTo(grpo, 6);
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'bnpo' }).loss).toBeCloseTo(bnpo, 6);
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'dr_grpo' }).loss).toBeCloseTo(dr, 6);
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'dr_grpo', maxLength: 10 }).loss).toBeCloseTo((dr * 6) / 20, 6);
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'grpo' }).clipFraction).toBeCloseTo(2 / 5, 6); // token 0 (A>0, ρ>1.2) and token 4 (A<0, ρ<0.8)
  });

  it('the tfjs loss equals the reference for every aggregation, with KL', async () => {
    await initTf(() => {});
    for (const aggregation of ['grpo', 'bnpo', 'dr_grpo'] as const) {
      const opts = { clipLow: 0.2, clipHigh: 0.28, beta: 0.04, aggregation };
      const want = grpoLossReference(newLogp, tokens, opts).loss;
      const got = tf.tidy(() => grpoLoss(tf.tensor2d(newLogp, [2, 3]), tokens, opts).dataSync()[0]!);
      expect(got).toBeCloseTo(want, 5);
    }
  });

  it('masked tokens do not contribute, whatever their log-probs', async () => {
    await initTf(() => {});
    const opts = { clipLow: 0.2, clipHigh: 0.2, beta: 0.1, aggregation: 'bnpo' as const };
    const a = newLogp.slice();
    a[5] = -50;
    const x = tf.tidy(() => grpoLoss(tf.tensor2d(newLogp, [2, 3]), tokens, opts).dataSync()[0]!);
    const y = tf.tidy(() => grpoLoss(tf.tensor2d(a, [2, 3]), tokens, opts).dataSync()[0]!);
    expect(y).toBe(x);
  });

  it('the gradient raises log-probs of positive-advantage tokens and lowers negative ones', async () => {
    await initTf(() => {});
    const t: GrpoTokens = { ...tokens, oldLogp: newLogp, refLogp: newLogp };
    const g = tf.tidy(() => {
      const x = tf.tensor2d(newLogp, [2, 3]);
      return tf.grad((v: tf.Tensor) => grpoLoss(v as tf.Tensor2D, t, { clipLow: 0.2, clipHigh: 0.2, beta: 0, aggregation: 'bnpo' }))(x).dataSync();
    });
    expect(g[0]).toBeLessThan(0); // minimising: descent increases logp where A > 0
    expect(g[3]).toBeGreaterThan(0);
    expect(g[5]).toBe(0);
  });
});
