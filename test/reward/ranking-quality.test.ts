import { describe, expect, it } from 'vitest';
import { rankingQuality } from '../../src/reward/models/ranking-quality.ts';

describe('rankingQuality (worked by hand)', () => {
  it('within-group accuracy counts only same-group pairs with different labels; score ties count ½', () => {
    // Group 0: labels 1, 0, 0 with scores 0.9, 0.2, 0.9 → pairs (0,1) right, (0,2) tie ½, (1,2) equal labels.
    // Group 1: labels 0.5, 1 with scores 0.7, 0.1 → one pair, wrong.
    const q = rankingQuality([0.9, 0.2, 0.9, 0.7, 0.1], [1, 0, 0, 0.5, 1], [0, 0, 0, 1, 1]);
    expect(q.groupPairs).toBe(3);
    expect(q.pairAccuracy).toBeCloseTo(1.5 / 3, 12);
    // All pairs with different labels: within the groups above (1, ½, 0) and across them:
    // (0,3) 1>.5: .9>.7 ✓; (0,4) equal labels; (1,3) .5>0: .7>.2 ✓; (1,4) 1>0: .1<.2 ✗;
    // (2,3) .5>0: .7<.9 ✗; (2,4) 1>0: .1<.9 ✗ → 1 + ½ + 0 + 1 + 1 + 0 + 0 + 0 = 3.5 of 8.
    expect(q.pairs).toBe(8);
    expect(q.auc).toBeCloseTo(3.5 / 8, 12);
  });

  it('with pass/fail labels the AUC is the ROC AUC of the score', () => {
    // Positives score 0.8, 0.4; negatives 0.5, 0.1: of 4 (pos, neg) pairs 3 are ordered → 0.75.
    const q = rankingQuality([0.8, 0.4, 0.5, 0.1], [1, 1, 0, 0]);
    expect(q.auc).toBe(0.75);
    expect(q.pairAccuracy).toBeNull();
    expect(q.groupPairs).toBe(0);
  });

  it('a perfect ranker scores 1, a reversed one 0, a constant one ½; no pair → null', () => {
    const labels = [0, 0.25, 1, 0.5];
    const groups = [3, 3, 3, 3];
    expect(rankingQuality([0, 1, 3, 2], labels, groups)).toEqual({ pairAccuracy: 1, groupPairs: 6, auc: 1, pairs: 6 });
    expect(rankingQuality([3, 2, 0, 1], labels, groups).pairAccuracy).toBe(0);
    expect(rankingQuality([7, 7, 7, 7], labels, groups).auc).toBe(0.5);
    expect(rankingQuality([1, 2], [1, 1], [0, 0])).toEqual({ pairAccuracy: null, groupPairs: 0, auc: null, pairs: 0 });
    // Negative groups are no group.
    expect(rankingQuality([1, 0], [1, 0], [-1, -1]).pairAccuracy).toBeNull();
  });

  it('rejects mismatched lengths', () => {
    expect(() => rankingQuality([1], [1, 0])).toThrow(/1 scores, 2 labels/);
  });
});
