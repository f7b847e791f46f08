/**
 * Judge config (`judge:` in a run config): one of `learned`, `lm`, `http`, selected by `kind`.
 */
import { z } from 'zod';
import { mlpConfigSchema, REWARD_MODEL_KIND_NAMES } from '../models/config.ts';

/** Default question for the LM and HTTP judges; `{prompt}` and `{completion}` are substituted. */
const DEFAULT_JUDGE_TEMPLATE =
  'Here is a programming problem and a candidate solution.\n\n' +
  'Problem:\n{prompt}\n\nCandidate completion:\n{completion}\n\n';

const learned = z
  .object({
    kind: z.literal('learned'),
    /** Features different from the reward model's (default js-ast vs the RM's js-surface). */
    features: z.string().default('js-ast'),
    model: z.enum(REWARD_MODEL_KIND_NAMES).default('mlp'),
    alpha: z.number().nonnegative().default(1.0),
    /** Size of the disjoint labelled sample the judge is trained on, once. */
    samples: z.number().int().positive().default(1600),
    seed: z.number().int().default(1),
    mlp: mlpConfigSchema.default(mlpConfigSchema.parse({})),
    /** Clamp predictions to [0, 1] (judges emit probabilities). */
    clamp: z.boolean().default(true),
  })
  .strict();

const lm = z
  .object({
    kind: z.literal('lm'),
    /** Directory of an ONNX causal LM (the policy engine's bring-your-own format). */
    model: z.string(),
    template: z.string().default(DEFAULT_JUDGE_TEMPLATE + 'Is the completion correct? Answer yes or no.\nAnswer:'),
    /** Token texts whose probabilities are summed as "yes" / "no" (first token of each). */
    yes: z.array(z.string()).default([' yes', ' Yes']),
    no: z.array(z.string()).default([' no', ' No']),
  })
  .strict();

const http = z
  .object({
    kind: z.literal('http'),
    /** OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (POST {base_url}/chat/completions). */
    base_url: z.string().url(),
    model: z.string(),
    /** Environment variable holding a bearer token; unset → no Authorization header. */
    api_key_env: z.string().default('OPENAI_API_KEY'),
    system: z.string().default('You are a careful code reviewer. Answer with a single number.'),
    template: z
      .string()
      .default(DEFAULT_JUDGE_TEMPLATE + 'Estimate the probability (0 to 1) that the completion passes its hidden tests. Reply with the number only.'),
    temperature: z.number().nonnegative().default(0),
    max_tokens: z.number().int().positive().default(16),
    timeout_ms: z.number().int().positive().default(30_000),
    /** Retries after the first attempt (on timeouts, network errors, 429/5xx and unparseable replies). */
    retries: z.number().int().nonnegative().default(3),
    /** First backoff delay; doubles per retry. */
    backoff_ms: z.number().int().nonnegative().default(500),
    concurrency: z.number().int().positive().default(4),
  })
  .strict();

/** `judge:` block. */
export const judgeSchema = z.discriminatedUnion('kind', [learned, lm, http]);

/** Parsed judge config. */
export type JudgeConfig = z.infer<typeof judgeSchema>;
export type LearnedJudgeConfig = z.infer<typeof learned>;
export type LmJudgeConfig = z.infer<typeof lm>;
export type HttpJudgeConfig = z.infer<typeof http>;

/** Substitute `{prompt}` and `{completion}` in one pass (a completion containing "{prompt}" stays literal). */
export function fillTemplate(template: string, prompt: string, completion: string): string {
  return template.replace(/\{(prompt|completion)\}/g, (_, k: string) => (k === 'prompt' ? prompt : completion));
}
