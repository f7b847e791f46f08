/**
 * The GRPO options as the trainer's update applies them, on a tiny policy: the first inner
 * iteration's loss (ratio 1 at the sampling weights) against a hand computation of the shaped
 * rewards, advantages, masks and TIS weights each option defines; and the logged metrics.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../src/train/run-config.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import type { Completion, FinishReason } from '../../src/policy/engine/types.ts';
import { sequenceLogProbs } from '../../src/policy/logprobs.ts';
import { GptModel } from '../../src/policy/model.ts';
import type { PolicyModel, TrainStepShape } from '../../src/policy/policy-model.ts';
import { AdamOptimizer } from '../../src/policy/optimizer.ts';
import { initTf } from '../../src/tf/backend.ts';
import { k3 } from '../../src/train/grpo.ts';
import type { ScoredRollouts } from '../../src/train/reward-sources.ts';
import { applyGrpoUpdate, prepareUpdate, shapedRewards } from '../../src/train/update.ts';
import { MODEL, promptIds, tokenIds } from '../helpers/tiny-update.ts';

// Two groups of two; lengths 3, 2, 2, 3 against max_new_tokens 3.
const finish: FinishReason[] = ['length', 'eos', 'eos', 'eos'];

function setup(
  grpo: Record<string, unknown>,
  rolloutShift: (row: number, j: number) => number = () => 0,
  sampling: Record<string, unknown> = {},
) {
  const config = runConfigSchema.parse({
    grpo: { group_size: 2, ...grpo },
    policy: { sampling: { max_new_tokens: 3, ...sampling } },
  });
  // The engine samples at the configured temperature: its log-probs are softmax(logits / T)'s.
  const temperature = config.policy.sampling.temperature;
  const policy = GptModel.init(MODEL, 3);
  const reference = GptModel.init(MODEL, 4);
  const optimizer = new AdamOptimizer(policy.params, { lr: 0.01, grad_clip: 1 });
  const train = sequenceLogProbs(
    policy,
    tokenIds.map(() => promptIds),
    tokenIds,
    { padId: 0, temperature },
  );
  const ref = sequenceLogProbs(
    reference,
    tokenIds.map(() => promptIds),
    tokenIds,
    { padId: 0 },
  );
  const C = train.completionLength;
  const trainRow = (b: number) => Array.from(train.logProbs.slice(b * C, b * C + tokenIds[b]!.length));
  // The engine's log-probs: the trainer's, shifted per token (a simulated rollout/trainer mismatch).
  const completions: Completion[] = tokenIds.map((t, b) => ({
    promptIndex: b,
    promptIds,
    tokenIds: t,
    text: `c${b}`,
    logprobs: trainRow(b).map((v, j) => v + rolloutShift(b, j)),
    samplerLogprobs: [],
    finishReason: finish[b]!,
  }));
  const scored: ScoredRollouts = {
    step: 0,
    promptIdx: [0, 1],
    problems: tokenIds.map(() => ({ id: 'p' }) as unknown as Problem),
    completions,
    texts: completions.map((c) => c.text),
    features: tokenIds.map(() => new Float32Array(1)),
    proxy: new Float32Array(4),
    results: undefined,
    gold: [null, null, null, null],
  };
  const parts = { grpo: config.grpo, sampling: config.policy.sampling, policy, reference, optimizer, padId: 0 };
  const batch = prepareUpdate(parts, scored);
  const done = () => (policy.dispose(), reference.dispose(), optimizer.dispose());
  return { config, parts, batch, train, ref, C, done };
}

/** Mean over rows of the row's token mean (the `grpo` aggregation) of per-token values. */
function rowMeans(rows: number[][]): number {
  const live = rows.filter((r) => r.length > 0);
  return live.reduce((a, r) => a + r.reduce((x, y) => x + y, 0) / r.length, 0) / live.length;
}

