import { describe, expect, it } from 'vitest';
import {
  bestOfNGoldCurve,
  bestOfNWeights,
  expectedBestOfN,
  meanAndSe,
  sampledBestOfN,
} from '../../../src/research/verifiers/best-of-n.ts';
import { Rng } from '../../../src/util/rng.ts';

describe('exact best-of-N expectation', () => {
  it('matches a hand enumeration of all subsets', () => {
    // Subsets of size 2 of {0,1,2}: V picks 0, 0, 1 → gold 0, 0, 1.
    const pool = { scores: [3, 2, 1], gold: [0, 1, 1] };
    expect(expectedBestOfN(pool, 1)).toBeCloseTo(2 / 3, 12);
    expect(expectedBestOfN(pool, 2)).toBeCloseTo(1 / 3, 12);
    expect(expectedBestOfN(pool, 3)).toBeCloseTo(0, 12);
  });

  it('breaks verifier ties uniformly (hand enumeration)', () => {
    // {0,1}: tie → 0.5; {0,2}: 1; {1,2}: 0 → mean 0.5.
    const pool = { scores: [1, 1, 0], gold: [1, 0, 1] };
    expect(expectedBestOfN(pool, 2)).toBeCloseTo(0.5, 12);
    expect(expectedBestOfN(pool, 3)).toBeCloseTo(0.5, 12);
  });

  it('weights are a probability distribution with the closed form C(M-1-i,N-1)/C(M,N)', () => {
    const w = bestOfNWeights(6, 3);
    const binom = (n: number, k: number): number => {
      let r = 1;
      for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
      return r;
    };
    for (let i = 0; i < 6; i++) expect(w[i]).toBeCloseTo(binom(5 - i, 2) / binom(6, 3), 12);
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('agrees with Monte Carlo subsampling on a random pool with ties', () => {
    const rng = new Rng(7);
    const scores = Array.from({ length: 40 }, () => rng.int(8));
    const gold = Array.from({ length: 40 }, () => rng.int(5) / 4);
    for (const n of [1, 4, 16]) {
      const exact = expectedBestOfN({ scores, gold }, n);
      const mc = sampledBestOfN({ scores, gold }, n, 40_000, () => rng.next());
      expect(Math.abs(exact - mc)).toBeLessThan(0.01);
    }
  });

  it('curve over problems reports mean and standard error', () => {
    const pools = [
      { scores: [1, 0], gold: [1, 0] },
      { scores: [1, 0], gold: [0, 0] },
    ];
    const [p1, p2] = bestOfNGoldCurve(pools, [1, 2]);
    expect(p1!.mean).toBeCloseTo(0.25, 12);
    expect(p2!.mean).toBeCloseTo(0.5, 12);
    expect(p2!.se).toBeCloseTo(0.5, 12); // sd of {1,0} = 0.7071, / sqrt 2
    expect(meanAndSe([2]).se).toBe(0);
  });

  it('rejects N outside [1, M]', () => {
    expect(() => expectedBestOfN({ scores: [1], gold: [1] }, 2)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
  });
});
