/**
 * Write a Hugging Face model directory with random weights: config.json, safetensors (optionally
 * float16 / bfloat16, optionally sharded with an index) and a byte-level BPE tokenizer.json with
 * no merges (256 byte tokens + `<|endoftext|>`), which encodes any text. Used for the
 * smoke-llama run and the tests, which cannot download a model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../../util/rng.ts';
import type { WeightMap } from '../weights.ts';
import type { GptConfig } from '../gpt-config.ts';
import type { HfModelConfig, LlamaConfig } from './hf-config.ts';
import { hfWeightShapes, writeHfDir } from './hf-dir.ts';

/** GPT-2's byte → printable character map (bytes_to_unicode), the alphabet of byte-level BPE. */
function byteLevelAlphabet(): string[] {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  const out: string[] = new Array(256);
  bs.forEach((b, i) => (out[b] = String.fromCodePoint(cs[i]!)));
  return out;
}

/** A byte-level BPE tokenizer.json (ids 0–255 bytes, 256 = `<|endoftext|>`). */
function byteLevelTokenizerJson(): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  byteLevelAlphabet().forEach((ch, b) => (vocab[ch] = b));
  vocab['<|endoftext|>'] = 256;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [
      { id: 256, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
    ],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: [],
    },
  };
}

/** Vocabulary size of {@link byteLevelTokenizerJson}. */
const BYTE_LEVEL_VOCAB = 257;

/** Random contract weights for `config` (N(0, std) matrices, norm weights 1 ± 0.1·N, biases N(0, std)). */
export function randomHfWeights(config: HfModelConfig, seed: number, std = 0.05): WeightMap {
  const shapes = hfWeightShapes(config);
  const root = new Rng(seed);
  const w: WeightMap = new Map();
  for (const [name, shape] of shapes) {
    const rng = root.fork(name);
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    const norm = /(layernorm|norm|ln_\d|ln_f)\.weight$/.test(name);
    for (let i = 0; i < n; i++) data[i] = norm ? 1 + 0.1 * rng.normal() : std * rng.normal();
    w.set(name, { shape: [...shape], data });
  }
  return w;
}

/** A tiny Llama shape over the byte-level tokenizer (the smoke-llama and test model). */
export function tinyLlamaConfig(over: Partial<LlamaConfig> = {}): LlamaConfig {
  return {
    vocabSize: BYTE_LEVEL_VOCAB,
    context: 512,
    layers: 2,
    dModel: 32,
    heads: 4,
    kvHeads: 2,
    headDim: 8,
    ffn: 64,
    rmsEps: 1e-6,
    ropeTheta: 10000,
    tiedHead: false,
    qkvBias: false,
    oBias: false,
    ...over,
  };
}

/**
 * A ~50M-parameter Llama shape (SmolLM-like proportions: 10 layers, d 512, 8 heads / 4 key-value
 * heads, SwiGLU 1536, vocabulary 32,000, tied): the throughput benchmark's and the memory fit's
 * held-out model.
 */
export function llama50mConfig(): LlamaConfig {
  return tinyLlamaConfig({
    vocabSize: 32000,
    context: 2048,
    layers: 10,
    dModel: 512,
    heads: 8,
    kvHeads: 4,
    headDim: 64,
    ffn: 1536,
    tiedHead: true,
  });
}

/** A tiny GPT-2 shape over the byte-level tokenizer (test model). */
export function tinyGpt2Config(over: Partial<GptConfig> = {}): GptConfig {
  return { vocabSize: BYTE_LEVEL_VOCAB, context: 64, layers: 2, dModel: 16, heads: 2, tiedHead: true, ...over };
}

/**
 * Write a random Hugging Face directory to `dir`. `weights` (contract layout) default to
 * {@link randomHfWeights}; `dtype` is the stored precision; `shardBytes` splits the safetensors
 * into shards with an index.
 */
export function writeRandomHfDir(
  dir: string,
  config: HfModelConfig,
  opts: { seed?: number; weights?: WeightMap; dtype?: 'F32' | 'F16' | 'BF16'; shardBytes?: number } = {},
): WeightMap {
  const weights = opts.weights ?? randomHfWeights(config, opts.seed ?? 0);
  writeHfDir(dir, config, weights, {
    rawConfig: { eos_token_id: 256, bos_token_id: 256 },
    ...(opts.dtype ? { dtype: opts.dtype } : {}),
    ...(opts.shardBytes ? { shardBytes: opts.shardBytes } : {}),
  });
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(byteLevelTokenizerJson()));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify(
      {
        eos_token: '<|endoftext|>',
        bos_token: '<|endoftext|>',
        pad_token: '<|endoftext|>',
        model_max_length: config.arch === 'gpt2' ? config.gpt.context : config.llama.context,
      },
      null,
      2,
    ) + '\n',
  );
  return weights;
}
