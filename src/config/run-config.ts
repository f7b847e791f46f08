/**
 * The run config: one YAML file describing a multi-arm GRPO run. Each section's schema and
 * defaults are owned by its component; this module only composes them.
 */
import { z } from 'zod';
import { policyModelSchema } from '../policy/gpt-config.ts';
import { pretrainConfigSchema } from '../policy/pretrain/config.ts';
import { judgeSchema } from '../reward/judges/config.ts';
import { rewardModelSchema } from '../reward/models/config.ts';
import { escalationConfigSchema, gateConfigSchema } from '../gate/config.ts';
import { sandboxConfigSchema } from '../sandbox/config.ts';
import {
  checkpointConfigSchema,
  evalConfigSchema,
  grpoConfigSchema,
  metricsConfigSchema,
  settlementConfigSchema,
} from '../train/config.ts';
import { armsConfigSchema, resolveArms } from '../train/arms.ts';
import { proxyConfigSchema } from '../train/proxy-reward.ts';
import { taskFamilyConfigSchema } from '../tasks/config.ts';
import { loadConfig } from './load.ts';

/** Where problems come from: a built-in task family or a dataset file. */
export const taskConfigSchema = z.union([
  taskFamilyConfigSchema,
  z
    .object({
      dataset: z.string().min(1),
      format: z.string().optional(),
      eval_dataset: z.string().optional(),
      eval_fraction: z.number().min(0).max(1).default(0.1),
    })
    .strict(),
]);

/** Sampling settings for rollouts. */
export const samplingConfigSchema = z
  .object({
    temperature: z.number().min(0).default(1.0),
    top_p: z.number().gt(0).max(1).default(1.0),
    top_k: z.number().int().min(0).default(0),
    max_new_tokens: z.number().int().min(1).default(48),
  })
  .strict();

/** The policy: a native model (trained from a pretrained base) or a bring-your-own ONNX export. */
export const policyConfigSchema = z
  .object({
    model: policyModelSchema.prefault({}),
    onnx: z.string().optional(),
    base: z.string().default('runs/.cache/base-synthetic-js'),
    /** Pretraining budget used when `base` is missing (the `train:` block of configs/pretrain.yaml). */
    pretrain: pretrainConfigSchema.shape.train.prefault({}),
    sampling: samplingConfigSchema.prefault({}),
  })
  .strict();

/**
 * The gate (`gate:`, used by gated arms). `escalation.base_settlement_rate` has no default here:
 * unset, it follows `settlement.rate` (resolved where the gate is built, so an arm overlay that
 * changes `settlement.rate` carries over too).
 */
export const runGateConfigSchema = gateConfigSchema.extend({
  escalation: escalationConfigSchema.extend({ base_settlement_rate: z.number().positive().max(1).optional() }).prefault({}),
});

/** The whole run config. */
export const runConfigSchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, 'letters, digits, _ . - only').default('default'),
    seed: z.number().int().min(0).default(0),
    task: taskConfigSchema.prefault({}),
    policy: policyConfigSchema.prefault({}),
    grpo: grpoConfigSchema.prefault({}),
    reward_model: rewardModelSchema.prefault({}),
    judge: judgeSchema.prefault({ kind: 'learned' }),
    settlement: settlementConfigSchema.prefault({}),
    proxy: proxyConfigSchema.prefault({}),
    sandbox: sandboxConfigSchema.prefault({}),
    metrics: metricsConfigSchema.prefault({}),
    eval: evalConfigSchema.prefault({}),
    checkpoint: checkpointConfigSchema.prefault({}),
    gate: runGateConfigSchema.prefault({}),
    arms: armsConfigSchema,
    concurrency: z.number().int().min(1).default(1),
  })
  .strict();

/** A validated run config. */
export type RunConfig = z.output<typeof runConfigSchema>;

/** Load a run config file (or the embedded defaults) with `--set` overrides. */
export function loadRunConfig(path: string | undefined, sets: readonly string[] = []): RunConfig {
  const config = loadConfig(runConfigSchema, path, sets);
  resolveArms(config.arms); // unknown arm names are config errors, caught before any work
  return config;
}
