/**
 * The decoder contract the generation loop (./rollout-engine.ts) drives, and the glue both
 * decoders share. Implementations, both over an ./ort-session.ts session:
 * - `OrtDecoder` (./mapped-decoder.ts): any decoder graph mapped by `DecoderIoSpec` (optimum /
 *   genai naming, per-layer or stacked KV, bring-your-own and Llama-family exports); the KV
 *   cache goes in and out of ONNX Runtime as opaque tensors.
 * - `OrtEngineDecoder` (./engine-decoder.ts): native policies exported in the `engine` layout;
 *   fixed-capacity caches in JS buffers that are updated in place, and finished rows can leave
 *   the batch.
 */
import { AnchorError } from '../../util/errors.ts';
import type { OrtOutputs } from './ort-session.ts';

/** Logits of one step: row-major [batch, logitsSeq, vocab]. */
export interface StepLogits {
  logits: Float32Array;
  logitsSeq: number;
  vocab: number;
}

/** What a generation needs to start: the left-padded prompt batch. */
export interface DecodeStart {
  batch: number;
  /** Longest prompt; ids and positions are [batch, promptLen]. */
  promptLen: number;
  ids: Int32Array;
  positions: Int32Array;
  padCounts: Int32Array;
  /** Upper bound on tokens fed per row over the whole generation (prompt + generated − 1). */
  capacity: number;
  /** KV cache (default) or full recompute each step. */
  useCache: boolean;
}

/** An ongoing generation: feed one token per row, get the next logits. */
export interface DecodeRun {
  next(ids: Int32Array, positions: Int32Array): Promise<StepLogits>;
  /**
   * Optional: keep only the given rows (indices into the current batch, ascending), so finished
   * rows stop costing compute. Later `next` calls take and return the kept rows only.
   */
  compact?(keep: number[]): void;
}

/** A served model the generation loop can drive. Reference-counted across weight syncs. */
export interface Decoder {
  /** False when the graph has no attention mask: rows of a batch must then be equally long. */
  readonly supportsPadding: boolean;
  begin(start: DecodeStart): Promise<{ first: StepLogits; run: DecodeRun }>;
  retain(): void;
  dispose(): Promise<void>;
}

/**
 * Full-history decode run for recompute mode: keeps every fed token and reruns the whole
 * sequence through `forwardFull` each step.
 */
export class RecomputeRun implements DecodeRun {
  private ids: Int32Array;
  private positions: Int32Array;
  private len: number;

  constructor(
    private readonly start: DecodeStart,
    private readonly forwardFull: (ids: Int32Array, positions: Int32Array, seq: number) => Promise<StepLogits>,
  ) {
    const { batch: B, promptLen: L, capacity } = start;
    this.ids = new Int32Array(B * capacity);
    this.positions = new Int32Array(B * capacity);
    for (let b = 0; b < B; b++) {
      this.ids.set(start.ids.subarray(b * L, (b + 1) * L), b * capacity);
      this.positions.set(start.positions.subarray(b * L, (b + 1) * L), b * capacity);
    }
    this.len = L;
  }

  async next(ids: Int32Array, positions: Int32Array): Promise<StepLogits> {
    const { batch: B, capacity } = this.start;
    if (this.len >= capacity) throw new AnchorError('INTERNAL', 'decode run exceeded its capacity');
    for (let b = 0; b < B; b++) {
      this.ids[b * capacity + this.len] = ids[b]!;
      this.positions[b * capacity + this.len] = positions[b]!;
    }
    this.len++;
    const S = this.len;
    const flatIds = new Int32Array(B * S);
    const flatPos = new Int32Array(B * S);
    for (let b = 0; b < B; b++) {
      flatIds.set(this.ids.subarray(b * capacity, b * capacity + S), b * S);
      flatPos.set(this.positions.subarray(b * capacity, b * capacity + S), b * S);
    }
    return this.forwardFull(flatIds, flatPos, S);
  }
}

/**
 * The logits output `name` of a run as {@link StepLogits}; throws AnchorError BAD_MODEL unless it
 * is a float32 [batch, seq, vocab] tensor (with `batch` rows, when given).
 */
export function readLogits(out: OrtOutputs, name: string, batch?: number): StepLogits {
  const t = out[name];
  if (t?.type !== 'float32' || t.dims.length !== 3 || (batch !== undefined && t.dims[0] !== batch)) {
    throw new AnchorError('BAD_MODEL', `output '${name}' is not a float32 [batch, seq, vocab] tensor`);
  }
  return { logits: t.data as Float32Array, logitsSeq: t.dims[1]!, vocab: t.dims[2]! };
}
