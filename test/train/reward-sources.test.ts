import { describe, expect, it } from 'vitest';
import { computeAdvantages } from '../../src/train/advantages.ts';
import { REWARD_SOURCES, type RewardContext, type ScoredRollouts } from '../../src/train/reward-sources.ts';
import type { Problem } from '../../src/datasets/problem.ts';

/** Two groups of four completions; the RM prefers completions 0 and 4, which fail. */
const proxy = Float32Array.from([0.9, 0.2, 0.3, 0.1, 0.8, 0.4, 0.1, 0.2]);
const gold = [0, 1, 0, 0, 0, 1, 0, 0];
const scored = {
  step: 0,
  promptIdx: [0, 1],
  problems: Array(8).fill({ id: 'p' } as unknown as Problem),
  completions: [],
  texts: gold.map((_, i) => `c${i}`),
  features: [],
  proxy,
  results: undefined,
  gold: gold.map(() => null),
} as unknown as ScoredRollouts;

function context(chosen: number[], rmShare = 1): RewardContext & { charged: number; executed: string[] } {
  const ctx = {
    charged: 0,
    executed: [] as string[],
    rmWeight: 0.5,
    rmShare,
    silenced: 'weight' as 'weight' | 'mask',
    rmReward: async (s: ScoredRollouts) => Array.from(s.proxy),
    shapeGold: (g: number) => g,
    instantChoice: async () => chosen,
    execute: async (_: readonly Problem[], texts: readonly string[]) => {
      ctx.executed.push(...texts);
      return texts.map((t) => gold[Number(t.slice(1))]!);
    },
    charge: (n: number) => (ctx.charged += n),
  };
  return ctx;
}

describe('hybrid reward source (instant settlement)', () => {
  it('replaces the chosen completions’ RM scores by their executed gold, charges them and reports them settled', async () => {
    const ctx = context([0, 5]);
    const r = await REWARD_SOURCES.hybrid.reward(scored, ctx);
    expect(r.values.map((v) => Number(v!.toFixed(6)))).toEqual([0, 0.2, 0.3, 0.1, 0.8, 1, 0.1, 0.2]);
    expect(ctx.executed).toEqual(['c0', 'c5']);
    expect(ctx.charged).toBe(2);
    expect(r.settled).toEqual([
      { index: 0, label: 0 },
      { index: 5, label: 1 },
    ]);
    expect(r.advantageScale).toBe(0.5);
    // The advantage inputs: group 1's RM favourite (0) is now its worst, group 2's executed pass (5) its best.
    const { advantages } = computeAdvantages(r.values, 4, 'group');
    expect(advantages[0]!).toBeLessThan(0);
    expect(Math.max(...advantages.slice(4, 8))).toBe(advantages[5]);
    const plain = computeAdvantages(Array.from(proxy), 4, 'group').advantages;
    expect(plain[0]).toBe(Math.max(...plain.slice(0, 4)));
  });
  it('with nothing chosen it is the rm source', async () => {
    const ctx = context([]);
    const h = await REWARD_SOURCES.hybrid.reward(scored, ctx);
    const rm = await REWARD_SOURCES.rm.reward(scored, ctx);
    expect(h.values).toEqual(rm.values);
    expect(ctx.charged).toBe(0);
    expect(REWARD_SOURCES.hybrid.executesRollouts).toBe(false);
  });
});

describe('settled-only reward source (control without an RM)', () => {
  it('trains on the settled completions’ gold alone: every other completion is masked out', async () => {
    const ctx = context([4, 5, 6, 7]);
    const r = await REWARD_SOURCES.settled.reward(scored, ctx);
    expect(r.values).toEqual([null, null, null, null, 0, 1, 0, 0]);
    expect(ctx.charged).toBe(4);
    const { advantages, valid } = computeAdvantages(r.values, 4, 'group');
    expect(valid).toEqual([false, false, false, false, true, true, true, true]);
    expect(Array.from(advantages.slice(0, 4))).toEqual([0, 0, 0, 0]);
    expect(advantages[5]!).toBeGreaterThan(0);
  });
});

describe('settled-rm reward source (settled groups + the RM)', () => {
  it('trains the executed group on its gold at weight 1 and the other group on the RM at proxy.weight × the adaptive weight', async () => {
    const ctx = context([4, 5, 6, 7], 0.4);
    const r = await REWARD_SOURCES['settled-rm'].reward(scored, ctx);
    expect(r.values.map((v) => Number(v!.toFixed(6)))).toEqual([0.9, 0.2, 0.3, 0.1, 0, 1, 0, 0]);
    expect(r.advantageScale).toBe(1);
    // rmWeight 0.5 (an alarmed thermostat would give 0) × proxy.weight 0.4 on the RM group.
    expect(r.weights).toEqual([0.2, 0.2, 0.2, 0.2, 1, 1, 1, 1]);
    expect(ctx.charged).toBe(4);
    expect(r.settled?.map((x) => x.index)).toEqual([4, 5, 6, 7]);
  });
  it('with the thermostat firing (rmWeight 0) only the executed group keeps an advantage', async () => {
    const ctx = { ...context([4, 5, 6, 7]), rmWeight: 0 };
    const r = await REWARD_SOURCES['settled-rm'].reward(scored, ctx);
    expect(r.weights).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });
  it('silenced with proxy.silenced mask, the RM group leaves the loss: null rewards, so only the executed group is valid', async () => {
    const weighted = await REWARD_SOURCES['settled-rm'].reward(scored, { ...context([4, 5, 6, 7]), rmWeight: 0 });
    const masked = await REWARD_SOURCES['settled-rm'].reward(scored, {
      ...context([4, 5, 6, 7]),
      rmWeight: 0,
      silenced: 'mask',
    });
    // weight: the RM group stays in the loss (its KL term, its share of the denominator) at advantage 0.
    expect(computeAdvantages(weighted.values, 4, 'group').valid).toEqual(Array(8).fill(true));
    expect(masked.values).toEqual([null, null, null, null, 0, 1, 0, 0]);
    expect(computeAdvantages(masked.values, 4, 'group').valid).toEqual([false, false, false, false, true, true, true, true]);
    // The executed group trains exactly as in the weighted form.
    expect(masked.values.slice(4)).toEqual(weighted.values.slice(4));
  });
  it('with proxy.silenced mask but the RM not silenced, nothing changes', async () => {
    const a = await REWARD_SOURCES['settled-rm'].reward(scored, context([4, 5, 6, 7]));
    const b = await REWARD_SOURCES['settled-rm'].reward(scored, { ...context([4, 5, 6, 7]), silenced: 'mask' });
    expect(b).toEqual(a);
  });
});

describe('anchoring arms in the registry', () => {
  it('each method is an arm; a hybrid arm needs execution labels', async () => {
    const { resolveArms } = await import('../../src/train/arms.ts');
    const arms = resolveArms(['hybrid', 'settled-gao', 'ensemble', 'anchored-groups', 'anchored-weighted', 'anchored-par']);
    expect(arms.map((a) => [a.reward, a.labels])).toEqual([
      ['hybrid', 'execution'],
      ['settled-rm', 'execution'],
      ['rm', 'execution'],
      ['rm', 'execution'],
      ['rm', 'execution'],
      ['rm', 'execution'],
    ]);
    expect(() => resolveArms([{ name: 'h', reward: 'hybrid', labels: 'judge', overlay: {} }])).toThrow(
      /hybrid arm needs labels execution/,
    );
    expect(() => resolveArms([{ name: 's', reward: 'settled', labels: null, overlay: {} }])).toThrow(
      /settled arm needs labels execution/,
    );
  });
});
