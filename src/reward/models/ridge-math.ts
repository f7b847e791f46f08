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
  return choleskySolve(choleskyShifted(M, k, alpha), rhs, k);
}

/** The Cholesky factor L (row-major, lower) of M + αI; see {@link solveShifted}. */
function choleskyShifted(M: ArrayLike<number>, k: number, alpha: number): Float64Array {
  const L = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = M[i * k + j]! + (i === j ? alpha : 0);
      for (let p = 0; p < j; p++) s -= L[i * k + p]! * L[j * k + p]!;
      if (i === j) {
        if (!(s > 0))
          throw new AnchorError('BAD_CONFIG', `ridge system is not positive definite (pivot ${s} at ${i}); use alpha > 0`);
        L[i * k + i] = Math.sqrt(s);
      } else {
        L[i * k + j] = s / L[j * k + j]!;
      }
    }
  }
  return L;
}

/** Solve L Lᵀ z = rhs for a factor from {@link choleskyShifted}. */
function choleskySolve(L: Float64Array, rhs: ArrayLike<number>, k: number): Float64Array {
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
function finishLinear(wScaled: ArrayLike<number>, mean: Float64Array, scale: Float64Array, yMean: number): LinearFit {
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

// --- Weighted and within-group (pairwise) ridge --------------------------------------------------

/**
 * A weighted ridge problem. Objective, with ŷ = x·w + c:
 *   Σ_i v_i (y_i − ŷ_i)² + μ Σ_groups Σ_{i<j in group} ((ŷ_i − ŷ_j) − (y_i − y_j))² + α‖w‖²
 * — per-label weights v (a real weighted least squares, not integer copies) plus, when `pairwise`
 * μ > 0, a ranking term on within-group differences: GRPO's group-normalised advantages use only
 * how an RM orders (and spaces) the completions of one prompt, which is what that term fits.
 */
export interface WeightedRidgeOptions extends RidgeOptions {
  /** Per-row weight v_i ≥ 0 of its pointwise squared error (default 1 each; Σ v > 0). */
  weights?: ArrayLike<number>;
  /** Per-row group id; rows sharing an id ≥ 0 form within-group pairs (negative: no group). */
  groups?: ArrayLike<number>;
  /** μ ≥ 0: weight of each within-group pair's squared difference error (default 0). */
  pairwise?: number;
}

/**
 * The objective of {@link WeightedRidgeOptions} as one unweighted, intercept-free least-squares
 * system ‖b − A w‖² + α‖w‖² over m rows: √v_i-scaled rows centred on the weighted means, plus
 * (μ > 0) √(μ·n_g)-scaled rows centred on their group mean — Σ_{i<j∈g} (e_i − e_j)² equals
 * n_g Σ_{i∈g} (e_i − ē_g)². Columns are scaled by `scale` (weighted std with `standardize`).
 */
export interface RidgeDesign {
  A: Float64Array;
  b: Float64Array;
  m: number;
  d: number;
  mean: Float64Array;
  scale: Float64Array;
  yMean: number;
}

/** Build the {@link RidgeDesign} of a weighted (and optionally pairwise) ridge problem. */
export function ridgeDesign(X: Rows, y: ArrayLike<number>, opts: WeightedRidgeOptions): RidgeDesign {
  const n = X.length;
  if (n === 0) throw new RangeError('ridge fit needs at least one row');
  if (y.length !== n) throw new RangeError(`X has ${n} rows but y has ${y.length}`);
  const d = X[0]!.length;
  const v = opts.weights ?? new Float64Array(n).fill(1);
  if (v.length !== n) throw new RangeError(`X has ${n} rows but ${v.length} weights`);
  let vSum = 0;
  for (let i = 0; i < n; i++) {
    if (!(v[i]! >= 0) || !Number.isFinite(v[i]!)) throw new RangeError(`weight ${i} must be finite and >= 0, got ${v[i]}`);
    vSum += v[i]!;
  }
  if (!(vSum > 0)) throw new RangeError('ridge weights sum to zero');
  // Weighted column means (and scales), weighted label mean.
  const mean = new Float64Array(d);
  let yMean = 0;
  for (let i = 0; i < n; i++) {
    const row = X[i]!;
    if (row.length !== d) throw new RangeError(`row ${i} has ${row.length} features, expected ${d}`);
    for (let j = 0; j < d; j++) mean[j]! += v[i]! * row[j]!;
    yMean += v[i]! * y[i]!;
  }
  for (let j = 0; j < d; j++) mean[j]! /= vSum;
  yMean /= vSum;
  const scale = new Float64Array(d).fill(1);
  if (opts.standardize) {
    const ss = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) ss[j]! += v[i]! * (X[i]![j]! - mean[j]!) ** 2;
    for (let j = 0; j < d; j++) scale[j] = ss[j]! > 0 ? Math.sqrt(ss[j]! / vSum) : 1;
  }
  // Groups of two or more rows (pairwise term only).
  const mu = opts.pairwise ?? 0;
  const members = new Map<number, number[]>();
  if (mu > 0 && opts.groups) {
    for (let i = 0; i < n; i++) {
      const g = opts.groups[i]!;
      if (g >= 0) (members.get(g) ?? members.set(g, []).get(g)!).push(i);
    }
  }
  const groups = [...members.values()].filter((g) => g.length >= 2);
  const m = n + groups.reduce((a, g) => a + g.length, 0);
  const A = new Float64Array(m * d);
  const b = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    const s = Math.sqrt(v[i]!);
    const row = X[i]!;
    for (let j = 0; j < d; j++) A[i * d + j] = (s * (row[j]! - mean[j]!)) / scale[j]!;
    b[i] = s * (y[i]! - yMean);
  }
  let r = n;
  for (const g of groups) {
    const s = Math.sqrt(mu * g.length);
    const gm = new Float64Array(d);
    let gy = 0;
    for (const i of g) {
      for (let j = 0; j < d; j++) gm[j]! += X[i]![j]! / g.length;
      gy += y[i]! / g.length;
    }
    for (const i of g) {
      for (let j = 0; j < d; j++) A[r * d + j] = (s * (X[i]![j]! - gm[j]!)) / scale[j]!;
      b[r] = s * (y[i]! - gy);
      r++;
    }
  }
  return { A, b, m, d, mean, scale, yMean };
}

