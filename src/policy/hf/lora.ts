/**
 * LoRA: low-rank adapters on a frozen base, W' = W + (alpha / rank) · A · B with A [in, r],
 * B [r, out] (the contract's [in, out] layout; PEFT stores lora_A as [r, in], lora_B as [out, r]).
 * B starts at zero, so a fresh adapter leaves the model exactly equal to its base.
 *
 * Target modules use PEFT's names, matched against the last component of a projection's name
 * as PEFT matches suffixes: for GPT-2 `c_proj` is both the attention output and the MLP output
 * projection (GPT-2 stores them as Conv1D, already [in, out]).
 */
import { z } from 'zod';
import { AnchorError } from '../../util/errors.ts';
import type { GptConfig } from '../gpt-config.ts';
import { gptProjections } from '../weights.ts';
import type { LlamaConfig } from './hf-config.ts';
import { llamaProjections } from './llama-weights.ts';

/** Adapter targets per architecture (PEFT module names) and the default when none are given. */
const TARGETS = {
  llama: {
    modules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'],
    default: ['q_proj', 'k_proj', 'v_proj', 'o_proj'],
  },
  gpt2: { modules: ['c_attn', 'c_proj', 'c_fc'], default: ['c_attn'] },
} as const;

/** The `policy.lora` config block. */
export const loraSchema = z
  .object({
    rank: z.number().int().min(1).max(1024).default(8).describe('adapter rank r'),
    alpha: z.number().positive().default(16).describe('scaling numerator: the update is (alpha / rank) · A · B'),
    dropout: z
      .number()
      .min(0)
      .lt(1)
      .default(0)
      .describe(
        "probability of zeroing an adapter input element, as PEFT's lora_dropout (dropout(x) before lora_A), in the optimizer's forward pass only: " +
          'rollouts, the ONNX graph and the log-probs of π_old and the reference run without it. Masks follow the run seed and the optimizer step, so a resumed run redraws them',
      ),
    target_modules: z
      .array(z.enum([...TARGETS.llama.modules, ...TARGETS.gpt2.modules]))
      .min(1)
      .optional()
      .describe(
        `projection modules that get adapters (PEFT names). Llama family: ${TARGETS.llama.modules.join(', ')} (default ${TARGETS.llama.default.join(', ')}); ` +
          `GPT-2: ${TARGETS.gpt2.modules.join(', ')} — c_proj is both the attention and the MLP output projection (default ${TARGETS.gpt2.default.join(', ')}, as PEFT)`,
      ),
  })
  .strict();

/** Parsed `policy.lora`. */
export type LoraSpec = z.infer<typeof loraSchema>;

/** The adapter scale alpha / rank. */
export function loraScale(s: LoraSpec): number {
  return s.alpha / s.rank;
}

/** `spec` with the architecture's default targets filled in; BAD_CONFIG when a target is not one of its modules. */
export function resolveLora(spec: LoraSpec, arch: keyof typeof TARGETS): LoraSpec & { target_modules: string[] } {
  const t = TARGETS[arch];
  const targets: string[] = spec.target_modules ?? [...t.default];
  const bad = targets.filter((m) => !(t.modules as readonly string[]).includes(m));
  if (bad.length)
    throw new AnchorError(
      'BAD_CONFIG',
      `policy.lora.target_modules: ${bad.join(', ')} ${bad.length > 1 ? 'are' : 'is'} not ${arch === 'gpt2' ? 'a GPT-2' : 'a Llama-family'} module (its modules: ${t.modules.join(', ')})`,
      { bad },
    );
  return { ...spec, target_modules: targets } as LoraSpec & { target_modules: string[] };
}

/** Where an architecture's adapters go: per-layer projections ([in, out]) under a layer prefix. */
interface LoraLayout {
  arch: keyof typeof TARGETS;
  layers: number;
  prefix(layer: number): string;
  projections: Map<string, [number, number]>;
}

/** Adapter tensor names (`<module>.lora_A` [in, r], `<module>.lora_B` [r, out]) and shapes, in a stable order. */
function adapterShapes(l: LoraLayout, s: LoraSpec): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const targets = new Set(resolveLora(s, l.arch).target_modules);
  for (let i = 0; i < l.layers; i++) {
    for (const [module, [inp, o]] of l.projections) {
      if (!targets.has(module.split('.').at(-1)!)) continue;
      out.set(`${l.prefix(i)}${module}.lora_A`, [inp, s.rank]);
      out.set(`${l.prefix(i)}${module}.lora_B`, [s.rank, o]);
    }
  }
  return out;
}

/** Adapter shapes of a Llama-family model (`model.layers.{i}.self_attn.q_proj.lora_A`, ...). */
export function loraAdapterShapes(c: LlamaConfig, s: LoraSpec): Map<string, number[]> {
  return adapterShapes(
    { arch: 'llama', layers: c.layers, prefix: (i) => `model.layers.${i}.`, projections: llamaProjections(c) },
    s,
  );
}

/** Adapter shapes of a GPT-2 model (`h.{i}.attn.c_attn.lora_A`, ...). */
export function gptLoraAdapterShapes(c: GptConfig, s: LoraSpec): Map<string, number[]> {
  return adapterShapes({ arch: 'gpt2', layers: c.layers, prefix: (i) => `h.${i}.`, projections: gptProjections(c) }, s);
}
