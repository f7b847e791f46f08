/**
 * Reward models: construction from config, loading, and the shared ridge math.
 */
export { rewardModelSchema } from './config.ts';
export { createRewardFeatures, createRewardModel, loadRewardModel } from './kinds.ts';
