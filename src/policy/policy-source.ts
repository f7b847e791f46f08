/**
 * Where a run's policy comes from, and how arms build, checkpoint and restore it — the same way
 * for the built-in GPT (a pretrained checkpoint) and a Hugging Face directory (full fine-tuning
 * or LoRA). The trainer only sees the {@link PolicyModel}s and the engine's {@link NativeServing}.
 *
 * Hugging Face policy checkpoints hold only the trainable tensors (all weights, or the adapters
 * under LoRA) plus the sha256 of the base weights they belong to; restoring against a different
 * base is an error.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnchorError } from '../util/errors.ts';
import { writeFileDurable } from '../util/fs.ts';
import { type NativeServing, gptServing } from './engine/rollout-engine.ts';
import { decodeOptimizer, encodeOptimizer, loadCheckpoint, saveCheckpoint } from './checkpoint.ts';
import { GptModel } from './model.ts';
import type { OptimizerConfig, OptimizerState } from './optimizer.ts';
import type { PolicyModel } from './policy-model.ts';
import { assertFiniteTensors, decodeSafetensors, encodeSafetensors } from './safetensors.ts';
import type { Tokenizer } from './tokenizer/index.ts';
import { type PromptFormat, promptFormatter, withPromptFormat } from './tokenizer/prompt-format.ts';
import type { EngineTokenizer } from './engine/types.ts';
import type { WeightMap } from './weights.ts';
import type { HfModelConfig } from './hf/hf-config.ts';
import { type HfCheckpoint, loadHfDir, weightsHash } from './hf/hf-dir.ts';
import { createHfPolicy, llamaServing } from './hf/hf-policy.ts';
import { type LoraSpec, resolveLora } from './hf/lora.ts';
import { tinyLlamaConfig, writeRandomHfDir } from './hf/random-dir.ts';

/** A built policy: the model the optimizer trains, its KL reference and how it is served. */
interface BuiltPolicy {
  model: PolicyModel;
  reference: PolicyModel;
  serving: NativeServing;
  /** Full weights (contract layout) with any adapters merged in. */
  mergedWeights(): WeightMap;
  dispose(): void;
}

/** Optimizer settings and state saved with a policy. */
type SavedOptimizer = { config: OptimizerConfig; state: OptimizerState };

/** A run's base policy. */
export interface PolicySource {
  readonly kind: 'native' | 'hf';
  readonly tokenizer: Tokenizer;
  /** sha256 of the base weights. */
  readonly baseHash: string;
  /** The tokenizer the rollout engine encodes prompts with (formatted per `policy.prompt`). */
  promptTokenizer(format: PromptFormat): EngineTokenizer;
  /** The base weights (contract layout) and how to serve them (the base-policy samples of a run). */
  base(): { serving: NativeServing; weights: WeightMap };
  /** Build the policy from the base, or from a checkpoint's trainable tensors. */
  build(opts: { trainable?: WeightMap; seed: number }): BuiltPolicy;
  /** Write the trainable tensors (+ optimizer) to `dir`. */
  save(dir: string, trainable: WeightMap, optimizer: SavedOptimizer | undefined, meta: Record<string, unknown>): void;
  /** Read what {@link save} wrote. */
  load(dir: string): { trainable: WeightMap; optimizer?: SavedOptimizer };
}

/** The built-in GPT from one of our policy checkpoints (the pretrained base). */
export function nativeSource(baseDir: string): PolicySource {
  const base = loadCheckpoint(baseDir);
  return {
    kind: 'native',
    tokenizer: base.tokenizer,
    baseHash: weightsHash(base.weights),
    promptTokenizer: (format) => {
      if (format.format !== 'completion')
        throw new AnchorError(
          'BAD_CONFIG',
          'policy.prompt.format chat needs a Hugging Face model with a chat template (policy.model.source hf)',
        );
      return base.tokenizer;
    },
    base: () => ({ serving: gptServing(base.config), weights: base.weights }),
    build: ({ trainable }) => {
      const model = GptModel.fromWeights(base.config, trainable ?? base.weights);
      const reference = GptModel.fromWeights(base.config, base.weights);
      return {
        model,
        reference,
        serving: gptServing(base.config),
        mergedWeights: () => model.getWeights(),
        dispose: () => {
          model.dispose();
          reference.dispose();
        },
      };
    },
    save: (dir, trainable, optimizer, meta) =>
      saveCheckpoint(dir, {
        config: base.config,
        tokenizer: base.tokenizer,
        weights: trainable,
        ...(optimizer ? { optimizer } : {}),
        meta,
      }),
    load: (dir) => {
      const c = loadCheckpoint(dir);
      return { trainable: c.weights, ...(c.optimizer ? { optimizer: c.optimizer } : {}) };
    },
  };
}

