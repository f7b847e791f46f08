/**
 * `copula`: predict each problem's Snd@N from a single correlation number, two ways, and measure
 * how well each prediction matches the measured Snd@N of a scored candidate pool.
 *
 * - Gaussian-copula (rank) prediction: the pool's Spearman ρ_S becomes the latent normal
 *   correlation r = 2·sin(π·ρ_S/6); latent (z_gold, z_proxy) are standard bivariate normal with
 *   correlation r and gold = the pool's empirical gold quantile at Φ(z_gold). The proxy picks the
 *   largest z_proxy of N; the oracle picks the largest gold. We compute the expectation of that
 *   simulation exactly rather than by sampling: E[gold | z_proxy = z] is a finite sum over the
 *   pool's gold levels of normal-CDF differences, integrated against the density of the maximum
 *   of N normals (N·φ·Φ^(N−1)) on a grid. The oracle term is the exact best-of-N of the empirical
 *   gold (the pool itself).
 * - Pearson prediction (joint Gaussian with the pool's gold mean μ and sd σ):
 *   Snd@N = (μ + σ·ρ_P·m(N)) / (μ + σ·m(N)), m(N) = E[max of N standard normals].
 *
 * Measured Snd@N per problem = E[G(V's pick)] / E[G(G's pick)] (exact best-of-N on the pool),
 * over N = 2^1 … 2^k (N = 1 is 1 by construction for all three) and problems whose pool has some
 * positive gold. Headline: the median absolute error of each prediction, with a bootstrap SE over
 * problems. Pools come from `goodhart` (rebuilt from the seed, task by task) or a `--pool` file.
 */
import { AnchorError } from '../../util/errors.ts';
import { expectedBestOfNCurve, powersOfTwo } from '../verifiers/best-of-n.ts';
import { pearson, spearman } from '../../util/correlation.ts';
import { goodhartPool, resolveGoodhart, type GoodhartResolved } from './goodhart.ts';
import { bootstrapSe, median, runTaskRange, type Headline, type TaskExperiment } from './common.ts';
import { expectedMaxNormal, logNormCdf, normCdf, normInv, normPdf } from './gaussian.ts';

/** Per-N predictions for one (problem, verifier) pool. */
export interface CopulaPrediction {
  ns: number[];
  measured: number[];
  copula: number[];
  pearson: number[];
  spearman: number;
  pearsonRho: number;
}

const Z_LO = -9;
const Z_HI = 9;
const Z_STEPS = 9000;

/**
 * E[gold of the proxy's pick] under the Gaussian copula with latent correlation r and the
 * empirical gold margin `gold`, for each N. Exported for tests.
 */
export function copulaPickGold(gold: readonly number[], r: number, ns: readonly number[]): number[] {
  const sorted = [...gold].sort((a, b) => a - b);
  const M = sorted.length;
  // Gold levels with their cumulative-probability cut points: level v_j occupies (c_{j−1}, c_j].
  const levels: { v: number; lo: number; hi: number }[] = [];
  for (let i = 0; i < M; ) {
    let j = i;
    while (j < M && sorted[j] === sorted[i]) j++;
    levels.push({ v: sorted[i]!, lo: normInv(i / M), hi: normInv(j / M) });
    i = j;
  }
  const s = Math.sqrt(Math.max(0, 1 - r * r));
  const h = (Z_HI - Z_LO) / Z_STEPS;
  const z = Float64Array.from({ length: Z_STEPS + 1 }, (_, i) => Z_LO + i * h);
  // hz[i] = E[gold | z_proxy = z_i]: z_gold | z ~ N(r·z, s²).
  const hz = Float64Array.from(z, (zi) => {
    let e = 0;
    for (const L of levels) {
      const p = s < 1e-12 ? (zi > L.lo && zi <= L.hi ? 1 : 0) : normCdf((L.hi - r * zi) / s) - normCdf((L.lo - r * zi) / s);
      e += L.v * p;
    }
    return e;
  });
  const logPhi = Float64Array.from(z, (zi) => logNormCdf(zi));
  const pdf = Float64Array.from(z, (zi) => normPdf(zi));
  return ns.map((n) => {
    // Density of the max of N on the grid, renormalised (trapezoid) to remove grid error.
    let num = 0;
    let den = 0;
    for (let i = 0; i <= Z_STEPS; i++) {
      const w = (i === 0 || i === Z_STEPS ? 0.5 : 1) * n * pdf[i]! * Math.exp((n - 1) * logPhi[i]!);
      num += w * hz[i]!;
      den += w;
    }
    return num / den;
  });
}

