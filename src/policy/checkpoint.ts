/**
 * Policy checkpoints: a directory holding
 *
 * - `config.json` — `{format: "anchor-rl-policy", version: 1, model: GptConfig, tokenizer: {kind}, meta}`
 * - `model.safetensors` — the weights under their contract names (./weights.ts), float32
 * - the tokenizer: `char-vocab.json` (char) or `tokenizer.json` + `tokenizer_config.json` (hf)
 * - `optimizer.safetensors` (optional) — Adam moments as `m.<name>` / `v.<name>`, with the step
 *   count and optimizer config in the safetensors `__metadata__`, so resume is exact.
 *
 * Writes are atomic at directory level: everything is written and fsynced into `DIR.tmp-*`, then
 * renamed over DIR (the previous DIR is moved aside first and removed after), so a reader never
 * sees a half-written checkpoint.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AnchorError } from '../util/errors.ts';
import { fsyncDir, writeFileDurable } from '../util/fs.ts';
import { type GptConfig, validateGptConfig } from './gpt-config.ts';
import { type WeightMap, validateWeights } from './weights.ts';
import { assertFiniteTensors, decodeSafetensors, encodeSafetensors } from './safetensors.ts';
import { type OptimizerConfig, type OptimizerState, optimizerConfigSchema } from './optimizer.ts';
import { CharTokenizer, HfTokenizer, type Tokenizer } from './tokenizer/index.ts';

/** Identifies our checkpoint directories. */
export const CHECKPOINT_FORMAT = 'anchor-rl-policy';
export const CHECKPOINT_VERSION = 1;

/** Everything a checkpoint holds. */
export interface PolicyCheckpoint {
  config: GptConfig;
  tokenizer: Tokenizer;
  weights: WeightMap;
  /** Optimizer settings and state, for exact resume. */
  optimizer?: { config: OptimizerConfig; state: OptimizerState };
  /** Free-form JSON (step, seed, metrics, provenance). */
  meta?: Record<string, unknown>;
}

/** Contents of config.json. */
interface ConfigFile {
  format: string;
  version: number;
  model: GptConfig;
  tokenizer: { kind: string };
  meta?: Record<string, unknown>;
}

