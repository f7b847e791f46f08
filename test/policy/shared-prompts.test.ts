/**
 * The shared-prompt layout of a completion batch (logprobs.ts, SharedPromptLayout): each distinct
 * prompt runs once and its keys/values are copied to the rows that repeat it. It must compute
 * the log-probs and gradients of the full [B, P+C] layout — for the built-in GPT and the Llama
 * architecture, with prompts of different lengths (one of a single token) and padded completions,
 * its rows in one bucket or in buckets of similar completion length.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';
import { GptModel, initWeights } from '../../src/policy/model.ts';
import { LlamaModel } from '../../src/policy/hf/llama-model.ts';
import { randomHfWeights, tinyLlamaConfig } from '../../src/policy/hf/random-dir.ts';
import { expandRows } from '../../src/policy/ops.ts';
import { buildCompletionBatch, completionLogProbs, lengthBucketRows, sequenceLogProbs } from '../../src/policy/logprobs.ts';
import type { PolicyModel } from '../../src/policy/policy-model.ts';

beforeAll(async () => {
  await initTf(() => {});
});

// Three groups (prompt lengths 4, 1 and 2), completions of uneven length, rows not in group order.
const P = [[3, 4, 5, 6], [7], [8, 2]];
const rowsOf = [0, 1, 0, 2, 1, 0, 2, 1];
const prompts = rowsOf.map((g) => P[g]!);
const completions = rowsOf.map((_, i) => Array.from({ length: 1 + ((i * 5) % 6) }, (_, j) => 1 + ((i * 3 + j * 7) % 11)));

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function models(): [string, PolicyModel][] {
  const gpt = GptModel.fromWeights(
    { vocabSize: 13, context: 24, layers: 2, dModel: 16, heads: 2, tiedHead: true },
    initWeights({ vocabSize: 13, context: 24, layers: 2, dModel: 16, heads: 2, tiedHead: true }, 3),
  );
  const cfg = tinyLlamaConfig({ vocabSize: 13, layers: 2, qkvBias: true });
  const llama = LlamaModel.fromWeights(cfg, randomHfWeights({ arch: 'llama', llama: cfg }, 4, 0.3));
  return [
    ['gpt', gpt],
    ['llama', llama],
  ];
}

describe('shared-prompt layout', () => {
  const MODELS = models();
  afterAll(() => {
    for (const [, m] of MODELS) m.dispose();
  });

  it('is built only when a prompt repeats, with one prefix row per distinct prompt', () => {
    const shared = buildCompletionBatch(prompts, completions, 0, { sharePrompts: true });
    expect(shared.shared!.prefix.batch).toBe(3);
    expect(shared.shared!.buckets).toHaveLength(1);
    expect(shared.shared!.order).toBeUndefined();
    expect(Array.from(shared.shared!.buckets[0]!.source)).toEqual(rowsOf);
    expect(shared.shared!.prefix.length).toBe(3); // P - 1
    expect(shared.shared!.buckets[0]!.suffix.length).toBe(shared.completionLength + 1);
    expect(buildCompletionBatch(P, [[1], [2], [3]], 0, { sharePrompts: true }).shared).toBeUndefined();
    expect(buildCompletionBatch(prompts, completions, 0).shared).toBeUndefined();
  });

  it('buckets rows by completion length, each padded to its own longest completion', () => {
    const C = Math.max(...completions.map((c) => c.length));
    const x = buildCompletionBatch(prompts, completions, 0, { sharePrompts: true, lengthBuckets: 3 });
    const { buckets, order } = x.shared!;
    expect(buckets.map((k) => k.rows.length)).toEqual([2, 3, 3]);
    // Every row once; row b sits at order[b] in the buckets laid end to end.
    const laid = buckets.flatMap((k) => Array.from(k.rows));
    expect([...laid].sort((a, b) => a - b)).toEqual(rowsOf.map((_, b) => b));
    laid.forEach((b, i) => expect(order![b]).toBe(i));
    for (const k of buckets) {
      const longest = Math.max(...Array.from(k.rows, (b) => completions[b]!.length));
      expect(k.suffix.length).toBe(longest + 1);
      expect(Array.from(k.source)).toEqual(Array.from(k.rows, (b) => rowsOf[b]));
    }
    // The shortest bucket pads less than the batch's longest completion.
    expect(buckets[0]!.suffix.length).toBeLessThan(C + 1);
    expect(buckets.at(-1)!.suffix.length).toBe(C + 1);
  });

  it('splits rows into buckets by length, ties in row order', () => {
    const rows = (k: number) => lengthBucketRows([[1, 2], [1], [1, 2], [1], [1, 2, 3]], k).map((r) => Array.from(r));
    expect(rows(1)).toEqual([[0, 1, 2, 3, 4]]);
    expect(rows(2)).toEqual([
      [1, 3],
      [0, 2, 4],
    ]);
    expect(rows(5)).toEqual([[1], [3], [0], [2], [4]]);
  });

  it.each(MODELS.flatMap(([name, m]) => [1, 3, 8].map((k) => [`${name}, ${k} bucket(s)`, m, k] as const)))(
    '%s: log-probs and gradients equal those of the full layout',
    (_name, m, lengthBuckets) => {
      const full = buildCompletionBatch(prompts, completions, 0);
      const shared = buildCompletionBatch(prompts, completions, 0, { sharePrompts: true, lengthBuckets });
      const lp = (b: typeof full) => tf.tidy(() => completionLogProbs(m, b, { entropy: false }).logProbs.dataSync());
      const a = lp(full);
      const s = lp(shared);
      expect(maxAbsDiff(a, s)).toBeLessThan(1e-5);
      // Padding stays exactly zero.
      for (let i = 0; i < a.length; i++) if (!full.completionMask[i]) expect(Math.abs(s[i]!)).toBe(0);
      // A loss that weighs every token differently, so each row's gradient matters.
      const w = new Float32Array(a.length).map((_, i) => new Rng(i).normal());
      const grads = (b: typeof full) =>
        tf.tidy(() => {
          const r = tf.variableGrads(
            () =>
              tf.sum(
                tf.mul(completionLogProbs(m, b, { entropy: false }).logProbs, tf.tensor2d(w, [b.batch, b.completionLength])),
              ) as tf.Scalar,
            [...m.params.values()],
          );
          return [...m.params.values()].map((v) => r.grads[v.name]!.dataSync() as Float32Array);
        });
      const ga = grads(full);
      const gs = grads(shared);
      ga.forEach((g, i) => {
        const scale = Math.max(1, ...Array.from(g, Math.abs));
        expect(maxAbsDiff(g, gs[i]!) / scale).toBeLessThan(1e-4);
      });
      // sequenceLogProbs in chunks that split groups: the same numbers.
      const chunked = sequenceLogProbs(m, prompts, completions, {
        padId: 0,
        chunkSize: 3,
        sharePrompts: true,
        entropy: false,
        lengthBuckets,
      });
      expect(maxAbsDiff(chunked.logProbs, a)).toBeLessThan(1e-5);
      expect(Array.from(chunked.entropy).every((e) => e === 0)).toBe(true);
    },
  );

  it('expandRows copies rows exactly and sums the gradient of each copy', () => {
    const x = tf.tensor3d(
      Float32Array.from({ length: 2 * 3 * 2 }, (_, i) => i * 0.37 - 1.1),
      [2, 3, 2],
    );
    const source = Int32Array.from([1, 0, 1, 1]);
    const out = tf.tidy(() => expandRows(x, source, 2).arraySync());
    const rows = x.arraySync();
    expect(out).toEqual([rows[1], rows[0], rows[1], rows[1]]);
    const g = tf.tidy(() =>
      tf
        .grad((t: tf.Tensor) => tf.sum(tf.mul(expandRows(t as tf.Tensor3D, source, 2), tf.range(1, 25).reshape([4, 3, 2]))))(x)
        .arraySync(),
    ) as number[][][];
    // Row 0 appears once (copy 1: weights 7..12); row 1 three times (copies 0, 2, 3).
    expect(g[0]![0]).toEqual([7, 8]);
    expect(g[1]![0]).toEqual([1 + 13 + 19, 2 + 14 + 20]);
    x.dispose();
  });
});
