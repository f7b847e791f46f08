/**
 * Gao et al. (2022) over-optimisation fits of a run's arms: gold against d = √KL(π‖π_base) per
 * step, fitted with R(d) = g₀ + d(α − β ln d) (src/verifiers/gao-fit.ts), for the comparison table
 * (α, β, the peak d*, the step at which the fitted slope turns negative) and the gold-vs-√KL chart.
 *
 * d is the logged sequence-level `kl/sqrt`; runs logged before it existed fall back to
 * √(kl/ref × completion/length) — the per-token k3 mean times the mean length, which is the
 * sequence KL when the KL is spread evenly over the tokens (an approximation, flagged).
 */
import { METRIC_KEYS as K } from '../train/run-format.ts';
import { fitGaoWithSe, gaoPredict, slopeTurnStep, type GaoFitWithSe } from '../util/gao-fit.ts';
import type { ArmData, MetricsLine } from './read-run.ts';
import { metricValue } from './stats.ts';

/** One step's point. */
export interface GaoPoint {
  step: number;
  d: number;
  gold: number;
}

/** d of one metrics line (null where neither form is logged). */
export function sqrtKlOf(l: MetricsLine): { d: number; approximate: boolean } | null {
  const d = metricValue(l, K.klSqrt);
  if (d !== null) return { d, approximate: false };
  const kl = metricValue(l, K.kl);
  const len = metricValue(l, K.length);
  return kl !== null && len !== null && kl >= 0 ? { d: Math.sqrt(kl * len), approximate: true } : null;
}

/** The (d, gold) points of an arm, one per step with both. */
export function gaoPoints(metrics: readonly MetricsLine[]): { points: GaoPoint[]; approximate: boolean } {
  const points: GaoPoint[] = [];
  let approximate = false;
  for (const l of metrics) {
    const d = sqrtKlOf(l);
    const gold = metricValue(l, K.gold);
    if (d === null || gold === null) continue;
    approximate ||= d.approximate;
    points.push({ step: l.step, d: d.d, gold });
  }
  return { points, approximate };
}

/** An arm's fit: coefficients with bootstrap SEs, and the step at which its slope turns negative. */
export interface ArmGaoFit {
  fit: GaoFitWithSe;
  /** First step whose trailing-mean d reaches d* (null: never, or no peak). */
  turnStep: number | null;
  approximate: boolean;
}

/** Fit an arm's gold-vs-√KL curve (null with fewer than 4 points or a singular design). */
export function armGaoFit(arm: Pick<ArmData, 'metrics'>, window = 10): ArmGaoFit | null {
  const { points, approximate } = gaoPoints(arm.metrics);
  const fit = fitGaoWithSe(
    points.map((p) => p.d),
    points.map((p) => p.gold),
    'rl',
  );
  if (!fit) return null;
  const idx = slopeTurnStep(
    points.map((p) => p.d),
    fit.dStar,
    window,
  );
  return { fit, turnStep: idx === null ? null : points[idx]!.step, approximate };
}

/** The fitted curve sampled on [0, dMax] for a chart. */
export function gaoCurve(fit: GaoFitWithSe, dMax: number, samples = 40): { d: number; gold: number }[] {
  return Array.from({ length: samples + 1 }, (_, i) => {
    const d = (dMax * i) / samples;
    return { d: Math.round(d * 1e6) / 1e6, gold: Math.round(gaoPredict(fit, d) * 1e6) / 1e6 };
  });
}
