/**
 * Loading a broken Hugging Face directory is one typed error that says what is wrong and where:
 * token ids outside the embedding, a wrong-shape tensor in the file's own layout, overlapping or
 * gapped safetensors offsets, a truncated file, and a tokenizer that does not load.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HfModelConfig } from '../../../src/policy/hf/hf-config.ts';
import { loadHfDir, readSafetensorsDir } from '../../../src/policy/hf/hf-dir.ts';
import { tinyGpt2Config, tinyLlamaConfig, writeRandomHfDir } from '../../../src/policy/hf/random-dir.ts';
import { decodeSafetensors, encodeSafetensors } from '../../../src/policy/safetensors.ts';
import { AnchorError } from '../../../src/util/errors.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'anchor-hf-err-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const llama: HfModelConfig = { arch: 'llama', llama: tinyLlamaConfig() };

/** The error `f` throws (it must throw an AnchorError). */
function thrown(f: () => unknown): AnchorError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(AnchorError);
    return err as AnchorError;
  }
  throw new Error('expected an error');
}

/** Rewrite a directory's config.json with `patch` applied. */
function patchConfig(dir: string, patch: Record<string, unknown>): void {
  const p = path.join(dir, 'config.json');
  writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, 'utf8')), ...patch }));
}

/** A safetensors file with a hand-written header over `data` bytes. */
function rawSafetensors(header: Record<string, unknown>, dataBytes: number): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + dataBytes);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  return out;
}

describe('Hugging Face loading errors', () => {
  it('an end-of-sequence id outside vocab_size is BAD_MODEL naming the id and the vocabulary', () => {
    // The byte-level tokenizer's <|endoftext|> is id 256; a 256-row embedding cannot hold it.
    const d = tmp();
    writeRandomHfDir(d, { arch: 'llama', llama: tinyLlamaConfig({ vocabSize: 256 }) }, { seed: 1 });
    const e = thrown(() => loadHfDir(d));
    expect(e.code).toBe('BAD_MODEL');
    expect(e.message).toContain(d);
    expect(e.message).toMatch(/vocab_size 256/);
    expect(e.message).toMatch(/end-of-sequence id 256/);
  });

  it("config.json's special ids are checked too (a list of eos ids included)", () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 1 });
    patchConfig(d, { eos_token_id: [256, 9000], pad_token_id: 300 });
    const e = thrown(() => loadHfDir(d));
    expect(e.message).toMatch(/config\.json eos_token_id 9000, config\.json pad_token_id 300/);
    expect(e.message).not.toMatch(/eos_token_id 256/);
  });

  it('a wrong-shape tensor is reported in the layout the file stores', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 2 });
    const hf = readSafetensorsDir(d);
    const c = llama.llama;
    // On disk k_proj is [out, in] = [kv·hd, d] = [16, 32]; store [17, 32].
    hf.set('model.layers.0.self_attn.k_proj.weight', { shape: [17, c.dModel], data: new Float32Array(17 * c.dModel) });
    writeFileSync(path.join(d, 'model.safetensors'), encodeSafetensors(hf));
    expect(() => loadHfDir(d)).toThrow(/'model\.layers\.0\.self_attn\.k_proj\.weight' has shape \[17,32\], expected \[16,32\]/);
  });

  it("GPT-2's untied head is reported as the file stores it ([vocab, d])", () => {
    const d = tmp();
    const cfg: HfModelConfig = { arch: 'gpt2', gpt: tinyGpt2Config({ tiedHead: false }) };
    writeRandomHfDir(d, cfg, { seed: 2 });
    const hf = readSafetensorsDir(d);
    expect(hf.get('lm_head.weight')!.shape).toEqual([257, 16]);
    hf.set('lm_head.weight', { shape: [257, 15], data: new Float32Array(257 * 15) });
    writeFileSync(path.join(d, 'model.safetensors'), encodeSafetensors(hf));
    expect(() => loadHfDir(d)).toThrow(/'lm_head\.weight' has shape \[257,15\], expected \[257,16\]/);
  });

  it('overlapping data_offsets are rejected (two tensors sharing bytes), as the reference implementation does', () => {
    const bytes = rawSafetensors(
      {
        a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
        b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] },
      },
      12,
    );
    expect(() => decodeSafetensors(bytes, 'x.safetensors')).toThrow(
      /x\.safetensors: tensor 'b' data_offsets \[4, 12\] overlap tensor 'a'/,
    );
    const alias = rawSafetensors(
      { a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } },
      8,
    );
    expect(() => decodeSafetensors(alias, 'x.safetensors')).toThrow(/overlap/);
  });

  it('gaps and trailing bytes are rejected; a tiled file loads', () => {
    const gap = rawSafetensors({ a: { dtype: 'F32', shape: [1], data_offsets: [4, 8] } }, 8);
    expect(() => decodeSafetensors(gap)).toThrow(/starts at data byte 4, leaving bytes 0–4 unused/);
    const trailing = rawSafetensors({ a: { dtype: 'F32', shape: [1], data_offsets: [0, 4] } }, 8);
    expect(() => decodeSafetensors(trailing)).toThrow(/end at data byte 4 but the file holds 8 data bytes/);
    const ok = rawSafetensors(
      { b: { dtype: 'F32', shape: [1], data_offsets: [4, 8] }, a: { dtype: 'F32', shape: [1], data_offsets: [0, 4] } },
      8,
    );
    expect([...decodeSafetensors(ok).tensors.keys()]).toEqual(['b', 'a']);
  });

  it('a truncated file says "truncated", in the data and in the header', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 3 });
    const f = path.join(d, 'model.safetensors');
    const size = statSync(f).size;
    truncateSync(f, size - 100);
    const e = thrown(() => loadHfDir(d));
    expect(e.code).toBe('BAD_MODEL');
    expect(e.message).toContain(f);
    expect(e.message).toMatch(/truncated: tensor '.*' ends at data byte \d+ but the file holds \d+ data bytes/);
    truncateSync(f, 40);
    expect(() => loadHfDir(d)).toThrow(/truncated: the header says \d+ header bytes, the file has 32/);
  });

  it('a tokenizer that does not load names its file', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 4 });
    const tj = path.join(d, 'tokenizer.json');
    writeFileSync(tj, JSON.stringify({ version: '1.0', model: { type: 'NoSuchModel' } }));
    const e = thrown(() => loadHfDir(d));
    expect(e.code).toBe('BAD_MODEL');
    expect(e.message).toContain(tj);
    writeFileSync(tj, JSON.stringify({ nothing: 1 }));
    expect(() => loadHfDir(d)).toThrow(new RegExp(`${tj.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a Hugging Face tokenizer`));
  });

  it('a tokenizer without an end-of-sequence token names its file', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 4 });
    const tj = path.join(d, 'tokenizer.json');
    const json = JSON.parse(readFileSync(tj, 'utf8'));
    json.added_tokens = [];
    delete json.model.vocab['<|endoftext|>'];
    writeFileSync(tj, JSON.stringify(json));
    writeFileSync(path.join(d, 'tokenizer_config.json'), '{}');
    expect(() => loadHfDir(d)).toThrow(new RegExp(`${tj.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no end-of-sequence token`));
  });
});
