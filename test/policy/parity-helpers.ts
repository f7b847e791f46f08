/** Shared helpers for the ONNX parity tests (not a test file). */
import type { StepLogits } from '../../src/policy/engine/decoder.ts';
import { OrtEngineDecoder } from '../../src/policy/engine/engine-decoder.ts';
import { OrtDecoder } from '../../src/policy/engine/mapped-decoder.ts';
import { exportGptToOnnx } from '../../src/policy/onnx/export-gpt.ts';
import { headDim, type GptConfig } from '../../src/policy/gpt-config.ts';
import type { WeightMap } from '../../src/policy/weights.ts';
import type { Rng } from '../../src/util/rng.ts';

/** A left-padded batch from rows of different lengths. */
export function leftPad(rows: number[][], pad = 0): { L: number; ids: Int32Array; positions: Int32Array; padCounts: Int32Array } {
  const L = Math.max(...rows.map((r) => r.length));
  const B = rows.length;
  const ids = new Int32Array(B * L).fill(pad);
  const positions = new Int32Array(B * L);
  const padCounts = new Int32Array(B);
  rows.forEach((r, b) => {
    const pc = L - r.length;
    padCounts[b] = pc;
    ids.set(r, b * L + pc);
    for (let j = pc; j < L; j++) positions[b * L + j] = j - pc;
  });
  return { L, ids, positions, padCounts };
}

/** Random token rows with the given lengths. */
export function randomRows(rng: Rng, vocab: number, lengths: number[]): number[][] {
  return lengths.map((n) => Array.from({ length: n }, () => rng.int(vocab)));
}

/**
 * Logits of every real position of `rows` computed two ways by ONNX Runtime: a full forward of
 * the left-padded batch, and incremental decoding (prefill the first `prefix` tokens, then one
 * token per step through the cache). Layout 'optimum' uses the exported HF interface;
 * 'engine' the rollout engine's fixed-capacity cache graph.
 * Returns per row, per position, the vocab logits.
 */
export async function ortLogits(
  c: GptConfig,
  w: WeightMap,
  rows: number[][],
  layout: 'optimum' | 'engine',
  mode: 'full' | 'cached',
  prefix = 2,
): Promise<number[][][]> {
  const B = rows.length;
  const V = c.vocabSize;
  const result: number[][][] = rows.map(() => []);
  const collect = (lg: StepLogits, positionsPerRow: (b: number, s: number) => number | undefined): void => {
    for (let b = 0; b < B; b++) {
      for (let s = 0; s < lg.logitsSeq; s++) {
        const j = positionsPerRow(b, s);
        if (j === undefined) continue;
        const off = (b * lg.logitsSeq + s) * V;
        result[b]![j] = Array.from(lg.logits.subarray(off, off + V));
      }
    }
  };
  const decoder =
    layout === 'optimum'
      ? await OrtDecoder.create(exportGptToOnnx(c, w))
      : await OrtEngineDecoder.create(exportGptToOnnx(c, w, { layout: 'engine' }), {
          layers: c.layers,
          heads: c.heads,
          headDim: headDim(c),
        });
  try {
    if (mode === 'full') {
      const { L, ids, positions, padCounts } = leftPad(rows);
      const { first } = await decoder.begin({ batch: B, promptLen: L, ids, positions, padCounts, capacity: L, useCache: true });
      collect(first, (b, s) => (s >= padCounts[b]! ? s - padCounts[b]! : undefined));
      return result;
    }
    // Cached: rows share the same number of decode steps; prefixes differ in length (left pad).
    const steps = Math.min(...rows.map((r) => r.length)) - prefix;
    const prefixes = rows.map((r) => r.slice(0, r.length - steps));
    const { L, ids, positions, padCounts } = leftPad(prefixes);
    const { first, run } = await decoder.begin({
      batch: B,
      promptLen: L,
      ids,
      positions,
      padCounts,
      capacity: L + steps,
      useCache: true,
    });
    collect(first, (b, s) => (s >= padCounts[b]! ? s - padCounts[b]! : undefined));
    for (let t = 0; t < steps; t++) {
      const stepIds = Int32Array.from(rows, (r, b) => r[prefixes[b]!.length + t]!);
      const stepPos = Int32Array.from(rows, (_, b) => prefixes[b]!.length + t);
      const lg = await run.next(stepIds, stepPos);
      collect(lg, (b) => prefixes[b]!.length + t);
    }
    return result;
  } finally {
    await decoder.dispose();
  }
}

/** Max |a − b| over rows/positions/vocab. */
export function maxAbsDiff(a: number[][][], b: number[][][]): number {
  let m = 0;
  a.forEach((rows, i) =>
    rows.forEach((pos, j) =>
      pos.forEach((v, k) => {
        const other = b[i]?.[j]?.[k];
        m = Math.max(m, other === undefined ? Infinity : Math.abs(v - other));
      }),
    ),
  );
  return m;
}
