/**
 * ONNX export of the Llama-family policy (../hf/llama-model.ts semantics, ../hf/llama-weights.ts
 * contract), opset 17, in Hugging Face optimum's decoder-with-past interface: inputs `input_ids`,
 * `attention_mask`, `position_ids` (int64) and `past_key_values.{i}.key|value`
 * ([batch, kv_heads, past, head_dim]); outputs `logits` and `present.{i}.key|value`.
 *
 * Rotary embedding: cos/sin tables for every position are initializers gathered by
 * `position_ids`; rotate_half is a product with a constant ±1 matrix. Grouped-query attention
 * groups the query heads of one key/value head along the sequence axis, so keys and values are
 * never repeated. RMSNorm is built from primitives (opset 17 has no RMSNormalization).
 *
 * With LoRA, the base weights are initializers and each adapter matrix is a graph input
 * (`lora.{module}.A` [in, r], `lora.{module}.B` [r, out], module = contract name without
 * `.weight`): a weight sync feeds the new adapters to the running session instead of rebuilding it.
 */
import { GraphBuilder } from './graph-builder.ts';
import { OnnxDataType } from './onnx-proto.ts';
import {
  EXPORT_OPSET,
  attentionMaskNodes,
  loraGraphInputs,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
} from './export-gpt.ts';
import type { WeightMap } from '../weights.ts';
import type { LlamaConfig } from '../hf/hf-config.ts';
import { llamaWeightShapes, transpose2d } from '../hf/llama-weights.ts';
import { type LoraSpec, loraAdapterShapes } from '../hf/lora.ts';
import { ropeTables } from '../hf/rope.ts';
import { validateContract } from '../hf/validate.ts';

