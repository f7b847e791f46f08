/**
 * Reward-model config (`reward_model:` in a run config). Owned here; src/train/run-config.ts
 * composes it into the run config schema.
 */
import { z } from 'zod';

/** The reward-model kinds (their classes: ./kinds.ts). */
export const REWARD_MODEL_KIND_NAMES = ['ridge', 'mlp'] as const;
/** A reward-model kind. */
export type RewardModelKindName = (typeof REWARD_MODEL_KIND_NAMES)[number];

/** MLP-specific settings. */
export const mlpConfigSchema = z
  .object({
    hidden: z.array(z.number().int().positive()).default([64]).describe('Hidden layer widths (ReLU).'),
    epochs: z.number().int().positive().default(200).describe('Training epochs per fit.'),
    lr: z.number().positive().default(0.003).describe('Adam learning rate.'),
    batch_size: z.number().int().positive().default(256).describe('Rows per minibatch.'),
    weight_decay: z
      .number()
      .nonnegative()
      .default(0.0001)
      .describe('L2 penalty on the weights (not biases), added to the mean squared error.'),
  })
  .strict();

/** `reward_model:` block. */
export const rewardModelSchema = z
  .object({
    kind: z
      .enum(REWARD_MODEL_KIND_NAMES)
      .default('ridge')
      .describe('Model class: `ridge` (linear, closed form) or `mlp` (small neural network).'),
    alpha: z.number().nonnegative().default(1.0).describe('Ridge penalty α (intercept unpenalised).'),
    standardize: z
      .boolean()
      .default(false)
      .describe('Divide features by their standard deviation before fitting (ridge); the MLP always standardises.'),
    features: z
      .string()
      .default('js-surface')
      .describe('Feature extractor name from the registry (js-surface, js-ast, dsl6, richdsl-weak, richdsl-strong).'),
    initial_samples: z
      .number()
      .int()
      .positive()
      .default(1600)
      .describe('Executed base-policy samples the initial RM is fitted on.'),
    seed: z.number().int().default(0).describe("Seed for the MLP's initialisation and batch order."),
    mlp: mlpConfigSchema.default(mlpConfigSchema.parse({})).describe('Settings of the `mlp` kind.'),
  })
  .strict();

/** Parsed reward-model config. */
export type RewardModelConfig = z.infer<typeof rewardModelSchema>;

/** Parsed MLP settings. */
export type MlpConfig = z.infer<typeof mlpConfigSchema>;
