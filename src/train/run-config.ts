/**
 * The run config: one YAML file describing a multi-arm GRPO run. Each section's schema and
 * defaults are owned by its component; this module only composes them.
 */
import { z } from 'zod';
import { policyModelSchema } from '../policy/gpt-config.ts';
import { loraSchema } from '../policy/hf/lora.ts';
import { promptFormatSchema } from '../policy/tokenizer/prompt-format.ts';
import { pretrainConfigSchema } from './pretrain/config.ts';
import { judgeSchema } from '../reward/judges/config.ts';
import { type RewardModelConfig, rewardModelBlockSchema } from '../reward/models/config.ts';
import { sandboxConfigSchema } from '../sandbox/config.ts';
import {
  checkpointConfigSchema,
  evalConfigSchema,
  grpoConfigSchema,
  loggingConfigSchema,
  metricsConfigSchema,
  proxyConfigSchema,
  runGateConfigSchema,
  samplingConfigSchema,
  settlementConfigSchema,
} from './config.ts';
import { type ArmSpec, armsConfigSchema, resolveArms } from './arms.ts';
import { taskFamilyConfigSchema } from '../tasks/config.ts';
import { canaryConfigSchema } from '../tasks/canaries.ts';
import { goldWatchConfigSchema } from './gold-watch-config.ts';
import { DATASET_NAMES, isDatasetName } from '../datasets/catalog.ts';
import { loadConfig } from '../config/load.ts';
import { deepMerge } from '../config/overrides.ts';
import { type ConfigPathKey, holder } from '../config/paths.ts';
import { dirNameSchema, parseConfig } from '../config/validate.ts';

/** Where problems come from: a built-in task family or a dataset file. */
const taskConfigSchema = z.union([
  taskFamilyConfigSchema,
  z
    .object({
      dataset: z
        .string()
        .min(1)
        .describe(
          `A published dataset by name (${DATASET_NAMES.join(', ')}; \`anchor-rl datasets fetch NAME\` caches it) or the path of a dataset file (relative to the config file).`,
        ),
      format: z.string().optional().describe('Dataset format; detected from the file when unset.'),
      eval_dataset: z
        .string()
        .optional()
        .describe('Separate dataset (a name or a file) for held-out evaluation; unset = split off eval_fraction of `dataset`.'),
      eval_fraction: z
        .number()
        .min(0)
        .max(1)
        .default(0.1)
        .describe('Fraction of `dataset` held out for evaluation when there is no eval_dataset.'),
    })
    .strict(),
]);

/** The policy: a native model (trained from a pretrained base) or a bring-your-own ONNX export. */
const policyConfigSchema = z
  .object({
    model: policyModelSchema
      .prefault({})
      .describe('The policy model: the built-in GPT (its shape must match the base checkpoint) or a Hugging Face directory.'),
    lora: loraSchema
      .nullish()
      .describe('Low-rank adapters on a frozen base (Hugging Face GPT-2 and Llama-family models); absent = full fine-tuning.'),
    prompt: promptFormatSchema
      .prefault({})
      .describe("How problem prompts become model input: as they are, or through the model's chat template."),
    onnx: z
      .string()
      .optional()
      .describe('Directory of a bring-your-own ONNX causal LM (rollouts and evaluation only; training needs a native model).'),
    base: z
      .string()
      .default('models/base-synthetic-js')
      .describe(
        "Checkpoint directory of the pretrained base policy; pretrained with `pretrain` and cached there when missing. Relative to the config file when it exists there, else to the working directory (where a missing base is pretrained); the default is the package's shipped base for the default model and task.",
      ),
    pretrain: pretrainConfigSchema.shape.train
      .prefault({})
      .describe('Pretraining budget used when `base` is missing (the `train:` block of configs/pretrain.yaml).'),
    sampling: samplingConfigSchema.prefault({}).describe('Sampling settings for rollouts.'),
  })
  .strict();

/** The whole run config. */
export const runConfigSchema = z
  .object({
    name: dirNameSchema
      .default('default')
      .describe("The run's name: its directory under runs/ (letters, digits, _ . -; not . or ..)."),
    seed: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Seed of every random stream of the run (policy sampling, RM, settlement choice).'),
    task: taskConfigSchema
      .prefault({})
      .describe('Where problems come from: a built-in task family (`family:`) or a dataset file (`dataset:`).'),
    policy: policyConfigSchema
      .prefault({})
      .describe('The policy: a native model trained from a pretrained base, or a bring-your-own ONNX export.'),
    grpo: grpoConfigSchema.prefault({}).describe('GRPO hyper-parameters.'),
    reward_model: rewardModelBlockSchema
      .prefault({})
      .describe('The learned reward model (RM) the anchored arms train against and refit at settlement.'),
    judge: judgeSchema
      .prefault({ kind: 'learned' })
      .describe(
        "The judge arm's labeller: `learned` (a second model on other features), `lm` (an ONNX LM asked yes/no) or `http` (an OpenAI-compatible endpoint).",
      ),
    settlement: settlementConfigSchema
      .prefault({})
      .describe('Settlement: how often and how much of a window is executed (or judged) to refit the RM.'),
    proxy: proxyConfigSchema
      .prefault({})
      .describe(
        "How the RM's score becomes the training reward of RM arms: a conservative ensemble (Coste et al.) and PAR's bounded shaping.",
      ),
    sandbox: sandboxConfigSchema.prefault({}).describe('Where and under which limits programs are executed.'),
    metrics: metricsConfigSchema.prefault({}).describe('Gold metrics and the alarm thresholds of `compare`.'),
    eval: evalConfigSchema.prefault({}).describe('Held-out evaluation during training.'),
    checkpoint: checkpointConfigSchema.prefault({}).describe('Checkpointing.'),
    logging: loggingConfigSchema.prefault({}).describe('Extra logs other tools read (TensorBoard event files).'),
    canaries: canaryConfigSchema
      .prefault({})
      .describe(
        'Canary tasks (docs/gold-watch.md): a share of prompts also executed against impossible variants of their tests; any pass is a tamper. Off by default; an arm overlay may set its own.',
      ),
    gold_watch: goldWatchConfigSchema
      .prefault({})
      .describe('Watching executed gold (docs/gold-watch.md): both verdict modes per executed rollout.'),
    gate: runGateConfigSchema
      .prefault({})
      .describe('The pre-action gate of gated arms: oracle invariants, simulator, critic, risk budget and escalation.'),
    arms: armsConfigSchema.describe(
      'The arms to train: registry names (frozen, anchored, execution, judge, gated, ...) or inline definitions `{name, extends, overlay, ...}`.',
    ),
    concurrency: z.number().int().min(1).default(1).describe('Arms trained at the same time, each in its own process.'),
  })
  .strict()
  .superRefine((c, ctx) => {
    // DAPO's soft overlong window lies inside the completion budget: a buffer of the whole budget
    // or more would punish every completion, however short.
    const { buffer } = c.grpo.overlong;
    const max = c.policy.sampling.max_new_tokens;
    if (buffer >= max)
      ctx.addIssue({
        code: 'custom',
        path: ['grpo', 'overlong', 'buffer'],
        message: `expected less than policy.sampling.max_new_tokens (${max})`,
      });
  });