/** Build the ONNX bytes for a Llama-family model (base weights as initializers; adapters as inputs with `lora`). */
export function exportLlamaToOnnx(config: LlamaConfig, weights: WeightMap, opts: { lora?: LoraSpec } = {}): Uint8Array {
  validateContract(llamaWeightShapes(config), weights, 'export weights');
  const c = config;
  const g = new GraphBuilder();
  const { vocabSize: V, dModel: d, heads: H, kvHeads: Hkv, headDim: hd, layers: L } = c;
  const init = (name: string): string => {
    const t = weights.get(name)!;
    return g.floatInit(name, t.shape, t.data);
  };

  const inputIds = g.input('input_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  const attnMask = g.input('attention_mask', OnnxDataType.INT64, ['batch_size', 'total_sequence_length']);
  const posIds = g.input('position_ids', OnnxDataType.INT64, ['batch_size', 'sequence_length']);
  const pastDims = ['batch_size', Hkv, 'past_sequence_length', hd];
  for (let i = 0; i < L; i++) {
    g.input(pastKeyName(i), OnnxDataType.FLOAT, pastDims);
    g.input(pastValueName(i), OnnxDataType.FLOAT, pastDims);
  }
  const adapt = loraGraphInputs(g, opts.lora ? loraAdapterShapes(c, opts.lora) : new Map(), opts.lora);

  const { idsShape, allowed, masked } = attentionMaskNodes(g, inputIds, attnMask);
  // Residual stream kept 2-D [batch·seq, d].
  const flat = g.constI64([-1, d]);
  let x = g.op('Reshape', [g.op('Gather', [init('model.embed_tokens.weight'), inputIds], { axis: 0 }), flat]);

  // Rotary tables [context, hd] gathered per token → [batch·seq, 1, hd] (broadcast over heads).
  const all = Int32Array.from({ length: c.context }, (_, i) => i);
  const { cos, sin } = ropeTables(all, hd, c.ropeTheta);
  const tokRows = g.constI64([-1, 1, hd]);
  const posFlat = g.op('Reshape', [posIds, g.constI64([-1])]);
  const cosT = g.op('Reshape', [g.op('Gather', [g.floatInit('rope.cos', [c.context, hd], cos), posFlat], { axis: 0 }), tokRows]);
  const sinT = g.op('Reshape', [g.op('Gather', [g.floatInit('rope.sin', [c.context, hd], sin), posFlat], { axis: 0 }), tokRows]);
  const rot = new Float32Array(hd * hd);
  for (let j = 0; j < hd / 2; j++) rot[(j + hd / 2) * hd + j] = -1;
  for (let j = hd / 2; j < hd; j++) rot[(j - hd / 2) * hd + j] = 1;
  const rotM = g.floatInit('rope.rotate_half', [hd, hd], rot);
  const eps = g.constF32(c.rmsEps);
  const rmsNorm = (inp: string, w: string): string => {
    const ms = g.op('ReduceMean', [g.op('Mul', [inp, inp])], { axes: [-1], keepdims: 1 });
    return g.op('Mul', [g.op('Div', [inp, g.op('Sqrt', [g.op('Add', [ms, eps])])]), init(w)]);
  };
  const proj = (inp: string, prefix: string, module: string): string => {
    const wName = `${prefix}${module}.weight`;
    const y = weights.has(`${prefix}${module}.bias`)
      ? g.op('Gemm', [inp, init(wName), init(`${prefix}${module}.bias`)])
      : g.op('MatMul', [inp, init(wName)]);
    return adapt(y, inp, `${prefix}${module}`);
  };
  const rope = (t: string, heads: number): string => {
    const t3 = g.op('Reshape', [t, g.constI64([-1, heads, hd])]);
    const r = g.op('MatMul', [t3, rotM]);
    return g.op('Add', [g.op('Mul', [t3, cosT]), g.op('Mul', [r, sinT])]);
  };
  // [batch·seq, heads, hd] → [batch, heads, seq, hd]
  const toHeads = (t3: string, heads: number, outName?: string): string =>
    g.op(
      'Transpose',
      [g.op('Reshape', [t3, g.op('Concat', [idsShape, g.constI64([heads, hd])], { axis: 0 })])],
      { perm: [0, 2, 1, 3] },
      outName,
    );
  const grouped = g.constI64([0, Hkv, -1, hd]); // [B,H,T,hd] → [B,Hkv,g·T,hd]
  const byHead = g.constI64([0, H, -1, 0]); // [B,Hkv,g·T,S] → [B,H,T,S]
  const byGroup = g.constI64([0, Hkv, -1, 0]); // and back
  const ctxHeads = g.constI64([0, H, -1, hd]);
  const qScale = g.constF32(1 / Math.sqrt(hd));

  for (let i = 0; i < L; i++) {
    const p = `model.layers.${i}.`;
    const a = rmsNorm(x, `${p}input_layernorm.weight`);
    const q = toHeads(rope(proj(a, p, 'self_attn.q_proj'), H), H);
    const k = toHeads(rope(proj(a, p, 'self_attn.k_proj'), Hkv), Hkv);
    const v = toHeads(g.op('Reshape', [proj(a, p, 'self_attn.v_proj'), g.constI64([-1, Hkv, hd])]), Hkv);
    const presentK = g.op('Concat', [pastKeyName(i), k], { axis: 2 }, presentKeyName(i));
    const presentV = g.op('Concat', [pastValueName(i), v], { axis: 2 }, presentValueName(i));
    const qg = g.op('Reshape', [g.op('Mul', [q, qScale]), grouped]);
    const scores = g.op('Reshape', [g.op('MatMul', [qg, g.op('Transpose', [presentK], { perm: [0, 1, 3, 2] })]), byHead]);
    const probs = g.op('Softmax', [g.op('Where', [allowed, scores, masked])], { axis: -1 });
    const ctx = g.op('Reshape', [g.op('MatMul', [g.op('Reshape', [probs, byGroup]), presentV]), ctxHeads]);
    const merged = g.op('Reshape', [g.op('Transpose', [ctx], { perm: [0, 2, 1, 3] }), g.constI64([-1, H * hd])]);
    x = g.op('Add', [x, proj(merged, p, 'self_attn.o_proj')]);
    const m = rmsNorm(x, `${p}post_attention_layernorm.weight`);
    const gate = proj(m, p, 'mlp.gate_proj');
    const act = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), proj(m, p, 'mlp.up_proj')]);
    x = g.op('Add', [x, proj(act, p, 'mlp.down_proj')]);
  }
  const hN = rmsNorm(x, 'model.norm.weight');
  const head = c.tiedHead
    ? g.floatInit('lm_head.weight.tied', [d, V], transpose2d(weights.get('model.embed_tokens.weight')!).data)
    : init('lm_head.weight');
  g.op('Reshape', [g.op('MatMul', [hN, head]), g.op('Concat', [idsShape, g.constI64([V])], { axis: 0 })], {}, 'logits');

  g.output('logits', OnnxDataType.FLOAT, ['batch_size', 'sequence_length', V]);
  const presentDims = ['batch_size', Hkv, 'total_sequence_length', hd];
  for (let i = 0; i < L; i++) {
    g.output(presentKeyName(i), OnnxDataType.FLOAT, presentDims);
    g.output(presentValueName(i), OnnxDataType.FLOAT, presentDims);
  }
  return g.encode({
    opset: EXPORT_OPSET,
    graphName: 'anchor_rl_llama',
    metadata: {
      'anchor-rl.llama-config': JSON.stringify(config),
      ...(opts.lora ? { 'anchor-rl.lora': JSON.stringify(opts.lora) } : {}),
    },
  });
}
