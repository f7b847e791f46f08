/**
 * Hugging Face model directories: read `config.json` + `model.safetensors` (or a sharded
 * `model.safetensors.index.json`) + `tokenizer.json` / `tokenizer_config.json` into a parsed
 * config and contract-layout float32 weights, and write a trained policy back (merged weights,
 * float32 safetensors, optionally sharded) so other tools can load it.
 *
 * float32, float16 and bfloat16 tensors load (converted to float32). Missing or unexpected
 * tensors are one BAD_MODEL error naming them all; known non-parameter buffers (GPT-2's causal
 * `attn.bias` / `attn.masked_bias`, rotary `inv_freq`, a saved copy of a tied `lm_head`) are
 * dropped.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnchorError } from '../../util/errors.ts';
import { expectedWeightShapes } from '../weights.ts';
import type { WeightMap } from '../weights.ts';
import { decodeSafetensors, encodeSafetensors } from '../safetensors.ts';
import { HfTokenizer } from '../tokenizer/hf.ts';
import { type HfModelConfig, hfConfigJson, parseHfConfig } from './hf-config.ts';
import { validateContract } from './validate.ts';
import { assertFiniteTensors } from '../safetensors.ts';
import { llamaFromHf, llamaToHf, llamaTransposed, llamaWeightShapes, transpose2d } from './llama-weights.ts';

/** A loaded Hugging Face directory. */
export interface HfCheckpoint {
  dir: string;
  config: HfModelConfig;
  /** Contract-layout float32 weights (./llama-weights.ts or ../weights.ts for GPT-2). */
  weights: WeightMap;
  tokenizer: HfTokenizer;
  /** The raw config.json (for eos/bos ids and re-export). */
  rawConfig: Record<string, unknown>;
}

/** How one architecture maps Hugging Face tensors to its contract and back. */
interface ArchitectureIo {
  shapes(c: HfModelConfig): Map<string, number[]>;
  /** Hugging Face names/layouts → contract (unknown names pass through for validation to report). */
  fromHf(hf: WeightMap, c: HfModelConfig): WeightMap;
  toHf(w: WeightMap, c: HfModelConfig): WeightMap;
  /** Non-parameter tensors some checkpoints carry. */
  buffers: RegExp;
  /** A contract tensor's shape as the Hugging Face file stores it (for error messages). */
  fileShape(name: string, shape: readonly number[]): readonly number[];
}

const GPT2_TOP: Record<string, string> = { 'wte.weight': 'wte', 'wpe.weight': 'wpe' };

/** The architecture registry. */
const ARCHITECTURES: Record<HfModelConfig['arch'], ArchitectureIo> = {
  gpt2: {
    shapes: (c) => expectedWeightShapes((c as HfModelConfig & { arch: 'gpt2' }).gpt),
    fromHf: (hf, c) => {
      const out: WeightMap = new Map();
      for (const [name0, t] of hf) {
        const name = name0.startsWith('transformer.') ? name0.slice('transformer.'.length) : name0;
        if (name === 'lm_head.weight') {
          // nn.Linear [V, d] → [d, V]; dropped when tied (a saved copy of wte).
          if (c.arch === 'gpt2' && !c.gpt.tiedHead) out.set(name, transpose2d(t));
          continue;
        }
        out.set(GPT2_TOP[name] ?? name, t);
      }
      return out;
    },
    toHf: (w) => {
      const out: WeightMap = new Map();
      for (const [name, t] of w)
        out.set(
          name === 'lm_head.weight' ? name : `transformer.${name === 'wte' || name === 'wpe' ? name + '.weight' : name}`,
          name === 'lm_head.weight' ? transpose2d(t) : t,
        );
      return out;
    },
    buffers: /^(transformer\.)?h\.\d+\.attn\.(bias|masked_bias)$/,
    // GPT-2's Conv1D weights are [in, out] on disk like the contract; only the untied head is a Linear.
    fileShape: (name, shape) => (name === 'lm_head.weight' ? [...shape].reverse() : shape),
  },
  llama: {
    shapes: (c) => llamaWeightShapes((c as HfModelConfig & { arch: 'llama' }).llama),
    fromHf: (hf, c) => {
      const w = llamaFromHf(hf);
      if (c.arch === 'llama' && c.llama.tiedHead) w.delete('lm_head.weight');
      return w;
    },
    toHf: (w) => llamaToHf(w),
    buffers: /\.rotary_emb\.inv_freq$/,
    fileShape: (name, shape) => (llamaTransposed(name, shape) ? [...shape].reverse() : shape),
  },
};

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new AnchorError('BAD_MODEL', `${path}: not readable JSON: ${(err as Error).message}`, undefined, { cause: err });
  }
}

