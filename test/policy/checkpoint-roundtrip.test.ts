/**
 * safetensors reader/writer and policy checkpoints: exact round trips of weights, tokenizer and
 * optimizer state (so the next training step after a reload is identical), atomic replacement.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';
import { decodeSafetensors, encodeSafetensors } from '../../src/policy/safetensors.ts';
import { isCheckpointDir, loadCheckpoint, saveCheckpoint } from '../../src/policy/checkpoint.ts';
import { GptModel } from '../../src/policy/model.ts';
import { AdamOptimizer } from '../../src/policy/optimizer.ts';
import { buildCompletionBatch, completionNll } from '../../src/policy/logprobs.ts';
import { CharTokenizer, HfTokenizer } from '../../src/policy/tokenizer/index.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import type { WeightMap } from '../../src/policy/weights.ts';

const here = dirname(fileURLToPath(import.meta.url));
let dir: string;

beforeAll(async () => {
  await initTf(() => {});
  dir = mkdtempSync(join(tmpdir(), 'anchor-ckpt-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sameWeights(a: WeightMap, b: WeightMap): void {
  expect([...b.keys()]).toEqual([...a.keys()]);
  for (const [k, t] of a) {
    expect(b.get(k)!.shape).toEqual(t.shape);
    expect(Buffer.from(b.get(k)!.data.buffer).equals(Buffer.from(t.data.buffer))).toBe(true);
  }
}

describe('safetensors', () => {
  it('round-trips tensors and metadata bit-exactly, with an 8-byte aligned header', () => {
    const w: WeightMap = new Map([
      ['a', { shape: [2, 3], data: Float32Array.from([1, -2, 3.5, Math.PI, -0, 1e-30]) }],
      ['b.c', { shape: [1], data: Float32Array.from([NaN]) }],
      ['scalar', { shape: [], data: Float32Array.from([7]) }],
    ]);
    const bytes = encodeSafetensors(w, { step: '12' });
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + n) % 8).toBe(0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
    expect(header.a).toEqual({ dtype: 'F32', shape: [2, 3], data_offsets: [0, 24] });
    expect(header.__metadata__).toEqual({ step: '12' });
    const back = decodeSafetensors(bytes);
    sameWeights(w, back.tensors);
    expect(back.metadata).toEqual({ step: '12' });
  });

  it('reads other dtypes (F16, BF16, I64) as float32', () => {
    const header = JSON.stringify({
      h: { dtype: 'F16', shape: [2], data_offsets: [0, 4] },
      bf: { dtype: 'BF16', shape: [1], data_offsets: [4, 6] },
      i: { dtype: 'I64', shape: [1], data_offsets: [6, 14] },
    });
    const hb = new TextEncoder().encode(header);
    const out = new Uint8Array(8 + hb.length + 14);
    const v = new DataView(out.buffer);
    v.setBigUint64(0, BigInt(hb.length), true);
    out.set(hb, 8);
    const at = 8 + hb.length;
    v.setUint16(at, 0x3c00, true); // 1.0
    v.setUint16(at + 2, 0xc000, true); // -2.0
    v.setUint16(at + 4, 0x4040, true); // bf16 3.0
    v.setBigInt64(at + 6, -5n, true);
    const f = decodeSafetensors(out);
    expect([...f.tensors.get('h')!.data]).toEqual([1, -2]);
    expect([...f.tensors.get('bf')!.data]).toEqual([3]);
    expect([...f.tensors.get('i')!.data]).toEqual([-5]);
  });

  it('rejects malformed files with BAD_MODEL', () => {
    expect(() => decodeSafetensors(new Uint8Array(3))).toThrow(/too short/);
    const good = encodeSafetensors(new Map([['a', { shape: [4], data: new Float32Array(4) }]]));
    expect(() => decodeSafetensors(good.subarray(0, good.length - 4))).toThrow(/truncated: tensor 'a' ends at data byte 16/);
    const bogus = new Uint8Array(16);
    new DataView(bogus.buffer).setBigUint64(0, 1000n, true);
    expect(() => decodeSafetensors(bogus)).toThrow(/truncated: the header says 1000 header bytes/);
    new DataView(bogus.buffer).setBigUint64(0, 200_000_000n, true);
    expect(() => decodeSafetensors(bogus)).toThrow(/exceeds the 100,000,000-byte limit/);
  });
});

describe('policy checkpoints', () => {
  const config: GptConfig = { vocabSize: 30, context: 32, layers: 2, dModel: 16, heads: 2, tiedHead: false };
  const tok = CharTokenizer.fromCorpus(['abcdefghij(){};=+ \n'], { includeAscii: false });

  function batch() {
    const rng = new Rng(9);
    return buildCompletionBatch(
      Array.from({ length: 4 }, () => [rng.range(2, 20), rng.range(2, 20)]),
      Array.from({ length: 4 }, (_, i) => Array.from({ length: 2 + i }, () => rng.range(2, 20))),
      0,
    );
  }

  it('save → load gives identical weights, logits, optimizer state and next training step', () => {
    const b = batch();
    const model = GptModel.init(config, 1);
    const opt = new AdamOptimizer(model.params, {
      lr: 1e-2,
      weight_decay: 0.1,
      warmup_steps: 2,
      schedule: 'cosine',
      total_steps: 10,
    });
    for (let i = 0; i < 3; i++) opt.trainStep(() => completionNll(model, b));
    const out = join(dir, 'ckpt');
    saveCheckpoint(out, {
      config,
      tokenizer: tok,
      weights: model.getWeights(),
      optimizer: { config: opt.config, state: opt.getState() },
      meta: { step: 3 },
    });
    expect(isCheckpointDir(out)).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['char-vocab.json', 'config.json', 'model.safetensors', 'optimizer.safetensors']);

    const ck = loadCheckpoint(out);
    expect(ck.config).toEqual(config);
    expect(ck.meta).toEqual({ step: 3 });
    expect(ck.tokenizer.encode('abc=')).toEqual(tok.encode('abc='));
    sameWeights(model.getWeights(), ck.weights);
    const model2 = GptModel.fromWeights(ck.config, ck.weights);
    const opt2 = new AdamOptimizer(model2.params, ck.optimizer!.config);
    opt2.setState(ck.optimizer!.state);
    expect(opt2.step).toBe(3);
    expect(opt2.config).toEqual(opt.config);
    const s1 = opt.getState();
    const s2 = opt2.getState();
    sameWeights(s1.m, s2.m);
    sameWeights(s1.v, s2.v);

    const l1 = tf.tidy(() => model.logits(b).dataSync());
    const l2 = tf.tidy(() => model2.logits(b).dataSync());
    expect(Buffer.from(l2.buffer).equals(Buffer.from(l1.buffer))).toBe(true);

    const r1 = opt.trainStep(() => completionNll(model, b));
    const r2 = opt2.trainStep(() => completionNll(model2, b));
    expect(r2).toEqual(r1);
    sameWeights(model.getWeights(), model2.getWeights());
    for (const x of [opt, opt2]) x.dispose();
    for (const m of [model, model2]) m.dispose();
  });

  it('replaces an existing checkpoint atomically and leaves no temp directories', () => {
    const out = join(dir, 'replace');
    const m1 = GptModel.init(config, 1);
    const m2 = GptModel.init(config, 2);
    saveCheckpoint(out, { config, tokenizer: tok, weights: m1.getWeights() });
    saveCheckpoint(out, { config, tokenizer: tok, weights: m2.getWeights() });
    sameWeights(m2.getWeights(), loadCheckpoint(out).weights);
    expect(loadCheckpoint(out).optimizer).toBeUndefined();
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-') || n.includes('.old-'))).toEqual([]);
    // A failed save (invalid weights) leaves the previous checkpoint untouched.
    const bad = m1.getWeights();
    bad.delete('wte');
    expect(() => saveCheckpoint(out, { config, tokenizer: tok, weights: bad })).toThrow(/wte/);
    sameWeights(m2.getWeights(), loadCheckpoint(out).weights);
    m1.dispose();
    m2.dispose();
  });

  it('stores Hugging Face tokenizers as tokenizer.json + tokenizer_config.json', () => {
    const json = JSON.parse(readFileSync(resolve(here, '../fixtures/tiny-tokenizer.json'), 'utf8'));
    const hf = new HfTokenizer(json, { eos_token: '</s>', pad_token: '<pad>' });
    const c: GptConfig = { ...config, vocabSize: 11 };
    const m = GptModel.init(c, 3);
    const out = join(dir, 'hf');
    saveCheckpoint(out, { config: c, tokenizer: hf, weights: m.getWeights() });
    expect(existsSync(join(out, 'tokenizer.json'))).toBe(true);
    const ck = loadCheckpoint(out);
    expect(ck.tokenizer.kind).toBe('hf');
    expect(ck.tokenizer.encode('ab c(')).toEqual(hf.encode('ab c('));
    expect(ck.tokenizer.eosId).toBe(1);
    m.dispose();
  });

  it('reports missing and foreign directories clearly', () => {
    expect(() => loadCheckpoint(join(dir, 'nope'))).toThrow(/does not exist/);
    const foreign = join(dir, 'foreign');
    rmSync(foreign, { recursive: true, force: true });
    saveCheckpoint(foreign, { config, tokenizer: tok, weights: GptModel.init(config, 1).getWeights() });
    writeFileSync(join(foreign, 'config.json'), JSON.stringify({ format: 'something-else' }));
    expect(isCheckpointDir(foreign)).toBe(false);
    expect(() => loadCheckpoint(foreign)).toThrow(/not an anchor-rl policy checkpoint/);
    const tooBig = CharTokenizer.fromCorpus(['x'.repeat(1)], { includeAscii: true });
    expect(() =>
      saveCheckpoint(join(dir, 'vocab'), { config, tokenizer: tooBig, weights: GptModel.init(config, 1).getWeights() }),
    ).toThrow(/tokenizer has/);
  });
});