/** Both predictions and the measurement for one scored pool. */
export function predictPool(scores: readonly number[], gold: readonly number[], maxLog2: number): CopulaPrediction {
  const ns = powersOfTwo(maxLog2).slice(1);
  const pool = { scores, gold };
  const vPick = expectedBestOfNCurve(pool, ns);
  const gPick = expectedBestOfNCurve({ scores: gold, gold }, ns);
  const rs = spearman(scores, gold);
  const rp = pearson(scores, gold);
  const M = gold.length;
  const mu = gold.reduce((a, b) => a + b, 0) / M;
  const sd = Math.sqrt(gold.reduce((a, b) => a + (b - mu) ** 2, 0) / M);
  const r = 2 * Math.sin((Math.PI * (Number.isFinite(rs) ? rs : 0)) / 6);
  const cop = copulaPickGold(gold, r, ns);
  return {
    ns,
    measured: ns.map((_, k) => (gPick[k]! > 0 ? vPick[k]! / gPick[k]! : NaN)),
    copula: ns.map((_, k) => (gPick[k]! > 0 ? cop[k]! / gPick[k]! : NaN)),
    pearson: ns.map((n) => {
      const m = expectedMaxNormal(n);
      const rr = Number.isFinite(rp) ? rp : 0;
      return mu + sd * m > 0 ? (mu + sd * rr * m) / (mu + sd * m) : NaN;
    }),
    spearman: rs,
    pearsonRho: rp,
  };
}

/** Options. */
export interface CopulaOptions {
  domain: 'dsl6' | 'richdsl';
  tasks: number;
  seed: number;
  train?: number;
  pool?: number;
  maxLog2?: number;
}

/** One problem's record: per verifier, the predictions. */
export type CopulaRecord = Record<string, CopulaPrediction>;

/** Per-task unit: rebuild goodhart's pool for task t and predict. */
function copulaTask(o: GoodhartResolved, t: number): CopulaRecord {
  const p = goodhartPool(o, t);
  return Object.fromEntries(Object.entries(p.scores).map(([name, s]) => [name, predictPool(s, p.gold, o.maxLog2)]));
}

/** Per-verifier summary. */
interface CopulaVerifierSummary {
  verifier: string;
  problems: number;
  pairs: number;
  copulaMedianAbsErr: { value: number; se: number };
  pearsonMedianAbsErr: { value: number; se: number };
  /** Per N: median absolute error of each prediction. */
  perN: { n: number; copula: number; pearson: number; measuredMean: number; copulaMean: number; pearsonMean: number }[];
}

/** Result. */
export interface CopulaResult {
  source: string;
  problems: number;
  maxLog2: number;
  verifiers: CopulaVerifierSummary[];
}

function errs(recs: readonly CopulaPrediction[], key: 'copula' | 'pearson'): number[] {
  const out: number[] = [];
  for (const r of recs)
    r.ns.forEach((_, k) => {
      const e = Math.abs(r[key][k]! - r.measured[k]!);
      if (Number.isFinite(e)) out.push(e);
    });
  return out;
}