/** All tensors of a directory's safetensors (single file or sharded index), Hugging Face names. */
export function readSafetensorsDir(dir: string): WeightMap {
  const single = join(dir, 'model.safetensors');
  const index = join(dir, 'model.safetensors.index.json');
  if (existsSync(single)) return decodeSafetensors(readFileSync(single), single).tensors;
  if (!existsSync(index))
    throw new AnchorError('NOT_FOUND', `${dir}: neither model.safetensors nor model.safetensors.index.json exists`);
  const map = readJson(index).weight_map as Record<string, string> | undefined;
  if (!map || typeof map !== 'object') throw new AnchorError('BAD_MODEL', `${index}: weight_map is missing`);
  const out: WeightMap = new Map();
  for (const file of new Set(Object.values(map))) {
    const p = join(dir, file);
    if (!existsSync(p)) throw new AnchorError('NOT_FOUND', `${index}: shard ${file} does not exist`);
    for (const [name, t] of decodeSafetensors(readFileSync(p), p).tensors) {
      if (map[name] !== file)
        throw new AnchorError('BAD_MODEL', `${p}: tensor '${name}' is not listed for this shard in ${index}`);
      out.set(name, t);
    }
  }
  const absent = Object.keys(map).filter((n) => !out.has(n));
  if (absent.length) throw new AnchorError('BAD_MODEL', `${index}: tensors listed but not in their shards: ${absent.join(', ')}`);
  return out;
}

/** Contract tensor names and shapes of a model with `config`, in a stable order. */
export function hfWeightShapes(config: HfModelConfig): Map<string, number[]> {
  return ARCHITECTURES[config.arch].shapes(config);
}

/** Convert Hugging Face tensors to the contract of `config` and validate them (names every missing/extra tensor). */
function hfToContract(config: HfModelConfig, hf: WeightMap, what: string): WeightMap {
  const io = ARCHITECTURES[config.arch];
  const kept: WeightMap = new Map([...hf].filter(([n]) => !io.buffers.test(n)));
  const w = io.fromHf(kept, config);
  validateContract(io.shapes(config), w, what, io.fileShape);
  assertFiniteTensors(w, what, 'weights');
  return w;
}

/** Contract weights → Hugging Face names and layouts. */
function contractToHf(config: HfModelConfig, w: WeightMap): WeightMap {
  return ARCHITECTURES[config.arch].toHf(w, config);
}

/** Load a Hugging Face model directory (see the module docs). */
export function loadHfDir(dir: string): HfCheckpoint {
  const cfgPath = join(dir, 'config.json');
  if (!existsSync(cfgPath))
    throw new AnchorError('NOT_FOUND', `${dir}: no config.json (expected a Hugging Face model directory)`);
  const rawConfig = readJson(cfgPath);
  const config = parseHfConfig(rawConfig, cfgPath);
  const weights = hfToContract(config, readSafetensorsDir(dir), `${dir} weights`);
  const tokenizer = HfTokenizer.fromDir(dir);
  checkTokenIds(dir, config, tokenizer, rawConfig);
  return { dir, config, weights, tokenizer, rawConfig };
}

/**
 * Every id the tokenizer can produce, and the special ids config.json names, must index a row of
 * the embedding: an id ≥ vocab_size would otherwise reach the ONNX Runtime gather at the first
 * rollout and end the process with a raw native error instead of a message naming the file.
 */
