/**
 * The reward-model kinds: one registry entry per kind, with how to build a fresh model from
 * settings and how to rebuild a saved one. Every place that chooses a kind — the run's RM, the
 * learned judge, the committee, loading a checkpoint — goes through this registry.
 */
import { join } from 'node:path';
import { AnchorError } from '../../util/errors.ts';
import type { GptConfig } from '../../policy/gpt-config.ts';
import type { WeightMap } from '../../policy/weights.ts';
import type { Tokenizer } from '../../policy/tokenizer/index.ts';
import { createFeatureExtractor, type FeatureExtractor } from '../features/registry.ts';
import {
  rewardModelFeatures,
  transformerConfigSchema,
  type MlpConfig,
  type RewardModelConfig,
  type RewardModelKindName,
  type TransformerConfig,
} from './config.ts';
import { TransformerRewardModel, type TransformerModelOptions } from './transformer.ts';
import { MlpRewardModel, type MlpModelOptions } from './mlp.ts';
import { readModelFiles, type TensorMap } from './persist.ts';
import { RidgeRewardModel, type RidgeModelOptions } from './ridge.ts';
import type { RewardModel } from './types.ts';

/** What a model is built from (the `reward_model:` block and the learned judge both give these). */
interface ModelSettings {
  /** Ridge penalty α. */
  alpha: number;
  /** Ridge: divide features by their standard deviation before fitting. */
  standardize: boolean;
  /** Seed of the MLP's initialisation and batch order. */
  seed: number;
  mlp: MlpConfig;
  /** The transformer kind's settings (absent: the defaults). */
  transformer?: TransformerConfig;
  /** The base policy's trunk (the transformer kind is initialised from it). */
  trunk?: { config: GptConfig; weights: WeightMap };
}

/** One reward-model kind. */
export interface RewardModelKind {
  /** A fresh, unfitted model. Call initTf() first. */
  create(settings: ModelSettings): RewardModel;
  /** A saved model from its `model.json` options and its tensors and scalars. */
  load(options: unknown, tensors: TensorMap, meta: Record<string, unknown>): RewardModel;
}

/** The reward-model kinds by name (the names `reward_model.kind` and `judge.model` accept). */
export const REWARD_MODEL_KINDS: Record<RewardModelKindName, RewardModelKind> = {
  ridge: {
    create: (s) => new RidgeRewardModel({ alpha: s.alpha, standardize: s.standardize }),
    load: (options, tensors, meta) => {
      const m = new RidgeRewardModel(options as RidgeModelOptions);
      m.importState(tensors, meta);
      return m;
    },
  },
  mlp: {
    create: (s) =>
      new MlpRewardModel({
        hidden: s.mlp.hidden,
        epochs: s.mlp.epochs,
        lr: s.mlp.lr,
        batchSize: s.mlp.batch_size,
        weightDecay: s.mlp.weight_decay,
        seed: s.seed,
      }),
    load: (options, tensors, meta) => {
      const m = new MlpRewardModel(options as MlpModelOptions);
      m.importState(tensors, meta);
      return m;
    },
  },
  transformer: {
    create: (s) => {
      if (!s.trunk)
        throw new AnchorError(
          'BAD_CONFIG',
          "reward_model.kind transformer is initialised from the base policy's trunk, which only the built-in GPT policy provides (policy.hf is not supported)",
        );
      const t = s.transformer ?? transformerConfigSchema.parse({});
      const options: TransformerModelOptions = {
        trunk: s.trunk.config,
        heads: t.heads,
        trainLayers: t.train_layers,
        pool: t.pool,
        epochs: t.epochs,
        refitEpochs: t.refit_epochs,
        lr: t.lr,
        batchSize: t.batch_size,
        pairwise: t.pairwise,
        replay: t.replay,
        seed: s.seed,
        fast: t.fast,
      };
      return new TransformerRewardModel(options, s.trunk.weights);
    },
    load: (options, tensors, meta) => TransformerRewardModel.load(options as TransformerModelOptions, tensors, meta),
  },
};

/** A fresh (unfitted) reward model for a parsed `reward_model` config. Call initTf() first. */
export function createRewardModel(cfg: RewardModelConfig, extra: Pick<ModelSettings, 'trunk'> = {}): RewardModel {
  return REWARD_MODEL_KINDS[cfg.kind].create({ ...cfg, ...extra });
}

/**
 * The feature extractor a run's reward model reads: `reward_model.features`, or for the
 * transformer kind the policy tokenizer's ids (`reward_model.transformer.max_tokens`, default the
 * policy context).
 */
export function createRewardFeatures(
  cfg: RewardModelConfig,
  policy: { tokenizer: Tokenizer; context: number },
): FeatureExtractor {
  const maxTokens = cfg.transformer.max_tokens ?? policy.context;
  if (cfg.kind === 'transformer' && maxTokens > policy.context)
    throw new AnchorError(
      'BAD_CONFIG',
      `reward_model.transformer.max_tokens is ${maxTokens} but the policy reads at most ${policy.context} tokens (policy.model.context)`,
    );
  return createFeatureExtractor(rewardModelFeatures(cfg), { tokenizer: policy.tokenizer, maxTokens });
}

/** Load a model saved with {@link RewardModel.save}. */
export async function loadRewardModel(dir: string): Promise<RewardModel> {
  const { json, tensors } = await readModelFiles(dir);
  const kind = Object.hasOwn(REWARD_MODEL_KINDS, String(json.kind))
    ? REWARD_MODEL_KINDS[json.kind as RewardModelKindName]
    : undefined;
  if (!kind)
    throw new AnchorError(
      'BAD_MODEL',
      `${join(dir, 'model.json')}: unknown reward model kind ${JSON.stringify(json.kind)}; expected one of ${Object.keys(REWARD_MODEL_KINDS).join(', ')}`,
    );
  return kind.load(json.options, tensors, json);
}
