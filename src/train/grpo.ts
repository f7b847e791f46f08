/**
 * GRPO, as the field writes it (docs/design.md, "GRPO"): group-relative
 * advantages, the clipped per-token surrogate with asymmetric clip range, the k3 KL estimator
 * to the reference policy, and the loss aggregations — plus the variants the large frameworks
 * (TRL, verl, OpenRLHF) offer, so a result here can be reproduced there (docs/grpo.md):
 * leave-one-out (RLOO) and REINFORCE++ advantages, the sequence-level importance ratio of GSPO,
 * DAPO's overlong reward shaping and zero-variance group test (dynamic sampling), and truncated
 * importance sampling against the rollout engine's log-probs. The advantage and reference-loss
 * functions are plain JS (unit-tested against hand computation); {@link grpoLoss} is the same
 * loss on tfjs tensors for the optimizer.
 */
import { tf } from '../tf/backend.ts';

/** Loss aggregation: per-sequence mean then batch mean, token mean, or /(B × max length). */
type LossAggregation = 'grpo' | 'bnpo' | 'dapo' | 'dr_grpo';

/** Importance ratio per token (GRPO) or one per sequence, the geometric mean of its token ratios (GSPO). */
type ImportanceLevel = 'token' | 'sequence';

/**
 * DAPO's soft overlong punishment, added to the reward of a completion of `length` tokens:
 * 0 up to `maxLength − buffer` tokens, then falling linearly to `−factor` at `maxLength`
 * (`−factor·(length − (maxLength − buffer))/buffer`, never below −factor). `buffer` 0 = off.
 */
export function overlongPenalty(length: number, maxLength: number, buffer: number, factor: number): number {
  if (buffer <= 0) return 0;
  const exceed = length - (maxLength - buffer);
  return exceed <= 0 ? 0 : -factor * Math.min(exceed / buffer, 1);
}

/**
 * Truncated importance sampling weights [B × T] for the rollout/trainer mismatch:
 * `min(π_train/π_rollout, cap)` per token, where π_train is the trainer's log-prob of the sampled
 * token at the sampling weights and π_rollout the engine's. They multiply the surrogate (not the
 * KL term) and carry no gradient. Masked tokens get 1.
 */
export function truncatedIsWeights(
  trainLogp: Float32Array,
  rolloutLogp: Float32Array,
  mask: Float32Array,
  cap: number,
): Float32Array {
  const w = new Float32Array(trainLogp.length).fill(1);
  for (let i = 0; i < w.length; i++) if (mask[i]) w[i] = Math.min(Math.exp(trainLogp[i]! - rolloutLogp[i]!), cap);
  return w;
}

/**
 * KL(π_rollout‖π_train) per token, k3 estimator on the sampled tokens (which the rollout engine
 * drew), averaged over unmasked tokens: ≈ 0 when the engine and the trainer compute the same
 * distribution, so it guards the engine against numerical regressions.
 */
export function mismatchKl(rolloutLogp: Float32Array, trainLogp: Float32Array, mask: Float32Array): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    s += k3(rolloutLogp[i]!, trainLogp[i]!);
    n++;
  }
  return n > 0 ? s / n : 0;
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
  /**
   * `token` (default): ratio π/π_old per token. `sequence` (GSPO): one ratio per completion,
   * `exp(mean_t log(π/π_old))` over its unmasked tokens, clipped and applied to all its tokens.
   */
  importanceLevel?: ImportanceLevel;
}

/** Per-token inputs: row-major [B × T] arrays, mask 1 on real completion tokens. */
export interface GrpoTokens {
  batch: number;
  length: number;
  oldLogp: Float32Array;
  refLogp: Float32Array;
  mask: Float32Array;
  /** Advantages: per sequence [B], or per token [B × T] (REINFORCE++). */
  advantages: Float32Array;
  /** Truncated importance sampling weights [B × T] on the surrogate ({@link truncatedIsWeights}); absent = 1. */
  isWeights?: Float32Array;
}

/** Per-token log-ratio log(π/π_old) as the importance level defines it (the sequence mean under GSPO). */
function logRatios(newLogp: Float32Array, t: GrpoTokens, level: ImportanceLevel): Float64Array {
  const { batch: B, length: T, mask } = t;
  const out = new Float64Array(B * T);
  for (let b = 0; b < B; b++) {
    let s = 0;
    let n = 0;
    for (let j = 0; j < T; j++) {
      const i = b * T + j;
      out[i] = mask[i] ? newLogp[i]! - t.oldLogp[i]! : 0;
      s += out[i]!;
      n += mask[i] ? 1 : 0;
    }
    if (level === 'sequence') out.fill(n > 0 ? s / n : 0, b * T, (b + 1) * T);
  }
  return out;
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
 * for diagnostics): per token `−w·min(ρA, clip(ρ, 1−ε_low, 1+ε_high)A) + β·k3`, with ρ per token
 * or per sequence (`importanceLevel`) and w the truncated importance weight (1 without).
 */
