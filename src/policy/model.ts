/**
 * The trainable policy: a GPT-2 style decoder-only transformer in TensorFlow.js, following the
 * weight contract in ./weights.ts and the semantics in ./gpt-config.ts.
 *
 * Inputs are plain typed arrays ({@link TokenBatch}); tensors are created inside the caller's
 * tidy/gradient scope so nothing leaks. Everything goes through src/tf/backend.ts.
 */
import { tf } from '../tf/backend.ts';
import { Rng } from '../util/rng.ts';
import { AnchorError } from '../util/errors.ts';
import { type GptConfig, LAYER_NORM_EPS, headDim, validateGptConfig } from './gpt-config.ts';
import { type WeightMap, expectedWeightShapes, validateWeights } from './weights.ts';
import { bmm, embed, expandRows, gelu, layerNorm, linear } from './ops.ts';
import { type LoraSpec, gptLoraAdapterShapes, resolveLora } from './hf/lora.ts';
import { type AdapterUse, TrainableWeights, adaptersOffView } from './trainable-weights.ts';
import type { ForwardOptions, LayerKv, PolicyModel, TokenBatch, TrainStepShape } from './policy-model.ts';
import { type MemoryShape, countParams, rowsPerPass } from './hf/train-memory.ts';

/** GPT-2 initialisation standard deviation. */
const INIT_STD = 0.02;

export type { ForwardOptions, LayerKv, TokenBatch } from './policy-model.ts';

/** Position ids for (possibly left-padded) rows: max(cumsum(mask) - 1, 0), per row. */
export function positionsFromMask(mask: Float32Array, batch: number, length: number, offset?: Int32Array): Int32Array {
  const pos = new Int32Array(batch * length);
  for (let b = 0; b < batch; b++) {
    let c = offset ? offset[b]! : 0;
    for (let t = 0; t < length; t++) {
      c += mask[b * length + t]! > 0 ? 1 : 0;
      pos[b * length + t] = Math.max(c - 1, 0);
    }
  }
  return pos;
}

/** A batch from equal-length rows without padding. */
export function denseBatch(rows: readonly (readonly number[])[]): TokenBatch {
  const batch = rows.length;
  const length = rows[0]?.length ?? 0;
  const ids = new Int32Array(batch * length);
  rows.forEach((r, b) => {
    if (r.length !== length) throw new AnchorError('BAD_ARGUMENT', 'denseBatch: rows differ in length');
    ids.set(r, b * length);
  });
  const mask = new Float32Array(batch * length).fill(1);
  return { batch, length, ids, mask, positions: positionsFromMask(mask, batch, length) };
}

/** The sizes the memory estimate needs. */
export function gptMemoryShape(c: GptConfig): MemoryShape {
  const { layers, dModel, heads, vocabSize } = c;
  return { arch: 'gpt2', params: countParams(expectedWeightShapes(c)), layers, dModel, ffn: 4 * dModel, heads, vocabSize };
}

/** Construction options. */
export interface GptModelOptions {
  /** Train low-rank adapters on a frozen base instead of all weights (GPT-2 checkpoints). */
  lora?: LoraSpec;
  /** Seed of the adapters' A matrices and of LoRA dropout. */
  seed?: number;
}

/**
 * The tfjs GPT. Holds one tf.Variable per weight-contract tensor, or, with LoRA, the base as
 * frozen tensors and the adapters as variables ({@link GptModel.reference} is the base).
 */
export class GptModel implements PolicyModel {
  readonly config: GptConfig;
  readonly lora: LoraSpec | undefined;
  /** Trainable parameters by contract name, in {@link expectedWeightShapes} order (or the adapters). */
  readonly params: Map<string, tf.Variable>;
  private readonly weights: TrainableWeights;
  private disposed = false;

  private constructor(config: GptConfig, weights: WeightMap, opts: GptModelOptions) {
    this.config = validateGptConfig({ ...config });
    validateWeights(this.config, weights);
    const lora = opts.lora && resolveLora(opts.lora, 'gpt2');
    this.weights = new TrainableWeights(expectedWeightShapes(this.config).keys(), weights, {
      ...(lora ? { lora: { spec: lora, adapters: gptLoraAdapterShapes(this.config, lora) } } : {}),
      seed: opts.seed ?? 0,
    });
    this.lora = lora;
    this.params = this.weights.params;
  }

