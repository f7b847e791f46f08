/**
 * The policy update of one step: the batch it works on (built once per step from the rollouts),
 * the GRPO update itself, and the {@link Updater} an arm applies it through — {@link PlainUpdater}
 * commits every update; the gated arm's updater (./gated-step.ts) commits only what its gate
 * lets through.
 */
import type { Completion } from '../policy/engine/types.ts';
import {
  buildCompletionBatch,
  completionLogProbs,
  sequenceLogProbs,
  type CompletionBatch,
  type SequenceScores,
} from '../policy/logprobs.ts';
import type { PolicyModel } from '../policy/policy-model.ts';
import type { AdamOptimizer, StepResult } from '../policy/optimizer.ts';
import type { ExecResult } from '../sandbox/types.ts';
import {
  grpoLoss,
  grpoLossDenominator,
  sliceGrpoTokens,
  grpoLossReference,
  mismatchKl,
  overlongPenalty,
  truncatedIsWeights,
  type GrpoLossOptions,
  type GrpoTokens,
} from './grpo.ts';
import { ADVANTAGE_ESTIMATORS } from './advantages.ts';
import type { GrpoConfig, SamplingConfig } from './config.ts';
import type { MetricValue } from './logger.ts';
import { METRIC_KEYS as K } from './run-format.ts';
import type { Rewards, ScoredRollouts } from './reward-sources.ts';
import type { Problem } from '../datasets/problem.ts';

/** What the GRPO update needs of the arm: its config sections and the models. */
export interface UpdateParts {
  grpo: GrpoConfig;
  /** How the rollouts were sampled (decides whether the engine's log-probs are π_old's). */
  sampling: SamplingConfig;
  policy: PolicyModel;
  /** The frozen reference (base) policy for the KL term. */
  reference: PolicyModel;
  optimizer: AdamOptimizer;
  padId: number;
}

/** A step's rollouts with the per-token inputs of its update. */
export interface UpdateBatch extends ScoredRollouts {
  /** Reference-policy log-probs (and the completion mask). */
  ref: SequenceScores;
  /** Log-probs of the sampling policy π_old, [B × C]. */
  oldLogp: Float32Array;
  /** The prompt+completion batch the policy is scored on. */
  batch: CompletionBatch;
  /** The rollout engine's (ONNX Runtime's) log-probs of the sampled tokens, [B × C]. */
  rolloutLogp: Float32Array;
  /**
   * The trainer's (tfjs's) log-probs at the sampling weights, [B × C], when computed before the
   * update (off the plain path); otherwise the update reads them off its first forward pass.
   */
  trainLogp?: Float32Array;
  /** Truncated importance sampling weights [B × C] (`grpo.tis`; absent when off). */
  isWeights?: Float32Array;
}

/** What one applied GRPO update reports. */
export interface GrpoUpdate {
  /** One optimizer result per inner iteration. */
  results: StepResult[];
  /** Mean k3 KL to the reference and the fraction of clipped tokens. */
  kl: number;
  clipFraction: number;
  /** Metrics of the GRPO variant in force (rollout mismatch, reward shaping, TIS), logged with the step. */
  grpoMetrics: Record<string, MetricValue>;
}

/** The outcome of an arm's update for one step. */
export interface UpdateOutcome extends GrpoUpdate {
  /** The update is in the weights (committed). */
  applied: boolean;
  /** The rewards the last proposed update was computed from. */
  rewards: Rewards;
  /** The updater's per-step metrics, read when the step is logged (after its settlement). */
  metrics: () => Record<string, MetricValue>;
}

/** One settled completion, as settlement reports it to the updater. */
export interface SettledClaim {
  step: number;
  index: number;
  problem: Problem;
  text: string;
  x: Float32Array;
  /** The refit label (executed gold for arms that settle by execution). */
  gold: number;
  /** RM score before this window's refit. */
  proxy: number;
  result?: ExecResult;
}

