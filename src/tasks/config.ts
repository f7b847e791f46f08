/**
 * The `task` section of a run config when the task comes from a registered family:
 *
 * ```yaml
 * task: { family: synthetic-js, split_seed: 1, train: 2000, eval: 200, options: { max_ops: 2 } }
 * ```
 *
 * (The `{ dataset: path }` form belongs to the dataset loaders; the config module composes the two.)
 */
import { z } from 'zod';
import type { Problem } from '../datasets/problem.ts';
import { generateProblems, getFamily, listFamilies } from './registry.ts';

/** Schema of a family-based task section (strict, defaulted). Knobs are checked against the family. */
export const taskFamilyConfigSchema = z
  .object({
    family: z.string().default('synthetic-js').describe('A built-in task family (`anchor-rl datasets` lists them).'),
    split_seed: z
      .number()
      .int()
      .default(1)
      .describe('Seed of the problem generator; train and eval come from it and are disjoint.'),
    train: z.number().int().min(0).default(2000).describe('Number of training problems.'),
    eval: z.number().int().min(0).default(200).describe('Number of held-out evaluation problems.'),
    options: z
      .record(z.string(), z.unknown())
      .default({})
      .describe('Family knobs (see datasets/synthetic.md); unknown knobs are errors. Same key as the pretrain config.'),
  })
  .strict()
  .superRefine((cfg, ctx) => {
    if (!listFamilies().includes(cfg.family)) {
      ctx.addIssue({
        code: 'custom',
        path: ['family'],
        message: `unknown task family "${cfg.family}" (have: ${listFamilies().join(', ')})`,
      });
      return;
    }
    const parsed = getFamily(cfg.family).schema.safeParse(cfg.options);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: ['options', ...issue.path.map(String)], message: issue.message });
      }
    }
  });
export type TaskFamilyConfig = z.infer<typeof taskFamilyConfigSchema>;

/** Generate the train and eval problems a task section describes. */
export function problemsFromTaskConfig(cfg: TaskFamilyConfig): { train: Problem[]; eval: Problem[] } {
  const common = { seed: cfg.split_seed, ...cfg.options };
  return {
    train: generateProblems(cfg.family, { ...common, split: 'train', count: cfg.train }),
    eval: generateProblems(cfg.family, { ...common, split: 'eval', count: cfg.eval }),
  };
}
