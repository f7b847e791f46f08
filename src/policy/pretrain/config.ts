/**
 * `anchor-rl pretrain` config: supervised next-token training of the base policy on a task
 * family's (prompt, reference) pairs. Strict zod schema; every field defaulted.
 */
import { z } from 'zod';
import { policyModelSchema } from '../gpt-config.ts';
import { lrScheduleSchema, optimizerConfigSchema } from '../optimizer-config.ts';
import { sandboxConfigSchema } from '../../sandbox/config.ts';

/**
 * The optimizer block with pretraining's defaults (higher lr, warmup, cosine decay). When
 * `total_steps` is omitted the decay spans `train.steps`.
 */
const pretrainOptimizerSchema = optimizerConfigSchema
  .extend({
    lr: z.number().positive().default(3e-3),
    weight_decay: z.number().min(0).default(0.01),
    warmup_steps: z.number().int().min(0).default(20),
    schedule: lrScheduleSchema.default('cosine'),
    total_steps: z.number().int().min(1).optional(),
  })
  .strict();

/** Pretraining config (YAML, snake_case). */
export const pretrainConfigSchema = z
  .object({
    seed: z.number().int().default(0),
    task: z
      .object({
        /** A task family from src/tasks (`anchor-rl datasets` lists them). */
        family: z.string().min(1).default('synthetic-js'),
        /** Seed of the problem generator (train and eval splits are disjoint by construction). */
        split_seed: z.number().int().default(1),
        /** Training problems. */
        train: z.number().int().min(1).default(2000),
        /** Held-out problems for loss and executed pass rate. */
        eval: z.number().int().min(1).default(100),
        /** Extra family knobs passed to the generator. */
        options: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .prefault({}),
    model: policyModelSchema.prefault({}),
    train: z
      .object({
        /**
         * Optimizer steps: the pretraining budget (more steps, higher base pass rate). 600 measured an
         * executed pass rate of 0.15 on 100 held-out synthetic-js problems (0.05 at 300-400, 0.11 at 500).
         */
        steps: z.number().int().min(0).default(600),
        batch_size: z.number().int().min(1).default(32),
        /**
         * Also train on prompt tokens (weight relative to completion tokens; 0 = completion only).
         * 0.5 measured lower held-out completion loss than 0 at equal steps (0.41 vs 0.51 nats/char at 300).
         */
        prompt_loss_weight: z.number().min(0).max(1).default(0.5),
        /** Held-out loss every N steps (0 = only at the end). */
        eval_every: z.number().int().min(0).default(100),
        optimizer: pretrainOptimizerSchema.prefault({}),
      })
      .strict()
      .prefault({}),
    eval: z
      .object({
        /** Held-out problems decoded and executed for the pass rate (<= task.eval). */
        problems: z.number().int().min(0).default(100),
        max_new_tokens: z.number().int().min(1).default(48),
        /** 0 = greedy. */
        temperature: z.number().min(0).default(0),
        batch_size: z.number().int().min(1).default(50),
        /** Also measure the executed pass rate at every `train.eval_every` checkpoint (costs decode + sandbox time). */
        pass_rate_every_eval: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /** The settlement sandbox that executes held-out completions (src/sandbox). */
    sandbox: sandboxConfigSchema.prefault({}),
    /** Checkpoint directory written at the end (atomically). */
    output: z.string().min(1).default('runs/.cache/base-synthetic-js'),
  })
  .strict();

/** Parsed pretraining config. */
export type PretrainConfig = z.infer<typeof pretrainConfigSchema>;