/** How an arm applies its step's update, and what it needs to know of settlement. */
export interface Updater {
  /** Apply (or decline) the update for the step's batch and rewards; on return the policy holds the committed state. */
  update(batch: UpdateBatch, rewards: Rewards): Promise<UpdateOutcome>;
  /** Settlement rate for the next window, given the trainer's. */
  settlementRate(trainerRate: number): number;
  /** Settle this step rather than wait for the window end. */
  needsEvidence(): boolean;
  /** The window's settled claims (their labels and the RM score before the refit). */
  settled(claims: readonly SettledClaim[]): Promise<void>;
  /** Checkpointed state (undefined: none). */
  getState(): unknown;
  setState(s: unknown): void;
  /** Multiplier on RM-reward advantages, given settlement's (absent: settlement's stands). */
  rmWeight?(settlementWeight: number): number;
  /** A settlement window closed with executed labels (after its refit and thermostat). */
  windowClosed?(w: ClosedWindow): Promise<void>;
}

/** A closed settlement window as an updater hears it: its executed labels and the alarm after it. */
export interface ClosedWindow {
  /** The window's last step. */
  step: number;
  /** Executed labels of the window's settled claims. */
  labels: readonly number[];
  /** The GRPO group of each label (−1: none). */
  groups: readonly number[];
  /** Adaptive settlement's alarm is raised after this window's refit. */
  alarm: boolean;
}

/** The loss options of a GRPO config (`dr_grpo` divides by the sampling's max completion length). */
function lossOptions(grpo: GrpoConfig, sampling: SamplingConfig): GrpoLossOptions {
  return {
    clipLow: grpo.clip.low,
    clipHigh: grpo.clip.high,
    // An estimator that puts the KL in the reward (REINFORCE++) leaves none for the loss.
    beta: ADVANTAGE_ESTIMATORS[grpo.advantage].klInReward ? 0 : grpo.beta,
    aggregation: grpo.loss,
    maxLength: sampling.max_new_tokens,
    importanceLevel: grpo.importance_level,
  };
}

/**
 * The training reward after DAPO's overlong shaping (`grpo.overlong.buffer` > 0): each non-null
 * value plus the soft penalty of its completion's length. Unchanged values when shaping is off.
 */
export function shapedRewards(
  grpo: GrpoConfig,
  sampling: SamplingConfig,
  values: readonly (number | null)[],
  completions: readonly Completion[],
): (number | null)[] {
  const o = grpo.overlong;
  if (o.buffer === 0) return [...values];
  const max = sampling.max_new_tokens;
  return values.map((v, i) =>
    v === null ? null : v + overlongPenalty(completions[i]!.tokenIds.length, max, o.buffer, o.penalty),
  );
}

/** Build the update batch of a step's scored rollouts: reference and sampling-policy log-probs. */
export function prepareUpdate(p: UpdateParts, scored: ScoredRollouts): UpdateBatch {
  const { policy, padId } = p;
  const completions: readonly Completion[] = scored.completions;
  const promptIds = completions.map((c) => c.promptIds);
  const completionIds = completions.map((c) => c.tokenIds);
  // Every log-prob of the update is the sampling distribution's: logits / temperature.
  const temperature = p.sampling.temperature;
  // Each group's prompt runs once (SharedPromptLayout), here and in the update's passes; the
  // reference's entropies are not used.
  const lengthBuckets = p.grpo.length_buckets;
  const scoring = { padId, temperature, entropy: false, sharePrompts: true, lengthBuckets };
  const ref = sequenceLogProbs(p.reference, promptIds, completionIds, scoring);
  const C = ref.completionLength;
  // π_old: the policy that sampled. With one inner iteration and plain sampling (temperature 1,
  // no truncation) it is the current policy and the engine's per-token log-probs are exactly
  // that distribution (ORT vs tfjs agree to ~1e-6), which saves a forward pass; otherwise
  // recompute with the trainer's numerics.
  // With truncated importance sampling π_old is the trainer's (the engine's enters only through
  // the TIS weights π_train/π_rollout).
  const s = p.sampling;
  const tis = p.grpo.tis;
  const plain = !tis.enabled && p.grpo.inner_iterations === 1 && s.temperature === 1 && s.top_k === 0 && s.top_p === 1;
  const rolloutLogp = new Float32Array(ref.batch * C);
  completions.forEach((c, b) => rolloutLogp.set(c.logprobs, b * C));
  const batch = buildCompletionBatch(promptIds, completionIds, padId, {
    completionLength: C,
    sharePrompts: true,
    lengthBuckets,
  });
  if (plain) return { ...scored, ref, oldLogp: rolloutLogp, batch, rolloutLogp };
  const trainLogp = sequenceLogProbs(policy, promptIds, completionIds, scoring).logProbs;
  return {
    ...scored,
    ref,
    oldLogp: trainLogp,
    batch,
    rolloutLogp,
    trainLogp,
    ...(tis.enabled ? { isWeights: truncatedIsWeights(trainLogp, rolloutLogp, ref.mask, tis.cap) } : {}),
  };
}

