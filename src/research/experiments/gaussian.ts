/**
 * Standard-normal numerics for the Gaussian experiments (`exchange-rate`, `copula`): Φ and
 * log Φ accurate far into both tails, Φ⁻¹, and the exact finite-N expectation of the maximum of
 * N i.i.d. standard normals for real N ≥ 1, including astronomically large N (given as ln N).
 *
 * E[max of N] = ∫₀^∞ (1 − Φ(x)^N) dx − ∫_{−∞}^0 Φ(x)^N dx, with Φ(x)^N = exp(N·log Φ(x)) and
 * log Φ computed from the upper-tail Q(x) (continued fraction beyond |x| = 5), so N = e^700 is as
 * easy as N = 2. The integral runs on a fixed Simpson grid.
 */

const LOG_SQRT_2PI = 0.9189385332046727;

/** Φ(x) by Marsaglia's Taylor series (absolute error ~1e-15); use {@link upperTail} in the tails. */
function phiSeries(x: number): number {
  let s = x;
  let t = 0;
  let b = x;
  const q = x * x;
  let i = 1;
  while (s !== t) {
    t = s;
    i += 2;
    b *= q / i;
    s = t + b;
  }
  return 0.5 + s * Math.exp(-0.5 * q - LOG_SQRT_2PI);
}

/** ln Q(x) = ln P(Z > x) for x ≥ 0, relative accuracy ~1e-14 at every x. */
function logUpperTail(x: number): number {
  if (x < 5) return Math.log(1 - phiSeries(x));
  // Mills ratio by the continued fraction Q(x) = φ(x) / (x + 1/(x + 2/(x + 3/(x + …)))).
  let f = x;
  for (let k = 80; k >= 1; k--) f = x + k / f;
  return -0.5 * x * x - LOG_SQRT_2PI - Math.log(f);
}

/** Upper tail Q(x) = 1 − Φ(x). */
export function upperTail(x: number): number {
  return x >= 0 ? Math.exp(logUpperTail(x)) : 1 - Math.exp(logUpperTail(-x));
}

/** Φ(x). */
export function normCdf(x: number): number {
  return x >= 0 ? 1 - Math.exp(logUpperTail(x)) : Math.exp(logUpperTail(-x));
}

/** ln Φ(x), accurate in both tails. */
export function logNormCdf(x: number): number {
  return x < 0 ? logUpperTail(-x) : Math.log1p(-Math.exp(logUpperTail(x)));
}

/** Standard normal density. */
export function normPdf(x: number): number {
  return Math.exp(-0.5 * x * x - LOG_SQRT_2PI);
}

/** Φ⁻¹(p) (Acklam's rational approximation plus one Halley step; |error| < 1e-12 on (0, 1)). */
export function normInv(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239,
  ];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  }
  // Halley refinement on Φ(x) − p.
  const e = normCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

// Simpson grids for E[max] on [−12, 0] and [0, 64] (the integrand jumps at 0; ln N up to ~2,000
// puts the maximum near 63). Stored: ln(−ln Φ(x)), so N·(−ln Φ) = exp(ln N + that) never overflows.
const H = 0.004;
interface Grid {
  x: Float64Array;
  logNegLogPhi: Float64Array;
  w: Float64Array;
}
let grids: [Grid, Grid] | undefined;

function makeGrid(lo: number, hi: number): Grid {
  const steps = Math.round((hi - lo) / H / 2) * 2;
  const h = (hi - lo) / steps;
  const n = steps + 1;
  const x = new Float64Array(n);
  const logNegLogPhi = new Float64Array(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const xi = lo + i * h;
    x[i] = xi;
    if (xi < 0) logNegLogPhi[i] = Math.log(-logUpperTail(-xi));
    else {
      const lq = logUpperTail(xi);
      const q = Math.exp(lq);
      // −ln Φ = −ln(1 − Q) = Q + Q²/2 + … ; in logs: ln Q + ln(−log1p(−Q)/Q).
      logNegLogPhi[i] = q < 1e-12 ? lq + q / 2 : Math.log(-Math.log1p(-q));
    }
    w[i] = (h / 3) * (i === 0 || i === n - 1 ? 1 : i % 2 ? 4 : 2);
  }
  return { x, logNegLogPhi, w };
}

/**
 * E[max of N i.i.d. standard normals] for real N = e^lnN ≥ 1 (exact finite-N form, numerically
 * integrated; checked against the closed forms for N = 1, 2, 3 in tests).
 */
export function expectedMaxNormalLn(lnN: number): number {
  grids ??= [makeGrid(-12, 0), makeGrid(0, 64)];
  let s = 0;
  for (const [g, positive] of [
    [grids[0], false],
    [grids[1], true],
  ] as const) {
    for (let i = 0; i < g.x.length; i++) {
      const e = -Math.exp(lnN + g.logNegLogPhi[i]!); // N·ln Φ(x)
      s += g.w[i]! * (positive ? -Math.expm1(e) : -Math.exp(e));
    }
  }
  return s;
}

/** E[max of N standard normals] for N ≥ 1. */
export function expectedMaxNormal(n: number): number {
  return expectedMaxNormalLn(Math.log(n));
}

/**
 * ln N such that E[max of N] = target (regula falsi with the Illinois modification on
 * ln N ∈ [0, hiLn]; ~10 evaluations instead of bisection's ~40); target ≤ 0 gives 0.
 */
export function lnNForExpectedMax(target: number, hiLn = 1400): number {
  if (target <= 0) return 0;
  let a = 0;
  let b = hiLn;
  let fa = expectedMaxNormalLn(a) - target;
  let fb = expectedMaxNormalLn(b) - target;
  if (fb < 0) return Infinity;
  let side = 0;
  for (let it = 0; it < 100; it++) {
    const c = (a * fb - b * fa) / (fb - fa);
    const fc = expectedMaxNormalLn(c) - target;
    if (Math.abs(fc) < 1e-11 || Math.abs(b - a) < 1e-10 * Math.max(1, c)) return c;
    if (fc * fb > 0) {
      b = c;
      fb = fc;
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      a = c;
      fa = fc;
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return (a + b) / 2;
}
