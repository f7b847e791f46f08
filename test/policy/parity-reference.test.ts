/**
 * ONNX Runtime logits of the exported policy vs an independent float64 JS forward pass of the
 * weight contract, for full sequences, left-padded batches and step-by-step cached decoding,
 * in both export layouts (HF optimum interface and the rollout engine's cache layout).
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/util/rng.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import { positionsFromMask, randomWeights, referenceLogits } from './parity-reference.ts';
import { maxAbsDiff, ortLogits, randomRows } from './parity-helpers.ts';

const TOL = 1e-4;
const configs: Array<{ name: string; c: GptConfig }> = [
  { name: 'tied, 2 layers', c: { vocabSize: 23, context: 16, layers: 2, dModel: 16, heads: 4, tiedHead: true } },
  { name: 'untied, 3 heads', c: { vocabSize: 17, context: 12, layers: 1, dModel: 24, heads: 3, tiedHead: false } },
];

function reference(c: GptConfig, w: ReturnType<typeof randomWeights>, rows: number[][]): number[][][] {
  // Each row alone, unpadded: what a left-padded batch must reproduce.
  return rows.map((r) => {
    const mask = r.map(() => 1);
    return referenceLogits(c, w, [r], [mask], [positionsFromMask(mask)])[0]!;
  });
}

describe.each(configs)('ORT vs float64 reference ($name)', ({ c }) => {
  const w = randomWeights(c, 7);
  const rng = new Rng(11);
  const rows = randomRows(rng, c.vocabSize, [c.context, 5, 9]);
  const ref = reference(c, w, rows);

  it('reference itself honours left padding (padded batch = rows alone)', () => {
    const L = Math.max(...rows.map((r) => r.length));
    const ids = rows.map((r) => [...Array<number>(L - r.length).fill(0), ...r]);
    const mask = rows.map((r) => [...Array<number>(L - r.length).fill(0), ...r.map(() => 1)]);
    const padded = referenceLogits(c, w, ids, mask, mask.map(positionsFromMask));
    const unpadded = padded.map((row, b) => row.slice(L - rows[b]!.length));
    expect(maxAbsDiff(unpadded, ref)).toBeLessThan(1e-9);
  });

  for (const layout of ['optimum', 'engine'] as const) {
    it(`${layout} layout: full left-padded sequences within ${TOL}`, async () => {
      const got = await ortLogits(c, w, rows, layout, 'full');
      const diff = maxAbsDiff(got, ref);
      console.log(`parity ${layout} full: max |diff| = ${diff.toExponential(2)}`);
      expect(diff).toBeLessThan(TOL);
    });

    it(`${layout} layout: step-by-step cached decoding within ${TOL}`, async () => {
      const got = await ortLogits(c, w, rows, layout, 'cached', 2);
      const diff = maxAbsDiff(got, ref);
      console.log(`parity ${layout} cached: max |diff| = ${diff.toExponential(2)}`);
      expect(diff).toBeLessThan(TOL);
    });
  }

  it('a wrong weight changes the logits (the comparison can fail)', async () => {
    const w2 = randomWeights(c, 7);
    w2.get('h.0.mlp.c_fc.bias')!.data[0]! += 0.5;
    const got = await ortLogits(c, w2, rows, 'optimum', 'full');
    expect(maxAbsDiff(got, ref)).toBeGreaterThan(TOL);
  });
});