/** Apply the GRPO update for `rewards` to the policy: advantages, then `grpo.inner_iterations` optimizer steps. */
export function applyGrpoUpdate(
  p: Pick<UpdateParts, 'grpo' | 'sampling' | 'policy' | 'optimizer'>,
  b: UpdateBatch,
  rewards: Rewards,
): GrpoUpdate {
  const { grpo: g, sampling, policy, optimizer } = p;
  const { ref } = b;
  const C = ref.completionLength;
  const values = shapedRewards(g, sampling, rewards.values, b.completions);
  // Advantages of the configured estimator (per sequence or per token); null rewards masked out.
  const valid = values.map((v) => v !== null && Number.isFinite(v));
  const mask = ref.mask.slice();
  for (let r = 0; r < ref.batch; r++) if (!valid[r]) mask.fill(0, r * C, (r + 1) * C);
  const advantages = ADVANTAGE_ESTIMATORS[g.advantage].advantages({
    rewards: values,
    groupSize: g.group_size,
    scale: g.scale_rewards,
    eps: g.eps,
    beta: g.beta,
    tokens: { batch: ref.batch, length: C, oldLogp: b.oldLogp, refLogp: ref.logProbs, mask },
  });
  if (rewards.advantageScale !== 1) for (let i = 0; i < advantages.length; i++) advantages[i]! *= rewards.advantageScale;
  // Per-completion weights (a sequence's advantage, or each of its tokens' under a per-token estimator).
  const w = rewards.weights;
  if (w) {
    const per = advantages.length / ref.batch;
    for (let i = 0; i < advantages.length; i++) advantages[i]! *= w[Math.floor(i / per)]!;
  }
  // Truncated completions leave the loss, after taking part in the advantage statistics (as in TRL).
  const truncated = b.completions.map((c) => c.finishReason === 'length');
  if (g.overlong.mask_truncated) for (let r = 0; r < ref.batch; r++) if (truncated[r]) mask.fill(0, r * C, (r + 1) * C);
  const tokens: GrpoTokens = {
    batch: ref.batch,
    length: C,
    oldLogp: b.oldLogp,
    refLogp: ref.logProbs,
    mask,
    advantages,
    ...(b.isWeights ? { isWeights: b.isWeights } : {}),
  };
  const opts = lossOptions(g, sampling);
  // The first forward pass runs at the sampling weights: its log-probs are the trainer's side of
  // the rollout mismatch, read here instead of paying for another forward pass. The last
  // iteration's log-probs are the policy this step's loss was taken on: its KL to the reference
  // and the fraction of tokens the ratio clip cut off are the step's diagnostics.
  // A step larger than the backend's memory runs as micro-batches of rows whose gradients are
  // summed (each loss divided by the whole batch's denominator, so the sum is the same loss);
  // a model that cannot fit even one row stops here with a coded error, not a process abort.
  const { batch } = b;
  const rowsPerPass =
    policy.trainRowsPerPass?.({ rows: batch.batch, length: batch.length, completion: batch.completionLength }) ?? batch.batch;
  const parts = microBatches(b, rowsPerPass, g.length_buckets);
  const denominator = parts.length > 1 ? grpoLossDenominator(tokens, opts) : undefined;
  const k = g.inner_iterations;
  let trainLogp = b.trainLogp;
  let newLogp = b.oldLogp;
  const results = Array.from({ length: k }, (_, it) => {
    const logpNow = new Float32Array(tokens.batch * C);
    const r = optimizer.trainStep(
      parts.map((part, pi) => () => {
        // The optimizer's pass: LoRA dropout (when configured) draws its masks from the step count.
        const dropoutKey = parts.length > 1 ? optimizer.step * 4096 + pi : optimizer.step;
        const logp = completionLogProbs(policy, part.batch, {
          entropy: false,
          dropoutKey,
          temperature: sampling.temperature,
        }).logProbs;
        logpNow.set(logp.dataSync(), part.start * C);
        const t = parts.length > 1 ? sliceGrpoTokens(tokens, part.start, part.end) : tokens;
        return grpoLoss(logp, t, opts, denominator);
      }),
    );
    if (it === 0 && !trainLogp) trainLogp = logpNow;
    if (it === k - 1) newLogp = logpNow;
    return r;
  });
  const diag = grpoLossReference(newLogp, tokens, opts);
  const metrics = {
    [K.mismatchKl]: mismatchKl(b.rolloutLogp, trainLogp!, ref.mask),
    ...variantMetrics(g, sampling, b, truncated),
  };
  return { results, kl: diag.kl, clipFraction: diag.clipFraction, grpoMetrics: metrics };
}

