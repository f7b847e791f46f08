/**
 * The trainable policy: GPT-2 weight contract, tfjs model, log-probs,
 * optimizer, sampling, tokenizers, checkpoints and pretraining. The ONNX export and the ONNX
 * Runtime rollout engine live in ./onnx and ./engine.
 */
export { type GptConfig, type PolicyModelConfig, LAYER_NORM_EPS, gptConfigFrom, headDim, policyModelSchema, validateGptConfig } from './gpt-config.ts';
export { type WeightMap, type WeightTensor, cloneWeights, expectedWeightShapes, parameterCount, validateWeights } from './weights.ts';
export { GptModel, INIT_STD, type ForwardOptions, type LayerKv, type TokenBatch, denseBatch, initWeights, positionsFromMask } from './model.ts';
export {
  type CompletionBatch,
  type CompletionScores,
  type SequenceScores,
  buildCompletionBatch,
  completionLogProbs,
  completionNll,
  sequenceLogProbs,
} from './logprobs.ts';
export { AdamOptimizer, type OptimizerConfig, type OptimizerState, type StepResult, learningRateAt, optimizerConfigSchema } from './optimizer.ts';
export { type FinishReason, type Generation, type GenerateOptions, generate } from './generate.ts';
export { type TrainBench, benchTrainStep } from './bench.ts';
export { CHECKPOINT_FORMAT, CHECKPOINT_VERSION, type PolicyCheckpoint, isCheckpointDir, loadCheckpoint, saveCheckpoint } from './checkpoint.ts';
export { decodeSafetensors, encodeSafetensors, type SafetensorsFile } from './safetensors.ts';
export * from './tokenizer/index.ts';
