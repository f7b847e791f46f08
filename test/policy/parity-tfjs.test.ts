/**
 * ONNX Runtime (exported graph) vs the trainable tfjs model on the same weights: logits within
 * 1e-4 for full left-padded sequences and for step-by-step cached decoding.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { GptModel, positionsFromMask } from '../../src/policy/model.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import { Rng } from '../../src/util/rng.ts';
import { randomWeights } from './parity-reference.ts';
import { maxAbsDiff, ortLogits, randomRows } from './parity-helpers.ts';

const TOL = 1e-4;

beforeAll(async () => {
  await initTf(() => {});
});

/** tfjs logits of each row alone (no padding), [row][pos][vocab]. */
function tfjsLogits(model: GptModel, rows: number[][]): number[][][] {
  return rows.map((r) =>
    tf.tidy(() => {
      const mask = new Float32Array(r.length).fill(1);
      const x = { batch: 1, length: r.length, ids: Int32Array.from(r), mask, positions: positionsFromMask(mask, 1, r.length) };
      const data = model.logits(x).dataSync();
      const V = model.config.vocabSize;
      return r.map((_, j) => Array.from(data.subarray(j * V, (j + 1) * V)));
    }),
  );
}

describe.each([
  {
    name: 'default shape (2 layers, d 128, 4 heads), tied',
    c: { vocabSize: 100, context: 64, layers: 2, dModel: 128, heads: 4, tiedHead: true },
  },
  { name: 'small untied', c: { vocabSize: 31, context: 16, layers: 2, dModel: 24, heads: 3, tiedHead: false } },
] satisfies Array<{ name: string; c: GptConfig }>)('ORT vs tfjs ($name)', ({ c }) => {
  const weights = randomWeights(c, 3, 0.1);
  const rows = randomRows(new Rng(8), c.vocabSize, [Math.min(c.context, 20), 7, 12]);

  for (const layout of ['optimum', 'engine'] as const) {
    it(`${layout} layout: full and cached decoding within ${TOL}`, async () => {
      const model = GptModel.fromWeights(c, weights);
      const before = tf.memory().numTensors;
      const ref = tfjsLogits(model, rows);
      expect(tf.memory().numTensors).toBe(before);
      model.dispose();
      const full = maxAbsDiff(await ortLogits(c, weights, rows, layout, 'full'), ref);
      const cached = maxAbsDiff(await ortLogits(c, weights, rows, layout, 'cached', 3), ref);
      console.log(`parity tfjs/${layout}: full ${full.toExponential(2)}, cached ${cached.toExponential(2)}`);
      expect(full).toBeLessThan(TOL);
      expect(cached).toBeLessThan(TOL);
    });
  }
});
