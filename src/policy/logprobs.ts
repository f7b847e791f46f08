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
import { expandRows } from './ops.ts';

/**
 * The same batch laid out to run each distinct prompt once (GRPO's G completions of a prompt share
 * it): the distinct prompts without their last token go through the model once ([U, P-1], `prefix`),
 * their keys and values are copied to the rows that share them, and each row runs only its last
 * prompt token and its completion against that cache. Causal attention makes a prompt's keys and
 * values independent of what follows it, so this computes the same log-probs as the full
 * [B, P+C] layout with about (U·P + B·C)/(B·(P+C)) of its work; only the rounding of the gradient
 * sums differs (the shared prompt's gradient is summed once over its rows).
 *
 * The rows run in `buckets` of similar completion length, each right-padded only to its own
 * longest completion: a step's completions vary in length (on the default task the longest is
 * about 1.6× the mean), and padding to the batch's longest spent about a third of the suffix
 * pass on padding. One bucket is the batch in row order, padded to C.
 */
interface SharedPromptLayout {
  /** Distinct prompts minus their last token, left-padded to P-1. */
  prefix: TokenBatch;
  /** The rows, in groups run together (see {@link SuffixBucket}). */
  buckets: SuffixBucket[];
  /**
   * [B] where row b sits in the buckets' rows laid end to end (absent with one bucket, whose rows
   * are the batch's in order).
   */
  order?: Int32Array;
}

/** Rows of a {@link SharedPromptLayout} that run through the model together. */
interface SuffixBucket {
  /** The batch rows in this bucket, in the order they run. */
  rows: Int32Array;
  /** [rows] the distinct prompt of each row (an index into `prefix`). */
  source: Int32Array;
  /** Each row's last prompt token then its completion, right-padded to the bucket's longest completion + 1; positions continue the prompt's. */
  suffix: TokenBatch;
  /** [rows*(P-1)] attention mask of the copied prefix, row by row (`ForwardOptions.pastMask`). */
  pastMask: Float32Array;
}

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
  /** Set when built with `sharePrompts` and some rows repeat a prompt: the log-probs take this layout. */
  shared?: SharedPromptLayout;
}

/**
 * Build a {@link CompletionBatch} (optionally padded to at least `opts.completionLength`
 * completion columns). Every prompt must have at least one token; the real length
 * (prompt + completion) of every row must fit the model context (checked by the model).
 * With `sharePrompts`, rows that repeat a prompt (a GRPO group) also get the
 * {@link SharedPromptLayout}, which {@link completionLogProbs} then uses, its rows run in
 * `lengthBuckets` buckets of similar completion length (default 1).
 */
export function buildCompletionBatch(
  prompts: readonly (readonly number[])[],
  completions: readonly (readonly number[])[],
  padId: number,
  opts: { completionLength?: number; sharePrompts?: boolean; lengthBuckets?: number } = {},
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
  const shared = opts.sharePrompts ? sharedPromptLayout(prompts, completions, padId, P, C, opts.lengthBuckets ?? 1) : undefined;
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
    ...(shared ? { shared } : {}),
  };
}

