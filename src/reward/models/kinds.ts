/**
 * The reward-model kinds: one registry entry per kind, with how to build a fresh model from
 * settings and how to rebuild a saved one. Every place that chooses a kind — the run's RM, the
 * learned judge, the committee, loading a checkpoint — goes through this registry.
 */
import { join } from 'node:path';
import { AnchorError } from '../../util/errors.ts';
import type { MlpConfig, RewardModelConfig, RewardModelKindName } from './config.ts';
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
};

/** A fresh (unfitted) reward model for a parsed `reward_model` config. Call initTf() first. */
export function createRewardModel(cfg: RewardModelConfig): RewardModel {
  return REWARD_MODEL_KINDS[cfg.kind].create(cfg);
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
