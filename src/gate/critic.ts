/**
 * Critic: explains a found failure — which RM features overpaid it — and names its failure mode
 * and severity.
 *
 * For a linear RM, score(x) − score(x̄) = Σ_j w_j·(x_j − x̄_j), so the per-feature contribution
 * relative to the settled mean feature vector x̄ says which features lifted this completion's
 * proxy above a typical settled one. The most overpaid features name the failure mode.
 */
import { forEachNonzero, type Claim, type FeatureVector, type Finding } from './types.ts';

/** The linear part of the reward model the critic attributes over. */
export interface LinearRm {
  readonly weights: readonly number[];
  readonly featureNames: readonly string[];
}

/** Critic settings. */
export interface CriticOptions {
  /** Most overpaid features in the mode key. */
  readonly keyFeatures: number;
  /** Severity (gap) at or above which a finding is high severity. */
  readonly highSeverity: number;
  /**
   * A feature joins the key only if its contribution is at least this share of the top one, so
   * that small incidental contributions do not split one mode into many keys (default 0.25).
   */
  readonly minShare?: number;
}

/** Mode key of a failure the RM's features do not explain (no feature overpaid). */
export const UNATTRIBUTED = 'unattributed';

/** Explains claims against a linear RM. */
export class Critic {
  constructor(readonly options: CriticOptions) {}

  /**
   * Attribute one claim. `meanFeatures` is x̄ over the settled sample (dense, RM feature order);
   * a claim without features gets the {@link UNATTRIBUTED} mode.
   */
  explain<T>(claim: Claim<T>, rm: LinearRm, meanFeatures: readonly number[]): Finding<T> {
    const attribution = claim.item.features ? attribute(claim.item.features, rm, meanFeatures) : [];
    const top = attribution[0]?.contribution ?? 0;
    const minShare = this.options.minShare ?? 0.25;
    const keyed = attribution
      .slice(0, this.options.keyFeatures)
      .filter((a) => a.contribution >= minShare * top)
      .map((a) => a.feature)
      .sort();
    const severity = claim.gap;
    return {
      claim,
      mode: keyed.length > 0 ? keyed.join('+') : UNATTRIBUTED,
      severity,
      high: severity >= this.options.highSeverity,
      attribution,
    };
  }
}

/** Positive per-feature contributions w_j·(x_j − x̄_j), largest first (ties by name). */
export function attribute(
  x: FeatureVector,
  rm: LinearRm,
  meanFeatures: readonly number[],
): { feature: string; contribution: number }[] {
  const dim = rm.weights.length;
  const dense = new Float64Array(dim);
  forEachNonzero(x, (i, v) => {
    if (i < dim) dense[i] = v;
  });
  const out: { feature: string; contribution: number }[] = [];
  for (let j = 0; j < dim; j++) {
    const c = rm.weights[j]! * (dense[j]! - (meanFeatures[j] ?? 0));
    if (c > 0) out.push({ feature: rm.featureNames[j] ?? `f${j}`, contribution: c });
  }
  return out.sort((a, b) => b.contribution - a.contribution || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
}