/** Aggregate per-problem predictions (in problem order). */
function aggregateCopula(source: string, maxLog2: number, seed: number, recs: readonly CopulaRecord[]): CopulaResult {
  const names = Object.keys(recs[0] ?? {});
  return {
    source,
    problems: recs.length,
    maxLog2,
    verifiers: names.map((name) => {
      const ps = recs.map((r) => r[name]!);
      const ns = ps[0]!.ns;
      const finiteMean = (xs: number[]): number => {
        const f = xs.filter((x) => Number.isFinite(x));
        return f.reduce((a, b) => a + b, 0) / f.length;
      };
      return {
        verifier: name,
        problems: ps.filter((p) => p.measured.some((x) => Number.isFinite(x))).length,
        pairs: errs(ps, 'copula').length,
        copulaMedianAbsErr: {
          value: median(errs(ps, 'copula')),
          se: bootstrapSe(ps, (s) => median(errs(s, 'copula')), 200, seed),
        },
        pearsonMedianAbsErr: {
          value: median(errs(ps, 'pearson')),
          se: bootstrapSe(ps, (s) => median(errs(s, 'pearson')), 200, seed),
        },
        perN: ns.map((n, k) => ({
          n,
          copula: median(ps.map((p) => Math.abs(p.copula[k]! - p.measured[k]!))),
          pearson: median(ps.map((p) => Math.abs(p.pearson[k]! - p.measured[k]!))),
          measuredMean: finiteMean(ps.map((p) => p.measured[k]!)),
          copulaMean: finiteMean(ps.map((p) => p.copula[k]!)),
          pearsonMean: finiteMean(ps.map((p) => p.pearson[k]!)),
        })),
      };
    }),
  };
}

/** Resolve options (the goodhart sizes). */
export function resolveCopula(o: CopulaOptions): GoodhartResolved {
  return resolveGoodhart(o);
}

/** The copula experiment over goodhart's pools, as per-task units. */
export const copulaExperiment: TaskExperiment<GoodhartResolved, CopulaRecord, CopulaResult> = {
  task: copulaTask,
  aggregate: (o, recs) =>
    aggregateCopula(`goodhart ${o.domain} pools (seed ${o.seed}, train ${o.train}, pool ${o.pool})`, o.maxLog2, o.seed, recs),
};

/** Run on goodhart's pools. */
export function runCopula(opts: CopulaOptions & { onTask?: (d: number, total: number) => void }): CopulaResult {
  const o = resolveCopula(opts);
  return copulaExperiment.aggregate(
    o,
    runTaskRange(copulaExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}

/** Run on pool records (the `snd --pool` format), grouped by problem in first-seen order. */
export function runCopulaOnRecords(
  records: readonly { problem: string; scores: Record<string, number>; gold: number }[],
  source: string,
  maxLog2?: number,
  seed = 0,
): CopulaResult {
  const groups = new Map<string, { scores: Record<string, number[]>; gold: number[] }>();
  for (const r of records) {
    let g = groups.get(r.problem);
    if (!g) groups.set(r.problem, (g = { scores: {}, gold: [] }));
    g.gold.push(r.gold);
    for (const [k, v] of Object.entries(r.scores)) (g.scores[k] ??= []).push(v);
  }
  const minPool = Math.min(...[...groups.values()].map((g) => g.gold.length));
  const k = maxLog2 ?? Math.floor(Math.log2(minPool));
  if (k < 1 || 2 ** k > minPool)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `max log2 ${k} needs pools of at least ${2 ** k} (and at least 2) candidates; the smallest has ${minPool}`,
    );
  const recs = [...groups.values()].map((g) =>
    Object.fromEntries(Object.entries(g.scores).map(([name, s]) => [name, predictPool(s, g.gold, k)])),
  );
  return aggregateCopula(source, k, seed, recs);
}

/** Headline figures. */
export function copulaHeadlines(r: CopulaResult, label: string): Headline[] {
  return r.verifiers.flatMap((v) => [
    {
      experiment: `copula ${label}`,
      figure: `${v.verifier}: median |Snd@N copula prediction − measured|`,
      value: v.copulaMedianAbsErr.value,
      se: v.copulaMedianAbsErr.se,
      note: `${v.pairs} (problem, N) pairs, N = 2..2^${r.maxLog2}; bootstrap SE over problems`,
    },
    {
      experiment: `copula ${label}`,
      figure: `${v.verifier}: median |Snd@N Pearson prediction − measured|`,
      value: v.pearsonMedianAbsErr.value,
      se: v.pearsonMedianAbsErr.se,
      note: 'bootstrap SE over problems',
    },
  ]);
}
