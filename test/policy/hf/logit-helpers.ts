/** Logits of left-padded rows from tfjs and ONNX Runtime, per row and real position (test helper). */
import { tf } from '../../../src/tf/backend.ts';
import type { Decoder, StepLogits } from '../../../src/policy/engine/decoder.ts';
import { positionsFromMask } from '../../../src/policy/model.ts';
import type { PolicyModel } from '../../../src/policy/policy-model.ts';
import { leftPad } from '../parity-helpers.ts';

/** tfjs logits of each real position of left-padded rows: [row][pos][vocab]. */
export function tfjsRowLogits(model: PolicyModel, rows: number[][]): number[][][] {
  const { L, ids, padCounts } = leftPad(rows);
  const B = rows.length;
  const mask = new Float32Array(B * L).fill(1);
  for (let b = 0; b < B; b++) mask.fill(0, b * L, b * L + padCounts[b]!);
  const V = model.config.vocabSize;
  const data = tf.tidy(() => {
    const { hidden } = model.forward({ batch: B, length: L, ids, mask, positions: positionsFromMask(mask, B, L) });
    return model.head(hidden).dataSync() as Float32Array;
  });
  return rows.map((r, b) =>
    r.map((_, j) => Array.from(data.subarray((b * L + padCounts[b]! + j) * V, (b * L + padCounts[b]! + j + 1) * V))),
  );
}

/** ONNX Runtime logits of each real position: one forward, or prefill 2 tokens then cached single steps. */
export async function ortRowLogits(decoder: Decoder, rows: number[][], mode: 'full' | 'cached'): Promise<number[][][]> {
  const out: number[][][] = rows.map(() => []);
  const take = (lg: StepLogits, at: (b: number, s: number) => number | undefined): void => {
    for (let b = 0; b < rows.length; b++) {
      for (let s = 0; s < lg.logitsSeq; s++) {
        const j = at(b, s);
        if (j !== undefined)
          out[b]![j] = Array.from(lg.logits.subarray((b * lg.logitsSeq + s) * lg.vocab, (b * lg.logitsSeq + s + 1) * lg.vocab));
      }
    }
  };
  const steps = mode === 'full' ? 0 : Math.min(...rows.map((r) => r.length)) - 2;
  const prefixes = rows.map((r) => r.slice(0, r.length - steps));
  const { L, ids, positions, padCounts } = leftPad(prefixes);
  const { first, run } = await decoder.begin({
    batch: rows.length,
    promptLen: L,
    ids,
    positions,
    padCounts,
    capacity: L + steps,
    useCache: true,
  });
  take(first, (b, s) => (s >= padCounts[b]! ? s - padCounts[b]! : undefined));
  for (let t = 0; t < steps; t++) {
    const lg = await run.next(
      Int32Array.from(rows, (r, b) => r[prefixes[b]!.length + t]!),
      Int32Array.from(rows, (_, b) => prefixes[b]!.length + t),
    );
    take(lg, (b) => prefixes[b]!.length + t);
  }
  return out;
}

export function maxAbs(a: number[][][], b: number[][][]): number {
  let m = 0;
  a.forEach((r, i) => r.forEach((p, j) => p.forEach((v, k) => (m = Math.max(m, Math.abs(v - (b[i]?.[j]?.[k] ?? Infinity)))))));
  return m;
}
