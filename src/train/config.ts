/**
 * Config schemas owned by the training driver: GRPO, settlement windows, gold metrics,
 * in-training evaluation, checkpoints. Defaults follow the reference study (DESIGN.md).
 */
import { z } from 'zod';
import { STRATEGY_NAMES } from './settlement.ts';

/** GRPO hyper-parameters. */
export const grpoConfigSchema = z
  .object({
    steps: z.number().int().min(1).default(200),
    prompts_per_step: z.number().int().min(1).default(8),
    group_size: z.number().int().min(2).default(8),
    lr: z.number().positive().max(1).default(3e-4),
    lr_schedule: z.enum(['constant', 'cosine', 'linear']).default('constant'),
    warmup_steps: z.number().int().min(0).default(0),
    grad_clip: z.number().positive().default(1.0),
    beta: z.number().min(0).default(0.02),
    clip: z
      .object({ low: z.number().min(0).max(1).default(0.2), high: z.number().min(0).default(0.2) })
      .strict()
      .prefault({}),
    scale_rewards: z.enum(['group', 'batch', 'none']).default('group'),
    loss: z.enum(['grpo', 'bnpo', 'dapo', 'dr_grpo']).default('grpo'),
    inner_iterations: z.number().int().min(1).default(1),
    eps: z.number().positive().default(1e-4),
  })
  .strict();

/** Settlement: how often and how much of a window is executed (or judged) to refit the RM. */
export const settlementConfigSchema = z
  .object({
    every: z.number().int().min(1).default(25),
    rate: z.number().min(0).max(1).default(0.1),
    /** Which claims of a window to settle (registry in ./settlement.ts). */
    strategy: z.enum(STRATEGY_NAMES).default('random'),
    /**
     * Weight of each settled (on-policy) label against an initial base-policy label (weight 1) in
     * the RM's weighted least squares — a real per-label weight, not copies (ridge RMs).
     */
    label_weight: z.number().positive().max(1000).default(1),
    /**
     * Recency decay of settled labels, as a half-life in settlement windows: a label settled a
     * windows before the newest weighs label_weight × 2^(−a/half_life). null = no decay (ridge RMs).
     */
    half_life: z.number().positive().nullable().default(null),
    /**
     * Refit objective: `regression` (squared error on each label) or `pairwise` — plus a
     * within-group ranking term Σ ((ŷ_i − ŷ_j) − (y_i − y_j))² over the settled completions of
     * one GRPO group, weighted `pairwise_weight` per pair (ridge RMs; pair it with `strategy: groups`).
     */
    objective: z.enum(['regression', 'pairwise']).default('regression'),
    /** μ: weight of one within-group pair's squared difference error (objective `pairwise`). */
    pairwise_weight: z.number().min(0).default(1),
    /** The bootstrap committee of the `uncertainty` strategy. */
    committee: z
      .object({ members: z.number().int().min(2).max(64).default(5) })
      .strict()
      .prefault({}),
    adaptive: z
      .object({
        enabled: z.boolean().default(false),
        /**
         * What raises σ: `drift` (mean |RM − label| of the settled sample above `tau`) or `gao` —
         * the settled-label early warning: a Gao et al. RL curve fitted to (√KL, mean settled gold)
         * per window says the policy is past its peak (the fitted slope at the current √KL < 0).
         */
        signal: z.enum(['drift', 'gao']).default('drift'),
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
