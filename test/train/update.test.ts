/**
 * Tiny-model component tests of the plain GRPO update (src/train/update.ts): the step's KL and
 * clip fraction are measured on the policy the last inner iteration's loss was taken on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf } from '../../src/tf/backend.ts';
import { buildCompletionBatch } from '../../src/policy/logprobs.ts';
import { PlainUpdater, type UpdateBatch } from '../../src/train/update.ts';
import { tinyUpdateRig, tokenIds } from '../helpers/tiny-update.ts';

function rig(grpo: Record<string, unknown>): { updater: PlainUpdater; batch: UpdateBatch } {
  const { parts, batch } = tinyUpdateRig({ grpo });
  return { updater: new PlainUpdater(parts), batch };
}

describe('the plain GRPO update on a tiny tfjs policy', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('one inner iteration: the loss is taken on the sampling policy, nothing is clipped and the KL is that of the sampling policy', async () => {
    const r = rig({ inner_iterations: 1, beta: 0 });
    const out = await r.updater.update(r.batch, { values: [1, 0, 0, 1], advantageScale: 1 });
    expect(out.applied).toBe(true);
    expect(out.clipFraction).toBe(0);
    expect(out.kl).toBe(0); // policy and reference start from the same weights
  });

  it('several inner iterations: the last one is taken on the moved policy, whose ratio is clipped and whose KL is > 0', async () => {
    const r = rig({ inner_iterations: 4, clip: { low: 0.01, high: 0.01 }, beta: 0 });
    const out = await r.updater.update(r.batch, { values: [1, 0, 0, 1], advantageScale: 1 });
    expect(out.results).toHaveLength(4);
    expect(out.clipFraction).toBeGreaterThan(0);
    expect(out.clipFraction).toBeLessThanOrEqual(1);
    expect(out.kl).toBeGreaterThan(0);
  });

  it('length buckets: the same update, to float rounding, as every row padded to the longest completion', async () => {
    const weightsAfter = async (lengthBuckets: number) => {
      const r = tinyUpdateRig({ grpo: { length_buckets: lengthBuckets, beta: 0.1 } });
      const before = [...r.parts.policy.getWeights().values()].map((w) => Float32Array.from(w.data));
      const ids = r.batch.completions.map((c) => c.promptIds);
      const batch = buildCompletionBatch(ids, tokenIds, 0, {
        completionLength: r.batch.ref.completionLength,
        sharePrompts: true,
        lengthBuckets,
      });
      expect(batch.shared!.buckets).toHaveLength(lengthBuckets);
      await new PlainUpdater(r.parts).update({ ...r.batch, batch }, { values: [1, 0, 0, 1], advantageScale: 1 });
      const after = [...r.parts.policy.getWeights().values()].map((w) => Float32Array.from(w.data));
      r.parts.policy.dispose();
      r.parts.reference.dispose();
      return { before, after };
    };
    const one = await weightsAfter(1);
    const two = await weightsAfter(2);
    let moved = 0;
    let diff = 0;
    one.after.forEach((w, i) => {
      for (let j = 0; j < w.length; j++) {
        moved = Math.max(moved, Math.abs(w[j]! - one.before[i]![j]!));
        diff = Math.max(diff, Math.abs(w[j]! - two.after[i]![j]!));
      }
    });
    expect(moved).toBeGreaterThan(1e-3); // the update did something
    // Adam divides each gradient by its own scale, so rounding in a near-zero gradient shows at
    // the step's size: the two agree to 0.1% of the largest move (rows swapped would not).
    expect(diff).toBeLessThan(1e-3 * moved);
  });
});
