/**
 * The over-optimisation functional forms of Gao, Schulman & Hilton (2022, "Scaling Laws for
 * Reward Model Overoptimization", arXiv 2210.10760), fitted to a run's gold reward against
 * d = √KL(π‖π_base) (sequence-level KL, nats):
 *
 *   RL:         R(d) = g₀ + d(α − β ln d),   peak d* = exp(α/β − 1)
 *   best-of-n:  R(d) = g₀ + d(α − β d),      peak d* = α / (2β)
 *
 * Gao et al. fit the gold *gain* over the initial policy, R(0) = 0; here the base level g₀ is a
 * third free coefficient, since a run's gold at d = 0 is itself a noisy estimate. All three enter
 * linearly, so the fit is ordinary least squares on [1, d, −d·ln d] (or [1, d, −d²]); standard
 * errors come from a bootstrap over the (d, gold) points.
 */
import { Rng } from './rng.ts';

/** Which functional form. */
export type GaoForm = 'rl' | 'bon';

/** A fitted curve. */
export interface GaoFit {
  form: GaoForm;
  g0: number;
  alpha: number;
  beta: number;
  /** The peak d* (argmax of R), or null when the fitted curve does not turn over (β ≤ 0). */
  dStar: number | null;
  /** Points fitted. */
  n: number;
  /** Residual root mean square. */
  rmse: number;
}

/** A fit with bootstrap standard errors (null where fewer than half the resamples defined it). */
export interface GaoFitWithSe extends GaoFit {
  se: { alpha: number; beta: number; dStar: number | null };
}

function regressor(form: GaoForm, d: number): number {
  if (form === 'bon') return -d * d;
  return d > 0 ? -d * Math.log(d) : 0;
}

/** R(d) of a fit. */
export function gaoPredict(fit: Pick<GaoFit, 'form' | 'g0' | 'alpha' | 'beta'>, d: number): number {
  return fit.g0 + fit.alpha * d + fit.beta * regressor(fit.form, d);
}

/** dR/dd of a fit at d (> 0): α − β(ln d + 1) (RL) or α − 2βd (best-of-n). */
export function gaoSlope(fit: Pick<GaoFit, 'form' | 'alpha' | 'beta'>, d: number): number {
  return fit.form === 'bon' ? fit.alpha - 2 * fit.beta * d : fit.alpha - fit.beta * (Math.log(Math.max(d, 1e-12)) + 1);
}

/** The peak of a curve with these coefficients, or null when it does not turn over. */
export function gaoPeak(form: GaoForm, alpha: number, beta: number): number | null {
  if (!(beta > 0)) return null;
  const d = form === 'bon' ? alpha / (2 * beta) : Math.exp(alpha / beta - 1);
  return Number.isFinite(d) && d > 0 ? d : null;
}

/** Solve a 3×3 system by Gaussian elimination with partial pivoting; null if singular. */
function solve3(A: number[][], b: number[]): number[] | null {
  const M = A.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < 3; c++) {
    let p = c;
    for (let r = c + 1; r < 3; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    if (Math.abs(M[p]![c]!) < 1e-14) return null;
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      for (let q = c; q < 4; q++) M[r]![q]! -= f * M[c]![q]!;
    }
  }
  return M.map((r, i) => r[3]! / r[i]!);
}

/**
 * Least-squares fit of gold against d. Points with non-finite values or d < 0 are skipped. Null
 * when fewer than 4 points remain or the design is singular (e.g. every d equal).
 */
export function fitGao(d: readonly number[], gold: readonly number[], form: GaoForm = 'rl'): GaoFit | null {
  if (d.length !== gold.length) throw new RangeError(`d (${d.length}) and gold (${gold.length}) differ in length`);
  const pts: [number, number][] = [];
  for (let i = 0; i < d.length; i++)
    if (Number.isFinite(d[i]) && d[i]! >= 0 && Number.isFinite(gold[i])) pts.push([d[i]!, gold[i]!]);
  if (pts.length < 4) return null;
  const A = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const b = [0, 0, 0];
  for (const [x, y] of pts) {
    const row = [1, x, regressor(form, x)];
    for (let p = 0; p < 3; p++) {
      for (let q = 0; q < 3; q++) A[p]![q]! += row[p]! * row[q]!;
      b[p]! += row[p]! * y;
    }
  }
  const sol = solve3(A, b);
  if (!sol || sol.some((v) => !Number.isFinite(v))) return null;
  const [g0, alpha, beta] = sol as [number, number, number];
  const fit = { form, g0, alpha, beta };
  const rss = pts.reduce((a, [x, y]) => a + (y - gaoPredict(fit, x)) ** 2, 0);
  return { ...fit, dStar: gaoPeak(form, alpha, beta), n: pts.length, rmse: Math.sqrt(rss / pts.length) };
}

function sd(xs: readonly number[]): number {
  const m = xs.reduce((a, v) => a + v, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, v) => a + (v - m) ** 2, 0) / Math.max(1, xs.length - 1));
}

/**
 * {@link fitGao} with bootstrap standard errors: `resamples` fits on the points resampled with
 * replacement (seeded, so a report is reproducible). The SE of d* uses the resamples whose curve
 * turns over, and is null when fewer than half of them do.
 */
export function fitGaoWithSe(
  d: readonly number[],
  gold: readonly number[],
  form: GaoForm = 'rl',
  resamples = 200,
  seed = 0,
): GaoFitWithSe | null {
  const fit = fitGao(d, gold, form);
  if (!fit) return null;
  const rng = new Rng(seed).fork('gao-bootstrap');
  const alphas: number[] = [];
  const betas: number[] = [];
  const peaks: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const idx = d.map(() => rng.int(d.length));
    const f = fitGao(
      idx.map((i) => d[i]!),
      idx.map((i) => gold[i]!),
      form,
    );
    if (!f) continue;
    alphas.push(f.alpha);
    betas.push(f.beta);
    if (f.dStar !== null) peaks.push(f.dStar);
  }
  return {
    ...fit,
    se: {
      alpha: alphas.length > 1 ? sd(alphas) : NaN,
      beta: betas.length > 1 ? sd(betas) : NaN,
      dStar: peaks.length >= resamples / 2 ? sd(peaks) : null,
    },
  };
}

/**
 * The first step at which the fitted slope turns negative: the first index whose trailing mean of
 * d over `window` steps reaches d* (null when d* is null or never reached).
 */
export function slopeTurnStep(d: readonly number[], dStar: number | null, window = 10): number | null {
  if (dStar === null) return null;
  let sum = 0;
  const q: number[] = [];
  for (let t = 0; t < d.length; t++) {
    const v = Number.isFinite(d[t]) ? d[t]! : 0;
    q.push(v);
    sum += v;
    if (q.length > window) sum -= q.shift()!;
    if (sum / q.length >= dStar) return t;
  }
  return null;
}
