/**
 * How much memory one optimizer step of a policy needs on the wasm backend, how many rows of it
 * fit the heap in one pass, and a coded error before a step that cannot fit at all (running out
 * aborts the whole process with "Aborted()" / "memory access out of bounds", which no catch can
 * recover). The trainer asks {@link rowsPerPass} before every optimizer step and splits the step
 * into micro-batches that fit.
 *
 * The estimates are fitted to tf.profile peaks measured on this backend (float32, tied heads,
 * batch × (prompt + completion) with completion = half): the backward pass holds every activation
 * and its gradient until it ends, so the peak is mostly per token — per layer, bytes per token·d,
 * per token·ffn and per attention score (batch·heads·T²), and bytes per completion token·vocabulary
 * entry in the head — plus a number of weight copies (weights, Adam moments, gradients, transients,
 * and with full fine-tuning the KL reference's copy). Fits and their held-out checks:
 * - Llama family, full: eight configurations 1.4M–9.8M parameters within 1%; held-out 50M
 *   (10 × 512, vocabulary 32k, 4 × 128 tokens) 4% above its measured 3,329 MB.
 * - Llama family, LoRA: the full fit's activation terms with 3 weight copies (chosen against the
 *   50M model: 2,659 MB estimated, 2,621 MB measured).
 * - GPT-2, full: eight configurations 1.6M–7.5M within 0.5%; held-out 36M (6 × 512, 32k) 2.6%
 *   above its measured 2,328 MB.
 * - GPT-2, LoRA: four configurations fitted exactly (its frozen path needs no embedding gradient);
 *   held-out 36M: see the test.
 */
import { tf } from '../../tf/backend.ts';
import { AnchorError } from '../../util/errors.ts';
import type { TrainStepShape } from '../policy-model.ts';

/**
 * Bytes the wasm backend can address: emscripten's heap maximum in @tensorflow/tfjs-backend-wasm
 * 4.22 (65,535 pages of 64 KiB; measured: allocations abort at ~3.97 GB of tensors).
 */
export const WASM_HEAP_BYTES = 4_294_901_760;

/** What the estimate needs of a model. */
export interface MemoryShape {
  arch: 'llama' | 'gpt2';
  params: number;
  layers: number;
  dModel: number;
  /** MLP width (GPT-2: 4·d, folded into the per-token·d term). */
  ffn: number;
  heads: number;
  vocabSize: number;
}

/** Fitted bytes per unit (see the module docs). */
interface Fit {
  base: number;
  /** Weight copies (× 4 bytes × parameters), the reference copy included for full fine-tuning. */
  copies: number;
  perTokenD: number;
  perTokenFfn: number;
  perScore: number;
  perHeadEntry: number;
  /** Correction per embedding-table entry (vocabulary × d). */
  perTableEntry: number;
}

const FITS: Record<MemoryShape['arch'], { full: Fit; lora: Fit }> = {
  llama: {
    full: {
      base: 5.4e6,
      copies: 8.7 + 1,
      perTokenD: 411,
      perTokenFfn: 43.5,
      perScore: 76,
      perHeadEntry: 47.6,
      perTableEntry: -14.2,
    },
    lora: { base: 5.4e6, copies: 3, perTokenD: 411, perTokenFfn: 43.5, perScore: 76, perHeadEntry: 47.6, perTableEntry: 0 },
  },
  gpt2: {
    full: {
      base: 2.3e6,
      copies: 10.1 + 1,
      perTokenD: 506,
      perTokenFfn: 0,
      perScore: 75.6,
      perHeadEntry: 49.4,
      perTableEntry: -23.3,
    },
    lora: { base: 1e5, copies: 1.84, perTokenD: 654, perTokenFfn: 0, perScore: 75.6, perHeadEntry: 40.3, perTableEntry: 0 },
  },
};

/** Estimated peak tensor bytes of one optimizer step of shape `s`. */
export function trainStepBytes(m: MemoryShape, lora: boolean, s: TrainStepShape): number {
  const f = FITS[m.arch][lora ? 'lora' : 'full'];
  const tokens = s.rows * s.length;
  const perLayer =
    f.perTokenD * tokens * m.dModel + f.perTokenFfn * tokens * m.ffn + f.perScore * s.rows * m.heads * s.length ** 2;
  return (
    f.base +
    f.copies * 4 * m.params +
    m.layers * perLayer +
    f.perHeadEntry * s.rows * s.completion * m.vocabSize +
    f.perTableEntry * m.vocabSize * m.dModel
  );
}

const gb = (b: number): string => `${(b / 1e9).toFixed(2)} GB`;

/**
 * The most rows of shape `s` one optimizer pass may hold (the trainer splits a larger step into
 * micro-batches of this many rows and sums their gradients): `s.rows` off wasm or when the whole
 * step fits; UNSUPPORTED when not even one row fits the heap (the message names the estimate and
 * the limit). Micro-batching keeps one more gradient set alive (counted in).
 */
export function rowsPerPass(m: MemoryShape, lora: boolean, s: TrainStepShape): number {
  if (tf.getBackend() !== 'wasm' || trainStepBytes(m, lora, s) <= WASM_HEAP_BYTES) return s.rows;
  const accumulated = lora ? 0 : 4 * m.params;
  let rows = s.rows - 1;
  while (rows > 0 && trainStepBytes(m, lora, { ...s, rows }) + accumulated > WASM_HEAP_BYTES) rows--;
  if (rows > 0) return rows;
  const one = trainStepBytes(m, lora, { ...s, rows: 1 }) + accumulated;
  throw new AnchorError(
    'UNSUPPORTED',
    `policy: a ${lora ? 'LoRA' : 'full fine-tuning'} step needs an estimated ${gb(one)} of tensors for even one sequence of ${s.length} tokens, ` +
      `more than the ${gb(WASM_HEAP_BYTES)} the wasm backend can address (running it would abort the process). ` +
      `Shorter sequences (policy.sampling.max_new_tokens, shorter prompts)${lora ? '' : ', policy.lora'} ` +
      'or the native backend (@tensorflow/tfjs-node; docs/policy.md "Bring your own model") are the ways out.',
    { estimateBytes: one, limitBytes: WASM_HEAP_BYTES, length: s.length, completion: s.completion },
  );
}

/** Total scalar count of a weight-shape map. */
export function countParams(shapes: Map<string, number[]>): number {
  let n = 0;
  for (const shape of shapes.values()) n += shape.reduce((a, b) => a * b, 1);
  return n;
}
