/**
 * Tiny-model component test: one GRPO optimizer step on a real (tiny) tfjs policy moves
 * probability towards the positive-advantage completion and away from the negative one, and
 * does not leak tensors.
 */
import { describe, expect, it } from 'vitest';
import { buildCompletionBatch, completionLogProbs, sequenceLogProbs } from '../../src/policy/logprobs.ts';
import { GptModel } from '../../src/policy/model.ts';
import { AdamOptimizer } from '../../src/policy/optimizer.ts';
import { initTf, tf } from '../../src/tf/backend.ts';
import { computeAdvantages } from '../../src/train/advantages.ts';
import { grpoLoss, type GrpoTokens } from '../../src/train/grpo.ts';

describe('one GRPO step on a tiny policy', () => {
  it('raises the log-prob of the rewarded completion and lowers the penalised one', async () => {
    await initTf(() => {});
    const model = GptModel.init({ vocabSize: 12, context: 16, layers: 1, dModel: 16, heads: 2, tiedHead: true }, 3);
    const ref = GptModel.init({ vocabSize: 12, context: 16, layers: 1, dModel: 16, heads: 2, tiedHead: true }, 3);
    const opt = new AdamOptimizer(model.params, { lr: 1e-2, grad_clip: 1 });
    const prompts = [
      [1, 2, 3],
      [1, 2, 3],
    ];
    const completions = [
      [4, 5, 6],
      [7, 8],
    ];
    const { advantages } = computeAdvantages([1, 0], 2, 'group');
    const seqLogp = (m: GptModel) => {
      const s = sequenceLogProbs(m, prompts, completions, { padId: 0 });
      const sums = [0, 0];
      for (let i = 0; i < s.logProbs.length; i++) sums[Math.floor(i / s.completionLength)]! += s.logProbs[i]!;
      return { sums, s };
    };
    const before = seqLogp(model);
    const refS = sequenceLogProbs(ref, prompts, completions, { padId: 0 });
    const tokens: GrpoTokens = {
      batch: 2,
      length: before.s.completionLength,
      oldLogp: before.s.logProbs,
      refLogp: refS.logProbs,
      mask: before.s.mask,
      advantages,
    };
    const batch = buildCompletionBatch(prompts, completions, 0, { completionLength: before.s.completionLength });
    const opts = { clipLow: 0.2, clipHigh: 0.2, beta: 0.01, aggregation: 'grpo' as const };
    const tensorsBefore = tf.memory().numTensors;
    const r = opt.trainStep(() => grpoLoss(completionLogProbs(model, batch, { entropy: false }).logProbs, tokens, opts));
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    expect(r.gradNorm).toBeGreaterThan(0);
    const after = seqLogp(model);
    expect(after.sums[0]).toBeGreaterThan(before.sums[0]!);
    expect(after.sums[1]).toBeLessThan(before.sums[1]!);
    model.dispose();
    ref.dispose();
    opt.dispose();
  });
});
