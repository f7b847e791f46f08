/**
 * Export a GPT-2 style policy (the weight contract in ../weights.ts) to an ONNX decoder graph,
 * opset 17, with the Hugging Face optimum "decoder with past" interface:
 *
 * inputs
 * - `input_ids` int64 [batch, seq]
 * - `attention_mask` int64 [batch, past + seq] (1 = real token, 0 = pad)
 * - `position_ids` int64 [batch, seq]
 * - `past_key_values.{i}.key` / `.value` float32 [batch, heads, past, head_dim] (zero-length
 *   `past` on the first step)
 *
 * outputs
 * - `logits` float32 [batch, seq, vocab]
 * - `present.{i}.key` / `.value` float32 [batch, heads, past + seq, head_dim]
 *
 * Weights become initializers. Opset 17 has LayerNormalization but no Gelu (opset 20), so the
 * tanh-approximate GELU is built from primitives; attention is MatMul / Where / Softmax with a
 * causal-and-padding mask computed once from the shapes of `input_ids` and `attention_mask`.
 */
import { GraphBuilder } from './graph-builder.ts';
import { OnnxDataType } from './onnx-proto.ts';
import { LAYER_NORM_EPS, headDim, validateGptConfig, type GptConfig } from '../gpt-config.ts';
import { validateWeights, type WeightMap, type WeightTensor } from '../weights.ts';
import { type LoraSpec, gptLoraAdapterShapes, loraScale } from '../hf/lora.ts';
import { AnchorError } from '../../util/errors.ts';

/** Opset of the exported graph. */
export const EXPORT_OPSET = 17;

/** Name of a past/present tensor in the exported (optimum) interface. */
export const pastKeyName = (layer: number): string => `past_key_values.${layer}.key`;
export const pastValueName = (layer: number): string => `past_key_values.${layer}.value`;
export const presentKeyName = (layer: number): string => `present.${layer}.key`;
export const presentValueName = (layer: number): string => `present.${layer}.value`;

/**
 * Value written where attention is not allowed. Finite (not -inf) so that a row with no allowed
 * key (a pad query in a left-padded batch) softmaxes to a uniform row instead of NaN; such rows
 * never reach a real token's output.
 */
const MASKED_SCORE = -1e9;

/** Domain of ONNX Runtime's contrib operators (engine layout only). */
const MS_DOMAIN = 'com.microsoft';

/**
 * Graph layouts:
 * - `optimum` (default): the Hugging Face optimum interface above — what other tools load.
 * - `engine`: the rollout engine's fast path. Same inputs and `logits`, but the caches are
 *   fixed-capacity buffers owned by the caller — `cache.{i}.key_t` [batch, heads, head_dim, cap]
 *   (keys pre-transposed) and `cache.{i}.value` [batch, heads, cap, head_dim], with
 *   `attention_mask` [batch, cap + seq] marking which slots are filled — and the outputs are only
 *   the new tokens' keys/values `new.{i}.key|value` [batch, heads, seq, head_dim]. The caller
 *   writes those into its buffers in place, so no step copies the whole cache (in the optimum
 *   layout, Concat plus moving every `present` tensor out of ONNX Runtime dominated step time).
 */
export type ExportLayout = 'optimum' | 'engine';

/** Input/output names of the `engine` layout. */
export const engineCacheKeyName = (layer: number): string => `cache.${layer}.key_t`;
export const engineCacheValueName = (layer: number): string => `cache.${layer}.value`;
export const engineNewKeyName = (layer: number): string => `new.${layer}.key`;
export const engineNewValueName = (layer: number): string => `new.${layer}.value`;

/** Graph input name of an adapter tensor (`<module>.lora_A` → `lora.<module>.A`). */
export function loraInputName(adapter: string): string {
  return 'lora.' + adapter.replace(/\.lora_([AB])$/, '.$1');
}

/**
 * Declare the adapter inputs of `adapters` and return the adapter term of a projection:
 * y + scale · (x · A) · B where an adapter targets `module`, else y. Shared by both exports.
 */
