/**
 * Config schemas owned by the training driver: GRPO, settlement windows, gold metrics,
 * in-training evaluation, checkpoints. Defaults follow the reference study (docs/design.md).
 */
import { z } from 'zod';
import { lrScheduleSchema, optimizerConfigSchema, type OptimizerConfig } from '../policy/optimizer-config.ts';
import { STRATEGY_NAMES } from './settlement.ts';

/** Advantage estimators (./grpo.ts): group mean baseline, leave-one-out baseline, REINFORCE++. */
export const ADVANTAGE_ESTIMATORS = ['grpo', 'rloo', 'reinforce_pp'] as const;

const opt = optimizerConfigSchema.shape;

/** GRPO hyper-parameters (the optimizer keys are the optimizer schema's, src/policy/optimizer.ts). */
export const grpoConfigSchema = z
  .object({
    steps: z.number().int().min(1).default(200),
    prompts_per_step: z.number().int().min(1).default(8),
    group_size: z.number().int().min(2).default(8),
    /** Adam learning rate. */
    lr: opt.lr,
    /** Schedule after warmup; cosine and linear decay toward 0.1 × lr over the run's optimizer steps. */
    lr_schedule: lrScheduleSchema.default('constant'),
    /** Optimizer steps of linear warmup (there are steps × inner_iterations optimizer steps in a run, more with gate re-passes rolled back). */
    warmup_steps: opt.warmup_steps,
    /** Clip gradients to this global L2 norm; 0 disables clipping. */
    grad_clip: opt.grad_clip,
    beta: z.number().min(0).default(0.02),
    clip: z
      .object({ low: z.number().min(0).max(1).default(0.2), high: z.number().min(0).default(0.2) })
      .strict()
      .prefault({}),
    scale_rewards: z.enum(['group', 'batch', 'none']).default('group'),
    loss: z.enum(['grpo', 'bnpo', 'dapo', 'dr_grpo']).default('grpo'),
    inner_iterations: z.number().int().min(1).default(1),
    eps: z.number().positive().default(1e-4),
    /**
     * Advantage estimator: `grpo` (reward minus the group mean, scaled by `scale_rewards`),
     * `rloo` (minus the mean of the group's other members, scaled by `scale_rewards`; `none`
     * gives the plain RLOO estimator), `reinforce_pp` (REINFORCE++: per-token advantage = reward
     * − β·(k1 KL to the reference still to come), whitened over the batch's tokens; β then acts
     * in the reward and the loss has no KL term; `scale_rewards` is not used). Default `grpo`.
     */
    advantage: z.enum(ADVANTAGE_ESTIMATORS).default('grpo'),
    /**
     * Importance ratio of the clipped surrogate: `token` (GRPO/DAPO, default) or `sequence`
     * (GSPO: one ratio per completion, the geometric mean of its token ratios, clipped with
     * `clip.low`/`clip.high` — GSPO's paper uses ranges of about 3e-4/4e-4).
     */
    importance_level: z.enum(['token', 'sequence']).default('token'),
    /**
     * DAPO dynamic sampling: drop the groups whose training rewards are all equal (no signal)
     * and sample `prompts_per_step` more prompts, at most `max_rounds` extra rounds per step,
     * until `prompts_per_step` groups with signal are collected (short after the cap: filled
     * with dropped groups). Extra rounds and dropped groups are logged (`sampling/*`).
     */
    dynamic_sampling: z
      .object({
        enabled: z.boolean().default(false),
        max_rounds: z.number().int().min(1).max(32).default(3),
      })
      .strict()
      .prefault({}),
    /**
     * DAPO overlong reward shaping: a penalty falling linearly from 0 to −`penalty` over the last
     * `buffer` tokens before `policy.sampling.max_new_tokens` (tokens; 0 = off), added to the
     * training reward; `mask_truncated` drops completions cut at max_new_tokens from the loss
     * (they still count in their group's advantage statistics, as in TRL).
     */
    overlong: z
      .object({
        buffer: z.number().int().min(0).default(0),
        penalty: z.number().min(0).default(1),
        mask_truncated: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /**
     * Truncated importance sampling for the rollout/trainer mismatch: the surrogate of each token
     * is weighted by min(π_train/π_rollout, `cap`) (π_rollout: ONNX Runtime's log-prob, π_train:
     * tfjs's at the same weights). Off by default; `rollout/mismatch_kl` is logged either way.
     */
    tis: z
      .object({
        enabled: z.boolean().default(false),
        cap: z.number().min(1).default(2),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** A parsed `grpo:` block. */
export type GrpoConfig = z.output<typeof grpoConfigSchema>;

/** The optimizer config of a GRPO block: its schedule spans the run's optimizer steps (steps × inner_iterations). */
export function grpoOptimizerConfig(g: GrpoConfig): Partial<OptimizerConfig> {
  return { lr: g.lr, grad_clip: g.grad_clip, warmup_steps: g.warmup_steps, schedule: g.lr_schedule, total_steps: g.steps * g.inner_iterations };
}

/** Settlement: how often and how much of a window is executed (or judged) to refit the RM. */
export const settlementConfigSchema = z
  .object({
    every: z.number().int().min(1).default(25),
    rate: z.number().min(0).max(1).default(0.1),
    /** Which claims of a window to settle (registry in ./settlement.ts). */
    strategy: z.enum(STRATEGY_NAMES).default('random'),
    /**
     * Copies of each settled label in the RM's training set: an integer importance weight of the
     * fresh on-policy labels against the initial base-policy ones (1 = the reference study's plain
     * append; for ridge, exactly weighted least squares).
     */
    label_weight: z.number().int().min(1).max(100).default(1),
    /** The bootstrap committee of the `uncertainty` strategy. */
    committee: z
      .object({ members: z.number().int().min(2).max(64).default(5) })
      .strict()
      .prefault({}),
    adaptive: z
      .object({
        enabled: z.boolean().default(false),
        tau: z.number().min(0).default(0.15),
        max_rate: z.number().min(0).max(1).default(0.4),
        growth: z.number().min(1).default(2),
        rm_weight: z.number().min(0).max(1).default(0.5),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** Which rollouts are executed for the gold metrics (never for training, except the execution arm). */
export const metricsConfigSchema = z
  .object({
    gold: z.enum(['all', 'settled']).default('all'),
    /** Steps in the rolling mean of the on-policy soundness `monitor/snd_g` (`monitor/snd_g_rolling`). */
    snd_window: z.number().int().min(1).default(10),
    /**
     * Alarm thresholds `compare` uses for lead times (never used in training): drift at a refit
     * above `drift`, rolling Snd@G below `snd`, proxy–label rank correlation of the settled sample
     * below `rank`. Fixed before looking at any run, not tuned on one.
     */
    alarms: z
      .object({
        drift: z.number().min(0).default(0.15),
        snd: z.number().min(0).max(1).default(0.5),
        rank: z.number().min(-1).max(1).default(0.2),
      })
      .strict()
      .prefault({}),
  })
  .strict();

/** Held-out evaluation during training. */
export const evalConfigSchema = z
  .object({
    every: z.number().int().min(0).default(50),
    problems: z.number().int().min(1).default(100),
    samples: z.number().int().min(1).default(4),
  })
  .strict();

/** Checkpointing. */
export const checkpointConfigSchema = z
  .object({
    every: z.number().int().min(1).default(25),
    keep: z.number().int().min(1).default(2),
  })
  .strict();
