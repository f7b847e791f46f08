/**
 * Judge config (`judge:` in a run config): one of `learned`, `lm`, `http`, selected by `kind`.
 */
import { z } from 'zod';
import { FEATURE_MODEL_KIND_NAMES, mlpConfigSchema } from '../models/config.ts';

/** Default question for the LM and HTTP judges; `{prompt}` and `{completion}` are substituted. */
const DEFAULT_JUDGE_TEMPLATE =
  'Here is a programming problem and a candidate solution.\n\n' + 'Problem:\n{prompt}\n\nCandidate completion:\n{completion}\n\n';

const learned = z
  .object({
    kind: z.literal('learned'),
    features: z
      .string()
      .default('js-ast')
      .describe("Features different from the reward model's (default js-ast vs the RM's js-surface)."),
    model: z.enum(FEATURE_MODEL_KIND_NAMES).default('mlp').describe('Model class of the learned judge (`ridge` or `mlp`).'),
    alpha: z.number().nonnegative().default(1.0).describe('Ridge penalty α of the `ridge` model.'),
    samples: z
      .number()
      .int()
      .positive()
      .default(1600)
      .describe('Size of the disjoint labelled sample the judge is trained on, once.'),
    seed: z.number().int().default(1).describe("Seed of the judge's labelled sample and of the MLP."),
    mlp: mlpConfigSchema.default(mlpConfigSchema.parse({})).describe('Settings of the `mlp` model.'),
    clamp: z.boolean().default(true).describe('Clamp predictions to [0, 1] (judges emit probabilities).'),
  })
  .strict();

const lm = z
  .object({
    kind: z.literal('lm'),
    model: z.string().describe("Directory of an ONNX causal LM (the policy engine's bring-your-own format)."),
    template: z
      .string()
      .default(DEFAULT_JUDGE_TEMPLATE + 'Is the completion correct? Answer yes or no.\nAnswer:')
      .describe('The question asked; `{prompt}` and `{completion}` are substituted.'),
    yes: z
      .array(z.string())
      .default([' yes', ' Yes'])
      .describe('Token texts whose probabilities are summed as "yes" / "no" (first token of each).'),
    no: z
      .array(z.string())
      .default([' no', ' No'])
      .describe('Token texts whose probabilities are summed as "no" (first token of each).'),
  })
  .strict();

const http = z
  .object({
    kind: z.literal('http'),
    base_url: z
      .string()
      .url()
      .describe('OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (POST {base_url}/chat/completions).'),
    model: z.string().describe('Model name sent in the request.'),
    api_key_env: z
      .string()
      .default('OPENAI_API_KEY')
      .describe('Environment variable holding a bearer token; unset → no Authorization header.'),
    system: z
      .string()
      .default('You are a careful code reviewer. Answer with a single number.')
      .describe('System message of the request.'),
    template: z
      .string()
      .default(
        DEFAULT_JUDGE_TEMPLATE +
          'Estimate the probability (0 to 1) that the completion passes its hidden tests. Reply with the number only.',
      )
      .describe('User message; `{prompt}` and `{completion}` are substituted. The reply must be a probability.'),
    temperature: z.number().nonnegative().default(0).describe('Sampling temperature of the request.'),
    max_tokens: z.number().int().positive().default(16).describe('Longest reply, tokens.'),
    timeout_ms: z.number().int().positive().default(30_000).describe('Per-request timeout, milliseconds.'),
    retries: z
      .number()
      .int()
      .nonnegative()
      .default(3)
      .describe('Retries after the first attempt (on timeouts, network errors, 429/5xx and unparseable replies).'),
    backoff_ms: z.number().int().nonnegative().default(500).describe('First backoff delay; doubles per retry.'),
    concurrency: z.number().int().positive().default(4).describe('Requests in flight at once.'),
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
