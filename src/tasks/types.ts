/**
 * The task-family contract. A family is a data entry: a name, a description, a zod schema
 * for its knobs (strict, every knob defaulted) and a deterministic generator.
 */
import type { z } from 'zod';
import type { Problem } from '../datasets/problem.ts';

/** Which side of the train/eval split to generate. */
type Split = 'train' | 'eval';

/** Options every family's generator receives (plus its own knobs). */
export interface BaseGenerateOptions {
  split: Split;
  /** Number of problems. */
  count: number;
  /** Split seed: same seed, split and knobs give the same problems. */
  seed: number;
}

/** A registered task family. `K` is the parsed (defaulted) knob object. */
export interface TaskFamily<K extends object = Record<string, unknown>> {
  name: string;
  /** One-paragraph description for `--help`/README. */
  describe: string;
  /** Knob schema: a strict zod object with a default on every field. */
  schema: z.ZodType<K, unknown>;
  /** Deterministic generation; knobs already validated and defaulted. */
  generate(opts: BaseGenerateOptions & K): Problem[];
}

/** Options accepted by `generateProblems`: split/count/seed plus the family's knobs. */
export interface GenerateOptions extends BaseGenerateOptions {
  [knob: string]: unknown;
}
