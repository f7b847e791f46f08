/**
 * Bring your own model: load a decoder-only ONNX export plus its Hugging Face `tokenizer.json`
 * from a directory and serve it through the rollout engine.
 *
 * Directory layout, in order of preference:
 * - ONNX Runtime GenAI: `genai_config.json` names the model file (`model.decoder.filename`), the
 *   I/O tensor names (e.g. stacked `past_%d` / `present_%d`), EOS/BOS/pad ids and the context.
 * - Hugging Face optimum: `model.onnx` / `decoder_model_merged.onnx` /
 *   `decoder_with_past_model.onnx` (or the only `*.onnx` file), with optimum I/O names;
 *   `config.json` (when present) gives EOS/BOS ids and the context (`n_positions` /
 *   `max_position_embeddings`).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AnchorError } from '../../util/errors.ts';
import { HfTokenizer } from '../tokenizer/hf.ts';
import type { DecoderIoSpec, GenaiDecoderConfig } from './decoder-io.ts';
import { OnnxRolloutEngine, type EngineModelInfo } from './rollout-engine.ts';
import type { GraphOptimizationLevel } from './ort-session.ts';

/** A loaded bring-your-own model. */
export interface LoadedOnnxModel {
  engine: OnnxRolloutEngine;
  tokenizer: HfTokenizer;
  /** How the graph's inputs/outputs were mapped. */
  io: DecoderIoSpec;
  /** Path of the .onnx file. */
  modelPath: string;
  info: EngineModelInfo;
  /** Which metadata file described the model. */
  source: 'genai_config.json' | 'config.json' | 'none';
}

const OPTIMUM_FILES = ['model.onnx', 'decoder_model_merged.onnx', 'decoder_with_past_model.onnx'];

/** Load `dir` (see the module docs). Throws AnchorError NOT_FOUND / BAD_MODEL. */
export async function loadOnnxModel(
  dir: string,
  opts: { optimizationLevel?: GraphOptimizationLevel } = {},
): Promise<LoadedOnnxModel> {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new AnchorError('NOT_FOUND', `ONNX model directory not found: ${dir}`);
  const readJson = (name: string): Record<string, unknown> | undefined => {
    const p = join(dir, name);
    if (!existsSync(p)) return undefined;
    try {
      return JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new AnchorError('BAD_MODEL', `${p}: not valid JSON: ${(err as Error).message}`, undefined, { cause: err });
    }
  };

  const genaiRoot = readJson('genai_config.json');
  const hfConfig = readJson('config.json');
  const tokenizer = HfTokenizer.fromDir(dir);
  let modelPath: string;
  let genai: GenaiDecoderConfig | undefined;
  let source: LoadedOnnxModel['source'] = 'none';
  let eos: number[] = [tokenizer.eosId];
  let pad = tokenizer.padId;
  let bos: number | undefined;
  let context = Number.POSITIVE_INFINITY;

  if (genaiRoot) {
    source = 'genai_config.json';
    const model = (genaiRoot.model ?? {}) as Record<string, unknown>;
    const decoder = (model.decoder ?? {}) as Record<string, unknown>;
    if (typeof decoder.filename !== 'string')
      throw new AnchorError('BAD_MODEL', `${dir}/genai_config.json: model.decoder.filename is missing`);
    modelPath = join(dir, decoder.filename);
    genai = decoder as GenaiDecoderConfig;
    eos = idList(model.eos_token_id) ?? eos;
    pad = typeof model.pad_token_id === 'number' ? model.pad_token_id : pad;
    bos = typeof model.bos_token_id === 'number' ? model.bos_token_id : undefined;
    if (typeof model.context_length === 'number') context = model.context_length;
  } else {
    const onnxFiles = readdirSync(dir).filter((f) => f.endsWith('.onnx'));
    const pick = OPTIMUM_FILES.find((f) => onnxFiles.includes(f)) ?? (onnxFiles.length === 1 ? onnxFiles[0] : undefined);
    if (!pick) {
      throw new AnchorError(
        'BAD_MODEL',
        `${dir}: no model file found; expected genai_config.json or one of ${OPTIMUM_FILES.join(', ')} (found .onnx files: ${onnxFiles.join(', ') || 'none'})`,
      );
    }
    modelPath = join(dir, pick);
    if (hfConfig) {
      source = 'config.json';
      eos = idList(hfConfig.eos_token_id) ?? eos;
      if (typeof hfConfig.bos_token_id === 'number') bos = hfConfig.bos_token_id;
      const n = hfConfig.n_positions ?? hfConfig.max_position_embeddings;
      if (typeof n === 'number') context = n;
    }
  }
  if (!existsSync(modelPath)) throw new AnchorError('NOT_FOUND', `ONNX model file not found: ${modelPath}`);

  const info: EngineModelInfo = { context, eosTokenIds: eos, padTokenId: pad, ...(bos !== undefined ? { bosTokenId: bos } : {}) };
  const engine = await OnnxRolloutEngine.fromOnnx(modelPath, info, {
    tokenizer,
    ...(genai ? { genai } : {}),
    ...(opts.optimizationLevel ? { optimizationLevel: opts.optimizationLevel } : {}),
  });
  return { engine, tokenizer, io: engine.ioSpec!, modelPath, info: engine.info, source };
}

function idList(v: unknown): number[] | undefined {
  if (typeof v === 'number') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return v as number[];
  return undefined;
}
