/**
 * Bring-your-own ONNX models: a real third-party export (ONNX Runtime GenAI's tiny random GPT-2,
 * stacked `past_%d` caches, int32 ids) from ../shared/models, our own optimum-layout export
 * loaded from a directory, and handmade models whose inputs cannot be mapped.
 */
import { mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnnxModel } from '../../src/policy/engine/load-onnx-model.ts';
import { mapDecoderIo } from '../../src/policy/engine/decoder-io.ts';
import { OrtDecoder } from '../../src/policy/engine/mapped-decoder.ts';
import { GraphBuilder } from '../../src/policy/onnx/graph-builder.ts';
import { OnnxDataType } from '../../src/policy/onnx/onnx-proto.ts';
import { exportGptToOnnx } from '../../src/policy/onnx/export-gpt.ts';
import { AnchorError } from '../../src/util/errors.ts';
import { randomWeights } from './parity-reference.ts';
import { leftPad } from './parity-helpers.ts';
import { haveSharedPath } from '../helpers/paths.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sharedModels = path.resolve(repoRoot, '../shared/models');
const tinyGpt2 = path.join(sharedModels, 'tiny-random-gpt2-fp32');
const haveTiny = haveSharedPath('byo-onnx tiny-random-gpt2 tests', path.join(tinyGpt2, 'genai_config.json'));

const tmpDirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'anchor-byo-'));
  tmpDirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!haveTiny)('tiny-random-gpt2 (ONNX Runtime GenAI export)', () => {
  // Prompts whose byte-level BPE ids fall inside the model's 1,000-token vocabulary.
  const prompts = ['a b c', 'x = 1', 'b, c'];

  it('maps the genai names (stacked past_%d, int32 ids) and produces well-formed completions', async () => {
    const m = await loadOnnxModel(tinyGpt2);
    try {
      expect(m.source).toBe('genai_config.json');
      expect(m.io.convention).toBe('genai');
      expect(m.io.inputIds.type).toBe('int32');
      expect(m.io.cache).toHaveLength(5);
      expect(m.io.cache[0]).toMatchObject({ past: 'past_0', present: 'present_0', layout: 'stacked' });
      expect(m.info).toMatchObject({ context: 512, eosTokenIds: [98], vocabSize: 1000 });
      const out = await m.engine.generate(prompts, { maxNewTokens: 12, seed: 1, temperature: 1 });
      expect(out).toHaveLength(3);
      for (const c of out) {
        expect(c.tokenIds.length).toBeGreaterThan(0);
        expect(c.tokenIds.length).toBeLessThanOrEqual(12);
        expect(c.tokenIds.every((t) => Number.isInteger(t) && t >= 0 && t < 1000)).toBe(true);
        expect(c.logprobs).toHaveLength(c.tokenIds.length);
        expect(c.logprobs.every((lp) => Number.isFinite(lp) && lp <= 0)).toBe(true);
        expect(typeof c.text).toBe('string');
        expect(['eos', 'length', 'stop']).toContain(c.finishReason);
      }
    } finally {
      await m.engine.release();
    }
  });

  it('cached and uncached decoding agree (logits and samples); seeded sampling repeats', async () => {
    const m = await loadOnnxModel(tinyGpt2);
    try {
      const ids = prompts.map((p) => m.tokenizer.encode(p));
      const opts = { maxNewTokens: 10, seed: 4, temperature: 1, eosTokenId: null };
      const cached = await m.engine.generateIds(ids, opts);
      const again = await m.engine.generateIds(ids, opts);
      const full = await m.engine.generateIds(ids, { ...opts, useCache: false });
      expect(again).toEqual(cached);
      expect(full.map((c) => c.tokenIds)).toEqual(cached.map((c) => c.tokenIds));
      cached.forEach((c, i) => c.logprobs.forEach((lp, t) => expect(Math.abs(lp - full[i]!.logprobs[t]!)).toBeLessThan(1e-4)));

      // Raw logits: one token at a time through the stacked cache vs one full pass.
      const dec = m.engine.currentDecoder as OrtDecoder;
      const seqs = cached.map((c, i) => [...ids[i]!, ...c.tokenIds]);
      const { L, ids: fIds, positions, padCounts } = leftPad(seqs, 98);
      const fullOut = await dec.forward({ batch: seqs.length, seq: L, ids: fIds, positions, padCounts });
      const V = fullOut.vocab;
      const pre = leftPad(
        seqs.map((s) => s.slice(0, s.length - 6)),
        98,
      );
      let step = await dec.forward({
        batch: seqs.length,
        seq: pre.L,
        ids: pre.ids,
        positions: pre.positions,
        padCounts: pre.padCounts,
      });
      let maxDiff = 0;
      for (let t = 0; t < 6; t++) {
        step = await dec.forward(
          {
            batch: seqs.length,
            seq: 1,
            ids: Int32Array.from(seqs, (s) => s[s.length - 6 + t]!),
            positions: Int32Array.from(seqs, (s) => s.length - 6 + t),
            padCounts: pre.padCounts,
          },
          step.cache,
        );
        for (let b = 0; b < seqs.length; b++) {
          const fOff = (b * L + (L - 6 + t)) * V;
          for (let v = 0; v < V; v++) maxDiff = Math.max(maxDiff, Math.abs(step.logits[b * V + v]! - fullOut.logits[fOff + v]!));
        }
      }
      console.log(`tiny-random-gpt2 cached vs full logits: max |diff| = ${maxDiff.toExponential(2)}`);
      expect(maxDiff).toBeLessThan(1e-4);
    } finally {
      await m.engine.release();
    }
  });

  it('rejects prompt ids outside the model vocabulary with a clear error', async () => {
    const m = await loadOnnxModel(tinyGpt2);
    try {
      await expect(m.engine.generate(['hello world'], { maxNewTokens: 2 })).rejects.toMatchObject({
        code: 'BAD_ARGUMENT',
        message: expect.stringMatching(/outside the model's vocabulary of 1000/),
      });
    } finally {
      await m.engine.release();
    }
  });

  it('loads our own optimum-layout export from a directory the same way', async () => {
    const dir = tmp();
    const c = { vocabSize: 1000, context: 64, layers: 2, dModel: 16, heads: 2, tiedHead: true };
    writeFileSync(path.join(dir, 'model.onnx'), exportGptToOnnx(c, randomWeights(c, 3)));
    copyFileSync(path.join(tinyGpt2, 'tokenizer.json'), path.join(dir, 'tokenizer.json'));
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ n_positions: 64, eos_token_id: 98, bos_token_id: 98 }));
    const m = await loadOnnxModel(dir);
    try {
      expect(m.io.convention).toBe('optimum');
      expect(m.io.inputIds.type).toBe('int64');
      expect(m.info).toMatchObject({ context: 64, eosTokenIds: [98], vocabSize: 1000 });
      const opts = { maxNewTokens: 8, seed: 2, eosTokenId: null };
      const a = await m.engine.generate(['a b c'], opts);
      const b = await m.engine.generate(['a b c'], { ...opts, useCache: false });
      expect(b.map((x) => x.tokenIds)).toEqual(a.map((x) => x.tokenIds));
    } finally {
      await m.engine.release();
    }
  });
});

/** A handmade graph: each named input passes through Identity to an output. */
function handmade(inputs: Array<{ name: string; type: number; dims: Array<number | string> }>, outputs: string[]): Uint8Array {
  const g = new GraphBuilder();
  inputs.forEach((i, k) => {
    g.input(i.name, i.type, i.dims);
    const out = outputs[k];
    if (out) {
      g.op('Identity', [i.name], {}, out);
      g.output(out, i.type, i.dims);
    }
  });
  return g.encode({ opset: 17, graphName: 'handmade' });
}