export function grpoLossReference(
  newLogp: Float32Array,
  t: GrpoTokens,
  opts: GrpoLossOptions,
): { loss: number; kl: number; clipFraction: number } {
  const T = t.length;
  const logRho = logRatios(newLogp, t, opts.importanceLevel ?? 'token');
  const adv =
    t.advantages.length === t.batch * T ? (i: number) => t.advantages[i]! : (i: number) => t.advantages[Math.floor(i / T)]!;
  const perToken = (i: number) => {
    const a = adv(i);
    const rho = Math.exp(logRho[i]!);
    const clipped = Math.min(Math.max(rho, 1 - opts.clipLow), 1 + opts.clipHigh);
    return -Math.min(rho * a, clipped * a) * (t.isWeights?.[i] ?? 1) + opts.beta * k3(newLogp[i]!, t.refLogp[i]!);
  };
  const klOnly = (i: number) => k3(newLogp[i]!, t.refLogp[i]!);
  const clipOnly = (i: number) => {
    const a = adv(i);
    const rho = Math.exp(logRho[i]!);
    return (a > 0 && rho > 1 + opts.clipHigh) || (a < 0 && rho < 1 - opts.clipLow) ? 1 : 0;
  };
  const tokenMean: GrpoLossOptions = { ...opts, aggregation: 'bnpo' };
  return {
    loss: aggregate(perToken, t, opts),
    kl: aggregate(klOnly, t, tokenMean),
    clipFraction: aggregate(clipOnly, t, tokenMean),
  };
}

/**
 * The loss's denominator over the whole batch (valid rows for `grpo`, rows × max length for
 * `dr_grpo`, real tokens otherwise): what each micro-batch's share of {@link grpoLoss} divides by,
 * so the shares sum to the whole batch's loss.
 */
export function grpoLossDenominator(t: Pick<GrpoTokens, 'batch' | 'length' | 'mask'>, opts: GrpoLossOptions): number {
  const { batch: B, length: T, mask } = t;
  if (opts.aggregation === 'dr_grpo') return B * (opts.maxLength ?? T);
  let n = 0;
  if (opts.aggregation === 'grpo') {
    for (let b = 0; b < B; b++) if (mask.subarray(b * T, (b + 1) * T).some((m) => m > 0)) n++;
  } else {
    for (const m of mask) n += m > 0 ? 1 : 0;
  }
  return Math.max(n, 1);
}

/** Rows [start, end) of the token inputs (a micro-batch). */
export function sliceGrpoTokens(t: GrpoTokens, start: number, end: number): GrpoTokens {
  const T = t.length;
  const rows = (a: Float32Array) => a.subarray(start * T, end * T);
  return {
    batch: end - start,
    length: T,
    oldLogp: rows(t.oldLogp),
    refLogp: rows(t.refLogp),
    mask: rows(t.mask),
    advantages: t.advantages.length === t.batch * T ? rows(t.advantages) : t.advantages.subarray(start, end),
    ...(t.isWeights ? { isWeights: rows(t.isWeights) } : {}),
  };
}

/**
 * The same loss on tensors: `newLogp` is the differentiable [B, T] log-prob tensor of the
 * current policy. Returns a scalar to minimise. Call inside the optimizer's loss closure.
 * With `denominator` (from {@link grpoLossDenominator} over the whole batch), `t` is a
 * micro-batch and the result its share: the shares of a partition of the rows sum to the loss.
 */
export function grpoLoss(newLogp: tf.Tensor2D, t: GrpoTokens, opts: GrpoLossOptions, denominator?: number): tf.Scalar {
  return tf.tidy(() => {
    const { batch: B, length: T } = t;
    const old = tf.tensor2d(t.oldLogp, [B, T]);
    const ref = tf.tensor2d(t.refLogp, [B, T]);
    const mask = tf.tensor2d(t.mask, [B, T]);
    const adv = tf.tensor2d(t.advantages, t.advantages.length === B * T ? [B, T] : [B, 1]);
    // Padding tokens can hold arbitrary log-probs; zero their differences before exp.
    const diff = tf.mul(tf.sub(newLogp, old), mask);
    // GSPO: the row's mean log-ratio, broadcast to its tokens ([B, 1] against [B, T]).
    const logRho =
      opts.importanceLevel === 'sequence' ? tf.div(tf.sum(diff, 1, true), tf.maximum(tf.sum(mask, 1, true), 1)) : diff;
    const rho = tf.exp(logRho);
    const unclipped = tf.mul(rho, adv);
    const clipped = tf.mul(tf.clipByValue(rho, 1 - opts.clipLow, 1 + opts.clipHigh), adv);
    let surrogate = tf.neg(tf.minimum(unclipped, clipped));
    if (t.isWeights) surrogate = tf.mul(surrogate, tf.tensor2d(t.isWeights, [B, T]));
    const d = tf.mul(tf.sub(ref, newLogp), mask);
    const kl = tf.sub(tf.sub(tf.exp(d), d), 1);
    const perToken = tf.mul(tf.add(surrogate, tf.mul(kl, opts.beta)), mask);
    if (opts.aggregation === 'grpo') {
      const tokens = tf.sum(mask, 1);
      const rowValid = tf.cast(tf.greater(tokens, 0), 'float32');
      const rowMean = tf.div(tf.sum(perToken, 1), tf.maximum(tokens, 1));
      return tf.div(tf.sum(tf.mul(rowMean, rowValid)), denominator ?? tf.maximum(tf.sum(rowValid), 1)) as tf.Scalar;
    }
    if (opts.aggregation === 'dr_grpo') return tf.div(tf.sum(perToken), denominator ?? B * (opts.maxLength ?? T)) as tf.Scalar;
    return tf.div(tf.sum(perToken), denominator ?? tf.maximum(tf.sum(mask), 1)) as tf.Scalar;
  });
}
