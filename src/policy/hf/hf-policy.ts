/**
 * A Hugging Face checkpoint as a trainable policy: the tfjs model for its architecture, the KL
 * reference, how the rollout engine serves it, and its merged weights for export.
 *
 * | arch | full fine-tuning | LoRA |
 * |---|---|---|
 * | gpt2 | built-in GPT model (same semantics), engine layout | not supported (error) |
 * | llama family | {@link LlamaModel} | adapters on a frozen base; the base with adapters off is the reference |
 */
import { AnchorError } from '../../util/errors.ts';
import { OrtDecoder } from '../engine/ort-decoder.ts';
import { type NativeServing, gptServing } from '../engine/rollout-engine.ts';
import { GptModel } from '../model.ts';
import { exportLlamaToOnnx, loraInputName } from '../onnx/export-llama.ts';
import type { PolicyModel } from '../policy-model.ts';
import type { WeightMap } from '../weights.ts';
import type { HfModelConfig, LlamaConfig } from './hf-config.ts';
import { LlamaModel } from './llama-model.ts';
import type { LoraSpec } from './lora.ts';

/** A policy built from a Hugging Face checkpoint. */
export interface HfPolicy {
  model: PolicyModel;
  /**
   * The frozen KL reference: the base with adapters off under LoRA (shares the model's tensors),
   * otherwise a separate copy of the base weights. Dispose it with the model.
   */
  reference: PolicyModel;
  /** How the rollout engine serves `model.getWeights()`. */
  serving: NativeServing;
  /** Full weights (contract layout) with any adapters merged: what an HF export writes. */
  mergedWeights(): WeightMap;
  dispose(): void;
}

/** Adapter tensors as constant graph feeds. */
function adapterFeeds(adapters: WeightMap): Record<string, { type: 'float32'; data: Float32Array; dims: number[] }> {
  const out: Record<string, { type: 'float32'; data: Float32Array; dims: number[] }> = {};
  for (const [name, t] of adapters) out[loraInputName(name)] = { type: 'float32', data: t.data, dims: t.shape };
  return out;
}

/** Serving of a Llama-family policy: full weights re-exported per sync, or adapters fed as inputs. */
export function llamaServing(config: LlamaConfig, lora: LoraSpec | undefined, base: () => WeightMap): NativeServing {
  if (!lora) {
    return {
      context: config.context,
      vocabSize: config.vocabSize,
      open: (weights, level) => OrtDecoder.create(exportLlamaToOnnx(config, weights), level ? { optimizationLevel: level } : {}),
    };
  }
  return {
    context: config.context,
    vocabSize: config.vocabSize,
    open: (adapters, level) =>
      OrtDecoder.create(exportLlamaToOnnx(config, base(), { lora }), {
        constants: adapterFeeds(adapters),
        ...(level ? { optimizationLevel: level } : {}),
      }),
    updateInPlace: (decoder, adapters) => {
      if (!(decoder instanceof OrtDecoder)) return false;
      decoder.setConstantFeeds(adapterFeeds(adapters));
      return true;
    },
  };
}

/**
 * Build the policy for `config` from contract weights. `trainable` (the policy's starting
 * trainable tensors, e.g. from a checkpoint: all weights, or the adapters under LoRA) defaults to
 * the base / fresh adapters.
 */
export function createHfPolicy(
  config: HfModelConfig,
  base: WeightMap,
  opts: { lora?: LoraSpec; seed?: number; trainable?: WeightMap } = {},
): HfPolicy {
  if (config.arch === 'gpt2') {
    if (opts.lora)
      throw new AnchorError(
        'BAD_CONFIG',
        'policy.lora: LoRA is supported for Llama-family models only; GPT-2 checkpoints train fully (remove policy.lora)',
      );
    const model = GptModel.fromWeights(config.gpt, opts.trainable ?? base);
    const reference = GptModel.fromWeights(config.gpt, base);
    return {
      model,
      reference,
      serving: gptServing(config.gpt),
      mergedWeights: () => model.getWeights(),
      dispose: () => {
        model.dispose();
        reference.dispose();
      },
    };
  }
  const c = config.llama;
  const model = LlamaModel.fromWeights(c, opts.lora ? base : (opts.trainable ?? base), {
    ...(opts.lora ? { lora: opts.lora } : {}),
    seed: opts.seed ?? 0,
  });
  if (opts.lora && opts.trainable) model.setWeights(opts.trainable);
  const reference = opts.lora ? model.reference() : LlamaModel.fromWeights(c, base);
  return {
    model,
    reference,
    serving: llamaServing(c, opts.lora, () => model.baseWeights()),
    mergedWeights: () => model.mergedWeights(),
    dispose: () => {
      model.dispose();
      reference.dispose();
    },
  };
}