describe('models whose inputs cannot be mapped', () => {
  it('AnchorError BAD_MODEL lists the inputs found and the names expected', async () => {
    const bytes = handmade(
      [
        { name: 'tokens', type: OnnxDataType.INT64, dims: ['b', 's'] },
        { name: 'kv_cache_in', type: OnnxDataType.FLOAT, dims: ['b', 2, 's', 4] },
      ],
      ['logits', 'kv_cache_out'],
    );
    const err = await OrtDecoder.create(bytes).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AnchorError);
    const e = err as AnchorError;
    expect(e.code).toBe('BAD_MODEL');
    expect(e.message).toMatch(/tokens/);
    expect(e.message).toMatch(/kv_cache_in/);
    expect(e.message).toMatch(/input_ids/);
    expect(e.message).toMatch(/past_key_values/);
    expect(e.details).toMatchObject({ foundInputs: ['tokens', 'kv_cache_in'] });
    expect(e.details!.expected as string[]).toContain('input_ids');
  });

  it('through loadOnnxModel too, and an extra unfeedable input is named', async () => {
    const dir = tmp();
    copyFileSync(
      path.join(haveTiny ? tinyGpt2 : repoRoot, haveTiny ? 'tokenizer.json' : 'package.json'),
      path.join(dir, 'tokenizer.json'),
    );
    writeFileSync(
      path.join(dir, 'model.onnx'),
      handmade(
        [
          { name: 'input_ids', type: OnnxDataType.INT64, dims: ['b', 's'] },
          { name: 'token_type_ids', type: OnnxDataType.INT64, dims: ['b', 's'] },
        ],
        ['logits'],
      ),
    );
    if (!haveTiny) {
      // Without a real tokenizer.json the loader stops at the tokenizer; still a BAD_MODEL.
      await expect(loadOnnxModel(dir)).rejects.toMatchObject({ code: 'BAD_MODEL' });
      return;
    }
    await expect(loadOnnxModel(dir)).rejects.toMatchObject({
      code: 'BAD_MODEL',
      message: expect.stringMatching(/no role for input\(s\) token_type_ids/),
    });
  });

  it('mapDecoderIo: genai split names, optimum names, and heads from static shapes', () => {
    const f = (name: string, type = 'float32', shape: Array<number | string> = ['b', 4, 'p', 8]) => ({ name, type, shape });
    const optimum = mapDecoderIo(
      [
        f('input_ids', 'int64', ['b', 's']),
        f('attention_mask', 'int64', ['b', 't']),
        f('past_key_values.0.key'),
        f('past_key_values.0.value'),
        f('use_cache_branch', 'bool', [1]),
      ],
      [f('logits'), f('present.0.key'), f('present.0.value')],
    );
    expect(optimum).toMatchObject({ convention: 'optimum', kvHeads: 4, headDim: 8, useCacheBranch: 'use_cache_branch' });
    expect(optimum.positionIds).toBeUndefined();
    const genai = mapDecoderIo([f('ids', 'int32', ['b', 's']), f('pk.0'), f('pv.0')], [f('out'), f('ok.0'), f('ov.0')], {
      head_size: 8,
      num_key_value_heads: 4,
      inputs: { input_ids: 'ids', past_key_names: 'pk.%d', past_value_names: 'pv.%d' },
      outputs: { logits: 'out', present_key_names: 'ok.%d', present_value_names: 'ov.%d' },
    });
    expect(genai).toMatchObject({ convention: 'genai', inputIds: { name: 'ids', type: 'int32' }, logits: 'out' });
    expect(genai.cache).toEqual([
      { past: 'pk.0', present: 'ok.0', layout: 'split' },
      { past: 'pv.0', present: 'ov.0', layout: 'split' },
    ]);
    expect(() => mapDecoderIo([f('input_ids', 'float32', ['b', 's'])], [f('logits')])).toThrow(/int32 or int64/);
  });
});