/** A validated run config. */
export type RunConfig = z.output<typeof runConfigSchema>;

/** The run's reward-model config, its seed resolved (`reward_model.seed: run` is the run's seed). */
export function runRewardModelConfig(config: Pick<RunConfig, 'seed' | 'reward_model'>): RewardModelConfig {
  const rm = config.reward_model;
  return { ...rm, seed: rm.seed === 'run' ? config.seed : rm.seed };
}

/**
 * Options added with a default that is not what the versions before them did, each with the value
 * that is. A config recorded before such an option existed (a run's manifest.json, a sweep's
 * record) is read with that value, so `resume` and a sweep's rerun keep what the run trained with.
 * Every other option reproduced the earlier behaviour by default when it was added (off, or the
 * old constant), so a recorded config read through today's schema needs nothing for it; an option
 * whose default changes what is trained must add an entry here.
 */
const RECORDED_BEFORE: ReadonlyArray<{ key: readonly string[]; value: unknown }> = [
  // c969d84: before grpo.length_buckets every row of a step was padded to the step's longest completion.
  { key: ['grpo', 'length_buckets'], value: 1 },
];

/**
 * A recorded run config (resolved when it was written) as the versions that wrote it ran it: a copy
 * with the {@link RECORDED_BEFORE} options it predates set to their earlier behaviour. `filled`
 * lists them as `key = value`, for the log. Parse the result with {@link runConfigSchema}.
 */
export function recordedRunConfig(recorded: unknown): { config: unknown; filled: string[] } {
  const config = structuredClone(recorded);
  const filled: string[] = [];
  for (const { key, value } of RECORDED_BEFORE) {
    const h = holder(config, key);
    if (h && !Object.hasOwn(h.parent, h.last)) {
      h.parent[h.last] = value;
      filled.push(`${key.join('.')} = ${JSON.stringify(value)}`);
    }
  }
  return { config, filled };
}

/**
 * The config one arm of a recorded run trains with: the recorded config as its run ran it
 * ({@link recordedRunConfig}) with the arm's overlay; undefined when the run has no such arm.
 */
export function recordedArmConfig(recorded: unknown, armName: string): { config: RunConfig; arm: ArmSpec } | undefined {
  const run = recordedRunConfig(recorded).config;
  const arm = resolveArms(runConfigSchema.parse(run).arms).find((a) => a.name === armName);
  if (!arm) return undefined;
  // It parsed, so it is a mapping; the overlay merges into it as recorded (defaults not yet filled).
  return {
    config: parseConfig(runConfigSchema, deepMerge(run as Record<string, unknown>, arm.overlay), `arm ${arm.name} overlay`),
    arm,
  };
}

/** A dataset key: a path unless it names a published dataset. */
const datasetPath = (_: Record<string, unknown>, v: string) => (isDatasetName(v) ? null : 'input');

/**
 * The keys of a run config that hold paths (see ../config/paths.ts): inputs resolve against the
 * config file; a base policy or a random model written when missing is a cache.
 */
const RUN_CONFIG_PATHS: readonly ConfigPathKey[] = [
  { key: ['task', 'dataset'], kind: datasetPath },
  { key: ['task', 'eval_dataset'], kind: datasetPath },
  { key: ['policy', 'base'], kind: () => 'cache' },
  { key: ['policy', 'model', 'path'], kind: (m) => (m.random_if_missing === true ? 'cache' : 'input') },
  { key: ['policy', 'onnx'], kind: () => 'input' },
  { key: ['judge', 'model'], kind: (j) => (j.kind === 'lm' ? 'input' : null) },
];

/** Load a run config file (or the embedded defaults) with `--set` overrides. */
export function loadRunConfig(path: string | undefined, sets: readonly string[] = []): RunConfig {
  const config = loadConfig(runConfigSchema, path, sets, RUN_CONFIG_PATHS);
  // Unknown arm names and arm overlays the run config does not accept (each arm's process checks
  // its overlay the same way) are config errors, caught before any work.
  for (const arm of resolveArms(config.arms))
    parseConfig(runConfigSchema, deepMerge(config as unknown as Record<string, unknown>, arm.overlay), `arm ${arm.name} overlay`);
  return config;
}
