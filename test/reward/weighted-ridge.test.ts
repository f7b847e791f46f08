import { beforeAll, describe, expect, it } from 'vitest';
import { initTf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';
import {
  bootstrapMembers,
  fitRidgeF64,
  fitWeightedRidgeF64,
  gramF64,
  predictLinear,
  ridgeDesign,
  ridgeForm,
  solveDesign,
} from '../../src/reward/models/ridge-math.ts';
import { RidgeRewardModel } from '../../src/reward/models/ridge.ts';

/**
 * Closed form, independent of the design-row construction: the normal equations of
 *   Σ v_i (y_i − x_i·w − c)² + μ Σ_{i<j same group} ((x_i − x_j)·w − (y_i − y_j))² + α‖w‖²
 * in θ = [w; c], assembled pair by pair and solved by Gauss–Jordan elimination.
 */
function closedForm(
  X: number[][],
  y: number[],
  v: number[],
  groups: number[],
  mu: number,
  alpha: number,
): { w: number[]; b: number } {
  const d = X[0]!.length;
  const k = d + 1;
  const A = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  const add = (row: number[], target: number, weight: number) => {
    for (let p = 0; p < k; p++) {
      for (let q = 0; q < k; q++) A[p]![q]! += weight * row[p]! * row[q]!;
      A[p]![k]! += weight * row[p]! * target;
    }
  };
  X.forEach((x, i) => add([...x, 1], y[i]!, v[i]!));
  for (let i = 0; i < X.length; i++) {
    for (let j = i + 1; j < X.length; j++) {
      if (groups[i]! < 0 || groups[i] !== groups[j]) continue;
      add([...X[i]!.map((a, c) => a - X[j]![c]!), 0], y[i]! - y[j]!, mu);
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

function problem(seed: number, n: number, d: number) {
  const rng = new Rng(seed);
  const truth = Array.from({ length: d }, () => rng.normal());
  const X = Array.from({ length: n }, () => Array.from({ length: d }, () => rng.int(4)));
  const y = X.map((r) => r.reduce((s, x, j) => s + x * truth[j]!, 0.5) + 0.3 * rng.normal());
  const v = X.map(() => 0.1 + 3 * rng.next());
  const groups = X.map((_, i) => (i < n / 2 ? -1 : Math.floor(i / 4)));
  return { X, y, v, groups };
}

beforeAll(async () => {
  await initTf(() => {});
});

describe('weighted ridge (ridge-math)', () => {
  for (const [name, n, d] of [
    ['primal', 40, 6],
    ['dual', 12, 20],
  ] as const) {
    it(`matches the closed form with real weights, ${name} form`, () => {
      const { X, y, v, groups } = problem(3, n, d);
      const fit = fitWeightedRidgeF64(X, y, { alpha: 0.7, weights: v });
      const ref = closedForm(X, y, v, groups, 0, 0.7);
      ref.w.forEach((w, j) => expect(fit.weights[j]).toBeCloseTo(w, 8));
      expect(fit.intercept).toBeCloseTo(ref.b, 8);
    });
    it(`matches the closed form with a within-group pairwise term, ${name} form`, () => {
      const { X, y, v, groups } = problem(4, n, d);
      const fit = fitWeightedRidgeF64(X, y, { alpha: 0.7, weights: v, groups, pairwise: 2.5 });
      const ref = closedForm(X, y, v, groups, 2.5, 0.7);
      ref.w.forEach((w, j) => expect(fit.weights[j]).toBeCloseTo(w, 8));
      expect(fit.intercept).toBeCloseTo(ref.b, 8);
    });
  }

  it('weight k equals k integer copies, and unit weights equal the plain fit', () => {
    const { X, y } = problem(5, 30, 5);
    const v = X.map((_, i) => (i % 3 === 0 ? 3 : 1));
    const copiesX = X.flatMap((x, i) => Array(v[i]).fill(x) as number[][]);
    const copiesY = y.flatMap((t, i) => Array(v[i]).fill(t) as number[]);
    const a = fitWeightedRidgeF64(X, y, { alpha: 1, weights: v });
    const b = fitRidgeF64(copiesX, copiesY, { alpha: 1 });
    a.weights.forEach((w, j) => expect(w).toBeCloseTo(b.weights[j]!, 9));
    const c = fitWeightedRidgeF64(X, y, { alpha: 1 });
    const e = fitRidgeF64(X, y, { alpha: 1 });
    c.weights.forEach((w, j) => expect(w).toBeCloseTo(e.weights[j]!, 9));
  });

  it('bootstrap members scatter around the fit and average close to it', () => {
    const { X, y } = problem(6, 200, 4);
    const design = ridgeDesign(X, y, { alpha: 1 });
    const sol = solveDesign(design, gramF64(design.A, design.m, design.d, ridgeForm(design.m, design.d)), 1);
    const rng = new Rng(1);
    const members = bootstrapMembers(sol, 200, () => rng.next());
    const mean = sol.fit.weights.map((_, j) => members.reduce((a, m) => a + m.weights[j]!, 0) / members.length);
    const sd = sol.fit.weights.map((_, j) =>
      Math.sqrt(members.reduce((a, m) => a + (m.weights[j]! - mean[j]!) ** 2, 0) / members.length),
    );
    sol.fit.weights.forEach((w, j) => {
      expect(sd[j]).toBeGreaterThan(0);
      expect(Math.abs(mean[j]! - w)).toBeLessThan((4 * sd[j]!) / Math.sqrt(members.length) + 1e-9);
    });
    // An exact bootstrap of the same data: the one-step members' spread is of the same size.
    const exact: number[][] = [];
    for (let k = 0; k < 200; k++) {
      const idx = X.map(() => rng.int(X.length));
      exact.push(
        Array.from(
          fitRidgeF64(
            idx.map((i) => X[i]!),
            idx.map((i) => y[i]!),
            { alpha: 1 },
          ).weights,
        ),
      );
    }
    const exactSd = sol.fit.weights.map((_, j) => {
      const m = exact.reduce((a, w) => a + w[j]!, 0) / exact.length;
      return Math.sqrt(exact.reduce((a, w) => a + (w[j]! - m) ** 2, 0) / exact.length);
    });
    sd.forEach((s, j) => expect(s / exactSd[j]!).toBeGreaterThan(0.7));
    sd.forEach((s, j) => expect(s / exactSd[j]!).toBeLessThan(1.4));
  });
});

describe('RidgeRewardModel weighting', () => {
  it('weights settled labels by onPolicy · 2^(−age/halfLife) and matches the float64 weighted fit', async () => {
    const { X, y, groups } = problem(7, 48, 5);
    const rows = X.map((r) => Float32Array.from(r));
    const m = new RidgeRewardModel({ alpha: 1, standardize: false });
    m.setWeighting({ onPolicy: 4, halfLife: 1, pairwise: 0.5 });
    await m.fit(rows.slice(0, 24), y.slice(0, 24));
    await m.refit(rows.slice(24, 36), y.slice(24, 36), { window: 0, groups: groups.slice(24, 36) });
    await m.refit(rows.slice(36), y.slice(36), { window: 1, groups: groups.slice(36) });
    const v = X.map((_, i) => (i < 24 ? 1 : i < 36 ? 2 : 4));
    expect(Array.from(m.labelWeights())).toEqual(v);
    const ref = fitWeightedRidgeF64(X, y, {
      alpha: 1,
      weights: v,
      groups: X.map((_, i) => (i < 24 ? -1 : groups[i]!)),
      pairwise: 0.5,
    });
    const p = await m.predict(rows);
    const q = predictLinear(ref, X);
    p.forEach((s, i) => expect(s).toBeCloseTo(q[i]!, 3));
  });
});

describe('label provenance survives save and load (resume of weighted arms)', () => {
  it('a loaded model weights and groups its labels as the saved one did', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadRewardModel } = await import('../../src/reward/models/kinds.ts');
    const dir = mkdtempSync(join(tmpdir(), 'anchor-wridge-'));
    try {
      const { X, y, groups } = problem(8, 40, 5);
      const rows = X.map((r) => Float32Array.from(r));
      const w = { onPolicy: 3, halfLife: 2, pairwise: 1 };
      const a = new RidgeRewardModel({ alpha: 1, standardize: false });
      a.setWeighting(w);
      await a.fit(rows.slice(0, 20), y.slice(0, 20));
      await a.refit(rows.slice(20, 30), y.slice(20, 30), { window: 0, groups: groups.slice(20, 30) });
      await a.save(dir);
      const b = (await loadRewardModel(dir)) as RidgeRewardModel;
      b.setWeighting(w);
      expect(Array.from(b.labelWeights())).toEqual(Array.from(a.labelWeights()));
      await a.refit(rows.slice(30), y.slice(30), { window: 1, groups: groups.slice(30) });
      await b.refit(rows.slice(30), y.slice(30), { window: 1, groups: groups.slice(30) });
      const pa = await a.predict(rows);
      const pb = await b.predict(rows);
      pa.forEach((v, i) => expect(pb[i]).toBeCloseTo(v, 5));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
