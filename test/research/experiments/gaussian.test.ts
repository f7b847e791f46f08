import { describe, expect, it } from 'vitest';
import {
  expectedMaxNormal,
  expectedMaxNormalLn,
  lnNForExpectedMax,
  logNormCdf,
  normCdf,
  normInv,
  upperTail,
} from '../../../src/research/experiments/gaussian.ts';
import { Rng } from '../../../src/util/rng.ts';

describe('normal numerics', () => {
  it('Φ, Φ⁻¹ and the tails match reference values', () => {
    expect(normCdf(0)).toBeCloseTo(0.5, 15);
    expect(normCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    expect(normCdf(-1)).toBeCloseTo(0.15865525393145707, 13);
    expect(upperTail(6)).toBeCloseTo(9.865876450377e-10, 20);
    expect(upperTail(10) / 7.619853024160527e-24).toBeCloseTo(1, 10);
    // ln Φ(−40) = ln Q(40) ≈ −804.6084420137538 (no underflow)
    expect(logNormCdf(-40)).toBeCloseTo(-804.6084420137538, 8);
    for (const p of [1e-10, 0.001, 0.2, 0.5, 0.9, 0.999999]) expect(normCdf(normInv(p)) / p).toBeCloseTo(1, 10);
  });

  it('E[max of N] equals the closed forms for N = 1, 2, 3 and Monte Carlo for N = 64', () => {
    expect(expectedMaxNormal(1)).toBeCloseTo(0, 10);
    expect(expectedMaxNormal(2)).toBeCloseTo(1 / Math.sqrt(Math.PI), 10);
    expect(expectedMaxNormal(3)).toBeCloseTo(3 / (2 * Math.sqrt(Math.PI)), 10);
    const rng = new Rng(5);
    let s = 0;
    const R = 4000;
    for (let r = 0; r < R; r++) {
      let m = -Infinity;
      for (let i = 0; i < 64; i++) m = Math.max(m, rng.normal());
      s += m;
    }
    // sd of the max of 64 is ≈ 0.42, so the MC SE is ≈ 0.007.
    expect(Math.abs(s / R - expectedMaxNormal(64))).toBeLessThan(0.03);
  });

  it('is increasing in N, approaches √(2 ln N) for astronomically large N, and inverts', () => {
    let prev = -1;
    for (let k = 0; k <= 14; k++) {
      const m = expectedMaxNormal(2 ** k);
      expect(m).toBeGreaterThan(prev);
      prev = m;
    }
    const ln = 1000;
    expect(expectedMaxNormalLn(ln) / Math.sqrt(2 * ln)).toBeGreaterThan(0.85);
    expect(expectedMaxNormalLn(ln) / Math.sqrt(2 * ln)).toBeLessThan(1);
    const target = expectedMaxNormal(1000);
    expect(Math.exp(lnNForExpectedMax(target))).toBeCloseTo(1000, 3);
    expect(lnNForExpectedMax(0)).toBe(0);
  });
});
