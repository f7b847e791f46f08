/**
 * Soundness-under-Pressure (docs/design.md): Snd@N = E[G(V's pick)] / E[G(G's pick)] for N candidates
 * drawn without replacement from each problem's pool, and its area over log N.
 *
 * Choices (documented in docs/reward.md):
 * - Expectations are exact over all N-subsets (see best-of-n.ts), not Monte Carlo.
 * - Across problems the ratio is of means: Snd@N = mean_p E[G(V pick)] / mean_p E[G(G pick)].
 *   A per-problem ratio is undefined on problems where no candidate has positive gold, and the
 *   ratio of means weights problems by how much gold was available to find.
 * - AUC = the mean of Snd@N over N = 2^0 … 2^k (a uniform grid in log N), so a sound verifier
 *   scores 1.
 * - Standard error of Snd@N: delta method on the ratio of two means over problems.
 */
import { expectedBestOfNCurve, powersOfTwo, type ScoredPool } from './best-of-n.ts';
import { AnchorError } from '../../util/errors.ts';

/** One point of the Snd@N curve. */
interface SndPoint {
  n: number;
  /** Mean over problems of E[gold of the verifier's pick]. */
  verifierGold: number;
  /** Mean over problems of E[gold of the oracle's pick] (E[max gold]). */
  oracleGold: number;
  snd: number;
  /** Delta-method standard error of `snd` over problems (0 with one problem). */
  se: number;
}

/** The Snd@N curve and its AUC over log N. */
export interface SndResult {
  points: SndPoint[];
  auc: number;
  problems: number;
}

/**
 * Snd@N for N = 2^0 … 2^maxLog2 from one scored pool per problem. `maxLog2` defaults to the
 * largest k with 2^k ≤ the smallest pool; larger k is an input error.
 */
export function sndCurve(pools: readonly ScoredPool[], maxLog2?: number): SndResult {
  if (pools.length === 0) throw new AnchorError('BAD_DATASET', 'Snd@N needs at least one problem pool');
  const minPool = Math.min(...pools.map((p) => p.scores.length));
  if (minPool < 1) throw new AnchorError('BAD_DATASET', 'every pool needs at least one candidate');
  const kMax = Math.floor(Math.log2(minPool));
  const k = maxLog2 ?? kMax;
  if (k > kMax)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `max log2 ${k} needs pools of at least ${2 ** k} candidates; the smallest has ${minPool}`,
    );
  const ns = powersOfTwo(k);
  const v = pools.map((p) => expectedBestOfNCurve(p, ns));
  const g = pools.map((p) => expectedBestOfNCurve({ scores: p.gold, gold: p.gold }, ns));
  const points = ns.map((n, j) => {
    const vs = v.map((row) => row[j]!);
    const gs = g.map((row) => row[j]!);
    return { n, ...ratioOfMeans(vs, gs) };
  });
  const auc = points.reduce((a, p) => a + p.snd, 0) / points.length;
  return { points, auc, problems: pools.length };
}

/** Ratio of means with its delta-method standard error. */
function ratioOfMeans(num: readonly number[], den: readonly number[]): Omit<SndPoint, 'n'> {
  const n = num.length;
  const mx = num.reduce((a, b) => a + b, 0) / n;
  const my = den.reduce((a, b) => a + b, 0) / n;
  const snd = my === 0 ? NaN : mx / my;
  let se = 0;
  if (n > 1 && my !== 0) {
    // Var(x̄/ȳ) ≈ (1/ȳ²)·Var(x − r·y)/n with r = x̄/ȳ.
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (num[i]! - snd * den[i]!) ** 2;
    se = Math.sqrt(ss / (n - 1) / n) / Math.abs(my);
  }
  return { verifierGold: mx, oracleGold: my, snd, se };
}
