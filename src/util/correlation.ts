/**
 * Pearson and Spearman correlations (Spearman = Pearson on average ranks, so ties get the mean
 * of the ranks they span). Both return NaN when either side has zero variance.
 */
import { AnchorError } from './errors.ts';

/** Pearson product-moment correlation. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (y.length !== n) throw new AnchorError('BAD_ARGUMENT', `x (${n}) and y (${y.length}) differ in length`);
  if (n < 2) return NaN;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

/** 1-based ranks with ties sharing their average rank. */
export function averageRanks(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]!);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i + 1;
    while (j < n && x[order[j]!] === x[order[i]!]) j++;
    const avg = (i + 1 + j) / 2; // mean of ranks i+1 … j
    for (let k = i; k < j; k++) ranks[order[k]!] = avg;
    i = j;
  }
  return ranks;
}

/** Spearman rank correlation with average ranks for ties. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (y.length !== x.length) throw new AnchorError('BAD_ARGUMENT', `x (${x.length}) and y (${y.length}) differ in length`);
  return pearson(averageRanks(x), averageRanks(y));
}

/**
 * Spearman correlation, or null where it says nothing: fewer than `minPairs` pairs, or no
 * variance on either side (the NaN of {@link spearman}).
 */
export function spearmanOrNull(x: ArrayLike<number>, y: ArrayLike<number>, minPairs = 3): number | null {
  if (x.length < minPairs) return null;
  const r = spearman(x, y);
  return Number.isFinite(r) ? r : null;
}
