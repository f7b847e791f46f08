/**
 * The advantage-estimator registry: every estimator honours the contract the update relies on
 * (shape, masked rows, the KL flag), and the config offers exactly the registry's names.
 */
import { describe, expect, it } from 'vitest';
import {
  ADVANTAGE_ESTIMATORS,
  ADVANTAGE_ESTIMATOR_NAMES,
  type AdvantageEstimator,
  type AdvantageInput,
} from '../../src/train/advantages.ts';
import { grpoConfigSchema } from '../../src/train/config.ts';

/** Two groups of three completions of two tokens; completion 4's reward is null (masked out). */
function input(beta = 0.1): AdvantageInput {
  const rewards = [1, 0, 0, 0.5, null, 1];
  const mask = Float32Array.from([1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1]);
  return {
    rewards,
    groupSize: 3,
    scale: 'group',
    eps: 1e-4,
    beta,
    tokens: {
      batch: 6,
      length: 2,
      oldLogp: Float32Array.from({ length: 12 }, (_, i) => -0.1 * (i + 1)),
      refLogp: Float32Array.from({ length: 12 }, (_, i) => -0.12 * (i + 1)),
      mask,
    },
  };
}

describe('advantage estimators', () => {
  const entries = Object.entries(ADVANTAGE_ESTIMATORS) as [string, AdvantageEstimator][];

  it.each(entries)('%s: one advantage per completion or per token, 0 for a masked-out completion', (_name, est) => {
    const a = est.advantages(input());
    expect([6, 12]).toContain(a.length);
    const per = a.length / 6;
    for (let k = 0; k < per; k++) expect(a[4 * per + k]).toBe(0);
    expect(Array.from(a).every(Number.isFinite)).toBe(true);
  });

  it('grpo: within each group the advantages sum to zero and follow the reward order', () => {
    const a = ADVANTAGE_ESTIMATORS.grpo.advantages(input());
    expect(a[0]! + a[1]! + a[2]!).toBeCloseTo(0, 6);
    expect(a[0]!).toBeGreaterThan(0);
    expect(a[5]!).toBeGreaterThan(a[3]!);
  });

  it('rloo: with no scaling, each advantage is the reward minus the mean of the others', () => {
    const a = ADVANTAGE_ESTIMATORS.rloo.advantages({ ...input(), scale: 'none' });
    expect(a[0]).toBeCloseTo(1 - 0, 6);
    expect(a[3]).toBeCloseTo(0.5 - 1, 6); // completion 4 is masked: the group's others are {5}
  });

  it('reinforce_pp: per token, with β in the reward (the loss then carries no KL)', () => {
    expect(ADVANTAGE_ESTIMATORS.reinforce_pp.klInReward).toBe(true);
    const noKl = ADVANTAGE_ESTIMATORS.reinforce_pp.advantages(input(0));
    const withKl = ADVANTAGE_ESTIMATORS.reinforce_pp.advantages(input(1));
    expect(noKl).toHaveLength(12);
    expect(Array.from(withKl)).not.toEqual(Array.from(noKl));
    expect(ADVANTAGE_ESTIMATORS.grpo.klInReward).toBe(false);
  });

  it('the config offers exactly the registry, and documents each entry', () => {
    for (const name of ADVANTAGE_ESTIMATOR_NAMES) expect(grpoConfigSchema.parse({ advantage: name }).advantage).toBe(name);
    expect(() => grpoConfigSchema.parse({ advantage: 'ppo' })).toThrow();
    const doc = grpoConfigSchema.shape.advantage.description ?? '';
    for (const [name, e] of entries) expect(doc).toContain(`\`${name}\` (${e.describe})`);
  });
});
