/**
 * The Llama-family decoder in TensorFlow.js (Llama, Qwen2, Mistral without sliding windows),
 * following Hugging Face's LlamaForCausalLM:
 * - h = embed_tokens[ids]; per layer `h += o_proj(attn(rope(q), rope(k), v))` on
 *   `input_layernorm(h)`, then `h += down_proj(silu(gate_proj(x)) · up_proj(x))` on
 *   `post_attention_layernorm(h)`; final `model.norm`; logits = h · embed_tokensᵀ (tied) or h · lm_head;
 * - RMSNorm y = x · rsqrt(mean(x²) + eps) · w;
 * - rotary embedding on each head, non-interleaved halves (rotate_half), angle
 *   position · rope_theta^(−2i/head_dim);
 * - grouped-query attention: query head h reads key/value head floor(h / (heads / kv_heads)),
 *   scores scaled by 1/sqrt(head_dim), causal and padding mask as the built-in GPT.
 *
 * Weights follow ./llama-weights.ts ([in, out] projections). With a LoRA config the base weights
 * are frozen tensors (not variables) and only the adapters train; {@link LlamaModel.reference}
 * is the same base with the adapters switched off, so the KL reference needs no second copy.
 */
import { tf } from '../../tf/backend.ts';
import { AnchorError } from '../../util/errors.ts';
import { attentionBias } from '../model.ts';
import { bmm, embed, mm } from '../ops.ts';
import type { ForwardOptions, LayerKv, PolicyModel, TokenBatch, TrainStepShape } from '../policy-model.ts';
import { type MemoryShape, countParams, rowsPerPass } from './train-memory.ts';
import type { WeightMap } from '../weights.ts';
import type { LlamaConfig } from './hf-config.ts';
import { llamaWeightShapes } from './llama-weights.ts';
import { ropeTables } from './rope.ts';
import { validateContract } from './validate.ts';
import { type LoraSpec, loraAdapterShapes, resolveLora } from './lora.ts';
import { type AdapterUse, TrainableWeights, adaptersOffView } from '../trainable-weights.ts';

type T2 = tf.Tensor2D;
/** RMSNorm over the last axis of x [n, d]. */
function rmsNorm(x: T2, w: tf.Tensor, eps: number): T2 {
  const rstd = tf.rsqrt(tf.add(tf.mean(tf.square(x), -1, true), eps));
  return tf.mul(tf.mul(x, rstd), w) as T2;
}

/**
 * rotate_half as a constant [hd, hd] matrix R (x · R = concat(−x₂, x₁)), so rotary embedding is
 * x·cos + (x·R)·sin with ordinary differentiable ops.
 */
function rotateHalfMatrix(hd: number): Float32Array {
  const h = hd / 2;
  const r = new Float32Array(hd * hd);
  for (let j = 0; j < h; j++) r[(j + h) * hd + j] = -1;
  for (let j = h; j < hd; j++) r[(j - h) * hd + j] = 1;
  return r;
}

/** The sizes the memory estimate needs. */
export function llamaMemoryShape(c: LlamaConfig): MemoryShape {
  const { layers, dModel, ffn, heads, vocabSize } = c;
  return { arch: 'llama', params: countParams(llamaWeightShapes(c)), layers, dModel, ffn, heads, vocabSize };
}

/** Construction options. */
export interface LlamaModelOptions {
  /** Train low-rank adapters on a frozen base instead of all weights. */
  lora?: LoraSpec;
  /** Seed of the adapters' A matrices (B starts at zero, so the model starts as the base). */
  seed?: number;
}

/** The tfjs Llama-family policy. */
export class LlamaModel implements PolicyModel {
  readonly config: LlamaConfig;
  readonly lora: LoraSpec | undefined;
  /** Trainable parameters: every weight (full fine-tuning) or only the adapters (LoRA). */
  readonly params: Map<string, tf.Variable>;
  private readonly weights: TrainableWeights;
  private readonly rotate: T2;
  private disposed = false;

