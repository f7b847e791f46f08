/**
 * Best-of-N selection from one scored candidate pool, computed exactly in expectation.
 *
 * Why exact rather than Monte Carlo: for a pool of M candidates and a uniformly random subset of
 * size N drawn without replacement, the probability that the candidate ranked i-th (0-based,
 * best first) by the verifier is the subset's best is C(M-1-i, N-1) / C(M, N). So the expected
 * gold of "draw N, let V pick" is a weighted sum over the sorted pool: O(M log M) per problem and
 * N, with no sampling noise, and the whole curve N = 2^0 … 2^k comes from one scored pool.
 *
 * Ties in the verifier's score are broken uniformly at random: given that the subset's maximum
 * falls in a tie group, the pick is uniform over the group's members in the subset, so by
 * exchangeability its expected gold is the group's mean gold. We therefore replace each
 * candidate's gold by its tie group's mean and then apply the rank formula.
 */
import { AnchorError } from '../../util/errors.ts';
import { meanSe } from '../../util/stats.ts';

/** One problem's pool: a verifier score and a gold value per candidate (same order). */
export interface ScoredPool {
  scores: ArrayLike<number>;
  gold: ArrayLike<number>;
}

/**
 * Selection weights w_i = P(rank-i candidate is the best of a random N-subset), i = 0..M-1,
 * using the recurrence w_0 = N/M, w_{i+1} = w_i · (M-N-i)/(M-1-i) (stable; no factorials).
 */
export function bestOfNWeights(m: number, n: number): Float64Array {
  if (!Number.isInteger(m) || m < 1) throw new AnchorError('BAD_ARGUMENT', `pool size must be a positive integer, got ${m}`);
  if (!Number.isInteger(n) || n < 1 || n > m)
    throw new AnchorError('BAD_ARGUMENT', `N must be an integer in [1, ${m}], got ${n}`);
  const w = new Float64Array(m);
  w[0] = n / m;
  for (let i = 0; i + 1 < m; i++) {
    const num = m - n - i;
    w[i + 1] = num <= 0 ? 0 : w[i]! * (num / (m - 1 - i));
  }
  return w;
}

/**
 * Gold values ordered by descending verifier score, with each tie group's gold replaced by the
 * group's mean (see module comment). Non-finite scores rank last (treated as -Infinity).
 */
function goldByVerifierRank(pool: ScoredPool): Float64Array {
  const m = pool.scores.length;
  if (pool.gold.length !== m)
    throw new AnchorError('BAD_DATASET', `scores (${m}) and gold (${pool.gold.length}) differ in length`);
  const key = (i: number): number => {
    const s = pool.scores[i]!;
    return Number.isNaN(s) ? -Infinity : s;
  };
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => key(b) - key(a) || a - b);
  const out = new Float64Array(m);
  let start = 0;
  while (start < m) {
    let end = start + 1;
    while (end < m && key(order[end]!) === key(order[start]!)) end++;
    let sum = 0;
    for (let j = start; j < end; j++) sum += pool.gold[order[j]!]!;
    const mean = sum / (end - start);
    for (let j = start; j < end; j++) out[j] = mean;
    start = end;
  }
  return out;
}

/** E[gold of V's pick] over uniformly random N-subsets (without replacement) of one pool. */
export function expectedBestOfN(pool: ScoredPool, n: number): number {
  return expectedBestOfNCurve(pool, [n])[0]!;
}

/** {@link expectedBestOfN} for several N at once (sorts the pool once). */
export function expectedBestOfNCurve(pool: ScoredPool, ns: readonly number[]): number[] {
  const ranked = goldByVerifierRank(pool);
  return ns.map((n) => {
    const w = bestOfNWeights(ranked.length, n);
    let e = 0;
    for (let i = 0; i < ranked.length; i++) {
      if (w[i] === 0) break;
      e += w[i]! * ranked[i]!;
    }
    return e;
  });
}

/** N = 2^0 … 2^k. */
export function powersOfTwo(maxLog2: number): number[] {
  if (!Number.isInteger(maxLog2) || maxLog2 < 0)
    throw new AnchorError('BAD_ARGUMENT', `max log2 must be a non-negative integer, got ${maxLog2}`);
  return Array.from({ length: maxLog2 + 1 }, (_, k) => 2 ** k);
}

/** Mean and standard error (sample sd / sqrt(n); 0 when n = 1, NaN when empty or any value is not finite). */
export function meanAndSe(values: readonly number[]): { mean: number; se: number } {
  if (!values.every(Number.isFinite)) return { mean: NaN, se: NaN };
  const { mean, se, n } = meanSe(values);
  return { mean: mean ?? NaN, se: se ?? (n === 1 ? 0 : NaN) };
}

/** Per-N mean (± SE over problems) of the best-of-N gold under a verifier. */
export interface BestOfNPoint {
  n: number;
  mean: number;
  se: number;
}

/**
 * Best-of-N gold curve of one verifier over many problems: for each N, the mean over problems of
 * the expected gold of the verifier's pick, with the standard error over problems. Pass the gold
 * as the scores to get the execution (oracle) verifier's curve.
 */
export function bestOfNGoldCurve(pools: readonly ScoredPool[], ns: readonly number[]): BestOfNPoint[] {
  const perProblem = pools.map((p) => expectedBestOfNCurve(p, ns));
  return ns.map((n, k) => ({ n, ...meanAndSe(perProblem.map((row) => row[k]!)) }));
}

/**
 * Monte Carlo estimate of {@link expectedBestOfN} (random subsets, random tie breaks). Kept as an
 * independent check of the exact formula in tests; `rand` returns floats in [0, 1).
 */
export function sampledBestOfN(pool: ScoredPool, n: number, draws: number, rand: () => number): number {
  const m = pool.scores.length;
  const idx = Array.from({ length: m }, (_, i) => i);
  let total = 0;
  for (let d = 0; d < draws; d++) {
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(rand() * (m - i));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    let best = -Infinity;
    let ties: number[] = [];
    for (let i = 0; i < n; i++) {
      const raw = pool.scores[idx[i]!]!;
      const s = Number.isNaN(raw) ? -Infinity : raw;
      if (s > best) {
        best = s;
        ties = [idx[i]!];
      } else if (s === best) ties.push(idx[i]!);
    }
    total += pool.gold[ties[Math.floor(rand() * ties.length)]!]!;
  }
  return total / draws;
}
