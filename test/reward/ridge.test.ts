import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initTf, tf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';
import { fitRidgeF64, predictLinear } from '../../src/reward/models/ridge-math.ts';
import { RidgeRewardModel } from '../../src/reward/models/ridge.ts';
import { loadRewardModel } from '../../src/reward/models/kinds.ts';
import { createRewardModel, rewardModelSchema } from '../../src/reward/models/index.ts';

/**
 * Independent reference: solve the augmented normal equations
 *   ([X 1]ᵀ[X 1] + diag(α,…,α,0)) [w; b] = [X 1]ᵀ y
 * by Gaussian elimination with partial pivoting in float64 — no centring, no Cholesky.
 */
function referenceRidge(X: number[][], y: number[], alpha: number): { w: number[]; b: number } {
  const n = X.length;
  const d = X[0]!.length;
  const k = d + 1;
  const A = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  for (let i = 0; i < n; i++) {
    const row = [...X[i]!, 1];
    for (let p = 0; p < k; p++) {
      for (let q = 0; q < k; q++) A[p]![q]! += row[p]! * row[q]!;
      A[p]![k]! += row[p]! * y[i]!;
    }
  }
  for (let p = 0; p < d; p++) A[p]![p]! += alpha;
  for (let c = 0; c < k; c++) {
    let piv = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[piv]![c]!)) piv = r;
    [A[c], A[piv]] = [A[piv]!, A[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / A[c]![c]!;
      for (let q = c; q <= k; q++) A[r]![q]! -= f * A[c]![q]!;
    }
  }
  const sol = A.map((row, i) => row[k]! / row[i]!);
  return { w: sol.slice(0, d), b: sol[d]! };
}

function randomProblem(seed: number, n: number, d: number): { X: number[][]; y: number[] } {
  const rng = new Rng(seed);
  const truth = Array.from({ length: d }, () => rng.normal());
  const X = Array.from({ length: n }, () => Array.from({ length: d }, () => rng.int(4)));
  const y = X.map((r) => r.reduce((s, v, j) => s + v * truth[j]!, 0.5) + 0.1 * rng.normal());
  return { X, y };
}

const f32 = (X: number[][]): Float32Array[] => X.map((r) => Float32Array.from(r));

beforeAll(async () => {
  await initTf(() => {});
});

describe('ridge math (float64 path)', () => {
  it('matches the augmented-system reference in the primal form (n > d)', () => {
    const { X, y } = randomProblem(1, 60, 7);
    const fit = fitRidgeF64(X, y, { alpha: 1 });
    const ref = referenceRidge(X, y, 1);
    for (let j = 0; j < 7; j++) expect(fit.weights[j]).toBeCloseTo(ref.w[j]!, 9);
    expect(fit.intercept).toBeCloseTo(ref.b, 9);
  });

  it('matches the reference in the dual form (d > n)', () => {
    const { X, y } = randomProblem(2, 8, 20);
    const fit = fitRidgeF64(X, y, { alpha: 0.5 });
    const ref = referenceRidge(X, y, 0.5);
    for (let j = 0; j < 20; j++) expect(fit.weights[j]).toBeCloseTo(ref.w[j]!, 8);
    expect(fit.intercept).toBeCloseTo(ref.b, 8);
  });

  it('standardize=true equals raw ridge with per-column penalty α/σ_j² (checked via predictions on rescaled data)', () => {
    // Standardised ridge is invariant to rescaling a column: predictions must not change.
    const { X, y } = randomProblem(3, 50, 5);
    const X2 = X.map((r) => r.map((v, j) => (j === 2 ? v * 100 : v)));
    const a = predictLinear(fitRidgeF64(X, y, { alpha: 1, standardize: true }), X);
    const b = predictLinear(fitRidgeF64(X2, y, { alpha: 1, standardize: true }), X2);
    for (let i = 0; i < 50; i++) expect(a[i]).toBeCloseTo(b[i]!, 9);
    const c = predictLinear(fitRidgeF64(X2, y, { alpha: 1 }), X2);
    expect(Math.max(...a.map((v, i) => Math.abs(v - c[i]!)))).toBeGreaterThan(1e-4);
  });
});

describe('RidgeRewardModel (tfjs)', () => {
  it('agrees with the float64 path and the reference (primal and dual)', async () => {
    for (const [seed, n, d] of [
      [4, 200, 12],
      [5, 10, 30],
    ] as const) {
      const { X, y } = randomProblem(seed, n, d);
      const m = new RidgeRewardModel({ alpha: 1, standardize: false });
      await m.fit(f32(X), y);
      const ref = referenceRidge(X, y, 1);
      for (let j = 0; j < d; j++) expect(m.linear.weights[j]).toBeCloseTo(ref.w[j]!, 3);
      expect(m.linear.intercept).toBeCloseTo(ref.b, 3);
      const p = await m.predict(f32(X));
      const q = predictLinear(fitRidgeF64(X, y, { alpha: 1 }), X);
      for (let i = 0; i < n; i++) expect(p[i]).toBeCloseTo(q[i]!, 3);
    }
  });

  it('refit keeps the full label set and equals a fit on the union', async () => {
    const { X, y } = randomProblem(6, 80, 6);
    const a = new RidgeRewardModel({ alpha: 1, standardize: false });
    await a.fit(f32(X.slice(0, 50)), y.slice(0, 50));
    const before = Array.from(a.linear.weights);
    await a.refit(f32(X.slice(50)), y.slice(50));
    expect(a.labelCount).toBe(80);
    const b = new RidgeRewardModel({ alpha: 1, standardize: false });
    await b.fit(f32(X), y);
    expect(Array.from(a.linear.weights)).toEqual(Array.from(b.linear.weights));
    expect(Array.from(a.linear.weights)).not.toEqual(before);
  });

  it('does not leak tensors across fit/predict, and save/load round-trips', async () => {
    const { X, y } = randomProblem(7, 40, 5);
    const m = new RidgeRewardModel({ alpha: 2, standardize: true });
    await m.fit(f32(X), y);
    await m.predict(f32(X));
    const count = tf.memory().numTensors;
    for (let r = 0; r < 3; r++) {
      await m.refit(f32(X.slice(0, 5)), y.slice(0, 5));
      await m.predict(f32(X));
    }
    expect(tf.memory().numTensors).toBe(count);
    const dir = mkdtempSync(join(tmpdir(), 'ridge-'));
    try {
      await m.save(dir);
      const loaded = await loadRewardModel(dir);
      expect(loaded.kind).toBe('ridge');
      expect(loaded.labelCount).toBe(55);
      expect(Array.from(await loaded.predict(f32(X)))).toEqual(Array.from(await m.predict(f32(X))));
      // Refitting the loaded model equals refitting the original (labels restored exactly).
      await loaded.refit(f32(X.slice(0, 1)), y.slice(0, 1));
      await m.refit(f32(X.slice(0, 1)), y.slice(0, 1));
      expect(loaded.labelCount).toBe(56);
      expect(Array.from(await loaded.predict(f32(X)))).toEqual(Array.from(await m.predict(f32(X))));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('config schema fills defaults and rejects unknown keys', () => {
    const cfg = rewardModelSchema.parse({});
    expect(cfg).toMatchObject({ kind: 'ridge', alpha: 1, features: 'js-surface', initial_samples: 1600 });
    expect(cfg.mlp.hidden).toEqual([64]);
    expect(() => rewardModelSchema.parse({ kind: 'ridge', alhpa: 1 })).toThrow();
    expect(createRewardModel(cfg).kind).toBe('ridge');
  });
});
