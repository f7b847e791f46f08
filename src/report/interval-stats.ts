/**
 * Interval estimates over seeds, with the definitions of Agarwal et al., "Deep RL at the Edge of
 * the Statistical Precipice" (NeurIPS 2021) and their reference library rliable:
 *
 * - scores are a matrix `[run][task]` (here a run is a seed);
 * - the interquartile mean (IQM) is the 25% trimmed mean over every run of every task: sort all
 *   values, drop ⌊0.25·n⌋ from each end, average the rest (scipy `trim_mean(x, 0.25)`);
 * - the probability of improvement P(X > Y) is, per task, the Mann–Whitney U statistic over the
 *   two sets of runs divided by nₓ·n_y (ties count ½; identical run sets give exactly ½), averaged
 *   over tasks;
 * - confidence intervals are percentile bootstrap intervals: each replicate resamples, within every
 *   task independently, the runs with replacement (stratified bootstrap), and the interval is the
 *   (α/2, 1 − α/2) percentiles of the replicates with linear interpolation (numpy's default).
 *   Statistics of two score sets (P(X > Y)) resample each set independently.
 *
 * Every bootstrap is seeded ({@link Rng}): the same scores and seed give the same interval.
 */
import { AnchorError } from '../util/errors.ts';
import { Rng } from '../util/rng.ts';

/** Scores as `[run][task]`; every run has a value for every task. */
export type ScoreMatrix = readonly (readonly number[])[];

/** A point estimate with its percentile bootstrap interval. */
export interface Interval {
  point: number;
  lo: number;
  hi: number;
}

/** Options of the bootstrap intervals. */
export interface BootstrapOptions {
  /** Bootstrap replicates. Default {@link DEFAULT_REPS}. */
  reps?: number;
  /** Interval coverage. Default 0.95. */
  confidence?: number;
  /** Seed of the resampling stream. Default 0. */
  seed?: number;
}

/** Replicates when none are given (rliable's default is 50,000; a few seeds settle far sooner). */
export const DEFAULT_REPS = 10_000;

function checkMatrix(scores: ScoreMatrix, what: string): number {
  const tasks = scores[0]?.length ?? 0;
  if (scores.length === 0 || tasks === 0)
    throw new AnchorError('BAD_ARGUMENT', `${what}: needs at least one run of at least one task`);
  for (const row of scores) {
    if (row.length !== tasks)
      throw new AnchorError('BAD_ARGUMENT', `${what}: every run needs a score for each of ${tasks} task(s)`);
    for (const v of row) if (!Number.isFinite(v)) throw new AnchorError('BAD_ARGUMENT', `${what}: score ${v} is not finite`);
  }
  return tasks;
}

/** Mean of the per-task means (rliable `aggregate_mean`). */
export function aggregateMean(scores: ScoreMatrix): number {
  const tasks = checkMatrix(scores, 'mean');
  let total = 0;
  for (let t = 0; t < tasks; t++) {
    let s = 0;
    for (const row of scores) s += row[t]!;
    total += s / scores.length;
  }
  return total / tasks;
}

/** The trimmed mean cutting ⌊proportion·n⌋ values from each end of the sorted values (scipy `trim_mean`). */
export function trimMean(values: ArrayLike<number>, proportion: number): number {
  if (values.length === 0) throw new AnchorError('BAD_ARGUMENT', 'trimMean: no values');
  if (!(proportion >= 0 && proportion < 0.5))
    throw new AnchorError('BAD_ARGUMENT', `trimMean: proportion must be in [0, 0.5), got ${proportion}`);
  const sorted = Float64Array.from(values).sort();
  const cut = Math.floor(proportion * sorted.length);
  let s = 0;
  for (let i = cut; i < sorted.length - cut; i++) s += sorted[i]!;
  return s / (sorted.length - 2 * cut);
}

/** The interquartile mean over every run of every task (rliable `aggregate_iqm`). */
export function aggregateIqm(scores: ScoreMatrix): number {
  const tasks = checkMatrix(scores, 'IQM');
  const all = new Float64Array(scores.length * tasks);
  scores.forEach((row, i) => all.set(row, i * tasks));
  return trimMean(all, 0.25);
}

