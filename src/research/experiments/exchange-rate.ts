/**
 * `exchange-rate`: best-of-N under a proxy of correlation ρ to gold in the joint-Gaussian model.
 *
 * Gold g and proxy s = ρ·g + √(1−ρ²)·e are standard normal with correlation ρ. The proxy picks the
 * largest s of N i.i.d. candidates; E[g of the pick] = ρ·E[max of N standard normals] =: ρ·m(N).
 * We simulate it (Monte Carlo: one stream of N_max candidates per replicate, the pick at every
 * N = 2^k read off the running arg-max of the prefix) and compare with ρ·m(N), m computed exactly
 * by numerical integration (src/research/experiments/gaussian.ts) — not the asymptotic √(2 ln N).
 *
 * Compute penalty: the N′ a proxy of correlation ρ needs to match the sound verifier (ρ = 1) at N
 * solves ρ·m(N′) = m(N). Three versions: empirical (the simulated ρ-curve interpolated linearly
 * in log₂ N′ to where it reaches the simulated sound value at N; defined only when that is within
 * the simulated range N′ ≤ N_max), the exact finite-N form (m inverted numerically, any size), and
 * the asymptotic N′ = N^(1/ρ²).
 *
 * Units of work ("tasks"): batches of `batch` replicates, each seeded by its index; a batch's
 * record holds per-(ρ, N) sums and sums of squares, so the result is exact under chunking.
 */
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { powersOfTwo } from '../verifiers/best-of-n.ts';
import { bootstrapSe, runTaskRange, type Headline, type TaskExperiment } from './common.ts';
import { expectedMaxNormal, lnNForExpectedMax } from './gaussian.ts';

/** Options of the exchange-rate experiment. */
export interface ExchangeRateOptions {
  /** Batches of replicates (each `batch` replicates). */
  tasks: number;
  seed: number;
  rhos?: number[];
  maxLog2?: number;
  batch?: number;
}

/** Resolved options. */
export interface ExchangeRateResolved {
  tasks: number;
  seed: number;
  rhos: number[];
  maxLog2: number;
  batch: number;
}

/** Defaults: the grid of docs/reproduction.md. */
export const EXCHANGE_DEFAULTS = { rhos: [0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0], maxLog2: 14, batch: 50, tasks: 100 } as const;

/** Fill in defaults. */
export function resolveExchangeRate(o: ExchangeRateOptions): ExchangeRateResolved {
  const r = {
    tasks: o.tasks,
    seed: o.seed,
    rhos: o.rhos ?? [...EXCHANGE_DEFAULTS.rhos],
    maxLog2: o.maxLog2 ?? EXCHANGE_DEFAULTS.maxLog2,
    batch: o.batch ?? EXCHANGE_DEFAULTS.batch,
  };
  if (!(r.tasks >= 1)) throw new AnchorError('BAD_ARGUMENT', `--tasks must be >= 1, got ${r.tasks}`);
  if (!r.rhos.includes(1)) throw new AnchorError('BAD_ARGUMENT', 'the ρ grid must include 1 (the sound verifier)');
  if (r.rhos.some((x) => !(x > 0 && x <= 1))) throw new AnchorError('BAD_ARGUMENT', 'every ρ must be in (0, 1]');
  return r;
}

/** One batch: sum and sum of squares of the pick's gold per [ρ][k]. */
export interface ExchangeRateRecord {
  sum: number[][];
  sumSq: number[][];
  n: number;
}

/**
 * Gold of the proxy's pick at every N = 2^k for one stream of candidates (one replicate), per ρ.
 * Exported for tests.
 */
export function simulateReplicate(rng: Rng, rhos: readonly number[], maxLog2: number): number[][] {
  const nMax = 2 ** maxLog2;
  const R = rhos.length;
  const c = rhos.map((r) => Math.sqrt(Math.max(0, 1 - r * r)));
  const best = new Float64Array(R).fill(-Infinity);
  const bestG = new Float64Array(R);
  const out = rhos.map(() => [] as number[]);
  let next = 1;
  for (let i = 0; i < nMax; i++) {
    const g = rng.normal();
    const e = rng.normal();
    for (let j = 0; j < R; j++) {
      const s = rhos[j]! * g + c[j]! * e;
      if (s > best[j]!) {
        best[j] = s;
        bestG[j] = g;
      }
    }
    if (i + 1 === next) {
      for (let j = 0; j < R; j++) out[j]!.push(bestG[j]!);
      next *= 2;
    }
  }
  return out;
}