/** The {@link SharedPromptLayout} of a batch, or undefined when no prompt repeats (or every prompt is one token). */
function sharedPromptLayout(
  prompts: readonly (readonly number[])[],
  completions: readonly (readonly number[])[],
  padId: number,
  P: number,
  C: number,
  lengthBuckets: number,
): SharedPromptLayout | undefined {
  const B = prompts.length;
  const index = new Map<string, number>();
  const distinct: (readonly number[])[] = [];
  const source = new Int32Array(B);
  prompts.forEach((p, b) => {
    const key = p.join(',');
    let u = index.get(key);
    if (u === undefined) {
      u = distinct.length;
      index.set(key, u);
      distinct.push(p);
    }
    source[b] = u;
  });
  const U = distinct.length;
  const L = P - 1;
  if (U === B || L === 0) return undefined;
  const pIds = new Int32Array(U * L).fill(padId);
  const pMask = new Float32Array(U * L);
  distinct.forEach((p, u) => {
    const start = u * L + (L - (p.length - 1));
    for (let i = 0; i < p.length - 1; i++) {
      pIds[start + i] = p[i]!;
      pMask[start + i] = 1;
    }
  });
  const prefix = { batch: U, length: L, ids: pIds, mask: pMask, positions: positionsFromMask(pMask, U, L) };
  const buckets = lengthBucketRows(completions, lengthBuckets).map((rows) => {
    const n = rows.length;
    // One bucket keeps the batch's padded length C (a caller may have asked for more columns).
    let Cb = C;
    if (n < B) {
      Cb = 1;
      for (const b of rows) Cb = Math.max(Cb, completions[b]!.length);
    }
    const S = Cb + 1;
    const sIds = new Int32Array(n * S).fill(padId);
    const sMask = new Float32Array(n * S);
    const pastMask = new Float32Array(n * L);
    const offset = new Int32Array(n);
    const bucketSource = new Int32Array(n);
    rows.forEach((b, i) => {
      const p = prompts[b]!;
      const c = completions[b]!;
      sIds[i * S] = p[p.length - 1]!;
      sMask[i * S] = 1;
      sIds.set(c, i * S + 1);
      sMask.fill(1, i * S + 1, i * S + 1 + c.length);
      pastMask.set(pMask.subarray(source[b]! * L, (source[b]! + 1) * L), i * L);
      offset[i] = p.length - 1;
      bucketSource[i] = source[b]!;
    });
    return {
      rows,
      source: bucketSource,
      suffix: { batch: n, length: S, ids: sIds, mask: sMask, positions: positionsFromMask(sMask, n, S, offset) },
      pastMask,
    };
  });
  if (buckets.length === 1) return { prefix, buckets };
  const order = new Int32Array(B);
  let at = 0;
  for (const k of buckets) for (const b of k.rows) order[b] = at++;
  return { prefix, buckets, order };
}

/**
 * Rows 0..B-1 split into `buckets` buckets (at most one per row) of (near) equal size by
 * completion length, shortest first (ties in row order, so the split depends only on the
 * lengths); one bucket is the rows in order.
 */
export function lengthBucketRows(completions: readonly (readonly number[])[], buckets: number): Int32Array[] {
  const B = completions.length;
  const k = Math.max(1, Math.min(B, Math.floor(buckets)));
  const byLength = Array.from({ length: B }, (_, b) => b);
  if (k === 1) return [Int32Array.from(byLength)];
  byLength.sort((a, b) => completions[a]!.length - completions[b]!.length || a - b);
  return Array.from({ length: k }, (_, j) =>
    Int32Array.from(byLength.slice(Math.floor((j * B) / k), Math.floor(((j + 1) * B) / k))),
  );
}

/**
 * Final hidden states [B*C, d] at the positions that predict the completion tokens (index P-1+j of
 * the full layout; index j of the shared layout's suffix).
 */
