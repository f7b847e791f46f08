/**
 * Architecture proof against exports made by another tool: ONNX Runtime GenAI's tiny random GPT-2
 * (float32) and Llama (float16) in ../shared/models. Their weights are read out of the graphs
 * into the trainable tfjs policies; the same token ids go through both, for a prompt and for a
 * KV-cached continuation, and the logits must agree (float32 within 1e-4, float16 within float16
 * precision). Skips with a printed reason when ../shared is absent; fails then under CI=true.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { initTf, tf } from '../../../src/tf/backend.ts';
import { runOnnxOnce } from '../../../src/policy/engine/ort-session.ts';
import { GptModel } from '../../../src/policy/model.ts';
import { LlamaModel } from '../../../src/policy/hf/llama-model.ts';
import { ropeTables } from '../../../src/policy/hf/rope.ts';
import type { LayerKv, PolicyModel, TokenBatch } from '../../../src/policy/policy-model.ts';
import { readTinyGpt2, readTinyLlama, sharedModelsPresent, tinyGpt2Dir, tinyLlamaDir } from './shared-graphs.ts';

const present = sharedModelsPresent('hf shared-parity');

/** Rows of ids → a dense batch with positions starting at `offset`. */
function batchOf(rows: number[][], offset = 0): TokenBatch {
  const B = rows.length;
  const T = rows[0]!.length;
  const ids = Int32Array.from(rows.flat());
  const positions = Int32Array.from({ length: B * T }, (_, i) => offset + (i % T));
  return { batch: B, length: T, ids, mask: new Float32Array(B * T).fill(1), positions };
}

