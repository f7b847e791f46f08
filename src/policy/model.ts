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
import { bmm, embed, gelu, layerNorm, linear } from './ops.ts';
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
    let h = tf.add(rowsOf(ids, this.p('wte') as tf.Tensor2D), rowsOf(pos, wpe as tf.Tensor2D)) as tf.Tensor2D;
    const bias = attentionBias(x, pastLen, opts.pastMask);
    const present: LayerKv[] = [];
    for (let i = 0; i < c.layers; i++) {
      const pre = `h.${i}.`;
      const a = layerNorm(
        h,
        this.p(pre + 'ln_1.weight') as tf.Tensor1D,
        this.p(pre + 'ln_1.bias') as tf.Tensor1D,
        LAYER_NORM_EPS,
      );
      const { out, kv } = this.attention(a, i, B, T, bias, past?.[i], adapters);
      if (opts.keepPresent) present.push(kv);
      h = tf.add(h, out);
      const m = layerNorm(
        h,
        this.p(pre + 'ln_2.weight') as tf.Tensor1D,
        this.p(pre + 'ln_2.bias') as tf.Tensor1D,
        LAYER_NORM_EPS,
      );
      const f = gelu(this.weights.proj(m, pre + 'mlp.c_fc', adapters));
      h = tf.add(h, this.weights.proj(f, pre + 'mlp.c_proj', adapters));
    }
    const hidden = layerNorm(h, this.p('ln_f.weight') as tf.Tensor1D, this.p('ln_f.bias') as tf.Tensor1D, LAYER_NORM_EPS);
    return opts.keepPresent ? { hidden, present } : { hidden };
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
