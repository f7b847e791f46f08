/**
 * The interface every trainable policy implements — the built-in GPT (./model.ts) and the
 * Hugging Face architectures (./hf/). Log-probs, sampling, the optimizer and the trainer see a
 * policy only through it, so an architecture is a model class plus a weight contract.
 */
import type { tf } from '../tf/backend.ts';
import type { WeightMap } from './weights.ts';

/** A batch of token sequences, row-major [batch, length] (see ./model.ts positionsFromMask). */
export interface TokenBatch {
  batch: number;
  length: number;
  ids: Int32Array;
  mask: Float32Array;
  positions: Int32Array;
}

/** Per-layer attention cache for incremental decoding: keys [B,H,hd,S] (pre-transposed), values [B,H,S,hd]. */
export interface LayerKv {
  keysT: tf.Tensor4D;
  values: tf.Tensor4D;
}

/** Options for {@link PolicyModel.forward}. */
export interface ForwardOptions {
  /** Cached keys/values of earlier positions (incremental decoding). */
  past?: LayerKv[];
  /** Attention mask of the cached positions, [B*pastLen] (required with `past`). */
  pastMask?: Float32Array;
  /** Return the updated cache. */
  keepPresent?: boolean;
  /**
   * Marks the optimizer's forward pass: models with LoRA dropout drop adapter inputs with masks
   * drawn from this key (the optimizer step) and the model's seed, so a resumed run redraws them.
   * Absent everywhere else (π_old, the reference, evaluation): no dropout. A string key names a
   * further pass of the same step (a length bucket of the log-probs' layout).
   */
  dropoutKey?: number | string;
}

/** The token shape of one optimizer step. */
export interface TrainStepShape {
  /** Sequences in the step. */
  rows: number;
  /** Prompt + completion positions per sequence. */
  length: number;
  /** Completion positions per sequence (the ones that go through the output head). */
  completion: number;
}

/** The sizes every consumer of a policy needs. */
interface PolicyShape {
  vocabSize: number;
  /** Width of the hidden states `forward` returns. */
  dModel: number;
  /** Longest sequence (prompt + completion) the model accepts. */
  context: number;
}

/** A trainable policy. */
export interface PolicyModel {
  readonly config: PolicyShape;
  /** The trainable parameters by name (what the optimizer updates and checkpoints hold). */
  readonly params: Map<string, tf.Variable>;
  /** Final-norm hidden states [B*T, d] (call inside tidy or a gradient scope). */
  forward(x: TokenBatch, opts?: ForwardOptions): { hidden: tf.Tensor2D; present?: LayerKv[] };
  /** Logits [N, V] for hidden states [N, d]. */
  head(hidden: tf.Tensor2D): tf.Tensor2D;
  /** A copy of the trainable parameters. */
  getWeights(): WeightMap;
  /** Overwrite the trainable parameters (validated). */
  setWeights(weights: WeightMap): void;
  /**
   * The most rows of this shape one optimizer pass may hold in the backend's memory (the trainer
   * micro-batches above it); throws a coded error when not even one fits. Models that do not
   * estimate their memory leave it out (one pass, unchecked).
   */
  trainRowsPerPass?(shape: TrainStepShape): number;
  dispose(): void;
}
