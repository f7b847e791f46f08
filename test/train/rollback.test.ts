/**
 * Tiny-model component tests of the rollback updater (src/train/rollback.ts): it keeps the best
 * settled window's policy and optimizer, restores them when a later window falls below it by more
 * than z standard errors (or the alarm rises), silences the RM from then on, and resumes exactly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WeightMap } from '../../src/policy/weights.ts';
import { initTf } from '../../src/tf/backend.ts';
import { clusteredMean, RollbackUpdater } from '../../src/train/rollback.ts';
import { tinyUpdateRig } from '../helpers/tiny-update.ts';

function rig(rollback: Record<string, unknown> = {}) {
  const { config, parts, batch } = tinyUpdateRig({ settlement: { rollback: { enabled: true, ...rollback } } });
  const synced = { n: 0 };
  const make = () =>
    new RollbackUpdater(parts, config.settlement.rollback, async () => {
      synced.n++;
    });
  return { updater: make(), make, batch, policy: parts.policy, optimizer: parts.optimizer, synced };
}

/** Sum of |a − b| over every tensor (0: the same weights). */
function distance(a: WeightMap, b: WeightMap): number {
  let d = 0;
  for (const [k, t] of a) {
    const u = b.get(k)!.data;
    for (let i = 0; i < t.data.length; i++) d += Math.abs(t.data[i]! - u[i]!);
  }
  return d;
}

const update = (r: ReturnType<typeof rig>, u = r.updater) => u.update(r.batch, { values: [1, 0, 0, 1], advantageScale: 1 });
/** A window of two groups of four labels each: mean `hi`/`lo` mixes. */
const window = (step: number, labels: number[], alarm = false) => ({
  step,
  labels,
  groups: labels.map((_, i) => (i < labels.length / 2 ? 0 : 1)),
  alarm,
});

describe('rollback to the best settled window', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('the mean settled gold and its standard error clustered by group (worked by hand)', () => {
    // Groups: {1, 1} mean 1, {0, 0} mean 0, {1, 0} mean 0.5 → group means 1, 0, 0.5: sd 0.5, SE 0.5/√3.
    const r = clusteredMean([1, 1, 0, 0, 1, 0], [7, 7, 8, 8, 9, 9]);
    expect(r.mean).toBeCloseTo(0.5, 12);
    expect(r.se).toBeCloseTo(0.5 / Math.sqrt(3), 12);
    // One group: no between-group spread to estimate, SE 0.
    expect(clusteredMean([1, 0], [3, 3]).se).toBe(0);
    // Ungrouped labels are each their own cluster.
    expect(clusteredMean([1, 0], [-1, -1]).se).toBeCloseTo(0.5, 12);
  });

  it('a window that falls below the best by more than z SE restores the best policy and optimizer and silences the RM', async () => {
    const r = rig({ z: 1 });
    await update(r);
    await r.updater.windowClosed(window(9, [1, 1, 1, 0, 1, 1, 0, 1])); // mean 0.75: the best so far
    const best = r.policy.getWeights();
    const bestOpt = r.optimizer.getState();
    await update(r);
    await update(r);
    expect(distance(r.policy.getWeights(), best)).toBeGreaterThan(0);
    expect(r.updater.rmWeight(1)).toBe(1);
    await r.updater.windowClosed(window(19, [0, 0, 0, 0, 0, 1, 0, 0])); // mean 0.125, far below
    expect(distance(r.policy.getWeights(), best)).toBe(0);
    expect(r.optimizer.getState().step).toBe(bestOpt.step);
    expect(distance(r.optimizer.getState().m, bestOpt.m)).toBe(0);
    expect(r.synced.n).toBe(1);
    expect(r.updater.rmWeight(1)).toBe(0);
    const out = await update(r);
    expect(out.metrics()).toEqual({ 'rollback/count': 1, 'rollback/silenced': 1, 'rollback/best_gold': 0.75 });
  });

  it('a window within z SE of the best keeps the policy as trained and the RM heard', async () => {
    const r = rig({ z: 1 });
    await update(r);
    await r.updater.windowClosed(window(9, [1, 0, 1, 0, 1, 0, 0, 0])); // 0.375, group SE 0.125
    await update(r);
    const moved = r.policy.getWeights();
    await r.updater.windowClosed(window(19, [1, 0, 0, 0, 1, 0, 1, 0])); // 0.375 − 0.375: no drop
    await r.updater.windowClosed(window(29, [1, 0, 0, 0, 0, 1, 0, 0])); // 0.25: 0.125 < 1 × √(0.125² + 0)
    expect(distance(r.policy.getWeights(), moved)).toBe(0);
    expect(r.synced.n).toBe(0);
    expect(r.updater.rmWeight(0.5)).toBe(0.5);
  });

  it('the alarm restores the best window once, when it rises (on_alarm), not while it stays raised', async () => {
    const r = rig({ z: 100, on_alarm: true });
    await update(r);
    await r.updater.windowClosed(window(9, [1, 1, 1, 0, 1, 0, 0, 0])); // 0.5, SE 0.25
    const best = r.policy.getWeights();
    await update(r);
    await r.updater.windowClosed(window(19, [1, 1, 0, 0, 0, 0, 0, 0], true)); // 0.25, SE 0.25
    expect(distance(r.policy.getWeights(), best)).toBe(0);
    await update(r);
    await r.updater.windowClosed(window(29, [1, 1, 0, 0, 0, 0, 0, 0], true));
    expect(distance(r.policy.getWeights(), best)).toBeGreaterThan(0);
    expect(r.synced.n).toBe(1);
    // Without on_alarm the same alarm restores nothing.
    const q = rig({ z: 100, on_alarm: false });
    await q.updater.windowClosed(window(9, [1, 1, 1, 0, 1, 0, 0, 0]));
    await update(q);
    await q.updater.windowClosed(window(19, [1, 1, 0, 0, 0, 0, 0, 0], true));
    expect(q.synced.n).toBe(0);
    expect(q.updater.rmWeight(1)).toBe(1);
  });

  it('resumes exactly: a restored updater (through JSON) restores the same snapshot and counts on', async () => {
    const r = rig({ z: 0 });
    await update(r);
    await r.updater.windowClosed(window(9, [1, 1, 1, 0, 1, 1, 0, 1]));
    const best = r.policy.getWeights();
    await update(r);
    const state = JSON.parse(JSON.stringify(r.updater.getState()));
    const resumed = r.make();
    resumed.setState(state);
    expect(JSON.parse(JSON.stringify(resumed.getState()))).toEqual(state);
    await update(r, resumed);
    await resumed.windowClosed(window(19, [0, 0, 0, 0, 0, 0, 0, 1]));
    expect(distance(r.policy.getWeights(), best)).toBe(0);
    const out = await update(r, resumed);
    expect(out.metrics()['rollback/count']).toBe(1);
  });
});