const HF_POLICY_FORMAT = 'anchor-rl-hf-policy';

/**
 * Open a Hugging Face directory as the base. With `randomIfMissing`, a missing `path` first gets
 * a tiny random Llama (the CI smoke fixture). `expectHash` pins the base (resume, arm processes).
 */
export function hfSource(
  path: string,
  opts: { lora?: LoraSpec; randomIfMissing?: boolean; expectHash?: string } = {},
): PolicySource & { checkpoint: HfCheckpoint } {
  if (!existsSync(path) && opts.randomIfMissing) writeRandomHfDir(path, { arch: 'llama', llama: tinyLlamaConfig() }, { seed: 0 });
  const ck = loadHfDir(path);
  const baseHash = weightsHash(ck.weights);
  if (opts.expectHash && opts.expectHash !== baseHash) {
    throw new AnchorError(
      'BAD_MODEL',
      `${path}: its weights (sha256 ${baseHash.slice(0, 12)}…) are not the base this run started from (${opts.expectHash.slice(0, 12)}…)`,
    );
  }
  // Targets resolved for the architecture (its default when none are given), so what a
  // checkpoint records is what the run trains.
  const lora = opts.lora && resolveLora(opts.lora, ck.config.arch);
  return {
    kind: 'hf',
    checkpoint: ck,
    tokenizer: ck.tokenizer,
    baseHash,
    promptTokenizer: (format) => withPromptFormat(ck.tokenizer, promptFormatter(format, ck.tokenizer.tokenizerConfig)),
    base: () => ({
      serving: ck.config.arch === 'gpt2' ? gptServing(ck.config.gpt) : llamaServing(ck.config.llama, undefined, () => ck.weights),
      weights: ck.weights,
    }),
    build: ({ trainable, seed }) =>
      createHfPolicy(ck.config, ck.weights, { ...(lora ? { lora } : {}), seed, ...(trainable ? { trainable } : {}) }),
    save: (dir, trainable, optimizer, meta) => {
      mkdirSync(dir, { recursive: true });
      const cfg = {
        format: HF_POLICY_FORMAT,
        version: 1,
        base: { path, sha256: baseHash },
        model: ck.config,
        lora: lora ?? null,
        meta,
      };
      writeFileDurable(join(dir, 'config.json'), JSON.stringify(cfg, null, 2) + '\n');
      writeFileDurable(
        join(dir, lora ? 'adapters.safetensors' : 'model.safetensors'),
        encodeSafetensors(trainable, { format: 'pt' }),
      );
      if (optimizer) writeFileDurable(join(dir, 'optimizer.safetensors'), encodeOptimizer(optimizer));
    },
    load: (dir) => {
      const cfgPath = join(dir, 'config.json');
      const cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as {
        format?: string;
        base?: { sha256?: string };
        lora?: unknown;
        model?: HfModelConfig;
      };
      if (cfg.format !== HF_POLICY_FORMAT)
        throw new AnchorError(
          'BAD_MODEL',
          `${cfgPath}: not a Hugging Face policy checkpoint (format ${JSON.stringify(cfg.format)})`,
        );
      if (cfg.base?.sha256 !== baseHash) {
        throw new AnchorError(
          'BAD_MODEL',
          `${cfgPath}: belongs to base ${String(cfg.base?.sha256).slice(0, 12)}…, but ${path} holds ${baseHash.slice(0, 12)}…`,
        );
      }
      if (JSON.stringify(cfg.lora) !== JSON.stringify(lora ?? null)) {
        throw new AnchorError(
          'BAD_MODEL',
          `${cfgPath}: saved with policy.lora ${JSON.stringify(cfg.lora)}, but the run uses ${JSON.stringify(lora ?? null)}`,
        );
      }
      const file = join(dir, lora ? 'adapters.safetensors' : 'model.safetensors');
      const trainable = decodeSafetensors(readFileSync(file), file).tensors;
      assertFiniteTensors(trainable, file, 'adapter values');
      const optPath = join(dir, 'optimizer.safetensors');
      return { trainable, ...(existsSync(optPath) ? { optimizer: decodeOptimizer(readFileSync(optPath), optPath) } : {}) };
    },
  };
}
