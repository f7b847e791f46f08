/**
 * The policy model's shape: the part of the weight contract shared by the trainable tfjs model
 * (src/policy/model.ts) and the ONNX export / rollout engine (src/policy/onnx, src/policy/engine).
 *
 * Semantics every implementation must follow (GPT-2):
 * - token embedding `wte` + learned position embedding `wpe` (positions are supplied explicitly;
 *   for left-padded batches position = max(cumsum(attention_mask) - 1, 0));
 * - `layers` pre-LN blocks: `x = x + attn(ln_1(x)); x = x + mlp(ln_2(x))`;
 * - LayerNorm eps 1e-5; GELU tanh approximation (GPT-2 "gelu_new");
 * - causal multi-head attention, heads split from the d axis in order (head h owns columns
 *   [h*headDim, (h+1)*headDim)), scores scaled by 1/sqrt(headDim), keys masked where
 *   attention_mask is 0 (1 = real token, 0 = pad);
 * - final LayerNorm `ln_f`, then logits = h · wteᵀ when `tiedHead`, else h · lm_head.
 */
import { z } from 'zod';
import { AnchorError } from '../util/errors.ts';

/** LayerNorm epsilon (GPT-2). */
export const LAYER_NORM_EPS = 1e-5;

/** Shape of a GPT-2 style decoder-only transformer. */
export interface GptConfig {
  /** Vocabulary size (from the tokenizer). */
  vocabSize: number;
  /** Maximum sequence length (number of learned positions). */
  context: number;
  /** Number of transformer blocks. */
  layers: number;
  /** Model width d. */
  dModel: number;
  /** Attention heads; must divide dModel. */
  heads: number;
  /** Output head shares the token embedding (logits = h · wteᵀ) when true. */
  tiedHead: boolean;
}

/**
 * The `policy.model` config block (YAML, snake_case). The vocabulary size is not configured: it
 * comes from the tokenizer.
 */
export const policyModelSchema = z
  .object({
    source: z
      .enum(['native', 'hf'])
      .default('native')
      .describe(
        'native: the built-in character-level GPT, pretrained into policy.base; hf: a Hugging Face model directory at policy.model.path (GPT-2 or Llama family)',
      ),
    path: z
      .string()
      .min(1)
      .optional()
      .describe('Hugging Face model directory (config.json, safetensors, tokenizer.json); required with source hf'),
    random_if_missing: z
      .boolean()
      .default(false)
      .describe(
        'source hf only: when path does not exist, write a tiny random Llama (byte-level tokenizer) there; for CI smoke runs, never for real training',
      ),
    layers: z.number().int().min(1).max(48).default(2).describe('Transformer blocks.'),
    d_model: z.number().int().min(8).max(4096).default(128).describe('Model width d (a multiple of heads).'),
    heads: z.number().int().min(1).max(64).default(4).describe('Attention heads; must divide d_model.'),
    context: z
      .number()
      .int()
      .min(8)
      .max(8192)
      .default(256)
      .describe('Longest sequence, tokens (learned positions): prompt plus completion must fit.'),
    tied_head: z.boolean().default(true).describe('The output head shares the token embedding (logits = h · wteᵀ).'),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.source === 'hf' && !m.path) {
      ctx.addIssue({
        code: 'custom',
        path: ['path'],
        message:
          'policy.model.path is required with policy.model.source hf: pass --set policy.model.path=DIR (a Hugging Face model directory)',
      });
    }
  });

/** Parsed `policy.model` block. */
export type PolicyModelConfig = z.infer<typeof policyModelSchema>;

/** Build a {@link GptConfig} from the YAML block and the tokenizer's vocabulary size. */
export function gptConfigFrom(model: PolicyModelConfig, vocabSize: number): GptConfig {
  return validateGptConfig({
    vocabSize,
    context: model.context,
    layers: model.layers,
    dModel: model.d_model,
    heads: model.heads,
    tiedHead: model.tied_head,
  });
}

/** Check a config's internal consistency (heads divide d, positive sizes); returns it. */
export function validateGptConfig(c: GptConfig): GptConfig {
  const ints: (keyof GptConfig)[] = ['vocabSize', 'context', 'layers', 'dModel', 'heads'];
  for (const k of ints) {
    const v = c[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new AnchorError('BAD_MODEL', `model config: ${k} must be a positive integer, got ${String(v)}`);
    }
  }
  if (c.dModel % c.heads !== 0) {
    throw new AnchorError('BAD_MODEL', `model config: d_model ${c.dModel} is not divisible by heads ${c.heads}`);
  }
  if (typeof c.tiedHead !== 'boolean') throw new AnchorError('BAD_MODEL', 'model config: tiedHead must be a boolean');
  return c;
}

/** Per-head width. */
export function headDim(c: GptConfig): number {
  return c.dModel / c.heads;
}
