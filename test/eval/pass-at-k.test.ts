import { describe, expect, it } from 'vitest';
import { meanPassAtK, passAtK } from '../../src/eval/pass-at-k.ts';

function binom(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

describe('pass@k', () => {
  it('equals 1 − C(n−c,k)/C(n,k)', () => {
    for (const [n, c, k] of [
      [10, 3, 1],
      [10, 3, 5],
      [20, 1, 10],
      [5, 0, 2],
      [7, 7, 3],
    ] as const) {
      const want = n - c < k ? 1 : 1 - binom(n - c, k) / binom(n, k);
      expect(passAtK(n, c, k)).toBeCloseTo(want, 12);
    }
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
  });
  it('averages over problems and rejects k > n', () => {
    expect(
      meanPassAtK(
        [
          { n: 4, c: 0 },
          { n: 4, c: 4 },
        ],
        2,
      ),
    ).toBe(0.5);
    expect(() => passAtK(3, 1, 4)).toThrow(/needs at least 4 samples/);
  });
});
