/**
 * Read the weights of ONNX Runtime GenAI's exports in ../shared/models out of their graphs into
 * this project's contract layouts (test helper, not a test file).
 * - tiny-random-gpt2-fp32: a fused graph (EmbedLayerNormalization, Attention, SkipLayerNormalization,
 *   FastGelu) whose identical initializers were deduplicated, so tensors are found by walking the
 *   nodes of each block in order rather than by name.
 * - tiny-random-llama-fp16: float16 initializers in external data, Hugging Face names with
 *   MatMul weights already [in, out].
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeModel, type NodeProtoObj, type TensorProtoObj } from '../../../src/policy/onnx/onnx-proto.ts';
import { halfToFloat } from '../../../src/policy/safetensors.ts';
import type { GptConfig } from '../../../src/policy/gpt-config.ts';
import type { LlamaConfig } from '../../../src/policy/hf/hf-config.ts';
import type { WeightMap, WeightTensor } from '../../../src/policy/weights.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sharedModels = path.resolve(repoRoot, '../shared/models');
export const tinyGpt2Dir = path.join(sharedModels, 'tiny-random-gpt2-fp32');
export const tinyLlamaDir = path.join(sharedModels, 'tiny-random-llama-fp16');

/**
 * Whether ../shared/models is present. Absent: tests skip with a printed reason, except with
 * CI=true, where they must run (the caller fails).
 */
export function sharedModelsPresent(what: string): boolean {
  const ok = existsSync(path.join(tinyGpt2Dir, 'past.onnx')) && existsSync(path.join(tinyLlamaDir, 'model.onnx'));
  if (!ok) {
    const msg = `${what}: ../shared/models (tiny-random-gpt2-fp32, tiny-random-llama-fp16) not found at ${sharedModels}`;
    if (process.env.CI === 'true') throw new Error(`${msg}; CI=true requires it`);
    console.warn(`${msg}: skipping`);
  }
  return ok;
}

/** Tensor value as float32 (float32 or float16, raw or external data). */
function tensorValue(t: TensorProtoObj, dir: string): WeightTensor {
  let raw = t.raw_data;
  if (t.data_location === 1) {
    const kv = new Map((t.external_data ?? []).map((e) => [e.key, e.value]));
    const buf = readFileSync(path.join(dir, kv.get('location')!));
    const off = Number(kv.get('offset') ?? 0);
    raw = buf.subarray(off, off + Number(kv.get('length')));
  }
  const shape = t.dims.map(Number);
  if (!raw) return { shape, data: Float32Array.from(t.float_data ?? []) };
  if (t.data_type === 10) {
    const u16 = new Uint16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    return { shape, data: Float32Array.from(u16, halfToFloat) };
  }
  return { shape, data: new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)) };
}

function loadGraph(file: string): { nodes: NodeProtoObj[]; init: Map<string, WeightTensor> } {
  const m = decodeModel(readFileSync(file));
  const init = new Map<string, WeightTensor>();
  for (const t of m.graph.initializer) init.set(t.name, tensorValue(t, path.dirname(file)));
  return { nodes: m.graph.node, init };
}

