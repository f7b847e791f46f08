/**
 * GRPO, as the field writes it (docs/design.md, "GRPO"): group-relative
 * advantages, the clipped per-token surrogate with asymmetric clip range, the k3 KL estimator
 * to the reference policy, and the three loss aggregations. The advantage and reference-loss
 * functions are plain JS (unit-tested against hand computation); {@link grpoLoss} is the same
 * loss on tfjs tensors for the optimizer.
 */
import { tf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';

/** How advantages are scaled after subtracting the group mean. */
export type RewardScaling = 'group' | 'batch' | 'none';

/** Loss aggregation: per-sequence mean then batch mean, token mean, or /(B × max length). */
type LossAggregation = 'grpo' | 'bnpo' | 'dapo' | 'dr_grpo';

function meanStd(xs: readonly number[]): { mean: number; std: number } {
  if (xs.length === 0) return { mean: 0, std: 0 };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  // Population std over the group would make G=2 groups ±1 always; TRL uses the unbiased
  // (n-1) estimator, and so do we.
  const v = xs.length > 1 ? xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { mean, std: Math.sqrt(v) };
}

/**
 * Advantages `A_i = (r_i − mean_group(r)) / (std + eps)` for rewards laid out group after group
 * (`groupSize` consecutive completions per prompt). A null reward takes no part in its group's
 * statistics and gets advantage 0 and `valid` false (its tokens are masked out of the loss).
 */
export function computeAdvantages(
  rewards: readonly (number | null)[],
  groupSize: number,
  scale: RewardScaling,
  eps = 1e-4,
): { advantages: Float32Array; valid: boolean[] } {
  if (rewards.length % groupSize !== 0) {
    throw new AnchorError('INTERNAL', `computeAdvantages: ${rewards.length} rewards is not a multiple of group size ${groupSize}`);
  }
  const n = rewards.length;
  const advantages = new Float32Array(n);
  const valid = rewards.map((r) => r !== null && Number.isFinite(r));
  const centred: (number | null)[] = new Array(n).fill(null);
  for (let g = 0; g < n; g += groupSize) {
    const idx = [...Array(groupSize).keys()].map((k) => g + k).filter((i) => valid[i]);
    const { mean } = meanStd(idx.map((i) => rewards[i] as number));
    for (const i of idx) centred[i] = (rewards[i] as number) - mean;
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

/** k3 estimator of KL(πθ‖π_ref) per token: exp(ref − logπ) − (ref − logπ) − 1 (≥ 0). */
export function k3(logp: number, refLogp: number): number {
  const d = refLogp - logp;
  return Math.exp(d) - d - 1;
}

/** Options shared by the JS reference loss and the tfjs loss. */
export interface GrpoLossOptions {
  clipLow: number;
  clipHigh: number;
  beta: number;
  aggregation: LossAggregation;
  /** Max completion length for `dr_grpo` (the constant denominator; default: padded length). */
  maxLength?: number;
}

/** Per-token inputs: row-major [B × T] arrays, mask 1 on real completion tokens. */
export interface GrpoTokens {
  batch: number;
  length: number;
  oldLogp: Float32Array;
  refLogp: Float32Array;
  mask: Float32Array;
  /** Per-sequence advantages [B]. */
  advantages: Float32Array;
}

function aggregate(perToken: (i: number) => number, t: GrpoTokens, opts: GrpoLossOptions): number {
  const { batch: B, length: T, mask } = t;
  if (opts.aggregation === 'grpo') {
    let total = 0;
    let rows = 0;
    for (let b = 0; b < B; b++) {
      let s = 0;
      let n = 0;
      for (let j = 0; j < T; j++) {
        const i = b * T + j;
        if (mask[i]) {
          s += perToken(i);
          n++;
        }
      }
      if (n > 0) {
        total += s / n;
        rows++;
      }
    }
    return rows > 0 ? total / rows : 0;
  }
  let s = 0;
  let n = 0;
  for (let i = 0; i < B * T; i++) {
    if (mask[i]) {
      s += perToken(i);
      n++;
    }
  }
  if (opts.aggregation === 'dr_grpo') return s / (B * (opts.maxLength ?? T));
  return n > 0 ? s / n : 0;
}

/**
 * The GRPO loss in plain JS for given new log-probs (reference implementation for tests and
 * for diagnostics): per token `−min(ρA, clip(ρ, 1−ε_low, 1+ε_high)A) + β·k3`.
 */
export function grpoLossReference(newLogp: Float32Array, t: GrpoTokens, opts: GrpoLossOptions): { loss: number; kl: number; clipFraction: number } {
  const T = t.length;
  const perToken = (i: number) => {
    const a = t.advantages[Math.floor(i / T)]!;
    const rho = Math.exp(newLogp[i]! - t.oldLogp[i]!);
    const clipped = Math.min(Math.max(rho, 1 - opts.clipLow), 1 + opts.clipHigh);
    return -Math.min(rho * a, clipped * a) + opts.beta * k3(newLogp[i]!, t.refLogp[i]!);
  };
  const klOnly = (i: number) => k3(newLogp[i]!, t.refLogp[i]!);
  const clipOnly = (i: number) => {
    const a = t.advantages[Math.floor(i / T)]!;
    const rho = Math.exp(newLogp[i]! - t.oldLogp[i]!);
    return (a > 0 && rho > 1 + opts.clipHigh) || (a < 0 && rho < 1 - opts.clipLow) ? 1 : 0;
  };
  const tokenMean: GrpoLossOptions = { ...opts, aggregation: 'bnpo' };
  return { loss: aggregate(perToken, t, opts), kl: aggregate(klOnly, t, tokenMean), clipFraction: aggregate(clipOnly, t, tokenMean) };
}

/**
 * The same loss on tensors: `newLogp` is the differentiable [B, T] log-prob tensor of the
 * current policy. Returns a scalar to minimise. Call inside the optimizer's loss closure.
 */
export function grpoLoss(newLogp: tf.Tensor2D, t: GrpoTokens, opts: GrpoLossOptions): tf.Scalar {
  return tf.tidy(() => {
    const { batch: B, length: T } = t;
    const old = tf.tensor2d(t.oldLogp, [B, T]);
    const ref = tf.tensor2d(t.refLogp, [B, T]);
    const mask = tf.tensor2d(t.mask, [B, T]);
    const adv = tf.tensor2d(t.advantages, [B, 1]);
    // Padding tokens can hold arbitrary log-probs; zero their differences before exp.
    const diff = tf.mul(tf.sub(newLogp, old), mask);
    const rho = tf.exp(diff);
    const unclipped = tf.mul(rho, adv);
    const clipped = tf.mul(tf.clipByValue(rho, 1 - opts.clipLow, 1 + opts.clipHigh), adv);
    const surrogate = tf.neg(tf.minimum(unclipped, clipped));
    const d = tf.mul(tf.sub(ref, newLogp), mask);
    const kl = tf.sub(tf.sub(tf.exp(d), d), 1);
    const perToken = tf.mul(tf.add(surrogate, tf.mul(kl, opts.beta)), mask);
    if (opts.aggregation === 'grpo') {
      const tokens = tf.sum(mask, 1);
      const rowValid = tf.cast(tf.greater(tokens, 0), 'float32');
      const rowMean = tf.div(tf.sum(perToken, 1), tf.maximum(tokens, 1));
      return tf.div(tf.sum(tf.mul(rowMean, rowValid)), tf.maximum(tf.sum(rowValid), 1)) as tf.Scalar;
    }
    if (opts.aggregation === 'dr_grpo') return tf.div(tf.sum(perToken), B * (opts.maxLength ?? T)) as tf.Scalar;
    return tf.div(tf.sum(perToken), tf.maximum(tf.sum(mask), 1)) as tf.Scalar;
  });
}
