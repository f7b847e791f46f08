/**
 * The rollout engine: ONNX Runtime sampling with a KV cache, weight sync for native policies,
 * and bring-your-own ONNX models. See ./types.ts for the interfaces.
 */
export type { Completion, EngineTokenizer, FinishReason, RolloutEngine, SamplingOptions } from './types.ts';
export { OnnxRolloutEngine, type EngineModelInfo, type EngineOptions } from './rollout-engine.ts';
export { loadOnnxModel, type LoadedOnnxModel } from './load-onnx-model.ts';
export { mapDecoderIo, type DecoderIoSpec, type GenaiDecoderConfig, type IoMeta } from './decoder-io.ts';
export { sampleToken, checkSamplerParams, type SamplerParams, type SampledToken } from './sampler.ts';
