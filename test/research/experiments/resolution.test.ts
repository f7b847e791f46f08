import { describe, expect, it } from 'vitest';
import { fitLogistic, predictLogistic, runResolution } from '../../../src/research/experiments/resolution.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runMain } from './run-main.ts';

describe('resolution pieces', () => {
  it('fitLogistic solves the penalised likelihood: zero gradient, and recovers a known model', () => {
    const rng = new Rng(4);
    const X = Array.from({ length: 3000 }, () => Float64Array.from([rng.normal(), rng.normal()]));
    const y = X.map((x) => (rng.next() < 1 / (1 + Math.exp(-(0.5 + 2 * x[0]! - x[1]!))) ? 1 : 0));
    const f = fitLogistic(X, y, 1);
    expect(f.weights[0]).toBeCloseTo(2, 0);
    expect(f.weights[1]).toBeCloseTo(-1, 0);
    expect(f.intercept).toBeCloseTo(0.5, 0);
    const p = predictLogistic(f, X);
    const g = [0, 0, 0];
    X.forEach((x, i) => {
      g[0]! += x[0]! * (y[i]! - p[i]!);
      g[1]! += x[1]! * (y[i]! - p[i]!);
      g[2]! += y[i]! - p[i]!;
    });
    expect(Math.abs(g[0]! - f.weights[0]!)).toBeLessThan(1e-6); // ∇ = Xᵀ(y − p) − λw = 0
    expect(Math.abs(g[1]! - f.weights[1]!)).toBeLessThan(1e-6);
    expect(Math.abs(g[2]!)).toBeLessThan(1e-6); // intercept unpenalised
  });

  it('arms agree in round 1, decompositions are consistent', () => {
    const r = runResolution({ domain: 'dsl6', tasks: 2, seed: 2, rounds: 3, pool: 128, claims: 32, base: 100 });
    expect(r.perRound[0]!.anchored).toEqual(r.perRound[0]!.frozen);
    for (const row of r.perRound) {
      for (const a of [row.anchored, row.frozen]) {
        expect(a.reliability.mean).toBeGreaterThanOrEqual(0);
        expect(a.resolution.mean).toBeGreaterThanOrEqual(0);
        expect(a.brier.mean).toBeLessThanOrEqual(1);
      }
    }
  });

  it('CLI smoke', async () => {
    const r = await runMain([
      'experiment',
      'resolution',
      '--tasks',
      '1',
      '--rounds',
      '2',
      '--pool',
      '64',
      '--claims',
      '16',
      '--base',
      '60',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).perRound).toHaveLength(2);
  });
});
