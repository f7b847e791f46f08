/**
 * Reward models: construction from config, loading, and the shared ridge math.
 */
import type { RewardModelConfig } from './config.ts';
import { MlpRewardModel } from './mlp.ts';
import { RidgeRewardModel } from './ridge.ts';
import type { RewardModel } from './types.ts';

export type { RewardModel, FeatureRows } from './types.ts';
export { rewardModelSchema, type RewardModelConfig } from './config.ts';
export { RidgeRewardModel } from './ridge.ts';
export { MlpRewardModel } from './mlp.ts';
export { loadRewardModel } from './persist.ts';
export { committeeDisagreement, type CommitteeOptions } from './committee.ts';
export { fitRidgeF64, predictLinear, type LinearFit } from './ridge-math.ts';

/** A fresh (unfitted) reward model for a parsed `reward_model` config. Call initTf() first. */
export function createRewardModel(cfg: RewardModelConfig): RewardModel {
  if (cfg.kind === 'ridge') return new RidgeRewardModel({ alpha: cfg.alpha, standardize: cfg.standardize });
  return new MlpRewardModel({
    hidden: cfg.mlp.hidden,
    epochs: cfg.mlp.epochs,
    lr: cfg.mlp.lr,
    batchSize: cfg.mlp.batch_size,
    weightDecay: cfg.mlp.weight_decay,
    seed: cfg.seed,
  });
}
