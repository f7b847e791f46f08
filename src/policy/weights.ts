/**
 * The weight contract: a flat map from GPT-2 parameter names to float32 tensors, in GPT-2's
 * Conv1D layout ([in, out], i.e. y = x · W + b). Both the tfjs model and the ONNX exporter use
 * exactly these names and shapes; see {@link expectedWeightShapes}.
 *
 * | name | shape |
 * |---|---|
 * | `wte` | [V, d] |
 * | `wpe` | [C, d] |
 * | `h.{i}.ln_1.weight`, `h.{i}.ln_1.bias` | [d] |
 * | `h.{i}.attn.c_attn.weight` | [d, 3d] — q, k, v concatenated in that order on the output axis |
 * | `h.{i}.attn.c_attn.bias` | [3d] |
 * | `h.{i}.attn.c_proj.weight` / `.bias` | [d, d] / [d] |
 * | `h.{i}.ln_2.weight`, `h.{i}.ln_2.bias` | [d] |
 * | `h.{i}.mlp.c_fc.weight` / `.bias` | [d, 4d] / [4d] |
 * | `h.{i}.mlp.c_proj.weight` / `.bias` | [4d, d] / [d] |
 * | `ln_f.weight`, `ln_f.bias` | [d] |
 * | `lm_head.weight` | [d, V] — only when the head is untied |
 */
import type { GptConfig } from './gpt-config.ts';
import { AnchorError } from '../util/errors.ts';

/** One tensor: row-major float32 data and its shape. */
export interface WeightTensor {
  shape: number[];
  data: Float32Array;
}

/** All parameters of a model by GPT-2 name (see the module docs for names and shapes). */
export type WeightMap = Map<string, WeightTensor>;

/** Projection modules of a layer (the LoRA targets), with their [in, out] sizes. */
export function gptProjections(c: GptConfig): Map<string, [number, number]> {
  const d = c.dModel;
  return new Map<string, [number, number]>([
    ['attn.c_attn', [d, 3 * d]],
    ['attn.c_proj', [d, d]],
    ['mlp.c_fc', [d, 4 * d]],
    ['mlp.c_proj', [4 * d, d]],
  ]);
}

/** Names and shapes a model with config `c` must have, in a stable order. */
export function expectedWeightShapes(c: GptConfig): Map<string, number[]> {
  const d = c.dModel;
  const m = new Map<string, number[]>();
  m.set('wte', [c.vocabSize, d]);
  m.set('wpe', [c.context, d]);
  for (let i = 0; i < c.layers; i++) {
    const p = `h.${i}.`;
    m.set(p + 'ln_1.weight', [d]);
    m.set(p + 'ln_1.bias', [d]);
    m.set(p + 'attn.c_attn.weight', [d, 3 * d]);
    m.set(p + 'attn.c_attn.bias', [3 * d]);
    m.set(p + 'attn.c_proj.weight', [d, d]);
    m.set(p + 'attn.c_proj.bias', [d]);
    m.set(p + 'ln_2.weight', [d]);
    m.set(p + 'ln_2.bias', [d]);
    m.set(p + 'mlp.c_fc.weight', [d, 4 * d]);
    m.set(p + 'mlp.c_fc.bias', [4 * d]);
    m.set(p + 'mlp.c_proj.weight', [4 * d, d]);
    m.set(p + 'mlp.c_proj.bias', [d]);
  }
  m.set('ln_f.weight', [d]);
  m.set('ln_f.bias', [d]);
  if (!c.tiedHead) m.set('lm_head.weight', [d, c.vocabSize]);
  return m;
}

/** Number of scalar parameters for config `c`. */
export function parameterCount(c: GptConfig): number {
  let n = 0;
  for (const shape of expectedWeightShapes(c).values()) n += shape.reduce((a, b) => a * b, 1);
  return n;
}

/**
 * Check that `w` holds exactly the tensors config `c` needs, with the right shapes and data
 * lengths. Throws AnchorError BAD_MODEL naming the first problem.
 */
export function validateWeights(c: GptConfig, w: WeightMap): void {
  const expected = expectedWeightShapes(c);
  for (const [name, shape] of expected) {
    const t = w.get(name);
    if (!t) throw new AnchorError('BAD_MODEL', `weights: missing tensor '${name}'`, { name });
    if (t.shape.length !== shape.length || t.shape.some((s, i) => s !== shape[i])) {
      throw new AnchorError('BAD_MODEL', `weights: '${name}' has shape [${t.shape}], expected [${shape}]`, { name });
    }
    const size = shape.reduce((a, b) => a * b, 1);
    if (t.data.length !== size) {
      throw new AnchorError('BAD_MODEL', `weights: '${name}' has ${t.data.length} values, expected ${size}`, { name });
    }
  }
  for (const name of w.keys()) {
    if (!expected.has(name)) throw new AnchorError('BAD_MODEL', `weights: unexpected tensor '${name}'`, { name });
  }
}