describe('GRPO options in the update', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('overlong shaping, RLOO advantages and masked truncated completions', () => {
    const s = setup({
      advantage: 'rloo',
      scale_rewards: 'none',
      beta: 0,
      overlong: { buffer: 2, penalty: 1, mask_truncated: true },
    });
    const rewards = [1, 0, 0, 0];
    // penalties: length 3 → −1, length 2 → −0.5 (the soft range starts after 3 − 2 = 1 token)
    expect(shapedRewards(s.config.grpo, s.config.policy.sampling, rewards, s.batch.completions)).toEqual([0, -0.5, -0.5, -1]);
    // RLOO: group 0 → [0.5, −0.5], group 1 → [0.5, −0.5]; row 0 is truncated and leaves the loss.
    const A = [0.5, -0.5, 0.5, -0.5];
    const want = rowMeans(tokenIds.map((t, b) => (b === 0 ? [] : t.map(() => -A[b]!))));
    const u = applyGrpoUpdate(s.parts, s.batch, { values: rewards, advantageScale: 1 });
    expect(u.results[0]!.loss).toBeCloseTo(want, 5);
    expect(u.grpoMetrics['reward/overlong_penalty']).toBeCloseTo(-0.75, 12);
    expect(u.grpoMetrics['completion/truncated']).toBe(0.25);
    expect(u.grpoMetrics['rollout/mismatch_kl']).toBeCloseTo(0, 6);
    s.done();
  });

  it('per-completion weights multiply each completion’s advantage (settled gold at 1, the RM’s groups lighter)', () => {
    const s = setup({ scale_rewards: 'none', beta: 0 });
    const A = [0.5, -0.5, 0.5, -0.5]; // rewards [1, 0, 1, 0], group mean baseline, no scaling
    const weights = [1, 1, 0.25, 0.25];
    const want = rowMeans(tokenIds.map((t, b) => t.map(() => -A[b]! * weights[b]!)));
    const u = applyGrpoUpdate(s.parts, s.batch, { values: [1, 0, 1, 0], advantageScale: 1, weights });
    expect(u.results[0]!.loss).toBeCloseTo(want, 5);
    s.done();
  });

  it('TIS: π_old is the trainer’s, each token weighted by min(π_train/π_rollout, cap); mismatch KL logged', () => {
    // Row 0's tokens were sampled at logp − 1 by the "engine" (ratio e ≈ 2.72, capped at 1.5); others at logp + 0.1.
    const shift = (b: number) => (b === 0 ? -1 : 0.1);
    const s = setup({ scale_rewards: 'none', beta: 0, loss: 'bnpo', tis: { enabled: true, cap: 1.5 } }, shift);
    const w = (b: number) => Math.min(Math.exp(-shift(b)), 1.5);
    expect(s.batch.oldLogp).toEqual(s.batch.trainLogp);
    const A = [0.5, -0.5, 0.5, -0.5]; // rewards [1, 0, 1, 0], group mean baseline, no scaling
    const tokens = tokenIds.flatMap((t, b) => t.map(() => -A[b]! * w(b)));
    const u = applyGrpoUpdate(s.parts, s.batch, { values: [1, 0, 1, 0], advantageScale: 1 });
    expect(u.results[0]!.loss).toBeCloseTo(tokens.reduce((a, v) => a + v, 0) / tokens.length, 5);
    expect(u.grpoMetrics['rollout/tis_capped']).toBeCloseTo(3 / 10, 12);
    const kl = tokenIds.flatMap((t, b) => t.map(() => k3(0, -shift(b)))); // k3(rollout, train), d = train − rollout
    expect(u.grpoMetrics['rollout/mismatch_kl']).toBeCloseTo(kl.reduce((a, v) => a + v, 0) / kl.length, 5);
    s.done();
  });

  it('REINFORCE++: per-token advantages with the k1 KL to come, whitened; no KL term in the loss; GSPO ratio', () => {
    const beta = 0.5;
    const s = setup({ advantage: 'reinforce_pp', beta, importance_level: 'sequence' });
    const rewards = [1, 0, 0, 1];
    const raw = tokenIds.map((t, b) => {
      const k1 = t.map((_, j) => s.train.logProbs[b * s.C + j]! - s.ref.logProbs[b * s.C + j]!);
      return t.map((_, j) => rewards[b]! - beta * k1.slice(j).reduce((x, y) => x + y, 0));
    });
    const all = raw.flat();
    const mean = all.reduce((a, v) => a + v, 0) / all.length;
    const std = Math.sqrt(all.reduce((a, v) => a + (v - mean) ** 2, 0) / (all.length - 1));
    const A = raw.map((r) => r.map((v) => (v - mean) / (std + 1e-4)));
    const u = applyGrpoUpdate(s.parts, s.batch, { values: rewards, advantageScale: 1 });
    // ratio 1 (sequence level too) at the sampling weights: per-token loss −A, no β·k3
    expect(u.results[0]!.loss).toBeCloseTo(rowMeans(A.map((r) => r.map((a) => -a))), 5);
    // kl/ref is still reported (the KL acts in the reward)
    expect(u.kl).toBeGreaterThan(0);
    s.done();
  });
});

