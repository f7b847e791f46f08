/**
 * The Llama-family weight contract: Hugging Face tensor names, with every projection matrix in
 * the [in, out] layout the tfjs model and the ONNX export multiply by (y = x · W). Hugging Face
 * stores nn.Linear weights as [out, in]; {@link llamaFromHf} / {@link llamaToHf} transpose.
 *
 * | name | shape |
 * |---|---|
 * | `model.embed_tokens.weight` | [V, d] |
 * | `model.layers.{i}.input_layernorm.weight`, `.post_attention_layernorm.weight` | [d] |
 * | `model.layers.{i}.self_attn.q_proj.weight` (+ `.bias` with qkvBias) | [d, H·hd] |
 * | `model.layers.{i}.self_attn.k_proj.weight` / `v_proj` (+ `.bias`) | [d, Hkv·hd] |
 * | `model.layers.{i}.self_attn.o_proj.weight` (+ `.bias` with oBias) | [H·hd, d] |
 * | `model.layers.{i}.mlp.gate_proj.weight`, `up_proj.weight` | [d, ffn] |
 * | `model.layers.{i}.mlp.down_proj.weight` | [ffn, d] |
 * | `model.norm.weight` | [d] |
 * | `lm_head.weight` | [d, V] — only when untied |
 */
import type { WeightMap, WeightTensor } from '../weights.ts';
import type { LlamaConfig } from './hf-config.ts';

/** Projection modules of a layer (the LoRA targets), with their [in, out] sizes. */
export function llamaProjections(c: LlamaConfig): Map<string, [number, number]> {
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  return new Map<string, [number, number]>([
    ['self_attn.q_proj', [c.dModel, q]],
    ['self_attn.k_proj', [c.dModel, kv]],
    ['self_attn.v_proj', [c.dModel, kv]],
    ['self_attn.o_proj', [q, c.dModel]],
    ['mlp.gate_proj', [c.dModel, c.ffn]],
    ['mlp.up_proj', [c.dModel, c.ffn]],
    ['mlp.down_proj', [c.ffn, c.dModel]],
  ]);
}

/** Names and shapes (contract layout) a model with config `c` has, in a stable order. */
export function llamaWeightShapes(c: LlamaConfig): Map<string, number[]> {
  const d = c.dModel;
  const m = new Map<string, number[]>();
  m.set('model.embed_tokens.weight', [c.vocabSize, d]);
  const proj = llamaProjections(c);
  for (let i = 0; i < c.layers; i++) {
    const p = `model.layers.${i}.`;
    m.set(p + 'input_layernorm.weight', [d]);
    for (const [name, [inp, out]] of proj) {
      m.set(`${p}${name}.weight`, [inp, out]);
      const attn = name.startsWith('self_attn.');
      if (attn && ((name === 'self_attn.o_proj' && c.oBias) || (name !== 'self_attn.o_proj' && c.qkvBias)))
        m.set(`${p}${name}.bias`, [out]);
    }
    m.set(p + 'post_attention_layernorm.weight', [d]);
  }
  m.set('model.norm.weight', [d]);
  if (!c.tiedHead) m.set('lm_head.weight', [d, c.vocabSize]);
  return m;
}

/** Whether the contract stores tensor `name` transposed relative to Hugging Face. */
export function llamaTransposed(name: string, shape: readonly number[]): boolean {
  return shape.length === 2 && name !== 'model.embed_tokens.weight';
}

/** A 2-D transpose. */
export function transpose2d(t: WeightTensor): WeightTensor {
  const [r, c] = t.shape as [number, number];
  const out = new Float32Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) out[j * r + i] = t.data[i * c + j]!;
  return { shape: [c, r], data: out };
}

/** Hugging Face tensors ([out, in] linears) → contract tensors. Unknown names pass through for validation to report. */
export function llamaFromHf(hf: WeightMap): WeightMap {
  const out: WeightMap = new Map();
  for (const [name, t] of hf) out.set(name, llamaTransposed(name, t.shape) ? transpose2d(t) : t);
  return out;
}

/** Contract tensors → Hugging Face tensors. */
export function llamaToHf(w: WeightMap): WeightMap {
  return llamaFromHf(w); // the transposition is its own inverse
}
