/**
 * Shared pieces of the reproduction experiments: the per-task contract that makes chunked and
 * monolithic runs identical, mean ± SE helpers (ratio of means, Snd AUC with a delta-method SE,
 * bootstrap), and the headline-figure record `reproduce` collects.
 *
 * The contract: an experiment's work is a sequence of independent units ("tasks" — DSL tasks, or
 * Monte Carlo replicates for the Gaussian experiments) whose randomness is drawn only from
 * `taskRng(seed, t)`, a stream that depends on the seed and the index t alone. Each unit returns a
 * JSON-safe record; the result is a pure function of the ordered record list. So running tasks
 * [0, n) at once, or as [0, k) + [k, n) in separate processes, gives the same records and the same
 * figures, bit for bit (test/research/experiments/chunking.test.ts).
 */
import { Rng } from '../../util/rng.ts';
import { meanAndSe } from '../verifiers/best-of-n.ts';

/** Mean and standard error. */
export type Stat = { mean: number; se: number };

/**
 * An experiment split into independent per-task units. `O` = resolved options, `R` = one task's
 * JSON-safe record, `Res` = the aggregated result.
 */
export interface TaskExperiment<O, R, Res> {
  /** One unit of work, seeded only by (opts.seed, t). */
  task(opts: O, t: number): R;
  /** The result from the ordered records of tasks 0 … n−1. */
  aggregate(opts: O, records: readonly R[]): Res;
}

/** Run tasks [from, to) of an experiment. */
export function runTaskRange<O, R>(
  exp: Pick<TaskExperiment<O, R, unknown>, 'task'>,
  opts: O,
  from: number,
  to: number,
  onTask?: (done: number) => void,
): R[] {
  const out: R[] = [];
  for (let t = from; t < to; t++) {
    out.push(exp.task(opts, t));
    onTask?.(t + 1);
  }
  return out;
}

/** One headline figure of the reproduction table. */
export interface Headline {
  experiment: string;
  figure: string;
  value: number;
  /** Standard error (NaN when not applicable, e.g. an exact quantity or a single number). */
  se: number;
  /** How the figure and its SE were computed, when not obvious. */
  note?: string;
}

/** Mean ± SE; NaN-safe for empty input. Non-finite values are dropped. */
export function stat(values: readonly (number | null)[]): Stat {
  return meanAndSe(values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)));
}

/** Ratio of two means over units with its delta-method standard error (as in src/research/verifiers/snd.ts). */
function ratioOfMeans(num: readonly number[], den: readonly number[]): { value: number; se: number } {
  const n = num.length;
  const mx = num.reduce((a, b) => a + b, 0) / n;
  const my = den.reduce((a, b) => a + b, 0) / n;
  const value = my === 0 ? NaN : mx / my;
  let se = 0;
  if (n > 1 && my !== 0) {
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (num[i]! - value * den[i]!) ** 2;
    se = Math.sqrt(ss / (n - 1) / n) / Math.abs(my);
  }
  return { value, se };
}

/**
 * Snd AUC over log N (the mean over the grid of ratio-of-means Snd@N) with a delta-method SE over
 * units: each unit's linearised contribution is (1/K) Σ_N (v_tN − r_N·g_tN)/ḡ_N.
 * `v[t][k]`, `g[t][k]` = unit t's E[gold of the verifier's / oracle's pick] at the k-th N.
 */
export function sndAuc(
  v: readonly (readonly number[])[],
  g: readonly (readonly number[])[],
): { auc: number; se: number; snd: { value: number; se: number }[] } {
  const T = v.length;
  const K = v[0]?.length ?? 0;
  const snd = Array.from({ length: K }, (_, k) =>
    ratioOfMeans(
      v.map((r) => r[k]!),
      g.map((r) => r[k]!),
    ),
  );
  const auc = snd.reduce((a, s) => a + s.value, 0) / K;
  const gm = Array.from({ length: K }, (_, k) => g.reduce((a, r) => a + r[k]!, 0) / T);
  const contrib = v.map((row, t) => row.reduce((a, x, k) => a + (x - snd[k]!.value * g[t]![k]!) / gm[k]!, 0) / K);
  const m = contrib.reduce((a, b) => a + b, 0) / T;
  const se = T > 1 ? Math.sqrt(contrib.reduce((a, c) => a + (c - m) ** 2, 0) / (T - 1) / T) : 0;
  return { auc, se, snd };
}

/** Bootstrap SE over units of a statistic of the resampled units (seeded, deterministic). */
export function bootstrapSe<T>(
  units: readonly T[],
  statistic: (sample: readonly T[]) => number,
  reps: number,
  seed: number,
): number {
  if (units.length < 2) return 0;
  const rng = new Rng(seed).fork('bootstrap');
  const vals: number[] = [];
  for (let b = 0; b < reps; b++) {
    const sample = Array.from({ length: units.length }, () => units[rng.int(units.length)]!);
    const s = statistic(sample);
    if (Number.isFinite(s)) vals.push(s);
  }
  const m = vals.reduce((a, b) => a + b, 0) / vals.length;
  return Math.sqrt(vals.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, vals.length - 1));
}

/** Median of finite values (NaN when none). */
export function median(values: readonly number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const h = v.length >> 1;
  return v.length % 2 ? v[h]! : (v[h - 1]! + v[h]!) / 2;
}

/** Ordinary least squares y = a + b·x with R², and the OLS SE of the slope. */
export function linearFit(
  x: readonly number[],
  y: readonly number[],
): { intercept: number; slope: number; slopeSe: number; r2: number } {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (x[i]! - mx) ** 2;
    sxy += (x[i]! - mx) * (y[i]! - my);
    syy += (y[i]! - my) ** 2;
  }
  const slope = sxx === 0 ? NaN : sxy / sxx;
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (y[i]! - intercept - slope * x[i]!) ** 2;
  const r2 = syy === 0 ? NaN : 1 - sse / syy;
  const slopeSe = n > 2 && sxx > 0 ? Math.sqrt(sse / (n - 2) / sxx) : NaN;
  return { intercept, slope, slopeSe, r2 };
}
