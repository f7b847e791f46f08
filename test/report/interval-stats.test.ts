import { describe, expect, it } from 'vitest';
import {
  aggregateIqm,
  aggregateMean,
  independentBootstrap,
  probabilityOfImprovement,
  quantileSorted,
  stratifiedBootstrap,
  trimMean,
} from '../../src/report/interval-stats.ts';

const col = (xs: number[]): number[][] => xs.map((x) => [x]);

describe('point estimates (rliable definitions, worked by hand)', () => {
  it('IQM is scipy trim_mean(x, 0.25): drop ⌊n/4⌋ from each end of all runs × tasks', () => {
    // n = 8: drop 2 each end → mean(3, 4, 5, 6).
    expect(aggregateIqm(col([8, 1, 7, 2, 6, 3, 5, 4]))).toBe(4.5);
    // n = 5: ⌊1.25⌋ = 1 each end → mean(2, 3, 10) = 5 (the outlier 100 is gone; the mean is 23.2).
    expect(aggregateIqm(col([10, 1, 3, 2, 100]))).toBe(5);
    expect(aggregateMean(col([10, 1, 3, 2, 100]))).toBeCloseTo(23.2, 12);
    // n = 3: ⌊0.75⌋ = 0 → the plain mean.
    expect(aggregateIqm(col([0.9, 1, 0.5]))).toBeCloseTo(0.8, 12);
    // Runs × tasks are pooled: [[1, 10], [2, 20]] → 4 values, drop 1 each end → mean(2, 10).
    expect(
      aggregateIqm([
        [1, 10],
        [2, 20],
      ]),
    ).toBe(6);
    expect(trimMean([1, 2, 3, 4], 0)).toBe(2.5);
    expect(() => trimMean([1], 0.5)).toThrow(/proportion/);
  });

  it('mean is the mean of per-task means', () => {
    expect(
      aggregateMean([
        [1, 10],
        [3, 30],
      ]),
    ).toBe(11);
  });

  it('P(X > Y) counts pairs with ties as ½, averaged over tasks; identical sets give ½', () => {
    // x = 1, 3, 5 against y = 2, 2, 4: 0 + 2 + 3 of 9 pairs.
    expect(probabilityOfImprovement(col([1, 3, 5]), col([2, 2, 4]))).toBeCloseTo(5 / 9, 12);
    // x = 2, 3 against y = 2, 1: ½ + 1 + 1 + 1 of 4.
    expect(probabilityOfImprovement(col([2, 3]), col([2, 1]))).toBe(0.875);
    expect(probabilityOfImprovement(col([1, 2, 3]), col([1, 2, 3]))).toBe(0.5);
    // Two tasks: task 0 as above (5/9), task 1 x always below y (0) → mean 5/18.
    expect(
      probabilityOfImprovement(
        [
          [1, 0],
          [3, 0],
          [5, 0],
        ],
        [
          [2, 1],
          [2, 1],
          [4, 1],
        ],
      ),
    ).toBeCloseTo(5 / 18, 12);
  });

  it('quantiles interpolate linearly (numpy percentile)', () => {
    // h = 3 × 0.025 = 0.075 → 1 + 0.075 × (2 − 1).
    expect(quantileSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([7], 0.975)).toBe(7);
  });
});

describe('percentile bootstrap intervals', () => {
  it('matches the exact bootstrap distribution of a small example', () => {
    // Resampling 4 runs of 0, 1, 2, 3: the resample sum S has P(S ≤ 1) = 5/256 ≈ 1.95% and
    // P(S ≤ 2) = 15/256 ≈ 5.9%, so the 2.5% quantile of the mean is 2/4 = 0.5 (and 2.5 by symmetry).
    const i = stratifiedBootstrap(col([0, 1, 2, 3]), aggregateMean, { reps: 20_000, seed: 3 });
    expect(i).toEqual({ point: 1.5, lo: 0.5, hi: 2.5 });
  });

  it('resamples runs within each task independently (stratified), not whole runs', () => {
    // Run 0 scores (0, 1), run 1 scores (1, 0). Resampling whole runs would keep every replicate's
    // mean at 0.5; resampling each task's column independently gives means 0…1, P(0) = P(1) = 1/16.
    const i = stratifiedBootstrap(
      [
        [0, 1],
        [1, 0],
      ],
      aggregateMean,
      { reps: 5000, seed: 1 },
    );
    expect(i).toEqual({ point: 0.5, lo: 0, hi: 1 });
  });

  it('is deterministic per seed and moves with the seed', () => {
    const scores = col([0.71, 0.93, 0.64, 1.05, 0.88, 0.79, 0.99, 0.58, 0.83, 0.9]);
    const a = stratifiedBootstrap(scores, aggregateIqm, { reps: 2000, seed: 7 });
    const b = stratifiedBootstrap(scores, aggregateIqm, { reps: 2000, seed: 7 });
    const c = stratifiedBootstrap(scores, aggregateIqm, { reps: 2000, seed: 8 });
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(a.point).toBeCloseTo((0.79 + 0.83 + 0.88 + 0.9 + 0.93 + 0.71) / 6, 12);
    expect(a.lo).toBeLessThan(a.point);
    expect(a.hi).toBeGreaterThan(a.point);
  });

  it('P(X > Y): each set resampled independently; a set entirely above the other gives [1, 1]', () => {
    expect(independentBootstrap(col([5, 6, 7]), col([1, 2]), probabilityOfImprovement, { reps: 500 })).toEqual({
      point: 1,
      lo: 1,
      hi: 1,
    });
    const mixed = independentBootstrap(col([1, 3, 5]), col([2, 2, 4]), probabilityOfImprovement, { reps: 4000, seed: 2 });
    expect(mixed.point).toBeCloseTo(5 / 9, 12);
    // Both sets can resample to all-low or all-high values: x = {1,1,1} vs anything ≥ 2 gives 0.
    expect(mixed.lo).toBe(0);
    expect(mixed.hi).toBe(1);
  });

  it('rejects bad input with typed errors', () => {
    expect(() => stratifiedBootstrap([], aggregateMean)).toThrow(/at least one run/);
    expect(() => stratifiedBootstrap(col([1, Number.NaN]), aggregateMean)).toThrow(/not finite/);
    expect(() => stratifiedBootstrap(col([1, 2]), aggregateMean, { reps: 0 })).toThrow(/reps/);
    expect(() => stratifiedBootstrap(col([1, 2]), aggregateMean, { confidence: 1 })).toThrow(/confidence/);
  });
});