  /**
   * A freshly initialised model. Deterministic in `seed`: each tensor draws from its own
   * `Rng(seed).fork(name)` stream (GPT-2 init: N(0, 0.02); residual output projections
   * N(0, 0.02/sqrt(2·layers)); LayerNorm weight 1, biases 0).
   */
  static init(config: GptConfig, seed: number): GptModel {
    return new GptModel(config, initWeights(config, seed), {});
  }

  /** A model holding a copy of `weights` (validated against `config`). */
  static fromWeights(config: GptConfig, weights: WeightMap, opts: GptModelOptions = {}): GptModel {
    return new GptModel(config, weights, opts);
  }

  /** Parameters as a list (the order is stable). */
  variables(): tf.Variable[] {
    return [...this.params.values()];
  }

  /** A copy of the trainable parameters (all weights in the contract layout, or the adapters). */
  getWeights(): WeightMap {
    return this.weights.getWeights();
  }

  /** Overwrite the trainable parameters (validated: every tensor present with its contract shape). */
  setWeights(weights: WeightMap): void {
    this.weights.setWeights(weights, this.lora ? undefined : (w) => validateWeights(this.config, w));
  }

  /** The base weights, contract layout (without adapters). */
  baseWeights(): WeightMap {
    return this.weights.baseWeights();
  }

  /** Full weights with the adapters merged in; equals the base weights without LoRA. */
  mergedWeights(): WeightMap {
    return this.weights.mergedWeights();
  }

  /** The frozen base as a policy (adapters off), sharing this model's tensors. Only with LoRA. */
  reference(): PolicyModel {
    if (!this.lora) throw new AnchorError('INTERNAL', 'GptModel.reference() is only defined with LoRA');
    return adaptersOffView(this, (x, opts) => this.run(x, opts, { on: false }));
  }

  /** Rows per optimizer pass that fit the wasm heap (./hf/train-memory.ts). */
  trainRowsPerPass(shape: TrainStepShape): number {
    return rowsPerPass(gptMemoryShape(this.config), this.lora !== undefined, shape);
  }

  /** Release the tensors. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.weights.dispose();
  }

  private p(name: string): tf.Tensor {
    return this.weights.w(name);
  }

  /**
   * Final-LayerNorm hidden states [B*T, d] for a batch (call inside tidy or a gradient scope).
   * With `past`, the batch holds only the new positions and attends to the cache too.
   */
  forward(x: TokenBatch, opts: ForwardOptions = {}): { hidden: tf.Tensor2D; present?: LayerKv[] } {
    return this.run(x, opts, { on: true, dropoutKey: opts.dropoutKey });
  }

  private run(x: TokenBatch, opts: ForwardOptions, adapters: AdapterUse): { hidden: tf.Tensor2D; present?: LayerKv[] } {
    const c = this.config;
    const { batch: B, length: T } = x;
    const past = opts.past;
    const pastLen = past && past.length > 0 ? past[0]!.values.shape[2] : 0;
    let h = this.embedding(x);
    const bias = attentionBias(x, pastLen, opts.pastMask);
    const present: LayerKv[] = [];
    for (let i = 0; i < c.layers; i++) {
      const { out, kv } = this.block(h, i, B, T, bias, past?.[i], adapters);
      if (opts.keepPresent) present.push(kv);
      h = out;
    }
    const hidden = this.finalNorm(h);
    return opts.keepPresent ? { hidden, present } : { hidden };
  }

  /**
   * The residual stream entering block `upTo` [B*T, d] (token and position embeddings, then blocks
   * 0 … upTo−1; no final LayerNorm). With {@link forwardFrom} it splits {@link forward} in two, so
   * a caller that trains only the top blocks can keep the frozen lower part's output.
   */
  lowerHidden(x: TokenBatch, upTo: number): tf.Tensor2D {
    this.checkSplit(upTo);
    let h = this.embedding(x);
    const bias = attentionBias(x, 0, undefined);
    for (let i = 0; i < upTo; i++) h = this.block(h, i, x.batch, x.length, bias, undefined, { on: true }).out;
    return h;
  }

