/**
 * LoRA: low-rank adapters on a frozen base, W' = W + (alpha / rank) · A · B with A [in, r],
 * B [r, out] (the contract's [in, out] layout; PEFT stores lora_A as [r, in], lora_B as [out, r]).
 * B starts at zero, so a fresh adapter leaves the model exactly equal to its base.
 */
import { z } from 'zod';
import type { LlamaConfig } from './hf-config.ts';
import { llamaProjections } from './llama-weights.ts';

/** The `policy.lora` config block. */
export const loraSchema = z
  .object({
    rank: z.number().int().min(1).max(1024).default(8).describe('adapter rank r'),
    alpha: z.number().positive().default(16).describe('scaling numerator: the update is (alpha / rank) · A · B'),
    dropout: z
      .number()
      .min(0)
      .max(0)
      .default(0)
      .describe('dropout on the adapter input; only 0 is supported (GRPO ratios need a deterministic forward)'),
    target_modules: z
      .array(z.enum(['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj']))
      .min(1)
      .default(['q_proj', 'k_proj', 'v_proj', 'o_proj'])
      .describe('projection modules that get adapters (PEFT names)'),
  })
  .strict();

/** Parsed `policy.lora`. */
export type LoraSpec = z.infer<typeof loraSchema>;

/** The adapter scale alpha / rank. */
export function loraScale(s: LoraSpec): number {
  return s.alpha / s.rank;
}

/** Adapter tensor names (`<module>.lora_A` [in, r], `<module>.lora_B` [r, out]) and shapes, in a stable order. */
export function loraAdapterShapes(c: LlamaConfig, s: LoraSpec): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const targets = new Set(s.target_modules);
  for (let i = 0; i < c.layers; i++) {
    for (const [module, [inp, o]] of llamaProjections(c)) {
      if (!targets.has(module.split('.')[1] as LoraSpec['target_modules'][number])) continue;
      out.set(`model.layers.${i}.${module}.lora_A`, [inp, s.rank]);
      out.set(`model.layers.${i}.${module}.lora_B`, [s.rank, o]);
    }
  }
  return out;
}
