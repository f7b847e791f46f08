/**
 * Interfaces of the rollout engine: sampling options, one sampled completion, the engine
 * itself, and the minimal tokenizer it needs. Implementations: ./rollout-engine.ts (generation
 * loop), ./decoder.ts (the decoders it drives), ./ort-session.ts (ONNX Runtime, the only module
 * importing onnxruntime-node).
 */
import type { Rng } from '../../util/rng.ts';
import type { WeightMap } from '../weights.ts';

/** Why a completion ended. */
export type FinishReason = 'eos' | 'stop' | 'length';

/** The tokenizer surface the engine needs (the char and HF tokenizers of ../tokenizer fit it). */
export interface EngineTokenizer {
  /** Token ids of `text` (no special tokens added unless the tokenizer always adds them). */
  encode(text: string): number[];
  /** Text of `ids`, special tokens skipped. */
  decode(ids: number[]): string;
  /** End-of-sequence id (the engine's default EOS for native policies). */
  readonly eosId?: number;
  /** Padding id. */
  readonly padId?: number;
}

/** Sampling options. Defaults: temperature 1, topK 0 (off), topP 1 (off), maxNewTokens 64. */
export interface SamplingOptions {
  /** Softmax temperature; 0 means greedy (argmax, no random draws). */
  temperature?: number;
  /** Keep only the k most likely tokens (0 = off). Applied before topP, as in Hugging Face. */
  topK?: number;
  /** Nucleus sampling: smallest set whose probability reaches topP (1 = off). */
  topP?: number;
  /** Maximum number of generated tokens per completion (also capped by the model's context). */
  maxNewTokens?: number;
  /** End-of-sequence token id(s); overrides the engine's default. `null` disables EOS. */
  eosTokenId?: number | number[] | null;
  /** Stop strings: generation of a row ends once its decoded text contains one. */
  stop?: string[];
  /** Random source. Give either `rng` (consumed) or `seed`; default seed 0. */
  rng?: Rng;
  seed?: number;
  /** Decode with the KV cache (default) or recompute the whole sequence each step. */
  useCache?: boolean;
  /** Split larger requests into batches of at most this many rows (default: all at once). */
  maxBatch?: number;
}

/**
 * One sampled completion.
 *
 * Log-prob conventions (per generated token, same length as `tokenIds`):
 * - `logprobs[t]` = log softmax(logits / temperature)[token] over the FULL vocabulary, i.e. the
 *   tempered model distribution before top-k / top-p truncation. This is what a trainer
 *   recomputes from the same weights and temperature, so it is the one GRPO's "old" log-probs
 *   use. With temperature 0 (greedy) it is log softmax(logits)[token] (temperature 1).
 * - `samplerLogprobs[t]` = log-prob under the distribution the token was actually drawn from
 *   (tempered, then top-k / top-p truncated and renormalised); 0 for greedy. Equal to
 *   `logprobs` when top-k and top-p are off.
 */
export interface Completion {
  /** Index of the prompt in the request. */
  promptIndex: number;
  /** Prompt token ids (as encoded, without padding). */
  promptIds: number[];
  /** Generated token ids, including an EOS token and the tokens of a matched stop string. */
  tokenIds: number[];
  /** Generated text: special tokens skipped, cut before a matched stop string. */
  text: string;
  logprobs: number[];
  samplerLogprobs: number[];
  finishReason: FinishReason;
}

/** A rollout engine serving one policy's weights. */
export interface RolloutEngine {
  /** Sample one completion per prompt (repeat a prompt for several samples). */
  generate(prompts: string[], options?: SamplingOptions): Promise<Completion[]>;
  /** Same from token ids (no tokenizer needed unless `stop` is used or text is wanted). */
  generateIds(promptIds: number[][], options?: SamplingOptions): Promise<Completion[]>;
  /** Serve new weights (native models only). Generations in flight finish on the old weights. */
  updateWeights(weights: WeightMap): Promise<void>;
  /** Release the ONNX Runtime session(s). */
  release(): Promise<void>;
}
