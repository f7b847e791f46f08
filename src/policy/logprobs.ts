/**
 * Log-probabilities and entropies of given completions under the model, batched and masked for
 * padding — the quantities GRPO needs for the new, old and reference policies — and the
 * supervised next-token loss used by pretraining.
 *
 * Layout: prompts are left-padded to a common length P, completions right-padded to C, so every
 * row's first completion token sits at index P and its logits come from index P-1. Position ids
 * follow the mask (max(cumsum(mask) - 1, 0)), so padding never shifts a real token's position and
 * a row's real-token log-probs do not depend on how much padding the batch needed.
 */
import { tf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import type { PolicyModel, TokenBatch } from './policy-model.ts';
import { positionsFromMask } from './model.ts';

/** A prompt+completion batch (see module docs for the layout). */
export interface CompletionBatch extends TokenBatch {
  /** Padded prompt length P (the first completion token is at index P). */
  promptLength: number;
  /** Padded completion length C. */
  completionLength: number;
  /** [B*C] completion token ids (padding positions hold padId). */
  targets: Int32Array;
  /** [B*C] 1 for real completion tokens, 0 for padding. */
  completionMask: Float32Array;
}

/**
 * Build a {@link CompletionBatch} (optionally padded to at least `opts.completionLength`
 * completion columns). Every prompt must have at least one token; the real length
 * (prompt + completion) of every row must fit the model context (checked by the model).
 */
export function buildCompletionBatch(
  prompts: readonly (readonly number[])[],
  completions: readonly (readonly number[])[],
  padId: number,
  opts: { completionLength?: number } = {},
): CompletionBatch {
  if (prompts.length !== completions.length) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `buildCompletionBatch: ${prompts.length} prompts but ${completions.length} completions`,
    );
  }
  const B = prompts.length;
  let P = 0;
  let C = 0;
  for (let b = 0; b < B; b++) {
    if (prompts[b]!.length === 0) throw new AnchorError('BAD_ARGUMENT', `buildCompletionBatch: prompt ${b} is empty`);
    P = Math.max(P, prompts[b]!.length);
    C = Math.max(C, completions[b]!.length);
  }
  // A fixed completion length lets chunked callers line rows up (extra columns are padding).
  if (opts.completionLength !== undefined) C = Math.max(C, opts.completionLength);
  const T = P + C;
  const ids = new Int32Array(B * T).fill(padId);
  const mask = new Float32Array(B * T);
  const targets = new Int32Array(B * C).fill(padId);
  const completionMask = new Float32Array(B * C);
  for (let b = 0; b < B; b++) {
    const p = prompts[b]!;
    const c = completions[b]!;
    const start = b * T + (P - p.length);
    for (let i = 0; i < p.length; i++) {
      ids[start + i] = p[i]!;
      mask[start + i] = 1;
    }
    for (let j = 0; j < c.length; j++) {
      ids[b * T + P + j] = c[j]!;
      mask[b * T + P + j] = 1;
      targets[b * C + j] = c[j]!;
      completionMask[b * C + j] = 1;
    }
  }
  return {
    batch: B,
    length: T,
    ids,
    mask,
    positions: positionsFromMask(mask, B, T),
    promptLength: P,
    completionLength: C,
    targets,
    completionMask,
  };
}

/** Per-token log-probs and entropies of the completion tokens, each [B, C], zero at padding. */
export interface CompletionScores {
  logProbs: tf.Tensor2D;
  entropy: tf.Tensor2D;
}

/**
 * The divisor of the logits for a sampling temperature: the policy that sampled at T is
 * softmax(logits / T), so its log-probs — π_old, π_θ and the reference alike, as in TRL, verl and
 * OpenRLHF — are taken at T. Greedy decoding (T = 0) and unset leave the logits as they are.
 */
function logitScale(temperature: number | undefined): number {
  return temperature !== undefined && temperature > 0 ? temperature : 1;
}

/**
 * Differentiable per-token log-probs (and entropies) of the batch's completion tokens under the
 * sampling distribution at `temperature` (logits / T; default 1). Call inside tf.tidy / a
 * gradient function (e.g. the loss passed to `AdamOptimizer.trainStep`). Uses log-softmax ×
 * one-hot rather than gather (gather with batchDims crashes on wasm).
 */