/** Write a checkpoint to `dir` atomically (replacing any previous checkpoint there). */
export function saveCheckpoint(dir: string, ckpt: PolicyCheckpoint): void {
  validateGptConfig(ckpt.config);
  validateWeights(ckpt.config, ckpt.weights);
  if (ckpt.tokenizer.vocabSize > ckpt.config.vocabSize) {
    throw new AnchorError(
      'BAD_MODEL',
      `tokenizer has ${ckpt.tokenizer.vocabSize} ids but the model only ${ckpt.config.vocabSize}`,
    );
  }
  const target = resolve(dir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = join(parent, `${basename(target)}.tmp-${tag}`);
  mkdirSync(tmp);
  try {
    const cfg: ConfigFile = {
      format: CHECKPOINT_FORMAT,
      version: CHECKPOINT_VERSION,
      model: ckpt.config,
      tokenizer: { kind: ckpt.tokenizer.kind },
      ...(ckpt.meta ? { meta: ckpt.meta } : {}),
    };
    writeFileDurable(join(tmp, 'config.json'), JSON.stringify(cfg, null, 2) + '\n');
    writeFileDurable(join(tmp, 'model.safetensors'), encodeSafetensors(ckpt.weights, { format: 'pt' }));
    const tj = ckpt.tokenizer.toJSON() as Record<string, unknown>;
    if (ckpt.tokenizer.kind === 'char') {
      writeFileDurable(join(tmp, 'char-vocab.json'), JSON.stringify(tj, null, 1) + '\n');
    } else {
      writeFileDurable(join(tmp, 'tokenizer.json'), JSON.stringify(tj.tokenizer));
      writeFileDurable(join(tmp, 'tokenizer_config.json'), JSON.stringify(tj.config ?? {}, null, 2) + '\n');
    }
    if (ckpt.optimizer) writeFileDurable(join(tmp, 'optimizer.safetensors'), encodeOptimizer(ckpt.optimizer));
    fsyncDir(tmp);
    let old: string | undefined;
    if (existsSync(target)) {
      old = join(parent, `${basename(target)}.old-${tag}`);
      renameSync(target, old);
    }
    renameSync(tmp, target);
    fsyncDir(parent);
    if (old) rmSync(old, { recursive: true, force: true });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new AnchorError('BAD_MODEL', `cannot read ${path}: ${(err as Error).message}`, undefined, { cause: err });
  }
}

/** True when `dir` looks like one of our checkpoints (has config.json with our format tag). */
export function isCheckpointDir(dir: string): boolean {
  const p = join(dir, 'config.json');
  if (!existsSync(p)) return false;
  try {
    return (JSON.parse(readFileSync(p, 'utf8')) as { format?: string }).format === CHECKPOINT_FORMAT;
  } catch {
    return false;
  }
}

/** Read a checkpoint written by {@link saveCheckpoint}. */
export function loadCheckpoint(dir: string): PolicyCheckpoint {
  if (!existsSync(dir)) throw new AnchorError('NOT_FOUND', `checkpoint directory ${dir} does not exist`);
  const cfgPath = join(dir, 'config.json');
  if (!existsSync(cfgPath)) throw new AnchorError('BAD_MODEL', `${dir} is not a policy checkpoint (no config.json)`);
  const cfg = readJson(cfgPath) as Partial<ConfigFile>;
  if (cfg.format !== CHECKPOINT_FORMAT)
    throw new AnchorError('BAD_MODEL', `${cfgPath}: not an anchor-rl policy checkpoint (format ${JSON.stringify(cfg.format)})`);
  if (cfg.version !== CHECKPOINT_VERSION)
    throw new AnchorError('BAD_MODEL', `${cfgPath}: unsupported checkpoint version ${cfg.version}`);
  const config = validateGptConfig(cfg.model as GptConfig);
  let tokenizer: Tokenizer;
  const kind = cfg.tokenizer?.kind;
  if (kind === 'char') tokenizer = CharTokenizer.fromJSON(readJson(join(dir, 'char-vocab.json')));
  else if (kind === 'hf') tokenizer = HfTokenizer.fromDir(dir);
  else throw new AnchorError('BAD_MODEL', `${cfgPath}: unknown tokenizer kind ${JSON.stringify(kind)}`);
  const weights = decodeSafetensors(readFileSync(join(dir, 'model.safetensors')), join(dir, 'model.safetensors')).tensors;
  validateWeights(config, weights);
  assertFiniteTensors(weights, join(dir, 'model.safetensors'), 'weights');
  const out: PolicyCheckpoint = { config, tokenizer, weights };
  if (cfg.meta) out.meta = cfg.meta;
  const optPath = join(dir, 'optimizer.safetensors');
  if (existsSync(optPath)) out.optimizer = decodeOptimizer(readFileSync(optPath), optPath);
  return out;
}

/** Optimizer settings and Adam moments as safetensors (`m.<name>`, `v.<name>`; step and config in metadata). */
export function encodeOptimizer(opt: { config: OptimizerConfig; state: OptimizerState }): Uint8Array {
  const t: WeightMap = new Map();
  for (const [k, w] of opt.state.m) t.set(`m.${k}`, w);
  for (const [k, w] of opt.state.v) t.set(`v.${k}`, w);
  return encodeSafetensors(t, { step: String(opt.state.step), config: JSON.stringify(opt.config) });
}

/** Read what {@link encodeOptimizer} wrote (`path` names the file in errors). */
export function decodeOptimizer(bytes: Uint8Array, path: string): { config: OptimizerConfig; state: OptimizerState } {
  const f = decodeSafetensors(bytes, path);
  assertFiniteTensors(f.tensors, path, 'optimizer moments');
  const m: WeightMap = new Map();
  const v: WeightMap = new Map();
  for (const [k, w] of f.tensors) {
    if (k.startsWith('m.')) m.set(k.slice(2), w);
    else if (k.startsWith('v.')) v.set(k.slice(2), w);
  }
  const step = Number(f.metadata.step);
  let config: OptimizerConfig;
  try {
    config = optimizerConfigSchema.parse(JSON.parse(f.metadata.config ?? '{}'));
  } catch (err) {
    throw new AnchorError('BAD_MODEL', `${path}: bad optimizer config metadata`, undefined, { cause: err });
  }
  return { config, state: { step, m, v } };
}