  /** Final-LayerNorm hidden states [B*T, d] from the residual stream `h` entering block `from`. */
  forwardFrom(h: tf.Tensor2D, x: TokenBatch, from: number): tf.Tensor2D {
    this.checkSplit(from);
    const bias = attentionBias(x, 0, undefined);
    for (let i = from; i < this.config.layers; i++) h = this.block(h, i, x.batch, x.length, bias, undefined, { on: true }).out;
    return this.finalNorm(h);
  }

  /**
   * Final-LayerNorm hidden states [B, d] at one position per sequence (`at[b]`, a real token of row
   * b), from the residual stream `h` [B*T, d] entering block `from`. Blocks before the last run on
   * every position; the last block computes keys and values of every position (what the selected
   * positions attend to) but its query, attention output and MLP only at the selected positions —
   * all a last-token readout needs, about a sixth of the block's work. Equal to selecting the rows
   * of {@link forwardFrom} up to float rounding (products over fewer rows). Not for LoRA models.
   */
  forwardAt(h: tf.Tensor2D, x: TokenBatch, from: number, at: Int32Array): tf.Tensor2D {
    this.checkSplit(from);
    if (this.lora) throw new AnchorError('INTERNAL', 'forwardAt: not for a model with adapters');
    const { batch: B, length: T } = x;
    if (at.length !== B) throw new AnchorError('INTERNAL', `forwardAt: ${at.length} positions for ${B} rows`);
    const rows = Int32Array.from(at, (t, b) => b * T + t);
    const L = this.config.layers;
    if (from === L) return this.finalNorm(expandRows(h, rows, B * T));
    const bias = attentionBias(x, 0, undefined);
    for (let i = from; i < L - 1; i++) h = this.block(h, i, B, T, bias, undefined, { on: true }).out;
    // The last block at the selected positions only.
    const c = this.config;
    const H = c.heads;
    const hd = headDim(c);
    const pre = `h.${L - 1}.`;
    const a = this.norm(h, pre + 'ln_1');
    const [wq, wk, wv] = tf.split(this.p(pre + 'attn.c_attn.weight'), 3, 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    const [bq, bk, bv] = tf.split(this.p(pre + 'attn.c_attn.bias'), 3, 0) as [tf.Tensor1D, tf.Tensor1D, tf.Tensor1D];
    const q = tf.reshape(tf.mul(linear(expandRows(a, rows, B * T), wq, bq), 1 / Math.sqrt(hd)), [B * H, 1, hd]) as tf.Tensor3D;
    const kT = tf.transpose(tf.reshape(linear(a, wk, bk), [B, T, H, hd]), [0, 2, 3, 1]);
    const v = tf.transpose(tf.reshape(linear(a, wv, bv), [B, T, H, hd]), [0, 2, 1, 3]);
    // Keys a selected position may attend to: real tokens at or before it.
    const allow = new Float32Array(B * T);
    for (let b = 0; b < B; b++) for (let j = 0; j < T; j++) allow[b * T + j] = j <= at[b]! && x.mask[b * T + j]! > 0 ? 0 : -1e9;
    const scores = tf.reshape(bmm(q, tf.reshape(kT, [B * H, hd, T])), [B, H, T]);
    const probs = tf.softmax(tf.add(scores, tf.tensor3d(allow, [B, 1, T])));
    const ctx = tf.reshape(bmm(tf.reshape(probs, [B * H, 1, T]), tf.reshape(v, [B * H, T, hd])), [B, c.dModel]) as tf.Tensor2D;
    const mid = tf.add(expandRows(h, rows, B * T), this.weights.proj(ctx, pre + 'attn.c_proj', { on: true })) as tf.Tensor2D;
    return this.finalNorm(this.mlpResidual(mid, pre, { on: true }));
  }

  private checkSplit(at: number): void {
    if (!(Number.isInteger(at) && at >= 0 && at <= this.config.layers))
      throw new AnchorError('INTERNAL', `split at block ${at}: the model has ${this.config.layers} blocks`);
  }

  /** Token plus position embeddings [B*T, d], checking every position is inside the context. */
  private embedding(x: TokenBatch): tf.Tensor2D {
    const c = this.config;
    for (let i = 0; i < x.positions.length; i++) {
      const pos = x.positions[i]!;
      if (pos < 0 || pos >= c.context) {
        throw new AnchorError('BAD_ARGUMENT', `position ${pos} is outside the model context (${c.context} positions)`);
      }
    }
    const ids = tf.tensor1d(x.ids, 'int32');
    const pos = tf.tensor1d(x.positions, 'int32');
    // Only the position rows actually used take part (one-hot width maxPos+1, not context).
    let maxPos = 0;
    for (const q of x.positions) if (q > maxPos) maxPos = q;
    const rows = Math.min(c.context, Math.max(2, maxPos + 1)); // tf.oneHot needs depth >= 2
    const wpe = rows < c.context ? tf.slice(this.p('wpe'), [0, 0], [rows, c.dModel]) : this.p('wpe');
    // A frozen base needs no table gradients: plain gathers.
    const rowsOf = this.weights.frozen ? (i: tf.Tensor1D, t: tf.Tensor) => tf.gather(t, i) as tf.Tensor2D : embed;
    return tf.add(rowsOf(ids, this.p('wte') as tf.Tensor2D), rowsOf(pos, wpe as tf.Tensor2D)) as tf.Tensor2D;
  }

  /** Transformer block `i` on the residual stream `h`: the stream after it and the block's keys/values. */
  private block(
    h: tf.Tensor2D,
    i: number,
    B: number,
    T: number,
    bias: tf.Tensor4D,
    past: LayerKv | undefined,
    adapters: AdapterUse,
  ): { out: tf.Tensor2D; kv: LayerKv } {
    const pre = `h.${i}.`;
    const { out: attn, kv } = this.attention(this.norm(h, pre + 'ln_1'), i, B, T, bias, past, adapters);
    return { out: this.mlpResidual(tf.add(h, attn) as tf.Tensor2D, pre, adapters), kv };
  }

  /** The second half of block `pre`: the stream `mid` plus the MLP of its LayerNorm. */
  private mlpResidual(mid: tf.Tensor2D, pre: string, adapters: AdapterUse): tf.Tensor2D {
    const f = gelu(this.weights.proj(this.norm(mid, pre + 'ln_2'), pre + 'mlp.c_fc', adapters));
    return tf.add(mid, this.weights.proj(f, pre + 'mlp.c_proj', adapters)) as tf.Tensor2D;
  }

  /** LayerNorm `name` (`h.<i>.ln_1`, `h.<i>.ln_2`, `ln_f`) of `h`. */
  private norm(h: tf.Tensor2D, name: string): tf.Tensor2D {
    return layerNorm(h, this.p(name + '.weight') as tf.Tensor1D, this.p(name + '.bias') as tf.Tensor1D, LAYER_NORM_EPS);
  }

  private finalNorm(h: tf.Tensor2D): tf.Tensor2D {
    return this.norm(h, 'ln_f');
  }

  /** Logits [N, V] for hidden states [N, d]. */
  head(hidden: tf.Tensor2D): tf.Tensor2D {
    const tied = this.config.tiedHead;
    return this.weights.head(hidden, tied ? 'wte' : 'lm_head.weight', tied);
  }

  /** Logits [B, T, V] for a whole batch (call inside tidy). */
  logits(x: TokenBatch): tf.Tensor3D {
    const { hidden } = this.forward(x);
    return tf.reshape(this.head(hidden), [x.batch, x.length, this.config.vocabSize]);
  }

  private attention(
    a: tf.Tensor2D,
    layer: number,
    B: number,
    T: number,
    bias: tf.Tensor4D,
    past: LayerKv | undefined,
    adapters: AdapterUse,
  ): { out: tf.Tensor2D; kv: LayerKv } {
    const c = this.config;
    const d = c.dModel;
    const H = c.heads;
    const hd = headDim(c);
    const pre = `h.${layer}.attn.`;
    const [q0, k0, v0] = this.qkv(a, pre + 'c_attn', adapters);
    const q = tf.transpose(tf.reshape(tf.mul(q0, 1 / Math.sqrt(hd)), [B, T, H, hd]), [0, 2, 1, 3]);
    let kT = tf.transpose(tf.reshape(k0, [B, T, H, hd]), [0, 2, 3, 1]) as tf.Tensor4D;
    let v = tf.transpose(tf.reshape(v0, [B, T, H, hd]), [0, 2, 1, 3]) as tf.Tensor4D;
    if (past) {
      kT = tf.concat([past.keysT, kT], 3);
      v = tf.concat([past.values, v], 2);
    }
    const S = v.shape[2];
    const scores = tf.reshape(bmm(tf.reshape(q, [B * H, T, hd]), tf.reshape(kT, [B * H, hd, S])), [B, H, T, S]);
    const probs = tf.softmax(tf.add(scores, bias));
    const ctx = bmm(tf.reshape(probs, [B * H, T, S]), tf.reshape(v, [B * H, S, hd]));
    const merged = tf.reshape(tf.transpose(tf.reshape(ctx, [B, H, T, hd]), [0, 2, 1, 3]), [B * T, d]) as tf.Tensor2D;
    const out = this.weights.proj(merged, pre + 'c_proj', adapters);
    return { out, kv: { keysT: kT, values: v } };
  }

  /** The q, k, v projections of c_attn [d, 3d]. */
  private qkv(a: tf.Tensor2D, module: string, adapters: AdapterUse): [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D] {
    // With LoRA (a frozen base): one product with the adapter, split after.
    if (this.weights.frozen)
      return tf.split(this.weights.proj(a, module, adapters), 3, 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    // Slicing the small [d,3d] weight and doing three products is cheaper on wasm than
    // splitting the large [n,3d] activation.
    const [wq, wk, wv] = tf.split(this.p(module + '.weight'), 3, 1) as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    const [bq, bk, bv] = tf.split(this.p(module + '.bias'), 3, 0) as [tf.Tensor1D, tf.Tensor1D, tf.Tensor1D];
    return [linear(a, wq, bq), linear(a, wk, bk), linear(a, wv, bv)];
  }
}

/** Additive attention bias [B,1,T,pastLen+T]: 0 where allowed, -1e9 for future or padded keys. */
export function attentionBias(x: TokenBatch, pastLen: number, pastMask: Float32Array | undefined): tf.Tensor4D {
  const { batch: B, length: T } = x;
  const S = pastLen + T;
  if (pastLen > 0 && (!pastMask || pastMask.length !== B * pastLen)) {
    throw new AnchorError('INTERNAL', 'forward: pastMask must have batch × pastLen entries');
  }
  const out = new Float32Array(B * T * S);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < T; i++) {
      const row = (b * T + i) * S;
      for (let j = 0; j < S; j++) {
        const real = j < pastLen ? pastMask![b * pastLen + j]! > 0 : x.mask[b * T + (j - pastLen)]! > 0;
        // A finite large negative (not -inf) keeps all-padding rows finite (uniform) instead of NaN.
        out[row + j] = j <= pastLen + i && real ? 0 : -1e9;
      }
    }
  }
  return tf.tensor4d(out, [B, 1, T, S]);
}

/** Deterministic GPT-2 initial weights for `config` from `seed`. */
export function initWeights(config: GptConfig, seed: number): WeightMap {
  validateGptConfig(config);
  const root = new Rng(seed);
  const residualStd = INIT_STD / Math.sqrt(2 * config.layers);
  const w: WeightMap = new Map();
  for (const [name, shape] of expectedWeightShapes(config)) {
    const size = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    if (/\.ln_\d\.weight$|^ln_f\.weight$/.test(name)) {
      data.fill(1);
    } else if (shape.length >= 2) {
      const std = /\.c_proj\.weight$/.test(name) ? residualStd : INIT_STD;
      const rng = root.fork(name);
      for (let i = 0; i < size; i++) data[i] = rng.normal() * std;
    }
    w.set(name, { shape: [...shape], data });
  }
  return w;
}