/** tfjs logits for the prompt and for the continuation fed through the KV cache. */
function tfjsLogits(model: PolicyModel, prompt: number[][], cont: number[][]): { first: Float32Array; next: Float32Array } {
  return tf.tidy(() => {
    const p = batchOf(prompt);
    const r1 = model.forward(p, { keepPresent: true });
    const first = model.head(r1.hidden).dataSync() as Float32Array;
    const r2 = model.forward(batchOf(cont, p.length), { past: r1.present as LayerKv[], pastMask: p.mask, keepPresent: false });
    const next = model.head(r2.hidden).dataSync() as Float32Array;
    return { first: new Float32Array(first), next: new Float32Array(next) };
  });
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const prompt = [
  [5, 17, 300, 42, 7, 999],
  [1, 2, 3, 4, 5, 6],
];
// One cached token per row: the GenAI Llama graph's mask subgraph takes one new token per step
// once a cache is present.
const cont = [[11], [600]];

beforeAll(async () => {
  await initTf();
});

describe.skipIf(!present)('HF architectures against ONNX Runtime GenAI exports', () => {
  it('GPT-2 (float32): prompt and KV-cached continuation logits within 1e-4', async () => {
    const { config, weights } = readTinyGpt2();
    expect(config).toMatchObject({ vocabSize: 1000, layers: 5, dModel: 32, heads: 4 });
    const model = GptModel.fromWeights(config, weights);
    const ours = tfjsLogits(model, prompt, cont);
    model.dispose();
    const B = prompt.length;
    const T = prompt[0]!.length;
    const file = path.join(tinyGpt2Dir, 'past.onnx');
    const empty = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`past_${i}`, { type: 'float32' as const, data: [], dims: [2, B, 4, 0, 8] }]),
    );
    const o1 = await runOnnxOnce(file, {
      input_ids: { type: 'int32', data: prompt.flat(), dims: [B, T] },
      position_ids: { type: 'int32', data: prompt.flatMap((r) => r.map((_, j) => j)), dims: [B, T] },
      attention_mask: { type: 'int32', data: new Array(B * T).fill(1), dims: [B, T] },
      ...empty,
    });
    const past = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [
        `past_${i}`,
        { type: 'float32' as const, data: o1[`present_${i}`]!.data, dims: o1[`present_${i}`]!.dims },
      ]),
    );
    const o2 = await runOnnxOnce(file, {
      input_ids: { type: 'int32', data: cont.flat(), dims: [B, 1] },
      position_ids: { type: 'int32', data: cont.map(() => T), dims: [B, 1] },
      attention_mask: { type: 'int32', data: new Array(B * (T + 1)).fill(1), dims: [B, T + 1] },
      ...past,
    });
    const d1 = maxDiff(ours.first, o1.logits!.data);
    const d2 = maxDiff(ours.next, o2.logits!.data);
    console.log(`tiny-random-gpt2: max |Δlogit| prompt ${d1.toExponential(2)}, cached continuation ${d2.toExponential(2)}`);
    expect(d1).toBeLessThan(1e-4);
    expect(d2).toBeLessThan(1e-4);
  });

  it('Llama (float16): rotary tables, prompt and KV-cached continuation logits within float16 precision', async () => {
    const { config, weights, cosCache, sinCache } = readTinyLlama();
    expect(config).toMatchObject({ vocabSize: 32000, layers: 2, dModel: 16, heads: 1, kvHeads: 1, headDim: 16, tiedHead: false });
    // The export's rotary tables (positions 0..2047, half width) match rope_theta 10000 to float16 precision.
    const pos = Int32Array.from({ length: cosCache.shape[0]! }, (_, i) => i);
    const { cos, sin } = ropeTables(pos, config.headDim, config.ropeTheta);
    const h = config.headDim / 2;
    let dr = 0;
    for (let p = 0; p < pos.length; p++) {
      for (let i = 0; i < h; i++) {
        dr = Math.max(
          dr,
          Math.abs(cos[p * config.headDim + i]! - cosCache.data[p * h + i]!),
          Math.abs(sin[p * config.headDim + i]! - sinCache.data[p * h + i]!),
        );
      }
    }
    expect(dr).toBeLessThan(1e-3);

    const model = LlamaModel.fromWeights(config, weights);
    const ours = tfjsLogits(model, prompt, cont);
    model.dispose();
    const B = prompt.length;
    const T = prompt[0]!.length;
    const file = path.join(tinyLlamaDir, 'model.onnx');
    const kvDims = (len: number) => [B, config.kvHeads, len, config.headDim];
    const empty = Object.fromEntries(
      Array.from({ length: config.layers }, (_, i) => [
        [`past_key_values.${i}.key`, { type: 'float16' as const, data: [], dims: kvDims(0) }],
        [`past_key_values.${i}.value`, { type: 'float16' as const, data: [], dims: kvDims(0) }],
      ]).flat(),
    );
    const o1 = await runOnnxOnce(file, {
      input_ids: { type: 'int64', data: prompt.flat(), dims: [B, T] },
      position_ids: { type: 'int64', data: prompt.flatMap((r) => r.map((_, j) => j)), dims: [B, T] },
      attention_mask: { type: 'int64', data: new Array(B * T).fill(1), dims: [B, T] },
      ...empty,
    });
    const past = Object.fromEntries(
      Array.from({ length: config.layers }, (_, i) => [
        [`past_key_values.${i}.key`, { type: 'float16' as const, data: o1[`present.${i}.key`]!.data, dims: kvDims(T) }],
        [`past_key_values.${i}.value`, { type: 'float16' as const, data: o1[`present.${i}.value`]!.data, dims: kvDims(T) }],
      ]).flat(),
    );
    const o2 = await runOnnxOnce(file, {
      input_ids: { type: 'int64', data: cont.flat(), dims: [B, 1] },
      position_ids: { type: 'int64', data: cont.map(() => T), dims: [B, 1] },
      attention_mask: { type: 'int64', data: new Array(B * (T + 1)).fill(1), dims: [B, T + 1] },
      ...past,
    });
    const ref1 = o1.logits!.data;
    const ref2 = o2.logits!.data;
    let scale = 0;
    for (const v of [...ref1, ...ref2]) scale = Math.max(scale, Math.abs(v));
    const d1 = maxDiff(ours.first, ref1);
    const d2 = maxDiff(ours.next, ref2);
    console.log(
      `tiny-random-llama-fp16: max |logit| ${scale.toFixed(4)}, max |Δlogit| prompt ${d1.toExponential(2)}, cached continuation ${d2.toExponential(2)}`,
    );
    // float16 has a 2^-11 relative rounding step; ONNX Runtime rounds activations to float16 at
    // every op, so allow a few steps of the largest logit.
    const tol = 8 * 2 ** -11 * scale;
    expect(d1).toBeLessThan(tol);
    expect(d2).toBeLessThan(tol);
  });
});
