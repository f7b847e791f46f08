import { beforeAll, describe, expect, it } from 'vitest';
import { committeeDisagreement } from '../../src/reward/models/committee.ts';
import { rewardModelSchema } from '../../src/reward/models/config.ts';
import { createRewardModel } from '../../src/reward/models/index.ts';
import { initTf, tf } from '../../src/tf/backend.ts';
import {
  SETTLEMENT_STRATEGIES,
  STRATEGY_NAMES,
  instantCount,
  settleCount,
  topK,
  type Claim,
  type SelectionContext,
} from '../../src/train/settlement.ts';
import { settlementConfigSchema } from '../../src/train/config.ts';
import { Rng } from '../../src/util/rng.ts';

const claims: Claim[] = [0.1, 0.9, 0.5, 0.7, 0.2].map((proxy, i) => ({
  step: 0,
  index: i,
  problem: 0,
  text: `c${i}`,
  proxy,
  gold: null,
}));
/** A context whose committee disagrees most on claims 0 and 4 (and must not be asked by the others). */
const ctx = (asked: { n: number }): SelectionContext => ({
  disagreement: async (cs) => {
    asked.n++;
    return Float64Array.from(cs, (c) => [0.3, 0.01, 0.02, 0.05, 0.2][c.index]!);
  },
});

describe('settlement strategies', () => {
  // The contract every registered strategy keeps (a new entry is checked here at once).
  it.each(Object.entries(SETTLEMENT_STRATEGIES))(
    '%s: ascending distinct indices into the window, at most k (whole groups aside), the same for the same seed',
    async (name, st) => {
      expect(st.name).toBe(name);
      const window: Claim[] = Array.from({ length: 24 }, (_, i) => ({
        step: Math.floor(i / 8),
        index: i % 8,
        problem: Math.floor(i / 4) % 5,
        text: `c${i}`,
        proxy: ((i * 7) % 11) / 11,
        gold: null,
        group: Math.floor(i / 4),
      }));
      const spread = (): SelectionContext => ({
        disagreement: async (cs) => Float64Array.from(cs, (c) => ((c.index * 5) % 7) / 7),
      });
      for (const k of [0, 1, 4, 8, 30]) {
        const picked = await st.select(window, k, new Rng(11), spread());
        expect(picked.every((i) => Number.isInteger(i) && i >= 0 && i < window.length)).toBe(true);
        expect(picked).toEqual([...new Set(picked)].sort((a, b) => a - b));
        expect(picked.length).toBeLessThanOrEqual(Math.min(window.length, name === 'groups' ? Math.max(k, 4) : k));
        if (k === 0) expect(picked).toEqual([]);
        expect(await st.select(window, k, new Rng(11), spread())).toEqual(picked);
      }
    },
  );
  it('the config offers exactly the registry, and documents each entry', () => {
    expect(STRATEGY_NAMES).toEqual(Object.keys(SETTLEMENT_STRATEGIES));
    for (const name of STRATEGY_NAMES) expect(settlementConfigSchema.parse({ strategy: name }).strategy).toBe(name);
    expect(() => settlementConfigSchema.parse({ strategy: 'nope' })).toThrow();
    const doc = settlementConfigSchema.shape.strategy.description ?? '';
    for (const st of Object.values(SETTLEMENT_STRATEGIES)) expect(doc).toContain(`\`${st.name}\`: ${st.describe}`);
  });
  it('settleCount rounds with a floor of one', () => {
    expect(settleCount(200, 0.1)).toBe(20);
    expect(settleCount(5, 0.01)).toBe(1);
    expect(settleCount(5, 0)).toBe(0);
    expect(settleCount(0, 0.5)).toBe(0);
  });
  it('topK breaks ties by index and returns ascending indices', () => {
    expect(topK([0.5, 0.9, 0.5, 0.1], 2)).toEqual([0, 1]);
    expect(topK([1, 1, 1], 5)).toEqual([0, 1, 2]);
  });
  it('top-proxy takes the highest RM scores without asking the committee', async () => {
    const asked = { n: 0 };
    expect(await SETTLEMENT_STRATEGIES['top-proxy'].select(claims, 2, new Rng(0), ctx(asked))).toEqual([1, 3]);
    expect(asked.n).toBe(0);
  });
  it('random is seeded, distinct and does not ask the committee', async () => {
    const asked = { n: 0 };
    const r1 = await SETTLEMENT_STRATEGIES.random.select(claims, 3, new Rng(7), ctx(asked));
    expect(await SETTLEMENT_STRATEGIES.random.select(claims, 3, new Rng(7), ctx(asked))).toEqual(r1);
    expect(new Set(r1).size).toBe(3);
    expect([...r1].sort((a, b) => a - b)).toEqual(r1);
    expect(asked.n).toBe(0);
  });
  it('uncertainty takes the claims the committee disagrees on most', async () => {
    const asked = { n: 0 };
    expect(await SETTLEMENT_STRATEGIES.uncertainty.select(claims, 2, new Rng(0), ctx(asked))).toEqual([0, 4]);
    expect(asked.n).toBe(1);
  });
  it('groups settles whole GRPO groups at the same budget as a uniform sample', async () => {
    // A window of 10 steps × 4 prompts × 8 completions: 320 claims, 40 groups.
    const window: Claim[] = [];
    for (let step = 0; step < 10; step++) {
      for (let i = 0; i < 32; i++)
        window.push({
          step,
          index: i,
          problem: (step * 4 + Math.floor(i / 8)) % 7,
          text: '',
          proxy: 0,
          gold: null,
          group: step * 4 + Math.floor(i / 8),
        });
    }
    const k = settleCount(window.length, 0.1);
    const picked = await SETTLEMENT_STRATEGIES.groups.select(window, k, new Rng(3), ctx({ n: 0 }));
    expect(picked).toHaveLength(k); // 32 = 4 whole groups
    const byGroup = new Map<number, number>();
    for (const i of picked) byGroup.set(window[i]!.group!, (byGroup.get(window[i]!.group!) ?? 0) + 1);
    expect([...byGroup.values()]).toEqual([8, 8, 8, 8]);
    expect(await SETTLEMENT_STRATEGIES.groups.select(window, k, new Rng(3), ctx({ n: 0 }))).toEqual(picked);
    // k not a multiple of G: the nearest whole number of groups (at least one).
    expect(await SETTLEMENT_STRATEGIES.groups.select(window, 13, new Rng(3), ctx({ n: 0 }))).toHaveLength(16);
    expect(await SETTLEMENT_STRATEGIES.groups.select(window, 1, new Rng(3), ctx({ n: 0 }))).toHaveLength(8);
  });
  it('instant settlement carries the fraction, so a window settles what a window-end settlement would', () => {
    let carry = 0;
    let total = 0;
    for (let step = 0; step < 120; step++) {
      const r = instantCount(32, 0.1, carry);
      carry = r.carry;
      total += r.k;
      expect(r.k === 3 || r.k === 4).toBe(true);
    }
    expect(total).toBe(384); // = 12 windows × settleCount(320, 0.1)
  });
  it('mixed is half top-proxy, half random from the rest', async () => {
    const m = await SETTLEMENT_STRATEGIES.mixed.select(claims, 4, new Rng(1), ctx({ n: 0 }));
    expect(m).toHaveLength(4);
    expect(m).toContain(1);
    expect(m).toContain(3);
    expect(new Set(m).size).toBe(4);
  });
});

