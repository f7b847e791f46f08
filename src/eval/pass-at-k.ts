/**
 * The unbiased pass@k estimator (Chen et al., 2021): with n samples of which c pass,
 * pass@k = 1 − C(n−c, k) / C(n, k), computed as a stable product.
 */
import { AnchorError } from '../util/errors.ts';

/** Unbiased pass@k for one problem (k ≤ n). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) throw new AnchorError('BAD_ARGUMENT', `pass@${k} needs at least ${k} samples, got ${n}`);
  if (n - c < k) return 1;
  // 1 − Π_{i=n−c+1..n} (1 − k/i)
  let prod = 1;
  for (let i = n - c + 1; i <= n; i++) prod *= 1 - k / i;
  return 1 - prod;
}

/** Mean pass@k over problems given per-problem (n, c). */
export function meanPassAtK(counts: readonly { n: number; c: number }[], k: number): number {
  if (counts.length === 0) return NaN;
  return counts.reduce((a, { n, c }) => a + passAtK(n, c, k), 0) / counts.length;
}