  private constructor(config: LlamaConfig, weights: WeightMap, opts: LlamaModelOptions) {
    this.config = config;
    const shapes = llamaWeightShapes(config);
    validateContract(shapes, weights, 'weights');
    const lora = opts.lora && resolveLora(opts.lora, 'llama');
    this.weights = new TrainableWeights(shapes.keys(), weights, {
      ...(lora ? { lora: { spec: lora, adapters: loraAdapterShapes(config, lora) } } : {}),
      seed: opts.seed ?? 0,
    });
    this.lora = lora;
    this.params = this.weights.params;
    this.rotate = tf.keep(tf.tensor2d(rotateHalfMatrix(config.headDim), [config.headDim, config.headDim]));
  }

  /** A model holding a copy of `weights` (contract layout, validated). */
  static fromWeights(config: LlamaConfig, weights: WeightMap, opts: LlamaModelOptions = {}): LlamaModel {
    return new LlamaModel(config, weights, opts);
  }

  /** A copy of the trainable parameters (all weights, or the adapters with LoRA). */
  getWeights(): WeightMap {
    return this.weights.getWeights();
  }

  /** Overwrite the trainable parameters (validated: every tensor present with its shape). */
  setWeights(weights: WeightMap): void {
    this.weights.setWeights(weights);
  }

  /** The base weights, contract layout (without adapters). */
  baseWeights(): WeightMap {
    return this.weights.baseWeights();
  }

  /** Full weights with the adapters merged in (W + scale·A·B); equals the base weights without LoRA. */
  mergedWeights(): WeightMap {
    return this.weights.mergedWeights();
  }

  /**
   * The frozen base as a policy (adapters off), sharing this model's tensors: the KL reference
   * under LoRA. Only for LoRA models (full fine-tuning changes the base).
   */
  reference(): PolicyModel {
    if (!this.lora) throw new AnchorError('INTERNAL', 'LlamaModel.reference() is only defined with LoRA');
    return adaptersOffView(this, (x, opts) => this.run(x, opts, { on: false }));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.weights.dispose();
    this.rotate.dispose();
  }

  /** Rows per optimizer pass that fit the wasm heap (./train-memory.ts). */
  trainRowsPerPass(shape: TrainStepShape): number {
    return rowsPerPass(llamaMemoryShape(this.config), this.lora !== undefined, shape);
  }

  forward(x: TokenBatch, opts: ForwardOptions = {}): { hidden: tf.Tensor2D; present?: LayerKv[] } {
    return this.run(x, opts, { on: true, dropoutKey: opts.dropoutKey });
  }

  /** Logits [N, V] for hidden states [N, d]. */
  head(hidden: tf.Tensor2D): tf.Tensor2D {
    const tied = this.config.tiedHead;
    return this.weights.head(hidden, tied ? 'model.embed_tokens.weight' : 'lm_head.weight', tied);
  }

  /** Logits [B, T, V] for a whole batch (call inside tidy). */
  logits(x: TokenBatch): tf.Tensor3D {
    const { hidden } = this.forward(x);
    return tf.reshape(this.head(hidden), [x.batch, x.length, this.config.vocabSize]);
  }

  private w(name: string): tf.Tensor {
    return this.weights.w(name);
  }

