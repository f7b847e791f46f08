import { describe, expect, it } from 'vitest';
import { fitGbt, predictGbt } from '../../../src/research/verifiers/gbt.ts';
import { fitRidgeF64, predictLinear } from '../../../src/reward/models/ridge-math.ts';
import { Rng } from '../../../src/util/rng.ts';

describe('gradient-boosted trees', () => {
  it('a single depth-1 tree with learning rate 1 is the best stump (hand case)', () => {
    // y = 0,0,1,3 at x = 1..4. Split after x=2: SSE 0 + 2 = 2; after x=3: 2/3 + 0 = 2/3 (best);
    // after x=1: 0 + 14/3. So the threshold is 3.5 and the leaves are 1/3 and 3.
    const X = [[1], [2], [3], [4]];
    const y = [0, 0, 1, 3];
    const m = fitGbt(X, y, { trees: 1, learningRate: 1, maxDepth: 1 });
    const p = predictGbt(m, [[0], [3.4], [3.6], [9]]);
    [1 / 3, 1 / 3, 3, 3].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 12));
  });

  it('learns an interaction a linear model cannot, deterministically', () => {
    const rng = new Rng(5);
    const mk = (k: number) => {
      const X = Array.from({ length: k }, () => [rng.int(3), rng.int(3), rng.int(3)]);
      return { X, y: X.map((r): number => (r[0] === r[1] ? 1 : 0)) };
    };
    const tr = mk(400);
    const te = mk(200);
    const m = fitGbt(tr.X, tr.y);
    const mse = (p: Float64Array) => te.y.reduce((s, v, i) => s + (p[i]! - v) ** 2, 0) / te.y.length;
    const gbt = mse(predictGbt(m, te.X));
    const lin = mse(predictLinear(fitRidgeF64(tr.X, tr.y, { alpha: 1 }), te.X));
    expect(gbt).toBeLessThan(0.02);
    expect(lin).toBeGreaterThan(0.15);
    expect(Array.from(predictGbt(fitGbt(tr.X, tr.y), te.X))).toEqual(Array.from(predictGbt(m, te.X)));
  });
});

describe('sparse level-wise GBT equals the dense reference', () => {
  it('same predictions on RichDSL strong features', async () => {
    const { richdsl } = await import('../../../src/tasks/index.ts');
    const { fitGbtReference, predictGbtReference } = await import('./gbt-reference.ts');
    const rng = new Rng(2);
    const task = richdsl.sampleTask(rng);
    const tr = Array.from({ length: 600 }, () => richdsl.randomProgram(rng));
    const te = Array.from({ length: 300 }, () => richdsl.randomProgram(rng));
    const X = tr.map((p) => richdsl.features(p, 'strong'));
    const y = tr.map((p) => richdsl.evaluate(p, task));
    const Xt = te.map((p) => richdsl.features(p, 'strong'));
    const a = predictGbt(fitGbt(X, y, { trees: 20 }), Xt);
    const b = predictGbtReference(fitGbtReference(X, y, { trees: 20 }), Xt);
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});