function completionHidden(model: PolicyModel, x: CompletionBatch, dropoutKey: number | undefined): tf.Tensor2D {
  const { batch: B, length: T, promptLength: P, completionLength: C } = x;
  const d = model.config.dModel;
  const s = x.shared;
  if (!s) {
    const { hidden } = model.forward(x, dropoutKey === undefined ? {} : { dropoutKey });
    return tf.reshape(tf.slice(tf.reshape(hidden, [B, T, d]), [0, P - 1, 0], [B, C, d]), [B * C, d]) as tf.Tensor2D;
  }
  // LoRA dropout draws its masks from the key: the prefix pass takes keys no optimizer step uses
  // (negative), so its masks are not the suffix pass's stream again; each bucket after the first
  // takes its own key.
  const prefix = model.forward(
    s.prefix,
    dropoutKey === undefined ? { keepPresent: true } : { keepPresent: true, dropoutKey: -1 - dropoutKey },
  );
  const parts = s.buckets.map((k, j) => {
    const past = prefix.present!.map((kv) => ({
      keysT: expandRows(kv.keysT, k.source, s.prefix.batch),
      values: expandRows(kv.values, k.source, s.prefix.batch),
    }));
    const { batch: n, length: S } = k.suffix;
    const key = dropoutKey === undefined ? undefined : j === 0 ? dropoutKey : `${dropoutKey}/bucket-${j}`;
    const { hidden } = model.forward(k.suffix, { past, pastMask: k.pastMask, ...(key === undefined ? {} : { dropoutKey: key }) });
    // A bucket's longest completion is at most C (S - 1 = C for a single bucket).
    const h = tf.slice(tf.reshape(hidden, [n, S, d]), [0, 0, 0], [n, S - 1, d]) as tf.Tensor3D;
    return S - 1 < C
      ? tf.pad(h, [
          [0, 0],
          [0, C - (S - 1)],
          [0, 0],
        ])
      : h;
  });
  // Back to row order: a product with a permutation (expandRows), exact in both directions.
  const rows = s.order ? expandRows(tf.concat(parts, 0), s.order, B) : parts[0]!;
  return tf.reshape(rows, [B * C, d]) as tf.Tensor2D;
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
  const { batch: B, completionLength: C } = x;
  const V = model.config.vocabSize;
  // Only the positions that predict completion tokens go through the (V-wide) output head.
  const h = completionHidden(model, x, opts.dropoutKey);
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
  /** [B*C] entropies, 0 at padding (all 0 when computed with `entropy: false`). */
  entropy: Float32Array;
  /** [B*C] 1 for real completion tokens. */
  mask: Float32Array;
}

/**
 * Non-differentiable per-token log-probs (and entropies, unless `entropy: false`) of `completions`
 * given `prompts` (e.g. old/reference policy log-probs) at the sampling `temperature` (default 1),
 * computed in chunks of `chunkSize` rows inside tidy; `sharePrompts` runs each chunk's repeated
 * prompts once ({@link SharedPromptLayout}), its rows in `lengthBuckets` buckets of similar length.
 */
export function sequenceLogProbs(
  model: PolicyModel,
  prompts: readonly (readonly number[])[],
  completions: readonly (readonly number[])[],
  opts: {
    padId: number;
    chunkSize?: number;
    temperature?: number;
    entropy?: boolean;
    sharePrompts?: boolean;
    lengthBuckets?: number;
  },
): SequenceScores {
  const full = buildCompletionBatch(prompts, completions, opts.padId);
  const B = full.batch;
  const C = full.completionLength;
  const logProbs = new Float32Array(B * C);
  const entropy = new Float32Array(B * C);
  const withEntropy = opts.entropy !== false;
  const chunk = Math.max(1, opts.chunkSize ?? 64);
  for (let s = 0; s < B; s += chunk) {
    const e = Math.min(B, s + chunk);
    // Pad every chunk to the full batch's completion length so rows line up in the output.
    const padded = buildCompletionBatch(prompts.slice(s, e), completions.slice(s, e), opts.padId, {
      completionLength: C,
      sharePrompts: opts.sharePrompts === true,
      lengthBuckets: opts.lengthBuckets ?? 1,
    });
    const [lp, en] = tf.tidy(() => {
      const r = completionLogProbs(model, padded, {
        entropy: withEntropy,
        ...(opts.temperature === undefined ? {} : { temperature: opts.temperature }),
      });
      return [r.logProbs.dataSync() as Float32Array, withEntropy ? (r.entropy.dataSync() as Float32Array) : undefined];
    });
    logProbs.set(lp!, s * C);
    if (en) entropy.set(en, s * C);
  }
  return { batch: B, completionLength: C, logProbs, entropy, mask: full.completionMask };
}