export function loraGraphInputs(
  g: GraphBuilder,
  adapters: Map<string, number[]>,
  lora: LoraSpec | undefined,
): (y: string, x: string, module: string) => string {
  for (const [name, shape] of adapters) g.input(loraInputName(name), OnnxDataType.FLOAT, shape);
  const scale = lora ? g.constF32(loraScale(lora)) : undefined;
  return (y, x, module) => {
    const a = `${module}.lora_A`;
    if (!adapters.has(a)) return y;
    const low = g.op('MatMul', [g.op('MatMul', [x, loraInputName(a)]), loraInputName(`${module}.lora_B`)]);
    return g.op('Add', [y, g.op('Mul', [low, scale!])]);
  };
}

/**
 * Build the ONNX model bytes for `config` with weights `weights` (validated against the
 * contract). With `lora` (optimum layout only), the weights are the base and each adapter matrix
 * is a graph input `lora.<module>.A|B` (module = contract name without `.weight`), so a weight
 * sync feeds new adapters to the running session.
 */
export function exportGptToOnnx(
  config: GptConfig,
  weights: WeightMap,
  opts: { layout?: ExportLayout; lora?: LoraSpec } = {},
): Uint8Array {
  const layout = opts.layout ?? 'optimum';
  validateGptConfig(config);
  validateWeights(config, weights);
  if (opts.lora && layout !== 'optimum')
    throw new AnchorError('INTERNAL', 'exportGptToOnnx: LoRA adapters need the optimum layout');
  const g = new GraphBuilder();
  const { vocabSize: V, dModel: d, heads: H, layers: L } = config;
  const hd = headDim(config);
  const w = (name: string): WeightTensor => weights.get(name)!;
  // The engine layout is written already fused (ONNX Runtime contrib ops FastGelu and
  // FusedMatMul, attention scale folded into the q projection) so its session can be created
  // without graph optimisation: weight sync rebuilds the session after every optimizer step.
  const fused = layout === 'engine';
  const scaledQ = (name: string, dq: number): string => {
    const t = w(name);
    const data = new Float32Array(t.data);
    const s = 1 / Math.sqrt(hd);
    const cols = t.shape[t.shape.length - 1]!;
    for (let i = 0; i < data.length; i++) if (i % cols < dq) data[i]! *= s;
    return g.floatInit(`${name}.q_scaled`, t.shape, data);
  };
  const init = (name: string): string => {
    const t = w(name);
    return g.floatInit(name, t.shape, t.data);
  };

  const inputIds = g.input('input_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  const attnMask = g.input('attention_mask', OnnxDataType.INT64, ['batch_size', 'total_sequence_length']);
  const posIds = g.input('position_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  if (layout === 'optimum') {
    const pastDims = ['batch_size', H, 'past_sequence_length', hd];
    for (let i = 0; i < L; i++) {
      g.input(pastKeyName(i), OnnxDataType.FLOAT, pastDims);
      g.input(pastValueName(i), OnnxDataType.FLOAT, pastDims);
    }
  } else {
    for (let i = 0; i < L; i++) {
      g.input(engineCacheKeyName(i), OnnxDataType.FLOAT, ['batch_size', H, hd, 'cache_capacity']);
      g.input(engineCacheValueName(i), OnnxDataType.FLOAT, ['batch_size', H, 'cache_capacity', hd]);
    }
  }

  const adapt = loraGraphInputs(g, opts.lora ? gptLoraAdapterShapes(config, opts.lora) : new Map(), opts.lora);

  // Embeddings.
  const wte = init('wte');
  const wpe = init('wpe');
  // The residual stream is kept 2-D [batch·seq, d] so every linear layer is a plain 2-D
  // MatMul + Add that ONNX Runtime fuses into one Gemm.
  let x = g.op('Reshape', [
    g.op('Add', [g.op('Gather', [wte, inputIds], { axis: 0 }), g.op('Gather', [wpe, posIds], { axis: 0 })]),
    g.constI64([-1, d]),
  ]);
  const { idsShape, allowed, masked, pastLen, totalLen } = attentionMaskNodes(g, inputIds, attnMask);
  // Engine layout only: slice bounds splitting the probabilities into cache and new parts.
  const engine =
    layout === 'engine'
      ? {
          zero: g.constI64([0]),
          axis3: g.constI64([3]),
          pastLenVec: g.op('Unsqueeze', [pastLen, g.constI64([0])]),
          totalLenVec: g.op('Unsqueeze', [totalLen, g.constI64([0])]),
        }
      : undefined;

  const headsShape = g.op('Concat', [idsShape, g.constI64([H, hd])], { axis: 0 });
  const mergeShape = g.constI64([-1, d]);
  const qScale = g.constF32(1 / Math.sqrt(hd));
  const splitSizes = g.constI64([d, d, d]);
  // Linear layers are Gemm on the 2-D residual stream (standard ONNX, bias fused).
  const linear = (inp: string, module: string): string =>
    adapt(g.op('Gemm', [inp, init(`${module}.weight`), init(`${module}.bias`)]), inp, module);
  const layerNorm = (inp: string, prefix: string): string =>
    g.op('LayerNormalization', [inp, init(`${prefix}.weight`), init(`${prefix}.bias`)], {
      axis: -1,
      epsilon: { float: LAYER_NORM_EPS },
    });

  for (let i = 0; i < L; i++) {
    const p = `h.${i}.`;
    const h1 = layerNorm(x, `${p}ln_1`);
    const qkv = fused
      ? g.op('Gemm', [h1, scaledQ(`${p}attn.c_attn.weight`, d), scaledQ(`${p}attn.c_attn.bias`, d)])
      : linear(h1, `${p}attn.c_attn`);
    const [q, k, v] = g.node('Split', [qkv, splitSizes], 3, { axis: 1 }) as [string, string, string];
    const toHeads = (t: string, outName?: string): string =>
      g.op('Transpose', [g.op('Reshape', [t, headsShape])], { perm: [0, 2, 1, 3] }, outName);
    const qh = fused ? toHeads(q) : g.op('Mul', [toHeads(q), qScale]);
    let ctx: string;
    if (layout === 'optimum') {
      const presentK = g.op('Concat', [pastKeyName(i), toHeads(k)], { axis: 2 }, presentKeyName(i));
      const presentV = g.op('Concat', [pastValueName(i), toHeads(v)], { axis: 2 }, presentValueName(i));
      const scores = g.op('MatMul', [qh, g.op('Transpose', [presentK], { perm: [0, 1, 3, 2] })]);
      const probs = g.op('Softmax', [g.op('Where', [allowed, scores, masked])], { axis: -1 });
      ctx = g.op('MatMul', [probs, presentV]);
    } else {
      // Scores against the cache and against the new tokens, softmaxed together; the cache is
      // only read, never copied.
      const kNew = toHeads(k, engineNewKeyName(i));
      const vNew = toHeads(v, engineNewValueName(i));
      const sCache = g.op('MatMul', [qh, engineCacheKeyName(i)]);
      const sNew = g.op('FusedMatMul', [qh, kNew], { transB: 1 }, undefined, MS_DOMAIN);
      const scores = g.op('Concat', [sCache, sNew], { axis: 3 });
      const probs = g.op('Softmax', [g.op('Where', [allowed, scores, masked])], { axis: -1 });
      const { zero, axis3, pastLenVec, totalLenVec } = engine!;
      const pCache = g.op('Slice', [probs, zero, pastLenVec, axis3]);
      const pNew = g.op('Slice', [probs, pastLenVec, totalLenVec, axis3]);
      ctx = g.op('Add', [g.op('MatMul', [pCache, engineCacheValueName(i)]), g.op('MatMul', [pNew, vNew])]);
    }
    ctx = g.op('Reshape', [g.op('Transpose', [ctx], { perm: [0, 2, 1, 3] }), mergeShape]);
    x = g.op('Add', [x, linear(ctx, `${p}attn.c_proj`)]);

    const h2 = layerNorm(x, `${p}ln_2`);
    const f = fused
      ? g.op('FastGelu', [g.op('MatMul', [h2, init(`${p}mlp.c_fc.weight`)]), init(`${p}mlp.c_fc.bias`)], {}, undefined, MS_DOMAIN)
      : gelu(g, linear(h2, `${p}mlp.c_fc`));
    x = g.op('Add', [x, linear(f, `${p}mlp.c_proj`)]);
  }

  const hf = layerNorm(x, 'ln_f');
  // Tied head: a pre-transposed copy of wte so the graph needs no runtime Transpose.
  const head = config.tiedHead
    ? g.floatInit('lm_head.weight.tied', [d, V], transpose2d(w('wte').data, V, d))
    : init('lm_head.weight');
  g.op('Reshape', [g.op('MatMul', [hf, head]), g.op('Concat', [idsShape, g.constI64([V])], { axis: 0 })], {}, 'logits');

  g.output('logits', OnnxDataType.FLOAT, ['batch_size', 'sequence_length', V]);
  for (let i = 0; i < L; i++) {
    if (layout === 'optimum') {
      const presentDims = ['batch_size', H, 'total_sequence_length', hd];
      g.output(presentKeyName(i), OnnxDataType.FLOAT, presentDims);
      g.output(presentValueName(i), OnnxDataType.FLOAT, presentDims);
    } else {
      const newDims = ['batch_size', H, 'sequence_length', hd];
      g.output(engineNewKeyName(i), OnnxDataType.FLOAT, newDims);
      g.output(engineNewValueName(i), OnnxDataType.FLOAT, newDims);
    }
  }
  return g.encode({
    opset: EXPORT_OPSET,
    graphName: 'anchor_rl_gpt',
    metadata: {
      'anchor-rl.config': JSON.stringify(config),
      'anchor-rl.layout': layout,
      ...(opts.lora ? { 'anchor-rl.lora': JSON.stringify(opts.lora) } : {}),
    },
  });
}

/**
 * The attention mask of the optimum interface as graph nodes: `allowed` [batch, 1, seq, total]
 * is true where key j is visible to query i (absolute slot past + i): j <= past + i and
 * attention_mask[b, j] = 1; `masked` is the score written elsewhere.
 */
export function attentionMaskNodes(
  g: GraphBuilder,
  inputIds: string,
  attnMask: string,
): { idsShape: string; allowed: string; masked: string; pastLen: string; totalLen: string } {
  const idsShape = g.op('Shape', [inputIds]);
  const idx0 = g.constI64([0], true);
  const idx1 = g.constI64([1], true);
  const seqLen = g.op('Gather', [idsShape, idx1], { axis: 0 });
  const totalLen = g.op('Gather', [g.op('Shape', [attnMask]), idx1], { axis: 0 });
  const pastLen = g.op('Sub', [totalLen, seqLen]);
  const qPos = g.op('Range', [pastLen, totalLen, idx1]);
  const kPos = g.op('Range', [idx0, totalLen, idx1]);
  const causal = g.op('LessOrEqual', [g.op('Unsqueeze', [kPos, g.constI64([0])]), g.op('Unsqueeze', [qPos, g.constI64([1])])]);
  const padOk = g.op('Unsqueeze', [g.op('Cast', [attnMask], { to: OnnxDataType.BOOL }), g.constI64([1, 2])]);
  return { idsShape, allowed: g.op('And', [causal, padOk]), masked: g.constF32(MASKED_SCORE), pastLen, totalLen };
}

/**
 * GELU, tanh approximation: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), written in the node
 * order PyTorch exports GPT-2's gelu_new in, which ONNX Runtime's optimizer fuses into one
 * FastGelu kernel.
 */
function gelu(g: GraphBuilder, x: string): string {
  const half = g.op('Mul', [x, g.constF32(0.5)]);
  const cube = g.op('Pow', [x, g.constF32(3)]);
  const inner = g.op('Mul', [g.op('Add', [x, g.op('Mul', [cube, g.constF32(0.044715)])]), g.constF32(Math.sqrt(2 / Math.PI))]);
  return g.op('Mul', [half, g.op('Add', [g.op('Tanh', [inner]), g.constF32(1)])]);
}

function transpose2d(data: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = data[r * cols + c]!;
  return out;
}
