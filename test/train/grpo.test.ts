import { describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { computeAdvantages, reinforcePlusPlusAdvantages, zeroStdGroups } from '../../src/train/advantages.ts';
import {
  grpoLoss,
  grpoLossReference,
  k3,
  mismatchKl,
  overlongPenalty,
  truncatedIsWeights,
  type GrpoTokens,
} from '../../src/train/grpo.ts';

describe('advantages', () => {
  it('group scaling: (r − mean) / (std + eps) with the unbiased std, per group', () => {
    const { advantages, valid } = computeAdvantages([1, 0, 0, 1, 5, 5, 5, 5], 4, 'group', 0);
    // group 1: mean 0.5, std sqrt(1/3)
    const s = Math.sqrt(1 / 3);
    expect([...advantages.slice(0, 4)].map((x) => +x.toFixed(5))).toEqual(
      [0.5 / s, -0.5 / s, -0.5 / s, 0.5 / s].map((x) => +x.toFixed(5)),
    );
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

describe('RLOO, REINFORCE++, zero-std groups, overlong shaping', () => {
  it('rloo: reward minus the mean of the other valid group members', () => {
    const a = computeAdvantages([1, 0, 0, 1, 3, 3, 3, 3], 4, 'none', 1e-4, 'rloo').advantages;
    expect(a[0]).toBeCloseTo(1 - 1 / 3, 6); // others: 0, 0, 1
    expect(a[1]).toBeCloseTo(0 - 2 / 3, 6); // others: 1, 0, 1
    expect([...a.slice(4)]).toEqual([0, 0, 0, 0]);
    const n = computeAdvantages([1, null, 0, 0.5], 4, 'none', 1e-4, 'rloo');
    expect(n.advantages[0]).toBeCloseTo(1 - 0.25, 6); // others: 0, 0.5
    expect(n.advantages[3]).toBeCloseTo(0.5 - 0.5, 6);
    expect(n.advantages[1]).toBe(0);
    // a lone valid member has no baseline
    expect(computeAdvantages([2, null], 2, 'none', 1e-4, 'rloo').advantages[0]).toBe(0);
    // the default baseline is untouched: grpo is r − group mean
    expect([...computeAdvantages([3, 1], 2, 'none', 1e-4, 'grpo').advantages]).toEqual([1, -1]);
  });

  it('zero-std groups: all-equal or fewer than two valid rewards', () => {
    expect(zeroStdGroups([1, 1, 1, 1, 0, 1, 0, 0, null, 2, null, null, 0.5, 0.5, null, 0.5], 4)).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });

  it('overlong penalty: 0, then linear to −factor over the last buffer tokens', () => {
    expect(overlongPenalty(16, 24, 8, 1)).toBe(0);
    expect(overlongPenalty(20, 24, 8, 1)).toBeCloseTo(-0.5, 12);
    expect(overlongPenalty(24, 24, 8, 1)).toBeCloseTo(-1, 12);
    expect(overlongPenalty(22, 24, 8, 0.5)).toBeCloseTo(-0.5 * (6 / 8), 12);
    expect(overlongPenalty(24, 24, 0, 1)).toBe(0);
  });

  it('reinforce_pp: reward − β·(k1 KL to come), whitened over the batch tokens', () => {
    const t = {
      batch: 2,
      length: 3,
      oldLogp: new Float32Array([-1, -1, -1, -1, -1, -9]),
      refLogp: new Float32Array([-1.1, -1.2, -1.3, -1.4, -0.8, 0]),
      mask: new Float32Array([1, 1, 1, 1, 1, 0]),
    };
    // per-token k1: row0 [0.1, 0.2, 0.3], row1 [0.4, −0.2]; β = 0.5, rewards [1, 0]
    const raw = [1 - 0.5 * 0.6, 1 - 0.5 * 0.5, 1 - 0.5 * 0.3, 0 - 0.5 * 0.2, 0 - 0.5 * -0.2];
    const mean = raw.reduce((a, b) => a + b) / 5;
    const std = Math.sqrt(raw.reduce((a, x) => a + (x - mean) ** 2, 0) / 4);
    const a = reinforcePlusPlusAdvantages([1, 0], t, 0.5, 0);
    [0, 1, 2, 3, 4].forEach((i) => expect(a[i]).toBeCloseTo((raw[i]! - mean) / std, 5));
    expect(a[5]).toBe(0);
    // a null reward's row is left out of the statistics and gets 0
    const b = reinforcePlusPlusAdvantages([1, null], t, 0.5, 0);
    expect([...b.slice(3)]).toEqual([0, 0, 0]);
    const r0 = raw.slice(0, 3);
    const m0 = r0.reduce((x, y) => x + y) / 3;
    const s0 = Math.sqrt(r0.reduce((x, y) => x + (y - m0) ** 2, 0) / 2);
    expect(b[0]).toBeCloseTo((r0[0]! - m0) / s0, 5);
  });
});

describe('rollout/trainer mismatch', () => {
  it('TIS weights min(π_train/π_rollout, C) on unmasked tokens, and the k3 mismatch KL', () => {
    const train = new Float32Array([-1, -1, -3]);
    const rollout = new Float32Array([-1.5, -0.5, 0]);
    const mask = new Float32Array([1, 1, 0]);
    const w = truncatedIsWeights(train, rollout, mask, 1.5);
    expect(w[0]).toBeCloseTo(1.5, 6); // e^0.5 = 1.65 capped
    expect(w[1]).toBeCloseTo(Math.exp(-0.5), 6);
    expect(w[2]).toBe(1);
    // samples from the rollout policy: k3(logπ_rollout, logπ_train) = e^d − d − 1, d = train − rollout
    expect(mismatchKl(rollout, train, mask)).toBeCloseTo((Math.exp(0.5) - 1.5 + Math.exp(-0.5) + 0.5 - 1) / 2, 6);
    expect(mismatchKl(train, train, mask)).toBe(0);
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
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'dr_grpo', maxLength: 10 }).loss).toBeCloseTo(
      (dr * 6) / 20,
      6,
    );
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'grpo' }).clipFraction).toBeCloseTo(2 / 5, 6); // token 0 (A>0, ρ>1.2) and token 4 (A<0, ρ<0.8)
  });

  it('kl is reported at β = 0 (the loss ignores it, the metric does not)', () => {
    const kl = (Math.exp(-0.5) + 0.5 - 1 + (Math.exp(0.5) - 0.5 - 1)) / 5; // tokens 0 and 4 differ from ref
    const r = grpoLossReference(newLogp, tokens, { clipLow: 0.2, clipHigh: 0.2, beta: 0, aggregation: 'grpo' });
    expect(r.kl).toBeCloseTo(kl, 6);
    expect(r.kl).toBeGreaterThan(0);
  });

  it('GSPO: one ratio per sequence, the geometric mean of its token ratios, clipped', () => {
    const opts = { clipLow: 0.2, clipHigh: 0.2, beta: 0, aggregation: 'grpo', importanceLevel: 'sequence' } as const;
    const s0 = Math.exp((0.5 + 0 + 0) / 3); // 1.18 < 1.2: not clipped, A = +1
    const _s1 = Math.exp((0 - 0.5) / 2); // 0.78 < 0.8 with A = −1: clipped → 0.8
    const r = grpoLossReference(newLogp, tokens, opts);
    expect(r.loss).toBeCloseTo((-s0 + 0.8) / 2, 6);
    expect(r.clipFraction).toBeCloseTo(2 / 5, 6); // both tokens of row 1
    expect(grpoLossReference(newLogp, tokens, { ...opts, aggregation: 'bnpo' }).loss).toBeCloseTo((-3 * s0 + 2 * 0.8) / 5, 6);
  });

  it('TIS weights multiply the surrogate, not the KL term', () => {
    const isWeights = new Float32Array([2, 1, 0.5, 1, 0.25, 1]);
    const opts = { clipLow: 0.2, clipHigh: 0.2, beta: 0.1, aggregation: 'bnpo' } as const;
    const kl = (i: number) => k3(newLogp[i]!, tokens.refLogp[i]!);
    const sur = [-Math.min(rho0, 1.2), -1, -1, 1, Math.max(Math.exp(-0.5), 0.8)];
    const want = sur.reduce((a, v, i) => a + v * isWeights[i]! + 0.1 * kl(i), 0) / 5;
    expect(grpoLossReference(newLogp, { ...tokens, isWeights }, opts).loss).toBeCloseTo(want, 6);
  });

  it('per-token advantages [B × T] are read per token', () => {
    const perToken = new Float32Array([1, 1, 1, -1, -1, 0]);
    const opts = { clipLow: 0.2, clipHigh: 0.28, beta: 0.04, aggregation: 'grpo' } as const;
    expect(grpoLossReference(newLogp, { ...tokens, advantages: perToken }, opts).loss).toBeCloseTo(
      grpoLossReference(newLogp, tokens, opts).loss,
      6,
    );
    const mixed = new Float32Array([2, 0, 0, 0, -1, 0]);
    const want = (-Math.min(rho0 * 2, 1.28 * 2) / 3 + Math.max(Math.exp(-0.5), 0.8) / 2) / 2;
    expect(grpoLossReference(newLogp, { ...tokens, advantages: mixed }, { ...opts, beta: 0 }).loss).toBeCloseTo(want, 6);
  });

  it('the tfjs loss equals the reference with GSPO, TIS and per-token advantages', async () => {
    await initTf(() => {});
    const isWeights = new Float32Array([2, 1, 0.5, 1, 0.25, 1]);
    const perToken = new Float32Array([2, 0.5, -1, 0.3, -1, 0]);
    for (const importanceLevel of ['token', 'sequence'] as const) {
      for (const aggregation of ['grpo', 'bnpo', 'dr_grpo'] as const) {
        for (const t of [tokens, { ...tokens, isWeights }, { ...tokens, advantages: perToken, isWeights }]) {
          const opts = { clipLow: 0.2, clipHigh: 0.28, beta: 0.04, aggregation, importanceLevel };
          const want = grpoLossReference(newLogp, t, opts).loss;
          const got = tf.tidy(() => grpoLoss(tf.tensor2d(newLogp, [2, 3]), t, opts).dataSync()[0]!);
          expect(got).toBeCloseTo(want, 5);
        }
      }
    }
  });

  it('GSPO gradient: equal on every token of a sequence (the ratio is the sequence mean)', async () => {
    await initTf(() => {});
    const shift = [0.1, -0.1, 0.05, 0.05, -0.05, 0];
    const t: GrpoTokens = { ...tokens, oldLogp: newLogp.map((v, i) => v - shift[i]!), refLogp: newLogp };
    const grad = (importanceLevel: 'token' | 'sequence') =>
      tf.tidy(() =>
        tf
          .grad((v: tf.Tensor) =>
            grpoLoss(v as tf.Tensor2D, t, { clipLow: 0.2, clipHigh: 0.2, beta: 0, aggregation: 'bnpo', importanceLevel }),
          )(tf.tensor2d(newLogp, [2, 3]))
          .dataSync(),
      );
    // bnpo over 5 tokens, row 0 (A = +1): loss −3·s·A/5 with log s = mean(0.1, −0.1, 0.05) → −s/5 on each token
    const g = grad('sequence');
    const s0 = Math.exp(0.05 / 3);
    [0, 1, 2].forEach((i) => expect(g[i]).toBeCloseTo(-s0 / 5, 6));
    [3, 4].forEach((i) => expect(g[i]).toBeCloseTo(1 / 5, 6)); // row 1: s = 1, A = −1
    expect(g[5]).toBe(0);
    // per token, the same tokens get −ρ_t/5: different on every token
    const gt = grad('token');
    expect(gt[0]).toBeCloseTo(-Math.exp(0.1) / 5, 6);
    expect(gt[1]).toBeCloseTo(-Math.exp(-0.1) / 5, 6);
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
      return tf
        .grad((v: tf.Tensor) => grpoLoss(v as tf.Tensor2D, t, { clipLow: 0.2, clipHigh: 0.2, beta: 0, aggregation: 'bnpo' }))(x)
        .dataSync();
    });
    expect(g[0]).toBeLessThan(0); // minimising: descent increases logp where A > 0
    expect(g[3]).toBeGreaterThan(0);
    expect(g[5]).toBe(0);
  });
});