export function completionLogProbs(
  model: PolicyModel,
  x: CompletionBatch,
  opts: { entropy?: boolean; dropoutKey?: number; temperature?: number } = {},
): CompletionScores {
  const { batch: B, length: T, promptLength: P, completionLength: C } = x;
  const d = model.config.dModel;
  const V = model.config.vocabSize;
  const { hidden } = model.forward(x, opts.dropoutKey === undefined ? {} : { dropoutKey: opts.dropoutKey });
  // Only the positions that predict completion tokens go through the (V-wide) output head.
  const h = tf.reshape(tf.slice(tf.reshape(hidden, [B, T, d]), [0, P - 1, 0], [B, C, d]), [B * C, d]) as tf.Tensor2D;
  const scale = logitScale(opts.temperature);
  const logits = model.head(h);
  const logp = tf.logSoftmax(scale === 1 ? logits : tf.div(logits, scale));
  const mask = tf.tensor2d(x.completionMask, [B, C]);
  const oneHot = tf.oneHot(tf.tensor1d(x.targets, 'int32'), V).toFloat();
  const lp = tf.mul(tf.reshape(tf.sum(tf.mul(logp, oneHot), -1), [B, C]), mask) as tf.Tensor2D;
  let entropy: tf.Tensor2D;
  if (opts.entropy === false) {
    entropy = tf.zerosLike(lp);
  } else {
    const ent = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), -1));
    entropy = tf.mul(tf.reshape(ent, [B, C]), mask) as tf.Tensor2D;
  }
  return { logProbs: lp, entropy };
}

/**
 * Mean negative log-likelihood of the real completion tokens (token-averaged over the batch):
 * the supervised next-token loss. Differentiable; call inside a gradient scope.
 */
export function completionNll(model: PolicyModel, x: CompletionBatch): tf.Scalar {
  const { logProbs } = completionLogProbs(model, x, { entropy: false });
  let n = 0;
  for (const m of x.completionMask) n += m;
  return tf.div(tf.neg(tf.sum(logProbs)), Math.max(n, 1)) as tf.Scalar;
}

/** Plain-array results of {@link sequenceLogProbs}. */
export interface SequenceScores {
  /** Rows × padded completion length. */
  batch: number;
  completionLength: number;
  /** [B*C] log-probs, 0 at padding. */
  logProbs: Float32Array;
  /** [B*C] entropies, 0 at padding. */
  entropy: Float32Array;
  /** [B*C] 1 for real completion tokens. */
  mask: Float32Array;
}

/**
 * Non-differentiable per-token log-probs and entropies of `completions` given `prompts`
 * (e.g. old/reference policy log-probs) at the sampling `temperature` (default 1), computed in
 * chunks of `chunkSize` rows inside tidy.
 */
export function sequenceLogProbs(
  model: PolicyModel,
  prompts: readonly (readonly number[])[],
  completions: readonly (readonly number[])[],
  opts: { padId: number; chunkSize?: number; temperature?: number },
): SequenceScores {
  const full = buildCompletionBatch(prompts, completions, opts.padId);
  const B = full.batch;
  const C = full.completionLength;
  const logProbs = new Float32Array(B * C);
  const entropy = new Float32Array(B * C);
  const chunk = Math.max(1, opts.chunkSize ?? 64);
  for (let s = 0; s < B; s += chunk) {
    const e = Math.min(B, s + chunk);
    // Pad every chunk to the full batch's completion length so rows line up in the output.
    const padded = buildCompletionBatch(prompts.slice(s, e), completions.slice(s, e), opts.padId, { completionLength: C });
    const [lp, en] = tf.tidy(() => {
      const r = completionLogProbs(model, padded, opts.temperature === undefined ? {} : { temperature: opts.temperature });
      return [r.logProbs.dataSync() as Float32Array, r.entropy.dataSync() as Float32Array];
    });
    logProbs.set(lp!, s * C);
    entropy.set(en!, s * C);
  }
  return { batch: B, completionLength: C, logProbs, entropy, mask: full.completionMask };
}
