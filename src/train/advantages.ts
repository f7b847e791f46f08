/**
 * Advantage estimators, a registry as verl's `register_adv_est`: each turns a step's training
 * rewards (and, for estimators that need them, its per-token log-probs) into the advantages the
 * GRPO loss weights (./grpo.ts). The config names one (`grpo.advantage`, its choices are this
 * registry's keys); the update (./update.ts) asks it for advantages and whether the KL to the
 * reference lives in the reward. Adding an estimator is one entry here plus its test
 * (test/train/advantages.test.ts); docs/design.md shows an example. Plain JS: the config schema
 * reads the names without loading a tensor backend.
 */
import type { GrpoTokens } from './grpo.ts';
import { AnchorError } from '../util/errors.ts';

/** How advantages are scaled after subtracting the group mean. */
export type RewardScaling = 'group' | 'batch' | 'none';

function meanStd(xs: readonly number[]): { mean: number; std: number } {
  if (xs.length === 0) return { mean: 0, std: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  // Population std over the group would make G=2 groups ±1 always; TRL uses the unbiased
  // (n-1) estimator, and so do we.
  const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { mean, std: Math.sqrt(v) };
}

/**
 * Advantages `A_i = (r_i − b_i) / (std + eps)` for rewards laid out group after group
 * (`groupSize` consecutive completions per prompt). The baseline `b_i` is the group mean
 * (`grpo`) or the mean of the group's other members (`rloo`, leave-one-out: `r_i − b_i` is then
 * `n/(n−1)·(r_i − mean)`, so pair it with `scale: 'none'` for the plain RLOO estimator). A null
 * reward takes no part in its group's statistics and gets advantage 0 and `valid` false (its
 * tokens are masked out of the loss).
 */
export function computeAdvantages(
  rewards: readonly (number | null)[],
  groupSize: number,
  scale: RewardScaling,
  eps = 1e-4,
  baseline: 'grpo' | 'rloo' = 'grpo',
): { advantages: Float32Array; valid: boolean[] } {
  if (rewards.length % groupSize !== 0) {
    throw new AnchorError(
      'INTERNAL',
      `computeAdvantages: ${rewards.length} rewards is not a multiple of group size ${groupSize}`,
    );
  }
  const n = rewards.length;
  const advantages = new Float32Array(n);
  const valid = rewards.map((r) => r !== null && Number.isFinite(r));
  const centred: (number | null)[] = new Array(n).fill(null);
  for (let g = 0; g < n; g += groupSize) {
    const idx = [...Array(groupSize).keys()].map((k) => g + k).filter((i) => valid[i]);
    const { mean } = meanStd(idx.map((i) => rewards[i] as number));
    const m = idx.length;
    // Leave-one-out: r_i − (Σr − r_i)/(m−1) = m/(m−1)·(r_i − mean); a lone valid member has no baseline.
    const loo = baseline === 'rloo' ? (m > 1 ? m / (m - 1) : 0) : 1;
    for (const i of idx) centred[i] = ((rewards[i] as number) - mean) * loo;
  }
  if (scale === 'batch') {
    const { std } = meanStd(rewards.filter((_, i) => valid[i]) as number[]);
    for (let i = 0; i < n; i++) if (centred[i] !== null) advantages[i] = std === 0 ? 0 : centred[i]! / (std + eps);
  } else {
    for (let g = 0; g < n; g += groupSize) {
      const idx = [...Array(groupSize).keys()].map((k) => g + k).filter((i) => valid[i]);
      const { std } = meanStd(idx.map((i) => rewards[i] as number));
      // A group whose rewards are all equal carries no signal: advantage 0 (also when eps = 0).
      for (const i of idx) advantages[i] = scale === 'group' ? (std === 0 ? 0 : centred[i]! / (std + eps)) : centred[i]!;
    }
  }
  return { advantages, valid };
}

/**
 * Per group (rewards laid out as in {@link computeAdvantages}): true when the group carries no
 * learning signal — its valid rewards are all equal (std below 1e-8, TRL's test), or fewer than
 * two are valid. DAPO's dynamic sampling drops these groups; their share is logged as
 * `reward/frac_reward_zero_std`.
 */
export function zeroStdGroups(rewards: readonly (number | null)[], groupSize: number): boolean[] {
  const out: boolean[] = [];
  for (let g = 0; g < rewards.length; g += groupSize) {
    const rs = rewards.slice(g, g + groupSize).filter((r): r is number => r !== null && Number.isFinite(r));
    out.push(rs.length < 2 || meanStd(rs).std < 1e-8);
  }
  return out;
}

/**
 * REINFORCE++ per-token advantages [B × T]: the outcome reward minus β times the KL still to
 * come, `A_{b,t} = r_b − β Σ_{s≥t} (logπ_old − logπ_ref)_{b,s}` (the k1 per-token KL folded into
 * the reward, γ = 1), then whitened over every unmasked token of the batch: `(A − mean)/(std + eps)`
 * with the unbiased std. Rows with a null reward, and masked tokens, get 0. The KL is in the
 * reward here, so the loss's own β·k3 term is off under this estimator.
 */
export function reinforcePlusPlusAdvantages(
  rewards: readonly (number | null)[],
  t: Pick<GrpoTokens, 'batch' | 'length' | 'oldLogp' | 'refLogp' | 'mask'>,
  beta: number,
  eps = 1e-4,
): Float32Array {
  const { batch: B, length: T, mask } = t;
  const adv = new Float32Array(B * T);
  const live: number[] = [];
  for (let b = 0; b < B; b++) {
    const r = rewards[b];
    if (r === null || r === undefined || !Number.isFinite(r)) continue;
    let toGo = 0;
    for (let j = T - 1; j >= 0; j--) {
      const i = b * T + j;
      if (!mask[i]) continue;
      toGo += t.oldLogp[i]! - t.refLogp[i]!;
      adv[i] = r - beta * toGo;
      live.push(i);
    }
  }
  const { mean, std } = meanStd(live.map((i) => adv[i]!));
  for (const i of live) adv[i] = std === 0 ? 0 : (adv[i]! - mean) / (std + eps);
  return adv;
}

/** What an estimator sees of a step. */
export interface AdvantageInput {
  /** Training reward of each completion, group after group (null: masked out). */
  rewards: readonly (number | null)[];
  groupSize: number;
  /** `grpo.scale_rewards`. */
  scale: RewardScaling;
  /** `grpo.eps`. */
  eps: number;
  /** `grpo.beta` (estimators that fold the KL into the reward use it there). */
  beta: number;
  /** The step's per-token log-probs and completion mask (rows with a null reward already masked). */
  tokens: Pick<GrpoTokens, 'batch' | 'length' | 'oldLogp' | 'refLogp' | 'mask'>;
}

/** An advantage estimator. */
export interface AdvantageEstimator {
  /** One line for the config reference. */
  describe: string;
  /** The KL to the reference is part of the reward: the loss then carries no β·KL term. */
  klInReward: boolean;
  /** One advantage per completion [B], or per token [B × T]; a null reward's are 0. */
  advantages(input: AdvantageInput): Float32Array;
}

/** The registered advantage estimators (`grpo.advantage`). */
export const ADVANTAGE_ESTIMATORS = {
  grpo: {
    describe: 'reward minus the group mean, scaled by `scale_rewards`',
    klInReward: false,
    advantages: (a) => computeAdvantages(a.rewards, a.groupSize, a.scale, a.eps, 'grpo').advantages,
  },
  rloo: {
    describe: "minus the mean of the group's other members, scaled by `scale_rewards`; `none` gives the plain RLOO estimator",
    klInReward: false,
    advantages: (a) => computeAdvantages(a.rewards, a.groupSize, a.scale, a.eps, 'rloo').advantages,
  },
  reinforce_pp: {
    describe:
      "REINFORCE++: per-token advantage = reward − β·(k1 KL to the reference still to come), whitened over the batch's tokens; β then acts in the reward and the loss has no KL term; `scale_rewards` is not used",
    klInReward: true,
    advantages: (a) => reinforcePlusPlusAdvantages(a.rewards, a.tokens, a.beta, a.eps),
  },
} satisfies Record<string, AdvantageEstimator>;

/** A registered estimator's name. */
export type AdvantageEstimatorName = keyof typeof ADVANTAGE_ESTIMATORS;

/** Estimator names, for the config schema. */
export const ADVANTAGE_ESTIMATOR_NAMES = Object.keys(ADVANTAGE_ESTIMATORS) as [
  AdvantageEstimatorName,
  ...AdvantageEstimatorName[],
];
