/**
 * The DSL worlds as task families: each problem is one sampled task emitted through
 * `DslWorld.toProblem` (prompt = the I/O examples, completion = the token string).
 */
import { z } from 'zod';
import type { Problem } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { splitOf } from '../hash.ts';
import type { BaseGenerateOptions, TaskFamily } from '../types.ts';
import type { DslWorld } from './types.ts';
import { dsl6, richdsl } from './world.ts';

/** Knobs of the DSL families. */
const dslFamilySchema = z
  .object({
    /** Fraction of the task space (by I/O signature hash) reserved for the eval split. */
    eval_fraction: z.number().gt(0).lt(1).default(0.2),
  })
  .strict();
export type DslFamilyKnobs = z.infer<typeof dslFamilySchema>;

function generateDsl(world: DslWorld, opts: BaseGenerateOptions & DslFamilyKnobs): Problem[] {
  const rng = new Rng(opts.seed).fork(`${world.name}:${opts.split}`);
  const seen = new Set<string>();
  const out: Problem[] = [];
  const maxAttempts = 200 * opts.count + 1000;
  for (let attempt = 0; out.length < opts.count && attempt < maxAttempts; attempt++) {
    const task = world.sampleTask(rng);
    // Split by what the solver sees (the I/O table), so semantically equal targets cannot
    // straddle the split.
    const signature = task.outputs.join(',');
    if (splitOf(signature, `${world.name}:${opts.seed}`, opts.eval_fraction) !== opts.split) continue;
    if (seen.has(signature)) continue;
    seen.add(signature);
    const id = `${world.name}/${opts.split}/${opts.seed}/${out.length}`;
    out.push(world.toProblem({ ...task, id }));
  }
  if (out.length < opts.count) {
    throw new AnchorError(
      'BAD_CONFIG',
      `${world.name}: only ${out.length} distinct ${opts.split} tasks exist for seed ${opts.seed}; asked for ${opts.count}`,
    );
  }
  return out;
}

/** `dsl6` family: DSL-6 tasks as Problems. */
export const dsl6Family: TaskFamily<DslFamilyKnobs> = {
  name: 'dsl6',
  describe:
    'DSL-6 tasks of the reference study: find a 1-6 token program over A S D T N Q matching 8 input/output pairs (x = -3..4); gold = fraction matched.',
  schema: dslFamilySchema,
  generate: (opts) => generateDsl(dsl6, opts),
};

/** `richdsl` family: RichDSL tasks as Problems. */
export const richdslFamily: TaskFamily<DslFamilyKnobs> = {
  name: 'richdsl',
  describe:
    'RichDSL tasks of the reference study: find a 1-10 token program over A S D T H N Q P M G matching 16 input/output pairs (x = -8..7); gold = fraction matched.',
  schema: dslFamilySchema,
  generate: (opts) => generateDsl(richdsl, opts),
};
