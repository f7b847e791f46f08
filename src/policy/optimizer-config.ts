/**
 * The optimizer's config schema and learning-rate schedule, apart from the optimizer so config
 * parsing does not load tfjs. Pretraining and GRPO both parse this schema.
 */
import { z } from 'zod';

/**
 * Learning-rate schedules after warmup: `constant` keeps `lr`; `cosine` and `linear` decay from
 * `lr` to `min_lr_ratio × lr` at `total_steps` (and stay there).
 */
export const LR_SCHEDULES = ['constant', 'cosine', 'linear'] as const;

/** A learning-rate schedule (shared by pretraining and GRPO). */
export const lrScheduleSchema = z.enum(LR_SCHEDULES);

/** Optimizer settings (YAML, snake_case); every field defaulted. Pretraining and GRPO both parse this schema. */
export const optimizerConfigSchema = z
  .object({
    lr: z.number().positive().default(3e-4).describe('Adam learning rate (peak, after warmup).'),
    beta1: z.number().min(0).max(1).default(0.9).describe('Adam decay rate of the first-moment estimate.'),
    beta2: z.number().min(0).max(1).default(0.999).describe('Adam decay rate of the second-moment estimate.'),
    eps: z.number().positive().default(1e-8).describe('Adam denominator epsilon.'),
    weight_decay: z
      .number()
      .min(0)
      .default(0)
      .describe('Decoupled weight decay (AdamW), applied to matrices only (not biases/LayerNorm).'),
    grad_clip: z.number().min(0).default(1.0).describe('Clip gradients to this global L2 norm; 0 disables clipping.'),
    warmup_steps: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe('Optimizer steps of linear warmup from lr/warmup_steps to lr (0 = none).'),
    schedule: lrScheduleSchema
      .default('constant')
      .describe(
        'Learning-rate schedule after warmup: `constant`, or `cosine`/`linear` decay to min_lr_ratio × lr at total_steps.',
      ),
    total_steps: z
      .number()
      .int()
      .min(1)
      .default(1000)
      .describe('Optimizer step at which the cosine or linear decay reaches its floor (ignored for constant).'),
    min_lr_ratio: z.number().min(0).max(1).default(0.1).describe('Floor of the cosine and linear decay, as a fraction of lr.'),
  })
  .strict();

/** Parsed optimizer settings. */
export type OptimizerConfig = z.infer<typeof optimizerConfigSchema>;

/** Learning rate at (0-based) step `step` under `c`'s warmup + schedule. */
export function learningRateAt(c: OptimizerConfig, step: number): number {
  if (c.warmup_steps > 0 && step < c.warmup_steps) return (c.lr * (step + 1)) / c.warmup_steps;
  if (c.schedule === 'constant') return c.lr;
  const span = Math.max(1, c.total_steps - c.warmup_steps);
  const progress = Math.min(1, Math.max(0, (step - c.warmup_steps) / span));
  const floor = c.lr * c.min_lr_ratio;
  const decay = c.schedule === 'cosine' ? 0.5 * (1 + Math.cos(Math.PI * progress)) : 1 - progress;
  return floor + (c.lr - floor) * decay;
}
