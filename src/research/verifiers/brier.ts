/**
 * Brier score and its Murphy (1973) decomposition over equal-width probability bins.
 *
 * With bins k (forecasts p ∈ [k/B, (k+1)/B), the last bin closed at 1), counts n_k, mean
 * forecast p̄_k, mean outcome ō_k and overall base rate ō:
 *   reliability  = Σ n_k (p̄_k − ō_k)² / n      (miscalibration; lower is better)
 *   resolution   = Σ n_k (ō_k − ō)² / n        (higher is better)
 *   uncertainty  = ō (1 − ō)
 * Brier = reliability − resolution + uncertainty holds exactly for binary outcomes when every
 * forecast in a bin equals the bin mean; otherwise the within-bin spread leaves a small
 * remainder, reported as `residual` = brier − (reliability − resolution + uncertainty).
 */
import { AnchorError } from '../../util/errors.ts';

/** Result of {@link brierDecomposition}. */
export interface BrierResult {
  brier: number;
  reliability: number;
  resolution: number;
  uncertainty: number;
  residual: number;
  baseRate: number;
  n: number;
  bins: { lo: number; hi: number; count: number; meanForecast: number; meanOutcome: number }[];
}

/**
 * Brier score of forecasts p ∈ [0,1] against outcomes o ∈ [0,1] (usually 0/1), decomposed over
 * `numBins` equal-width bins (default 10).
 */
export function brierDecomposition(forecasts: ArrayLike<number>, outcomes: ArrayLike<number>, numBins = 10): BrierResult {
  const n = forecasts.length;
  if (outcomes.length !== n)
    throw new AnchorError('BAD_DATASET', `forecasts (${n}) and outcomes (${outcomes.length}) differ in length`);
  if (n === 0) throw new AnchorError('BAD_DATASET', 'Brier score needs at least one forecast');
  const count = new Float64Array(numBins);
  const sumP = new Float64Array(numBins);
  const sumO = new Float64Array(numBins);
  let brier = 0;
  let sumAll = 0;
  for (let i = 0; i < n; i++) {
    const p = forecasts[i]!;
    const o = outcomes[i]!;
    if (!(p >= 0 && p <= 1)) throw new AnchorError('BAD_DATASET', `forecast ${i} is ${p}, outside [0, 1]`);
    if (!(o >= 0 && o <= 1)) throw new AnchorError('BAD_DATASET', `outcome ${i} is ${o}, outside [0, 1]`);
    const k = Math.min(numBins - 1, Math.floor(p * numBins));
    count[k]! += 1;
    sumP[k]! += p;
    sumO[k]! += o;
    brier += (p - o) ** 2;
    sumAll += o;
  }
  brier /= n;
  const base = sumAll / n;
  let rel = 0;
  let res = 0;
  const bins: BrierResult['bins'] = [];
  for (let k = 0; k < numBins; k++) {
    const c = count[k]!;
    const mp = c > 0 ? sumP[k]! / c : NaN;
    const mo = c > 0 ? sumO[k]! / c : NaN;
    if (c > 0) {
      rel += c * (mp - mo) ** 2;
      res += c * (mo - base) ** 2;
    }
    bins.push({ lo: k / numBins, hi: (k + 1) / numBins, count: c, meanForecast: mp, meanOutcome: mo });
  }
  rel /= n;
  res /= n;
  const unc = base * (1 - base);
  return {
    brier,
    reliability: rel,
    resolution: res,
    uncertainty: unc,
    residual: brier - (rel - res + unc),
    baseRate: base,
    n,
    bins,
  };
}