/** P(X > Y) averaged over tasks (rliable `probability_of_improvement`); ties count ½. */
export function probabilityOfImprovement(x: ScoreMatrix, y: ScoreMatrix): number {
  const tasks = checkMatrix(x, 'P(X > Y)');
  if (checkMatrix(y, 'P(X > Y)') !== tasks)
    throw new AnchorError('BAD_ARGUMENT', 'P(X > Y): both score sets need the same tasks');
  let total = 0;
  for (let t = 0; t < tasks; t++) {
    let u = 0;
    for (const rx of x) {
      for (const ry of y) {
        const a = rx[t]!;
        const b = ry[t]!;
        u += a > b ? 1 : a === b ? 0.5 : 0;
      }
    }
    total += u / (x.length * y.length);
  }
  return total / tasks;
}

/** The q-th quantile (0 ≤ q ≤ 1) of sorted values, linearly interpolated (numpy's default `percentile`). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new AnchorError('BAD_ARGUMENT', 'quantile of no values');
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Stratified resampling into a reused buffer: within each task, runs drawn with replacement
 * (independently per task). Draw order (task-major) is part of the seeded stream's contract.
 */
function stratifiedResampler(scores: ScoreMatrix, tasks: number, rng: Rng): () => number[][] {
  const n = scores.length;
  const out: number[][] = Array.from({ length: n }, () => new Array<number>(tasks).fill(0));
  return () => {
    for (let t = 0; t < tasks; t++) for (let i = 0; i < n; i++) out[i]![t] = scores[rng.int(n)]![t]!;
    return out;
  };
}

function bootstrapInterval(point: number, replicate: () => number, opts: BootstrapOptions): Interval {
  const reps = opts.reps ?? DEFAULT_REPS;
  const confidence = opts.confidence ?? 0.95;
  if (!(Number.isInteger(reps) && reps >= 1))
    throw new AnchorError('BAD_ARGUMENT', `bootstrap reps must be a positive integer, got ${reps}`);
  if (!(confidence > 0 && confidence < 1))
    throw new AnchorError('BAD_ARGUMENT', `bootstrap confidence must be in (0, 1), got ${confidence}`);
  const values = new Float64Array(reps);
  for (let r = 0; r < reps; r++) values[r] = replicate();
  values.sort();
  const tail = (1 - confidence) / 2;
  return { point, lo: quantileSorted(values, tail), hi: quantileSorted(values, 1 - tail) };
}

/** A statistic of one score matrix with its stratified percentile bootstrap interval. */
export function stratifiedBootstrap(
  scores: ScoreMatrix,
  statistic: (s: ScoreMatrix) => number,
  opts: BootstrapOptions = {},
): Interval {
  const tasks = checkMatrix(scores, 'bootstrap');
  const resample = stratifiedResampler(scores, tasks, new Rng(opts.seed ?? 0));
  return bootstrapInterval(statistic(scores), () => statistic(resample()), opts);
}

/** A statistic of two score matrices, each resampled independently (stratified), with its interval. */
export function independentBootstrap(
  x: ScoreMatrix,
  y: ScoreMatrix,
  statistic: (x: ScoreMatrix, y: ScoreMatrix) => number,
  opts: BootstrapOptions = {},
): Interval {
  const tx = checkMatrix(x, 'bootstrap');
  const ty = checkMatrix(y, 'bootstrap');
  const rng = new Rng(opts.seed ?? 0);
  const rx = stratifiedResampler(x, tx, rng);
  const ry = stratifiedResampler(y, ty, rng);
  // x's draws, then y's, per replicate (one stream).
  return bootstrapInterval(statistic(x, y), () => statistic(rx(), ry()), opts);
}

/** True when `value` lies inside the closed interval (the difference from it is not distinguishable). */
export function intervalIncludes(i: Pick<Interval, 'lo' | 'hi'>, value: number): boolean {
  return i.lo <= value && value <= i.hi;
}
