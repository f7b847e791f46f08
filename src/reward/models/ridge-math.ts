/**
 * The ridge-regression math, in float64 JavaScript. One implementation serves both the tfjs
 * reward model (which computes the Gram matrix with tfjs and hands it here) and the pure-JS fit
 * used by the DSL experiment sweeps, so the two paths cannot drift apart.
 *
 * Model: ŷ = x·w + b. Objective: Σ (y − Xw − b)² + α‖w‖², intercept unpenalised.
 * Features are used raw by default (this equals sklearn's `Ridge(alpha)` with `fit_intercept`,
 * which is what the reference study's "ridge (α = 1) over counts" means); `standardize: true`
 * divides each column by its standard deviation before the penalty applies and folds the scale
 * back into the weights, so `predict` always takes raw features.
 *
 * Solve: centre X and y (which removes the intercept from the penalised system), then either the
 * primal system (XcᵀXc + αI) w = Xcᵀyc (d×d) or, when d > n, the dual (XcXcᵀ + αI) a = yc with
 * w = Xcᵀa (n×n) — the same solution, whichever matrix is smaller. Cholesky on the SPD system.
 */
import { AnchorError } from '../../util/errors.ts';

/** A fitted linear model on raw features. */
export interface LinearFit {
  weights: Float64Array;
  intercept: number;
}

/** Options shared by both ridge paths. */
export interface RidgeOptions {
  alpha: number;
  standardize?: boolean;
}

/** Rows as float arrays of equal length. */
export type Rows = readonly ArrayLike<number>[];

/** Per-column means and (optional) scales of a row matrix. */
export function columnStats(X: Rows, d: number, standardize: boolean): { mean: Float64Array; scale: Float64Array } {
  const n = X.length;
  const mean = new Float64Array(d);
  for (const row of X) for (let j = 0; j < d; j++) mean[j]! += row[j]!;
  for (let j = 0; j < d; j++) mean[j]! /= n;
  const scale = new Float64Array(d).fill(1);
  if (standardize) {
    const ss = new Float64Array(d);
    for (const row of X) for (let j = 0; j < d; j++) ss[j]! += (row[j]! - mean[j]!) ** 2;
    // Constant columns keep scale 1: their centred values are all zero anyway.
    for (let j = 0; j < d; j++) scale[j] = ss[j]! > 0 ? Math.sqrt(ss[j]! / n) : 1;
  }
  return { mean, scale };
}

/** Which system to solve: primal (d×d) when d ≤ n, else dual (n×n). */
export function ridgeForm(n: number, d: number): 'primal' | 'dual' {
  return d <= n ? 'primal' : 'dual';
}

/**
 * Solve (M + αI) z = rhs for symmetric positive semi-definite M (size k×k, row-major) by
 * Cholesky. α > 0 makes the system positive definite; α = 0 with singular M is rejected.
 */
export function solveShifted(M: ArrayLike<number>, rhs: ArrayLike<number>, k: number, alpha: number): Float64Array {
  const L = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = M[i * k + j]! + (i === j ? alpha : 0);
      for (let p = 0; p < j; p++) s -= L[i * k + p]! * L[j * k + p]!;
      if (i === j) {
        if (!(s > 0)) throw new AnchorError('BAD_CONFIG', `ridge system is not positive definite (pivot ${s} at ${i}); use alpha > 0`);
        L[i * k + i] = Math.sqrt(s);
      } else {
        L[i * k + j] = s / L[j * k + j]!;
      }
    }
  }
  const z = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = rhs[i]!;
    for (let p = 0; p < i; p++) s -= L[i * k + p]! * z[p]!;
    z[i] = s / L[i * k + i]!;
  }
  for (let i = k - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let p = i + 1; p < k; p++) s -= L[p * k + i]! * z[p]!;
    z[i] = s / L[i * k + i]!;
  }
  return z;
}

/**
 * Turn weights fitted on centred (and scaled) features into raw-feature weights and intercept:
 * w_raw = w / scale, b = ȳ − x̄·w_raw.
 */
export function finishLinear(wScaled: ArrayLike<number>, mean: Float64Array, scale: Float64Array, yMean: number): LinearFit {
  const d = mean.length;
  const weights = new Float64Array(d);
  let b = yMean;
  for (let j = 0; j < d; j++) {
    weights[j] = wScaled[j]! / scale[j]!;
    b -= mean[j]! * weights[j]!;
  }
  return { weights, intercept: b };
}

/** Fit ridge entirely in float64 JS (the path the DSL sweeps use). */
export function fitRidgeF64(X: Rows, y: ArrayLike<number>, opts: RidgeOptions): LinearFit {
  const n = X.length;
  if (n === 0) throw new AnchorError('BAD_ARGUMENT', 'ridge fit needs at least one row');
  if (y.length !== n) throw new AnchorError('BAD_ARGUMENT', `X has ${n} rows but y has ${y.length}`);
  const d = X[0]!.length;
  const { mean, scale } = columnStats(X, d, opts.standardize ?? false);
  let yMean = 0;
  for (let i = 0; i < n; i++) yMean += y[i]!;
  yMean /= n;
  // Centred, scaled design as one row-major buffer.
  const Z = new Float64Array(n * d);
  const yc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = X[i]!;
    if (row.length !== d) throw new AnchorError('BAD_ARGUMENT', `row ${i} has ${row.length} features, expected ${d}`);
    for (let j = 0; j < d; j++) Z[i * d + j] = (row[j]! - mean[j]!) / scale[j]!;
    yc[i] = y[i]! - yMean;
  }
  let w: Float64Array;
  if (ridgeForm(n, d) === 'primal') {
    const G = new Float64Array(d * d);
    const b = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      for (let j = 0; j < d; j++) {
        const zj = Z[o + j]!;
        if (zj === 0) continue;
        b[j]! += zj * yc[i]!;
        for (let k = 0; k <= j; k++) G[j * d + k]! += zj * Z[o + k]!;
      }
    }
    for (let j = 0; j < d; j++) for (let k = 0; k < j; k++) G[k * d + j] = G[j * d + k]!;
    w = solveShifted(G, b, d, opts.alpha);
  } else {
    const K = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k <= i; k++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += Z[i * d + j]! * Z[k * d + j]!;
        K[i * n + k] = s;
        K[k * n + i] = s;
      }
    }
    const a = solveShifted(K, yc, n, opts.alpha);
    w = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) w[j]! += Z[i * d + j]! * a[i]!;
  }
  return finishLinear(w, mean, scale, yMean);
}

/** ŷ = x·w + b for each row (float64). */
export function predictLinear(fit: LinearFit, X: Rows): Float64Array {
  const out = new Float64Array(X.length);
  const d = fit.weights.length;
  for (let i = 0; i < X.length; i++) {
    const row = X[i]!;
    let s = fit.intercept;
    for (let j = 0; j < d; j++) s += row[j]! * fit.weights[j]!;
    out[i] = s;
  }
  return out;
}