/** The tiny GPT-2's config and weights (contract layout of src/policy/weights.ts). */
export function readTinyGpt2(): { config: GptConfig; weights: WeightMap } {
  const { nodes, init } = loadGraph(path.join(tinyGpt2Dir, 'past.onnx'));
  const get = (name: string): WeightTensor => {
    const t = init.get(name);
    if (!t) throw new Error(`initializer ${name} not found`);
    return { shape: [...t.shape], data: new Float32Array(t.data) };
  };
  const consumer = (out: string, op: string): NodeProtoObj => {
    const n = nodes.find((x) => x.op_type === op && x.input.includes(out));
    if (!n) throw new Error(`no ${op} consumes ${out}`);
    return n;
  };
  const w: WeightMap = new Map();
  const emb = nodes.find((n) => n.op_type === 'EmbedLayerNormalization')!;
  w.set('wte', get(emb.input[2]!));
  w.set('wpe', get(emb.input[3]!));
  let norm = { g: emb.input[5]!, b: emb.input[6]! };
  let x = emb.output[0]!;
  let layers = 0;
  for (;;) {
    const att = nodes.find((n) => n.op_type === 'Attention' && n.input[0] === x);
    if (!att) break;
    const p = `h.${layers}.`;
    w.set(p + 'ln_1.weight', get(norm.g));
    w.set(p + 'ln_1.bias', get(norm.b));
    w.set(p + 'attn.c_attn.weight', get(att.input[1]!));
    w.set(p + 'attn.c_attn.bias', get(att.input[2]!));
    const proj = consumer(att.output[0]!, 'MatMul');
    w.set(p + 'attn.c_proj.weight', get(proj.input[1]!));
    const sln1 = consumer(proj.output[0]!, 'SkipLayerNormalization');
    w.set(p + 'attn.c_proj.bias', get(sln1.input[4]!));
    w.set(p + 'ln_2.weight', get(sln1.input[2]!));
    w.set(p + 'ln_2.bias', get(sln1.input[3]!));
    const fc = consumer(sln1.output[0]!, 'MatMul');
    w.set(p + 'mlp.c_fc.weight', get(fc.input[1]!));
    const gelu = consumer(fc.output[0]!, 'FastGelu');
    w.set(p + 'mlp.c_fc.bias', get(gelu.input[1]!));
    const fc2 = consumer(gelu.output[0]!, 'MatMul');
    w.set(p + 'mlp.c_proj.weight', get(fc2.input[1]!));
    const sln2 = consumer(fc2.output[0]!, 'SkipLayerNormalization');
    w.set(p + 'mlp.c_proj.bias', get(sln2.input[4]!));
    norm = { g: sln2.input[2]!, b: sln2.input[3]! };
    x = sln2.output[0]!;
    layers++;
  }
  w.set('ln_f.weight', get(norm.g));
  w.set('ln_f.bias', get(norm.b));
  const head = get(consumer(x, 'MatMul').input[1]!); // [d, V]
  const wte = w.get('wte')!;
  const [V, d] = wte.shape as [number, number];
  let tied = true;
  for (let i = 0; i < V && tied; i++) for (let j = 0; j < d; j++) if (head.data[j * V + i] !== wte.data[i * d + j]) tied = false;
  if (!tied) w.set('lm_head.weight', head);
  const heads = Number(nodes.find((n) => n.op_type === 'Attention')!.attribute!.find((a) => a.name === 'num_heads')!.i);
  const config: GptConfig = { vocabSize: V, context: w.get('wpe')!.shape[0]!, layers, dModel: d, heads, tiedHead: tied };
  return { config, weights: w };
}

/** The tiny Llama's config and weights (contract layout of src/policy/hf/llama-weights.ts), plus its rotary tables. */
export function readTinyLlama(): { config: LlamaConfig; weights: WeightMap; cosCache: WeightTensor; sinCache: WeightTensor } {
  const { nodes, init } = loadGraph(path.join(tinyLlamaDir, 'model.onnx'));
  const genai = JSON.parse(readFileSync(path.join(tinyLlamaDir, 'genai_config.json'), 'utf8')).model;
  const w: WeightMap = new Map();
  for (const [name, t] of init) {
    if (name === 'cos_cache' || name === 'sin_cache') continue;
    let n = name.replace('.attn.', '.self_attn.').replace('.MatMul.weight', '.weight');
    n = n.replace(/^model\.layers\.\d+\.final_norm_layernorm\.weight$/, 'model.norm.weight');
    w.set(n, t);
  }
  const eps = nodes.find((n) => n.op_type === 'SimplifiedLayerNormalization')!.attribute!.find((a) => a.name === 'epsilon')!.f!;
  const d = genai.decoder.hidden_size as number;
  const config: LlamaConfig = {
    vocabSize: genai.vocab_size,
    context: genai.context_length,
    layers: genai.decoder.num_hidden_layers,
    dModel: d,
    heads: genai.decoder.num_attention_heads,
    kvHeads: genai.decoder.num_key_value_heads,
    headDim: genai.decoder.head_size,
    ffn: w.get('model.layers.0.mlp.gate_proj.weight')!.shape[1]!,
    rmsEps: Number(Math.fround(eps).toPrecision(6)),
    ropeTheta: 10000,
    tiedHead: !w.has('lm_head.weight'),
    qkvBias: w.has('model.layers.0.self_attn.q_proj.bias'),
    oBias: w.has('model.layers.0.self_attn.o_proj.bias'),
  };
  return { config, weights: w, cosCache: init.get('cos_cache')!, sinCache: init.get('sin_cache')! };
}
