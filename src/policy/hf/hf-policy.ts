/**
 * A Hugging Face checkpoint as a trainable policy: the tfjs model for its architecture, the KL
 * reference, how the rollout engine serves it, and its merged weights for export.
 *
 * | arch | full fine-tuning | LoRA |
 * |---|---|---|
 * | gpt2 | built-in GPT model (same semantics), engine layout | adapters on c_attn / c_proj / c_fc of a frozen base, optimum layout with adapter inputs |
 * | llama family | {@link LlamaModel} | adapters on a frozen base, adapter inputs |
 *
 * Under LoRA the base with adapters off is the KL reference (no second copy of the weights).
 */
import { OrtDecoder } from '../engine/mapped-decoder.ts';
import { type NativeServing, gptServing } from '../engine/rollout-engine.ts';
import { GptModel } from '../model.ts';
import { exportGptToOnnx, loraInputName } from '../onnx/export-gpt.ts';
import { exportLlamaToOnnx } from '../onnx/export-llama.ts';
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

/**
 * Serving of a LoRA policy: a session on `exportWithAdapters()` (the base as initializers, the
 * adapters as inputs) that takes each weight sync's adapters as new feeds.
 */
function loraServing(shape: { context: number; vocabSize: number }, exportWithAdapters: () => Uint8Array): NativeServing {
  return {
    context: shape.context,
    vocabSize: shape.vocabSize,
    open: (adapters, level) =>
      OrtDecoder.create(exportWithAdapters(), {
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

/** Serving of a Llama-family policy: full weights re-exported per sync, or adapters fed as inputs. */
export function llamaServing(config: LlamaConfig, lora: LoraSpec | undefined, base: () => WeightMap): NativeServing {
  if (lora) return loraServing(config, () => exportLlamaToOnnx(config, base(), { lora }));
  return {
    context: config.context,
    vocabSize: config.vocabSize,
    open: (weights, level) => OrtDecoder.create(exportLlamaToOnnx(config, weights), level ? { optimizationLevel: level } : {}),
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
  const lora = opts.lora;
  const seed = opts.seed ?? 0;
  const model =
    config.arch === 'gpt2'
      ? GptModel.fromWeights(config.gpt, lora ? base : (opts.trainable ?? base), { ...(lora ? { lora } : {}), seed })
      : LlamaModel.fromWeights(config.llama, lora ? base : (opts.trainable ?? base), { ...(lora ? { lora } : {}), seed });
  if (lora && opts.trainable) model.setWeights(opts.trainable);
  const reference = lora
    ? model.reference()
    : config.arch === 'gpt2'
      ? GptModel.fromWeights(config.gpt, base)
      : LlamaModel.fromWeights(config.llama, base);
  const serving =
    config.arch === 'gpt2'
      ? lora
        ? loraServing(config.gpt, () => exportGptToOnnx(config.gpt, model.baseWeights(), { lora: model.lora! }))
        : gptServing(config.gpt)
      : llamaServing(config.llama, model.lora, () => model.baseWeights());
  return {
    model,
    reference,
    serving,
    mergedWeights: () => model.mergedWeights(),
    dispose: () => {
      model.dispose();
      reference.dispose();
    },
  };
}
