/**
 * Reward-model config (`reward_model:` in a run config). Owned here; src/config/run-config.ts
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
    /** Hidden layer widths (ReLU). */
    hidden: z.array(z.number().int().positive()).default([64]),
    epochs: z.number().int().positive().default(200),
    lr: z.number().positive().default(0.003),
    batch_size: z.number().int().positive().default(256),
    /** L2 penalty on the weights (not biases), added to the mean squared error. */
    weight_decay: z.number().nonnegative().default(0.0001),
  })
  .strict();

/** `reward_model:` block. */
export const rewardModelSchema = z
  .object({
    kind: z.enum(REWARD_MODEL_KIND_NAMES).default('ridge'),
    /** Ridge penalty α (intercept unpenalised). */
    alpha: z.number().nonnegative().default(1.0),
    /** Divide features by their standard deviation before fitting (ridge); the MLP always standardises. */
    standardize: z.boolean().default(false),
    /** Feature extractor name from the registry (js-surface, js-ast, dsl6, richdsl-weak, richdsl-strong). */
    features: z.string().default('js-surface'),
    /** Executed base-policy samples the initial RM is fitted on. */
    initial_samples: z.number().int().positive().default(1600),
    /** Seed for the MLP's initialisation and batch order. */
    seed: z.number().int().default(0),
    mlp: mlpConfigSchema.default(mlpConfigSchema.parse({})),
  })
  .strict();

/** Parsed reward-model config. */
export type RewardModelConfig = z.infer<typeof rewardModelSchema>;

/** Parsed MLP settings. */
export type MlpConfig = z.infer<typeof mlpConfigSchema>;
