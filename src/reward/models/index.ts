/**
 * Reward models: construction from config, loading, and the shared ridge math.
 */
export { rewardModelSchema } from './config.ts';
export { createRewardModel, loadRewardModel } from './kinds.ts';
