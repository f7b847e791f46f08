/**
 * Hugging Face directories written by the tests (random weights, HF names and layouts): load →
 * export → load round-trips exactly (single file and sharded index), float16 / bfloat16 load to
 * the nearest float32, the byte-level tokenizer encodes any text, and unsupported architectures
 * or missing / unexpected tensors are errors naming them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHfConfig, type HfModelConfig } from '../../../src/policy/hf/hf-config.ts';
import { loadHfDir, readSafetensorsDir, weightsHash, writeHfDir } from '../../../src/policy/hf/hf-dir.ts';
import { randomHfWeights, tinyLlamaConfig, writeRandomHfDir } from '../../../src/policy/hf/random-dir.ts';
import { encodeSafetensors } from '../../../src/policy/safetensors.ts';
import type { WeightMap } from '../../../src/policy/weights.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(path.join(tmpdir(), 'anchor-hf-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const llama: HfModelConfig = { arch: 'llama', llama: tinyLlamaConfig() };
const qwen: HfModelConfig = { arch: 'llama', llama: tinyLlamaConfig({ qkvBias: true, tiedHead: true }) };
const gpt2: HfModelConfig = {
  arch: 'gpt2',
  gpt: { vocabSize: 257, context: 64, layers: 2, dModel: 16, heads: 2, tiedHead: true },
};

function expectSame(a: WeightMap, b: WeightMap): void {
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  for (const [n, t] of a) {
    expect(b.get(n)!.shape).toEqual(t.shape);
    expect(Buffer.from(b.get(n)!.data.buffer).equals(Buffer.from(t.data.buffer))).toBe(true);
  }
}

describe('Hugging Face directories', () => {
  for (const [label, cfg] of [
    ['llama (GQA, untied)', llama],
    ['qwen2 (q/k/v bias, tied)', qwen],
    ['gpt2', gpt2],
  ] as const) {
    it(`${label}: load → export → load gives identical tensors, single file and sharded`, () => {
      const src = tmp();
      const written = writeRandomHfDir(src, cfg, { seed: 3, shardBytes: 20_000 });
      expect(existsSync(path.join(src, 'model.safetensors.index.json'))).toBe(true);
      const a = loadHfDir(src);
      expect(a.config).toEqual(cfg);
      expectSame(written, a.weights);
      const out = tmp();
      writeHfDir(out, a.config, a.weights, { tokenizerDir: src, rawConfig: a.rawConfig });
      const b = loadHfDir(out);
      expect(b.config).toEqual(cfg);
      expectSame(a.weights, b.weights);
      expect(weightsHash(b.weights)).toBe(weightsHash(a.weights));
      // Hugging Face layout on disk: nn.Linear weights are [out, in].
      if (cfg.arch === 'llama') {
        const hf = readSafetensorsDir(out);
        const c = cfg.llama;
        expect(hf.get('model.layers.0.self_attn.k_proj.weight')!.shape).toEqual([c.kvHeads * c.headDim, c.dModel]);
        expect(hf.get('model.layers.0.mlp.down_proj.weight')!.shape).toEqual([c.dModel, c.ffn]);
      }
    });
  }

  it('float16 and bfloat16 checkpoints load as the rounded float32 values', () => {
    const w = randomHfWeights(llama, 5);
    for (const dtype of ['F16', 'BF16'] as const) {
      const d = tmp();
      writeRandomHfDir(d, llama, { weights: w, dtype });
      const got = loadHfDir(d).weights;
      let maxRel = 0;
      for (const [n, t] of w) {
        const g = got.get(n)!;
        for (let i = 0; i < t.data.length; i++)
          maxRel = Math.max(maxRel, Math.abs(g.data[i]! - t.data[i]!) / Math.max(Math.abs(t.data[i]!), 1e-3));
      }
      expect(maxRel).toBeGreaterThan(0);
      expect(maxRel).toBeLessThan(dtype === 'F16' ? 1e-3 : 8e-3);
    }
  });

  it('the byte-level tokenizer round-trips code text', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 1 });
    const { tokenizer } = loadHfDir(d);
    const text = 'def f(x):\n\treturn x * 2  # “ok” €\n';
    const ids = tokenizer.encode(text);
    expect(ids.every((i) => i >= 0 && i < 256)).toBe(true);
    expect(tokenizer.decode(ids)).toBe(text);
    expect(tokenizer.eosId).toBe(256);
  });

  it('missing and unexpected tensors are one error naming them', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 2 });
    const hf = readSafetensorsDir(d);
    hf.delete('model.layers.1.mlp.up_proj.weight');
    hf.set('model.layers.0.self_attn.q_norm.weight', { shape: [8], data: new Float32Array(8) });
    writeFileSync(path.join(d, 'model.safetensors'), encodeSafetensors(hf));
    expect(() => loadHfDir(d)).toThrow(
      /missing tensors: model\.layers\.1\.mlp\.up_proj\.weight; unexpected tensors: model\.layers\.0\.self_attn\.q_norm\.weight/,
    );
  });

  it('a non-finite weight is named', () => {
    const d = tmp();
    writeRandomHfDir(d, llama, { seed: 2 });
    const hf = readSafetensorsDir(d);
    hf.get('model.norm.weight')!.data[3] = NaN;
    writeFileSync(path.join(d, 'model.safetensors'), encodeSafetensors(hf));
    expect(() => loadHfDir(d)).toThrow(/holds non-finite weights: model\.norm\.weight\[3\] = NaN/);
  });

  it('unsupported architectures and options are named', () => {
    expect(() => parseHfConfig({ model_type: 'gemma2', architectures: ['Gemma2ForCausalLM'] })).toThrow(
      /unsupported architecture model_type "gemma2" \(Gemma2ForCausalLM\)/,
    );
    const base = JSON.parse(readFileSync(path.join(writeDir(), 'config.json'), 'utf8'));
    expect(() => parseHfConfig({ ...base, rope_scaling: { rope_type: 'llama3', factor: 8 } })).toThrow(
      /rope_scaling is not supported/,
    );
    expect(() => parseHfConfig({ ...base, hidden_act: 'gelu' })).toThrow(/hidden_act must be silu/);
    expect(() => parseHfConfig({ ...base, num_key_value_heads: 3 })).toThrow(/num_key_value_heads must divide/);
  });
});

function writeDir(): string {
  const d = tmp();
  writeRandomHfDir(d, llama, { seed: 0 });
  return d;
}