function checkTokenIds(dir: string, config: HfModelConfig, tokenizer: HfTokenizer, rawConfig: Record<string, unknown>): void {
  const vocab = config.arch === 'gpt2' ? config.gpt.vocabSize : config.llama.vocabSize;
  const ids: [string, unknown][] = [
    ["the tokenizer's end-of-sequence id", tokenizer.eosId],
    ["the tokenizer's padding id", tokenizer.padId],
    ["the tokenizer's largest id", tokenizer.vocabSize - 1],
    ...(['eos_token_id', 'bos_token_id', 'pad_token_id'] as const).flatMap((k) =>
      [rawConfig[k]].flat().map((v): [string, unknown] => [`config.json ${k}`, v]),
    ),
  ];
  const bad = ids.filter(([, id]) => typeof id === 'number' && (id < 0 || id >= vocab));
  if (bad.length)
    throw new AnchorError(
      'BAD_MODEL',
      `${dir}: token ids outside the model's vocabulary (config.json vocab_size ${vocab}, ids 0–${vocab - 1}): ${bad
        .map(([what, id]) => `${what} ${id}`)
        .join(', ')}`,
      { vocabSize: vocab, ids: Object.fromEntries(bad) },
    );
}

/** sha256 over names, shapes and float32 bytes of contract weights: the identity of a base model. */
export function weightsHash(w: WeightMap): string {
  const h = createHash('sha256');
  for (const name of [...w.keys()].sort()) {
    const t = w.get(name)!;
    h.update(`${name}:${t.shape.join('x')};`);
    h.update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  return h.digest('hex');
}

/**
 * Write `weights` (contract layout, merged) as a Hugging Face directory: config.json (the source
 * config with the architecture keys this project reads overwritten), safetensors (float32 unless
 * `dtype` says otherwise; sharded with an index when `shardBytes` is given), and the tokenizer files copied from `tokenizerDir`.
 */
export function writeHfDir(
  dir: string,
  config: HfModelConfig,
  weights: WeightMap,
  opts: { tokenizerDir?: string; rawConfig?: Record<string, unknown>; shardBytes?: number; dtype?: 'F32' | 'F16' | 'BF16' } = {},
): void {
  const dtype = opts.dtype ?? 'F32';
  const width = dtype === 'F32' ? 4 : 2;
  validateContract(ARCHITECTURES[config.arch].shapes(config), weights, 'export weights');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify(
      {
        ...(opts.rawConfig ?? {}),
        ...hfConfigJson(config),
        torch_dtype: { F32: 'float32', F16: 'float16', BF16: 'bfloat16' }[dtype],
      },
      null,
      2,
    ) + '\n',
  );
  const hf = contractToHf(config, weights);
  if (!opts.shardBytes) {
    writeFileSync(join(dir, 'model.safetensors'), encodeSafetensors(hf, { format: 'pt' }, dtype));
  } else {
    const shards: WeightMap[] = [new Map()];
    let size = 0;
    for (const [name, t] of hf) {
      if (size > 0 && size + t.data.length * width > opts.shardBytes) {
        shards.push(new Map());
        size = 0;
      }
      shards.at(-1)!.set(name, t);
      size += t.data.length * width;
    }
    const weightMap: Record<string, string> = {};
    let total = 0;
    shards.forEach((s, i) => {
      const file = `model-${String(i + 1).padStart(5, '0')}-of-${String(shards.length).padStart(5, '0')}.safetensors`;
      writeFileSync(join(dir, file), encodeSafetensors(s, { format: 'pt' }, dtype));
      for (const [name, t] of s) {
        weightMap[name] = file;
        total += t.data.length * width;
      }
    });
    writeFileSync(
      join(dir, 'model.safetensors.index.json'),
      JSON.stringify({ metadata: { total_size: total }, weight_map: weightMap }, null, 2) + '\n',
    );
  }
  if (opts.tokenizerDir) {
    for (const f of ['tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'generation_config.json']) {
      if (existsSync(join(opts.tokenizerDir, f))) copyFileSync(join(opts.tokenizerDir, f), join(dir, f));
    }
  }
}