describe('sampling temperature', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('the update takes every log-prob at logits / T, as the engine sampled (TRL, verl, OpenRLHF): no mismatch at T ≠ 1', () => {
    const s = setup({ scale_rewards: 'none', beta: 0.1, tis: { enabled: true, cap: 10 } }, () => 0, { temperature: 0.5 });
    // π_old recomputed by the trainer equals the engine's log-probs at T = 0.5 ...
    const engine = s.batch.rolloutLogp;
    for (let i = 0; i < engine.length; i++) if (s.batch.ref.mask[i]) expect(s.batch.trainLogp![i]).toBeCloseTo(engine[i]!, 5);
    // ... and the reference is scored at the same temperature (not at T = 1).
    const refAtT = sequenceLogProbs(
      s.parts.reference,
      tokenIds.map(() => promptIds),
      tokenIds,
      { padId: 0, temperature: 0.5 },
    );
    expect(Array.from(s.batch.ref.logProbs)).toEqual(Array.from(refAtT.logProbs));
    const refAt1 = sequenceLogProbs(
      s.parts.reference,
      tokenIds.map(() => promptIds),
      tokenIds,
      { padId: 0 },
    );
    expect(Array.from(s.batch.ref.logProbs)).not.toEqual(Array.from(refAt1.logProbs));
    // The first inner iteration runs at the sampling weights: its log-probs are π_old's, so the
    // rollout/trainer mismatch is numerical noise and no TIS weight is capped.
    const u = applyGrpoUpdate(s.parts, s.batch, { values: [1, 0, 1, 0], advantageScale: 1 });
    expect(u.grpoMetrics['rollout/mismatch_kl']).toBeLessThan(1e-8);
    expect(u.grpoMetrics['rollout/tis_capped']).toBe(0);
    s.done();
  });
});

describe('micro-batched update', () => {
  // A policy that reports room for fewer rows than the step holds is trained in micro-batches
  // whose gradients sum to the whole batch's: same loss, same weights (up to float order).
  for (const [label, grpo] of [
    ['grpo aggregation, 2 inner iterations', { loss: 'grpo', inner_iterations: 2 }],
    ['dr_grpo aggregation', { loss: 'dr_grpo' }],
    ['token mean (bnpo), REINFORCE++ per-token advantages', { loss: 'bnpo', advantage: 'reinforce_pp' }],
  ] as const) {
    it(`${label}: 3 + 1 rows give the whole batch's loss and update`, () => {
      const whole = setup(grpo);
      const split = setup(grpo);
      let asked = 0;
      (split.parts.policy as PolicyModel).trainRowsPerPass = (shape: TrainStepShape) => {
        asked++;
        expect(shape).toEqual({ rows: 4, length: whole.batch.batch.length, completion: whole.C });
        return 3;
      };
      const rewards = { values: [1, 0, 0.5, 0], advantageScale: 1 };
      const a = applyGrpoUpdate(whole.parts, whole.batch, rewards);
      const b = applyGrpoUpdate(split.parts, split.batch, rewards);
      expect(asked).toBe(1);
      a.results.forEach((r, i) => {
        expect(b.results[i]!.loss).toBeCloseTo(r.loss, 6);
        expect(b.results[i]!.gradNorm).toBeCloseTo(r.gradNorm, 5);
      });
      expect(b.kl).toBeCloseTo(a.kl, 6);
      const wb = split.parts.policy.getWeights();
      let maxDiff = 0;
      for (const [n, t] of whole.parts.policy.getWeights())
        t.data.forEach((v, i) => (maxDiff = Math.max(maxDiff, Math.abs(v - wb.get(n)!.data[i]!))));
      // Float summation order differs; Adam (lr 0.01) turns that into ~1e-5 after two steps.
      expect(maxDiff).toBeLessThan(5e-5);
      // and the update did move the weights, by far more than that
      const start = GptModel.init(MODEL, 3);
      const w0 = start.getWeights();
      start.dispose();
      let moved = 0;
      for (const [n, t] of wb) t.data.forEach((v, i) => (moved = Math.max(moved, Math.abs(v - w0.get(n)!.data[i]!))));
      expect(moved).toBeGreaterThan(1e-3);
      whole.done();
      split.done();
    });
  }
});
