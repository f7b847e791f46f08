/**
 * The policy update of one step: the batch it works on (built once per step from the rollouts),
 * the GRPO update itself, and the {@link Updater} an arm applies it through — {@link PlainUpdater}
 * commits every update; the gated arm's updater (./gated-step.ts) commits only what its gate
 * lets through.
 */
import type { RunConfig } from '../config/run-config.ts';
import type { Completion } from '../policy/engine/types.ts';
import { buildCompletionBatch, completionLogProbs, sequenceLogProbs, type CompletionBatch, type SequenceScores } from '../policy/logprobs.ts';
import type { GptModel } from '../policy/model.ts';
import type { AdamOptimizer, StepResult } from '../policy/optimizer.ts';
import type { ExecResult } from '../sandbox/types.ts';
import { computeAdvantages, grpoLoss, grpoLossReference, type GrpoLossOptions, type GrpoTokens } from './grpo.ts';
import type { MetricValue } from './logger.ts';
import type { Rewards, ScoredRollouts } from './reward-sources.ts';
import type { Problem } from '../datasets/problem.ts';

/** What the GRPO update needs of the arm. */
export interface UpdateParts {
  config: RunConfig;
  policy: GptModel;
  /** The frozen reference (base) policy for the KL term. */
  reference: GptModel;
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
}

/** What one applied GRPO update reports. */
export interface GrpoUpdate {
  /** One optimizer result per inner iteration. */
  results: StepResult[];
  /** Mean k3 KL to the reference and the fraction of clipped tokens. */
  kl: number;
  clipFraction: number;
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
}

/** The loss options of the run's GRPO config. */
export function lossOptions(cfg: RunConfig): GrpoLossOptions {
  return {
    clipLow: cfg.grpo.clip.low,
    clipHigh: cfg.grpo.clip.high,
    beta: cfg.grpo.beta,
    aggregation: cfg.grpo.loss,
    maxLength: cfg.policy.sampling.max_new_tokens,
  };
}

/** Build the update batch of a step's scored rollouts: reference and sampling-policy log-probs. */
export function prepareUpdate(p: UpdateParts, scored: ScoredRollouts): UpdateBatch {
  const { config: cfg, policy, padId } = p;
  const completions: readonly Completion[] = scored.completions;
  const promptIds = completions.map((c) => c.promptIds);
  const completionIds = completions.map((c) => c.tokenIds);
  const ref = sequenceLogProbs(p.reference, promptIds, completionIds, { padId });
  const C = ref.completionLength;
  // π_old: the policy that sampled. With one inner iteration and plain sampling (temperature 1,
  // no truncation) it is the current policy and the engine's per-token log-probs are exactly
  // that distribution (ORT vs tfjs agree to ~1e-6), which saves a forward pass; otherwise
  // recompute with the trainer's numerics.
  const s = cfg.policy.sampling;
  const plain = cfg.grpo.inner_iterations === 1 && s.temperature === 1 && s.top_k === 0 && s.top_p === 1;
  let oldLogp: Float32Array;
  if (plain) {
    oldLogp = new Float32Array(ref.batch * C);
    completions.forEach((c, b) => oldLogp.set(c.logprobs, b * C));
  } else {
    oldLogp = sequenceLogProbs(policy, promptIds, completionIds, { padId }).logProbs;
  }
  const batch = buildCompletionBatch(promptIds, completionIds, padId, { completionLength: C });
  return { ...scored, ref, oldLogp, batch };
}

/** Apply the GRPO update for `rewards` to the policy: advantages, then `grpo.inner_iterations` optimizer steps. */
export function applyGrpoUpdate(p: Pick<UpdateParts, 'config' | 'policy' | 'optimizer'>, b: UpdateBatch, rewards: Rewards): GrpoUpdate {
  const { config: cfg, policy, optimizer } = p;
  const { ref } = b;
  const C = ref.completionLength;
  const { advantages, valid } = computeAdvantages(rewards.values, cfg.grpo.group_size, cfg.grpo.scale_rewards, cfg.grpo.eps);
  if (rewards.advantageScale !== 1) for (let i = 0; i < advantages.length; i++) advantages[i]! *= rewards.advantageScale;
  const mask = ref.mask.slice();
  for (let r = 0; r < ref.batch; r++) if (!valid[r]) mask.fill(0, r * C, (r + 1) * C);
  const tokens: GrpoTokens = { batch: ref.batch, length: C, oldLogp: b.oldLogp, refLogp: ref.logProbs, mask, advantages };
  const opts = lossOptions(cfg);
  const lossFn = () => grpoLoss(completionLogProbs(policy, b.batch, { entropy: false }).logProbs, tokens, opts);
  const results = Array.from({ length: cfg.grpo.inner_iterations }, () => optimizer.trainStep(lossFn));
  const diag = grpoLossReference(b.oldLogp, tokens, opts); // KL/clip at the sampling policy
  return { results, kl: diag.kl, clipFraction: diag.clipFraction };
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

  getState(): undefined {
    return undefined;
  }

  setState(): void {}
}
