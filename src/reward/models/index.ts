/**
 * Reward models: construction from config, loading, and the shared ridge math.
 */
export type { RewardModel, FeatureRows } from './types.ts';
export { rewardModelSchema, type RewardModelConfig } from './config.ts';
export { RidgeRewardModel } from './ridge.ts';
export { MlpRewardModel } from './mlp.ts';
export { createRewardModel, loadRewardModel, REWARD_MODEL_KINDS, type ModelSettings, type RewardModelKind } from './kinds.ts';
export { committeeDisagreement, type CommitteeOptions } from './committee.ts';
export { fitRidgeF64, predictLinear, type LinearFit } from './ridge-math.ts';
