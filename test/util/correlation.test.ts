import { describe, expect, it } from 'vitest';
import { averageRanks, pearson, spearman, spearmanOrNull } from '../../src/util/correlation.ts';

describe('correlations', () => {
  it('Pearson hand case', () => {
    // sxy = 5, sxx = 2, syy = 114/9.
    expect(pearson([1, 2, 3], [2, 4, 7])).toBeCloseTo(5 / Math.sqrt((2 * 114) / 9), 12);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it('average ranks for ties', () => {
    expect(Array.from(averageRanks([10, 20, 20, 30, 20]))).toEqual([1, 3, 3, 5, 3]);
  });

  it('Spearman with ties (hand case: 3/sqrt(10))', () => {
    expect(spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(3 / Math.sqrt(10), 12);
    expect(spearman([1, 2, 3, 4], [1, 4, 9, 16])).toBeCloseTo(1, 12);
  });
});

describe('spearmanOrNull', () => {
  it('is spearman where it is defined, null with too few pairs or no variance', () => {
    expect(spearmanOrNull([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(3 / Math.sqrt(10), 12);
    expect(spearmanOrNull([1, 2], [2, 1])).toBeNull();
    expect(spearmanOrNull([1, 2], [2, 1], 2)).toBeCloseTo(-1, 12);
    expect(spearmanOrNull([1, 2, 3], [5, 5, 5])).toBeNull();
  });
});