describe('bootstrap committee', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });
  it('disagrees more off the label distribution than on it, deterministically, without leaking tensors', async () => {
    // Labels y = x0 on x0 ∈ [0, 1]; x1 is noise. Rows far outside the data are where the
    // bootstrap fits disagree (their slopes differ a little, and far away that is a lot).
    const rng = new Rng(3);
    const X = Array.from({ length: 60 }, () => Float32Array.from([rng.next(), rng.next()]));
    const y = X.map((r) => r[0]! + 0.1 * (rng.next() - 0.5));
    const cfg = rewardModelSchema.parse({ kind: 'ridge', alpha: 0.1 });
    const rm = createRewardModel(cfg);
    await rm.fit(X, y);
    const probe = [Float32Array.from([0.5, 0.5]), Float32Array.from([20, -20])];
    const before = tf.memory().numTensors;
    const d1 = await committeeDisagreement(rm, cfg, probe, new Rng(9), { members: 5 });
    const d2 = await committeeDisagreement(rm, cfg, probe, new Rng(9), { members: 5 });
    expect(tf.memory().numTensors).toBe(before);
    expect(Array.from(d1)).toEqual(Array.from(d2));
    expect(d1[0]!).toBeGreaterThan(0);
    expect(d1[1]!).toBeGreaterThan(10 * d1[0]!);
    // A committee of one resample of identical labels has nothing to disagree on.
    const flat = createRewardModel(cfg);
    await flat.fit(
      X,
      X.map(() => 0.5),
    );
    const d0 = await committeeDisagreement(flat, cfg, probe, new Rng(1), { members: 3 });
    expect(Math.max(...d0)).toBeLessThan(1e-6);
  });
});