/** Run batch t. */
function exchangeRateTask(o: ExchangeRateResolved, t: number): ExchangeRateRecord {
  const rng = new Rng(o.seed).fork(`task-${t}`);
  const K = o.maxLog2 + 1;
  const sum = o.rhos.map(() => new Array<number>(K).fill(0));
  const sumSq = o.rhos.map(() => new Array<number>(K).fill(0));
  for (let b = 0; b < o.batch; b++) {
    const picks = simulateReplicate(rng.fork(`rep-${b}`), o.rhos, o.maxLog2);
    for (let j = 0; j < o.rhos.length; j++) {
      for (let k = 0; k < K; k++) {
        sum[j]![k]! += picks[j]![k]!;
        sumSq[j]![k]! += picks[j]![k]! ** 2;
      }
    }
  }
  return { sum, sumSq, n: o.batch };
}

/** A (ρ, N) point of the best-of-N comparison. */
interface ExchangePoint {
  rho: number;
  n: number;
  simulated: number;
  se: number;
  theory: number;
  z: number;
}

/** A (ρ, N) point of the compute penalty (log₂ N′). */
interface PenaltyPoint {
  rho: number;
  n: number;
  empiricalLog2: number | null;
  exactLog2: number;
  asymptoticLog2: number;
}

/** Result of the exchange-rate experiment. */
export interface ExchangeRateResult {
  replicates: number;
  seed: number;
  rhos: number[];
  ns: number[];
  points: ExchangePoint[];
  penalty: PenaltyPoint[];
  maxAbsDeviation: { value: number; se: number; rho: number; n: number };
  maxAbsZ: number;
  maxEmpiricalVsExactLog2: { value: number; se: number; rho: number; n: number; pairs: number };
  maxAsymptoticVsExactLog2: { value: number; rho: number; n: number; overEmpiricalPairs: number };
}

/** First crossing of `target` by an increasing-ish curve over log₂ N = 0..K−1, interpolated linearly. */
export function crossingLog2(curve: readonly number[], target: number): number | null {
  if (curve[0]! >= target) return 0;
  for (let k = 1; k < curve.length; k++) {
    if (curve[k]! >= target) {
      const a = curve[k - 1]!;
      const b = curve[k]!;
      return k - 1 + (target - a) / (b - a);
    }
  }
  return null;
}

function meansOf(o: ExchangeRateResolved, recs: readonly ExchangeRateRecord[]): { mean: number[][]; se: number[][]; n: number } {
  const K = o.maxLog2 + 1;
  const n = recs.reduce((a, r) => a + r.n, 0);
  const mean = o.rhos.map((_, j) => Array.from({ length: K }, (_, k) => recs.reduce((a, r) => a + r.sum[j]![k]!, 0) / n));
  const se = o.rhos.map((_, j) =>
    Array.from({ length: K }, (_, k) => {
      const ss = recs.reduce((a, r) => a + r.sumSq[j]![k]!, 0);
      const m = mean[j]![k]!;
      return n > 1 ? Math.sqrt(Math.max(0, (ss - n * m * m) / (n - 1)) / n) : 0;
    }),
  );
  return { mean, se, n };
}

function empiricalPenalty(o: ExchangeRateResolved, mean: number[][]): { rho: number; k: number; log2: number | null }[] {
  const sound = mean[o.rhos.indexOf(1)]!;
  const out: { rho: number; k: number; log2: number | null }[] = [];
  o.rhos.forEach((rho, j) => {
    if (rho === 1) return;
    for (let k = 1; k <= o.maxLog2; k++) out.push({ rho, k, log2: crossingLog2(mean[j]!, sound[k]!) });
  });
  return out;
}

