/**
 * Reward-model config (`reward_model:` in a run config). Owned here; src/train/run-config.ts
 * composes it into the run config schema.
 */
import { z } from 'zod';

/** The feature-based reward-model kinds (a learned judge may use these). */
export const FEATURE_MODEL_KIND_NAMES = ['ridge', 'mlp'] as const;
/** The reward-model kinds (their classes: ./kinds.ts). */
export const REWARD_MODEL_KIND_NAMES = [...FEATURE_MODEL_KIND_NAMES, 'transformer'] as const;
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

/** Transformer-RM settings (`reward_model.transformer`). */
export const transformerConfigSchema = z
  .object({
    heads: z
      .number()
      .int()
      .positive()
      .default(4)
      .describe(
        'Scalar heads K on the pooled state; the prediction is their mean and, with K ≥ 2 (each head on its own Poisson bootstrap weights), their spread is the uncertainty conservative rewards and uncertainty settlement use (the committee).',
      ),
    train_layers: z
      .number()
      .int()
      .nonnegative()
      .default(1)
      .describe('Top transformer blocks of the policy trunk trained with the heads (0: only the final LayerNorm and the heads).'),
    pool: z
      .enum(['mean', 'last'])
      .default('last')
      .describe(
        'Pooling of the final hidden states: the last token (which attends to the whole program, as RLHF reward models read it) or the mean over the tokens.',
      ),
    epochs: z.number().int().positive().default(2).describe('Epochs of the initial fit on the base-policy labels.'),
    refit_epochs: z.number().int().positive().default(2).describe('Epochs of each refit (new labels plus the replay).'),
    lr: z.number().positive().default(3e-4).describe('Adam learning rate (fresh optimizer per fit and refit).'),
    batch_size: z.number().int().positive().default(32).describe('Programs per minibatch (and per inference batch).'),
    pairwise: z
      .number()
      .nonnegative()
      .default(0)
      .describe(
        'Weight μ of the within-group pairwise term μ·mean −log σ(s_better − s_worse) over same-group pairs with different labels (0: MSE only).',
      ),
    replay: z
      .number()
      .int()
      .nonnegative()
      .default(64)
      .describe('Base-policy labels replayed (drawn afresh, seeded) in each refit next to the new labels.'),
    fast: z
      .boolean()
      .default(true)
      .describe(
        "Compute only what the score needs: each labelled program's frozen lower blocks (below `train_layers`) run once, on the program alone, and their output is kept for every later epoch and refit; with `pool: last` the last block runs at the last token only (keys and values still at every token). The same model up to float rounding (sums over fewer rows), not bit for bit: `false` runs the whole trunk on every batch, as runs made before this option did (their saved models keep it).",
      ),
    max_tokens: z
      .number()
      .int()
      .positive()
      .nullable()
      .default(null)
      .describe('Tokens of prompt + program the RM reads, the last ones kept (null: the policy context).'),
  })
  .strict();

/** `reward_model:` block. */
export const rewardModelSchema = z
  .object({
    kind: z
      .enum(REWARD_MODEL_KIND_NAMES)
      .default('ridge')
      .describe(
        "Model class: `ridge` (linear, closed form), `mlp` (small neural network), or `transformer` (the base policy's own trunk with scalar heads; reads the policy's tokens, so `features` is not used; built-in GPT policies only).",
      ),
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
    seed: z
      .number()
      .int()
      .default(0)
      .describe("Seed of the model's own random streams (initialisation, bootstrap weights, batch order)."),
    mlp: mlpConfigSchema.default(mlpConfigSchema.parse({})).describe('Settings of the `mlp` kind.'),
    transformer: transformerConfigSchema
      .default(transformerConfigSchema.parse({}))
      .describe('Settings of the `transformer` kind.'),
  })
  .strict();

/** The feature extractor a reward model reads: the policy's tokens for the transformer, else `features`. */
export function rewardModelFeatures(cfg: Pick<RewardModelConfig, 'kind' | 'features'>): string {
  return cfg.kind === 'transformer' ? POLICY_TOKENS_FEATURES : cfg.features;
}

/** The feature extractor of the transformer kind: the policy tokenizer's ids. */
const POLICY_TOKENS_FEATURES = 'policy-tokens';

/** A reward-model config (what the models are built from). */
export type RewardModelConfig = z.infer<typeof rewardModelSchema>;

/** The run config's `reward_model:` block: the model's config, whose seed may be `run`. */
export const rewardModelBlockSchema = rewardModelSchema.extend({
  seed: z
    .union([z.number().int(), z.literal('run')])
    .default(0)
    .describe(
      "Seed of the RM's own random streams (MLP and transformer initialisation, bootstrap weights, replay and batch order; the bootstrap members of a committee use seed + 1 + m): an integer, the same for every run seed (default 0), or `run` to use the run's `seed`, so that each seed of a sweep also draws its own RM initialisation and bootstrap. The initial labelled sample is drawn from the run seed either way.",
    ),
});

/** Parsed transformer settings. */
export type TransformerConfig = z.infer<typeof transformerConfigSchema>;

/** Parsed MLP settings. */
export type MlpConfig = z.infer<typeof mlpConfigSchema>;