/** Rows [start, end) of the update batch with their own completion batch (the whole batch when one part). */
function microBatches(
  b: UpdateBatch,
  rows: number,
  lengthBuckets: number,
): { start: number; end: number; batch: CompletionBatch }[] {
  const B = b.batch.batch;
  if (rows >= B) return [{ start: 0, end: B, batch: b.batch }];
  const C = b.batch.completionLength;
  // Pad slots are masked out of attention and loss, so any token id serves.
  const padId = 0;
  const out: { start: number; end: number; batch: CompletionBatch }[] = [];
  for (let start = 0; start < B; start += rows) {
    const end = Math.min(B, start + rows);
    const cs = b.completions.slice(start, end);
    out.push({
      start,
      end,
      batch: buildCompletionBatch(
        cs.map((c) => c.promptIds),
        cs.map((c) => c.tokenIds),
        padId,
        { completionLength: C, sharePrompts: true, lengthBuckets },
      ),
    });
  }
  return out;
}

/** The step's metrics of the GRPO options that are set (reward shaping, truncation, TIS). */
function variantMetrics(
  g: GrpoConfig,
  sampling: SamplingConfig,
  b: UpdateBatch,
  truncated: readonly boolean[],
): Record<string, MetricValue> {
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, v) => a + v, 0) / xs.length : 0);
  const m: Record<string, MetricValue> = {};
  if (b.isWeights) {
    const w = Array.from(b.isWeights).filter((_, i) => b.ref.mask[i]);
    m[K.tisCapped] = mean(w.map((v) => (v >= g.tis.cap ? 1 : 0)));
  }
  if (g.overlong.buffer > 0) {
    const max = sampling.max_new_tokens;
    m[K.overlongPenalty] = mean(
      b.completions.map((c) => overlongPenalty(c.tokenIds.length, max, g.overlong.buffer, g.overlong.penalty)),
    );
  }
  if (g.overlong.buffer > 0 || g.overlong.mask_truncated) m[K.truncated] = mean(truncated.map((t) => (t ? 1 : 0)));
  return m;
}

/** Every update is committed. */
export class PlainUpdater implements Updater {
  constructor(private readonly p: UpdateParts) {}

  update(batch: UpdateBatch, rewards: Rewards): Promise<UpdateOutcome> {
    return Promise.resolve({ ...applyGrpoUpdate(this.p, batch, rewards), applied: true, rewards, metrics: () => ({}) });
  }

  settlementRate(trainerRate: number): number {
    return trainerRate;
  }

  needsEvidence(): boolean {
    return false;
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  getState(): unknown {
    return undefined;
  }

  setState(_s: unknown): void {}
}
