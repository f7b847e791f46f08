/**
 * How much memory one optimizer step of a Llama-family policy needs, how many rows of it fit the
 * wasm backend's heap in one pass, and a coded error before a step that cannot fit at all (where running out aborts the whole process with
 * "Aborted()" / "memory access out of bounds", which no catch can recover).
 *
 * The trainer asks {@link llamaRowsPerPass} before every optimizer step and splits the step into
 * micro-batches that fit.
 *
 * The estimate is fitted to tf.profile peaks measured on this backend (float32, tied head, 8
 * heads / 4 key-value heads; bench/hf-bench.ts shapes): eight full-fine-tuning configurations
 * from 1.4M to 9.8M parameters fit within 1%, and the held-out 50M model (10 × 512, vocabulary
 * 32k, batch 4 × 128 tokens) came out 4% above its measured 3,329 MB. The backward pass holds
 * every activation and its gradient until it ends, so the peak is mostly per token: per layer
 * ~411 B per token·d, ~43 B per token·ffn and ~76 B per attention score (batch·heads·T²), and
 * ~48 B per completion token·vocabulary entry in the head. The state is ~8.7 weight copies with
 * full fine-tuning (weights, Adam m and v, gradients, transients) plus the KL reference's copy,
 * ~3 under LoRA (the frozen base and transposed copies of it; 50M LoRA: 2,659 MB estimated,
 * 2,621 MB measured).
 */
import { tf } from '../../tf/backend.ts';
import { AnchorError } from '../../util/errors.ts';
import type { TrainStepShape } from '../policy-model.ts';
import type { LlamaConfig } from './hf-config.ts';
import { llamaWeightShapes } from './llama-weights.ts';

/**
 * Bytes the wasm backend can address: emscripten's heap maximum in @tensorflow/tfjs-backend-wasm
 * 4.22 (65,535 pages of 64 KiB; measured: allocations abort at ~3.97 GB of tensors).
 */
export const WASM_HEAP_BYTES = 4_294_901_760;

/** Estimated peak tensor bytes of one optimizer step (see the module docs for the fit). */
export function llamaTrainStepBytes(c: LlamaConfig, lora: boolean, s: TrainStepShape): number {
  const params = weightCount(c);
  const tokens = s.rows * s.length;
  // Full fine-tuning: 8.7 weight copies (the fit's embedding-table term −14.2 B per vocab·d
  // corrects it) plus the KL reference's copy; LoRA: 3 copies.
  const state = lora ? 3 * 4 * params : (8.7 + 1) * 4 * params - 14.2 * c.vocabSize * c.dModel;
  const perLayer = 411 * tokens * c.dModel + 43.5 * tokens * c.ffn + 76 * s.rows * c.heads * s.length * s.length;
  return 5.4e6 + state + c.layers * perLayer + 47.6 * s.rows * s.completion * c.vocabSize;
}

function weightCount(c: LlamaConfig): number {
  let n = 0;
  for (const shape of llamaWeightShapes(c).values()) n += shape.reduce((a, b) => a * b, 1);
  return n;
}

const gb = (b: number): string => `${(b / 1e9).toFixed(2)} GB`;

/**
 * The most rows of shape `s` one optimizer pass may hold (the trainer splits a larger step into
 * micro-batches of this many rows and sums their gradients): `s.rows` off wasm or when the whole
 * step fits; UNSUPPORTED when not even one row fits the heap (the message names the estimate and
 * the limit). Micro-batching keeps one more gradient set alive (counted in).
 */
export function llamaRowsPerPass(c: LlamaConfig, lora: boolean, s: TrainStepShape): number {
  if (tf.getBackend() !== 'wasm' || llamaTrainStepBytes(c, lora, s) <= WASM_HEAP_BYTES) return s.rows;
  const accumulated = lora ? 0 : 4 * weightCount(c);
  let rows = s.rows - 1;
  while (rows > 0 && llamaTrainStepBytes(c, lora, { ...s, rows }) + accumulated > WASM_HEAP_BYTES) rows--;
  if (rows > 0) return rows;
  const one = llamaTrainStepBytes(c, lora, { ...s, rows: 1 }) + accumulated;
  throw new AnchorError(
    'UNSUPPORTED',
    `policy: a ${lora ? 'LoRA' : 'full fine-tuning'} step needs an estimated ${gb(one)} of tensors for even one sequence of ${s.length} tokens, ` +
      `more than the ${gb(WASM_HEAP_BYTES)} the wasm backend can address (running it would abort the process). ` +
      `Shorter sequences (policy.sampling.max_new_tokens, shorter prompts)${lora ? '' : ', policy.lora'} ` +
      'or the native backend (@tensorflow/tfjs-node; README "Bring your own model") are the ways out.',
    { estimateBytes: one, limitBytes: WASM_HEAP_BYTES, length: s.length, completion: s.completion },
  );
}