/** Aggregate batches into the result. */
function aggregateExchangeRate(o: ExchangeRateResolved, recs: readonly ExchangeRateRecord[]): ExchangeRateResult {
  const ns = powersOfTwo(o.maxLog2);
  const m = ns.map((n) => expectedMaxNormal(n));
  const { mean, se, n } = meansOf(o, recs);
  const points: ExchangePoint[] = [];
  o.rhos.forEach((rho, j) =>
    ns.forEach((N, k) => {
      const theory = rho * m[k]!;
      const s = se[j]![k]!;
      points.push({ rho, n: N, simulated: mean[j]![k]!, se: s, theory, z: s > 0 ? (mean[j]![k]! - theory) / s : 0 });
    }),
  );
  const emp = empiricalPenalty(o, mean);
  const penalty: PenaltyPoint[] = emp.map((e) => ({
    rho: e.rho,
    n: ns[e.k]!,
    empiricalLog2: e.log2,
    exactLog2: lnNForExpectedMax(m[e.k]! / e.rho) / Math.LN2,
    asymptoticLog2: e.k / (e.rho * e.rho),
  }));
  const worst = points.reduce((a, p) => (Math.abs(p.simulated - p.theory) > Math.abs(a.simulated - a.theory) ? p : a));
  const defined = penalty.filter((p) => p.empiricalLog2 !== null);
  const dev = (p: PenaltyPoint): number => Math.abs(p.empiricalLog2! - p.exactLog2);
  const worstEmp = defined.length ? defined.reduce((a, p) => (dev(p) > dev(a) ? p : a)) : undefined;
  // Bootstrap over batches for the SE of the empirical-vs-exact maximum (refits the crossings).
  const exactByKey = new Map(penalty.map((p) => [`${p.rho}:${p.n}`, p.exactLog2]));
  const maxEmpDev = (sample: readonly ExchangeRateRecord[]): number => {
    const mm = meansOf(o, sample).mean;
    let best = 0;
    for (const e of empiricalPenalty(o, mm))
      if (e.log2 !== null) best = Math.max(best, Math.abs(e.log2 - exactByKey.get(`${e.rho}:${ns[e.k]}`)!));
    return best;
  };
  const asym = (p: PenaltyPoint): number => Math.abs(p.asymptoticLog2 - p.exactLog2);
  const worstAsym = (defined.length ? defined : penalty).reduce((a, p) => (asym(p) > asym(a) ? p : a));
  return {
    replicates: n,
    seed: o.seed,
    rhos: o.rhos,
    ns,
    points,
    penalty,
    maxAbsDeviation: { value: Math.abs(worst.simulated - worst.theory), se: worst.se, rho: worst.rho, n: worst.n },
    maxAbsZ: Math.max(...points.map((p) => Math.abs(p.z))),
    maxEmpiricalVsExactLog2: worstEmp
      ? {
          value: dev(worstEmp),
          se: bootstrapSe(recs, maxEmpDev, 100, o.seed),
          rho: worstEmp.rho,
          n: worstEmp.n,
          pairs: defined.length,
        }
      : { value: NaN, se: NaN, rho: NaN, n: NaN, pairs: 0 },
    maxAsymptoticVsExactLog2: { value: asym(worstAsym), rho: worstAsym.rho, n: worstAsym.n, overEmpiricalPairs: defined.length },
  };
}

/** The experiment as per-batch units. */
export const exchangeRateExperiment: TaskExperiment<ExchangeRateResolved, ExchangeRateRecord, ExchangeRateResult> = {
  task: exchangeRateTask,
  aggregate: aggregateExchangeRate,
};

/** Run it. */
export function runExchangeRate(opts: ExchangeRateOptions & { onTask?: (d: number, total: number) => void }): ExchangeRateResult {
  const o = resolveExchangeRate(opts);
  return aggregateExchangeRate(
    o,
    runTaskRange(exchangeRateExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}

/** Headline figures. */
export function exchangeRateHeadlines(r: ExchangeRateResult): Headline[] {
  const e = 'exchange-rate';
  return [
    {
      experiment: e,
      figure: `max |simulated − ρ·m(N)| over ρ × N (at ρ=${r.maxAbsDeviation.rho}, N=${r.maxAbsDeviation.n})`,
      value: r.maxAbsDeviation.value,
      se: r.maxAbsDeviation.se,
      note: `SE of the simulated mean at that point; ${r.replicates} replicates; max |z| = ${r.maxAbsZ.toFixed(2)}`,
    },
    {
      experiment: e,
      figure: `max |log2 N′ empirical − exact| (${r.maxEmpiricalVsExactLog2.pairs} pairs with N′ ≤ 2^${Math.log2(r.ns[r.ns.length - 1]!)}; at ρ=${r.maxEmpiricalVsExactLog2.rho}, N=${r.maxEmpiricalVsExactLog2.n})`,
      value: r.maxEmpiricalVsExactLog2.value,
      se: r.maxEmpiricalVsExactLog2.se,
      note: 'bootstrap SE over replicate batches',
    },
    {
      experiment: e,
      figure: `max |log2 N′ asymptotic N^(1/ρ²) − exact| over the same pairs (at ρ=${r.maxAsymptoticVsExactLog2.rho}, N=${r.maxAsymptoticVsExactLog2.n})`,
      value: r.maxAsymptoticVsExactLog2.value,
      se: NaN,
      note: 'both deterministic',
    },
  ];
}
