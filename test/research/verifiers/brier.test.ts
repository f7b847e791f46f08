import { describe, expect, it } from 'vitest';
import { brierDecomposition } from '../../../src/research/verifiers/brier.ts';

describe('Brier decomposition', () => {
  it('hand case with constant forecasts per bin (identity is exact)', () => {
    const r = brierDecomposition([0.05, 0.05, 0.95, 0.95], [0, 1, 1, 1]);
    expect(r.brier).toBeCloseTo(0.2275, 12);
    expect(r.reliability).toBeCloseTo(0.1025, 12);
    expect(r.resolution).toBeCloseTo(0.0625, 12);
    expect(r.uncertainty).toBeCloseTo(0.1875, 12);
    expect(r.residual).toBeCloseTo(0, 12);
    expect(r.bins[0]!.count).toBe(2);
    expect(r.bins[9]!.count).toBe(2);
  });

  it('perfectly calibrated, perfectly resolved forecasts', () => {
    const r = brierDecomposition([0, 1, 1, 0], [0, 1, 1, 0]);
    expect(r.brier).toBe(0);
    expect(r.reliability).toBe(0);
    expect(r.resolution).toBeCloseTo(0.25, 12);
    expect(r.uncertainty).toBeCloseTo(0.25, 12);
  });

  it('puts p = 1 in the last bin and p = 0.1 in the second', () => {
    const r = brierDecomposition([1, 0.1], [1, 0]);
    expect(r.bins[9]!.count).toBe(1);
    expect(r.bins[1]!.count).toBe(1);
    expect(() => brierDecomposition([1.5], [1])).toThrow(expect.objectContaining({ code: 'BAD_DATASET' }));
  });
});
