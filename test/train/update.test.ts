/**
 * Tiny-model component tests of the plain GRPO update (src/train/update.ts): the step's KL and
 * clip fraction are measured on the policy the last inner iteration's loss was taken on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../src/train/run-config.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import type { Completion } from '../../src/policy/engine/types.ts';
import { buildCompletionBatch, sequenceLogProbs } from '../../src/policy/logprobs.ts';
import { GptModel } from '../../src/policy/model.ts';
import { AdamOptimizer } from '../../src/policy/optimizer.ts';
import { initTf } from '../../src/tf/backend.ts';
import { PlainUpdater, type UpdateBatch } from '../../src/train/update.ts';

const MODEL = { vocabSize: 12, context: 16, layers: 1, dModel: 16, heads: 2, tiedHead: true };
const problem: Problem = { id: 'p0', language: 'javascript', prompt: 'f', tests: '', stopTokens: [], source: 'test' };
const promptIds = [1, 2, 3];
const tokenIds = [
  [4, 5, 6],
  [7, 8],
  [4, 9],
  [10, 11, 5],
];

function rig(grpo: Record<string, unknown>): { updater: PlainUpdater; batch: UpdateBatch } {
  const config = runConfigSchema.parse({ grpo: { group_size: 2, ...grpo } });
  const policy = GptModel.init(MODEL, 3);
  const reference = GptModel.init(MODEL, 3);
  const optimizer = new AdamOptimizer(policy.params, { lr: 0.05, grad_clip: 0 });
  const completions: Completion[] = tokenIds.map((t, i) => ({
    promptIndex: i,
    promptIds,
    tokenIds: t,
    text: String(i),
    logprobs: [],
    samplerLogprobs: [],
    finishReason: 'eos',
  }));
  const ids = completions.map((c) => c.promptIds);
  const ref = sequenceLogProbs(reference, ids, tokenIds, { padId: 0 });
  const old = sequenceLogProbs(policy, ids, tokenIds, { padId: 0 }).logProbs;
  const batch: UpdateBatch = {
    step: 0,
    promptIdx: [0, 1],
    problems: tokenIds.map(() => problem),
    completions,
    texts: completions.map((c) => c.text),
    features: [],
    proxy: new Float32Array(4),
    results: undefined,
    gold: [null, null, null, null],
    ref,
    oldLogp: old,
    rolloutLogp: old,
    batch: buildCompletionBatch(ids, tokenIds, 0, { completionLength: ref.completionLength }),
  };
  return {
    updater: new PlainUpdater({ grpo: config.grpo, sampling: config.policy.sampling, policy, reference, optimizer, padId: 0 }),
    batch,
  };
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
