/**
 * Tiny-model component tests of the plain GRPO update (src/train/update.ts): the step's KL and
 * clip fraction are measured on the policy the last inner iteration's loss was taken on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf } from '../../src/tf/backend.ts';
import { PlainUpdater, type UpdateBatch } from '../../src/train/update.ts';
import { tinyUpdateRig } from '../helpers/tiny-update.ts';

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
});