/** Symmetric product AᵀA (d×d) or AAᵀ (m×m) of a row-major m×d matrix, skipping zeros. */
export function gramF64(A: Float64Array, m: number, d: number, form: 'primal' | 'dual'): Float64Array {
  if (form === 'primal') {
    const G = new Float64Array(d * d);
    for (let i = 0; i < m; i++) {
      const o = i * d;
      for (let j = 0; j < d; j++) {
        const aj = A[o + j]!;
        if (aj === 0) continue;
        for (let k = 0; k <= j; k++) G[j * d + k]! += aj * A[o + k]!;
      }
    }
    for (let j = 0; j < d; j++) for (let k = 0; k < j; k++) G[k * d + j] = G[j * d + k]!;
    return G;
  }
  const K = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let k = 0; k <= i; k++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += A[i * d + j]! * A[k * d + j]!;
      K[i * m + k] = s;
      K[k * m + i] = s;
    }
  }
  return K;
}

/** A solved design: scaled-space weights and the Cholesky factor the bootstrap reuses. */
export interface RidgeSolution {
  design: RidgeDesign;
  form: 'primal' | 'dual';
  /** Cholesky factor of AᵀA + αI (primal, d×d) or AAᵀ + αI (dual, m×m). */
  factor: Float64Array;
  /** Weights in the centred, scaled space. */
  w: Float64Array;
  fit: LinearFit;
}

/** Aᵀ v for a row-major m×d A. */
function atv(A: Float64Array, v: ArrayLike<number>, m: number, d: number): Float64Array {
  const out = new Float64Array(d);
  for (let i = 0; i < m; i++) {
    const vi = v[i]!;
    if (vi === 0) continue;
    for (let j = 0; j < d; j++) out[j]! += A[i * d + j]! * vi;
  }
  return out;
}

/**
 * Solve a design given its Gram matrix (`gram`, computed by the caller — in float64 JS by
 * {@link gramF64} or with tfjs by the reward model; AᵀA for `primal`, AAᵀ for `dual`).
 */
export function solveDesign(design: RidgeDesign, gram: ArrayLike<number>, alpha: number): RidgeSolution {
  const { A, b, m, d } = design;
  const form = ridgeForm(m, d);
  const k = form === 'primal' ? d : m;
  const factor = choleskyShifted(gram, k, alpha);
  const w = form === 'primal' ? choleskySolve(factor, atv(A, b, m, d), d) : atv(A, choleskySolve(factor, b, m), m, d);
  return { design, form, factor, w, fit: finishLinear(w, design.mean, design.scale, design.yMean) };
}

/** Fit a weighted (and optionally pairwise) ridge entirely in float64 JS. */
export function fitWeightedRidgeF64(X: Rows, y: ArrayLike<number>, opts: WeightedRidgeOptions): LinearFit {
  const design = ridgeDesign(X, y, opts);
  return solveDesign(design, gramF64(design.A, design.m, design.d, ridgeForm(design.m, design.d)), opts.alpha).fit;
}

/**
 * K bootstrap members of a solved ridge without K refits: each member re-weights the design's rows
 * by Poisson(1) counts c (the Poisson bootstrap) and takes one Newton step from the full fit with
 * the full fit's Hessian, w_k = w + (AᵀA + αI)⁻¹ Aᵀ((c − 1) ⊙ r), r = b − A w — one Gram matrix and
 * one Cholesky factor shared by all members (the dual form uses (AᵀA + αI)⁻¹Aᵀ = Aᵀ(AAᵀ + αI)⁻¹).
 * Exact for a least-squares problem up to the change of the Hessian under the resampling, which is
 * O(1/√m) relative. `uniform()` draws U(0, 1).
 */
export function bootstrapMembers(sol: RidgeSolution, members: number, uniform: () => number): LinearFit[] {
  const { A, b, m, d } = sol.design;
  const r = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += A[i * d + j]! * sol.w[j]!;
    r[i] = b[i]! - s;
  }
  const out: LinearFit[] = [];
  for (let k = 0; k < members; k++) {
    const u = new Float64Array(m);
    for (let i = 0; i < m; i++) u[i] = (poisson1(uniform) - 1) * r[i]!;
    const delta =
      sol.form === 'primal' ? choleskySolve(sol.factor, atv(A, u, m, d), d) : atv(A, choleskySolve(sol.factor, u, m), m, d);
    const wk = new Float64Array(d);
    for (let j = 0; j < d; j++) wk[j] = sol.w[j]! + delta[j]!;
    out.push(finishLinear(wk, sol.design.mean, sol.design.scale, sol.design.yMean));
  }
  return out;
}

/** A Poisson(1) draw by inversion. */
function poisson1(uniform: () => number): number {
  let k = 0;
  let p = Math.exp(-1);
  let cdf = p;
  const u = uniform();
  while (u > cdf && k < 20) {
    k++;
    p /= k;
    cdf += p;
  }
  return k;
}