  private run(x: TokenBatch, opts: ForwardOptions, adapters: AdapterUse): { hidden: tf.Tensor2D; present?: LayerKv[] } {
    const c = this.config;
    const { batch: B, length: T } = x;
    for (const pos of x.positions) {
      if (pos < 0 || pos >= c.context)
        throw new AnchorError('BAD_ARGUMENT', `position ${pos} is outside the model context (${c.context} positions)`);
    }
    const past = opts.past;
    const pastLen = past && past.length > 0 ? past[0]!.values.shape[2] : 0;
    const ids = tf.tensor1d(x.ids, 'int32');
    const table = this.w('model.embed_tokens.weight') as T2;
    let h = this.weights.frozen ? (tf.gather(table, ids) as T2) : embed(ids, table);
    const bias = attentionBias(x, pastLen, opts.pastMask);
    const { cos, sin } = ropeTables(x.positions, c.headDim, c.ropeTheta);
    const cosT = tf.tensor3d(cos, [B * T, 1, c.headDim]);
    const sinT = tf.tensor3d(sin, [B * T, 1, c.headDim]);
    const rope = (t: T2, heads: number): T2 => {
      const n = B * T;
      const r = tf.reshape(mm(tf.reshape(t, [n * heads, c.headDim]) as T2, this.rotate), [n, heads, c.headDim]);
      const t3 = tf.reshape(t, [n, heads, c.headDim]);
      return tf.reshape(tf.add(tf.mul(t3, cosT), tf.mul(r, sinT)), [n, heads * c.headDim]) as T2;
    };
    const present: LayerKv[] = [];
    for (let i = 0; i < c.layers; i++) {
      const pre = `model.layers.${i}.`;
      const a = rmsNorm(h, this.w(pre + 'input_layernorm.weight'), c.rmsEps);
      const q = rope(this.weights.proj(a, pre + 'self_attn.q_proj', adapters), c.heads);
      const k = rope(this.weights.proj(a, pre + 'self_attn.k_proj', adapters), c.kvHeads);
      const v0 = this.weights.proj(a, pre + 'self_attn.v_proj', adapters);
      const { out, kv } = this.attention(q, k, v0, B, T, bias, past?.[i]);
      if (opts.keepPresent) present.push(kv);
      h = tf.add(h, this.weights.proj(out, pre + 'self_attn.o_proj', adapters));
      const m = rmsNorm(h, this.w(pre + 'post_attention_layernorm.weight'), c.rmsEps);
      const g = this.weights.proj(m, pre + 'mlp.gate_proj', adapters);
      const u = this.weights.proj(m, pre + 'mlp.up_proj', adapters);
      h = tf.add(h, this.weights.proj(tf.mul(tf.mul(g, tf.sigmoid(g)), u) as T2, pre + 'mlp.down_proj', adapters));
    }
    const hidden = rmsNorm(h, this.w('model.norm.weight'), c.rmsEps);
    return opts.keepPresent ? { hidden, present } : { hidden };
  }

  /** Grouped-query attention: the g = heads/kvHeads query heads of a group share one key/value head. */
  private attention(
    q0: T2,
    k0: T2,
    v0: T2,
    B: number,
    T: number,
    bias: tf.Tensor4D,
    past: LayerKv | undefined,
  ): { out: T2; kv: LayerKv } {
    const c = this.config;
    const hd = c.headDim;
    const H = c.heads;
    const Hkv = c.kvHeads;
    const g = H / Hkv;
    // [B,T,H,hd] → [B,H,T,hd] → [B·Hkv, g·T, hd]: heads of a group are adjacent (h = kv·g + j).
    const q = tf.reshape(tf.transpose(tf.reshape(tf.mul(q0, 1 / Math.sqrt(hd)), [B, T, H, hd]), [0, 2, 1, 3]), [
      B * Hkv,
      g * T,
      hd,
    ]) as tf.Tensor3D;
    let kT = tf.transpose(tf.reshape(k0, [B, T, Hkv, hd]), [0, 2, 3, 1]) as tf.Tensor4D;
    let v = tf.transpose(tf.reshape(v0, [B, T, Hkv, hd]), [0, 2, 1, 3]) as tf.Tensor4D;
    if (past) {
      kT = tf.concat([past.keysT, kT], 3);
      v = tf.concat([past.values, v], 2);
    }
    const S = v.shape[2];
    const scores = tf.reshape(bmm(q, tf.reshape(kT, [B * Hkv, hd, S]) as tf.Tensor3D), [B, H, T, S]);
    const probs = tf.softmax(tf.add(scores, bias));
    const ctx = bmm(tf.reshape(probs, [B * Hkv, g * T, S]) as tf.Tensor3D, tf.reshape(v, [B * Hkv, S, hd]) as tf.Tensor3D);
    const out = tf.reshape(tf.transpose(tf.reshape(ctx, [B, H, T, hd]), [0, 2, 1, 3]), [B * T, H * hd]) as T2;
    return { out, kv: { keysT: kT, values: v } };
  }
}
