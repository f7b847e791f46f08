/**
 * `resolution`: rounds of probabilistic claims settled by execution. A claim is "this program's
 * gold is ≥ θ" with a stated probability p from a claim model — L2-regularised logistic regression
 * (λ = 1, intercept unpenalised, Newton/IRLS in float64) over the world's default features.
 *
 * Per task: both arms start from a claim model fitted on `base` random labelled programs. Each
 * round draws a fresh pool (shared by the arms); each arm claims on its `claims` programs with the
 * highest p (the claims it would act on); the claims are settled by execution; the Brier score
 * and its 10-bin reliability / resolution / uncertainty decomposition over the round's claims are
 * computed out of sample (before any refit); then `anchored` appends the settled outcomes and
 * refits, `frozen` never refits. Figures are per-task decompositions averaged over tasks (± SE).
 */
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { getWorld, type DslWorldName } from '../../tasks/index.ts';
import { solveShifted } from '../../reward/models/ridge-math.ts';
import { brierDecomposition } from '../verifiers/brier.ts';
import { topK } from './settlement-loop.ts';
import { runTaskRange, stat, type Headline, type Stat, type TaskExperiment } from './common.ts';

/** A fitted logistic model (raw features). */
export interface LogisticFit {
  weights: Float64Array;
  intercept: number;
}

/** Fit L2 logistic regression by Newton's method (IRLS). Exported for tests. */
export function fitLogistic(X: readonly ArrayLike<number>[], y: readonly number[], lambda = 1, iterations = 25): LogisticFit {
  const n = X.length;
  const d = X[0]!.length;
  const k = d + 1; // last coefficient = intercept
  const beta = new Float64Array(k);
  for (let it = 0; it < iterations; it++) {
    const H = new Float64Array(k * k);
    const g = new Float64Array(k);
    for (let i = 0; i < n; i++) {
      const x = X[i]!;
      let z = beta[d]!;
      for (let j = 0; j < d; j++) z += x[j]! * beta[j]!;
      const p = 1 / (1 + Math.exp(-z));
      const w = Math.max(p * (1 - p), 1e-10);
      const r = y[i]! - p;
      for (let a = 0; a < k; a++) {
        const xa = a === d ? 1 : x[a]!;
        if (xa === 0) continue;
        g[a]! += xa * r;
        for (let b = 0; b <= a; b++) {
          const xb = b === d ? 1 : x[b]!;
          H[a * k + b]! += w * xa * xb;
        }
      }
    }
    for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) H[b * k + a] = H[a * k + b]!;
    for (let a = 0; a < d; a++) {
      H[a * k + a]! += lambda;
      g[a]! -= lambda * beta[a]!;
    }
    const step = solveShifted(H, g, k, 1e-9);
    let maxStep = 0;
    for (let a = 0; a < k; a++) {
      beta[a]! += step[a]!;
      maxStep = Math.max(maxStep, Math.abs(step[a]!));
    }
    if (maxStep < 1e-9) break;
  }
  return { weights: beta.slice(0, d), intercept: beta[d]! };
}

/** P(y = 1) per row. */
export function predictLogistic(f: LogisticFit, X: readonly ArrayLike<number>[]): Float64Array {
  return Float64Array.from(X, (x) => {
    let z = f.intercept;
    for (let j = 0; j < f.weights.length; j++) z += x[j]! * f.weights[j]!;
    return 1 / (1 + Math.exp(-z));
  });
}

/** Options. */
export interface ResolutionOptions {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  rounds?: number;
  pool?: number;
  claims?: number;
  base?: number;
  threshold?: number;
  lambda?: number;
}

/** Resolved. */
export type ResolutionResolved = Required<Omit<ResolutionOptions, 'domain'>> & { domain: DslWorldName };

/** Defaults. */
export const RESOLUTION_DEFAULTS = { rounds: 10, pool: 512, claims: 64, base: 300, threshold: 0.25, lambda: 1 } as const;

/** Fill in defaults. */
export function resolveResolution(o: ResolutionOptions): ResolutionResolved {
  const r: ResolutionResolved = {
    domain: o.domain,
    tasks: o.tasks,
    seed: o.seed,
    rounds: o.rounds ?? RESOLUTION_DEFAULTS.rounds,
    pool: o.pool ?? RESOLUTION_DEFAULTS.pool,
    claims: o.claims ?? RESOLUTION_DEFAULTS.claims,
    base: o.base ?? RESOLUTION_DEFAULTS.base,
    threshold: o.threshold ?? RESOLUTION_DEFAULTS.threshold,
    lambda: o.lambda ?? RESOLUTION_DEFAULTS.lambda,
  };
  if (!(r.tasks >= 1)) throw new AnchorError('BAD_ARGUMENT', `--tasks must be >= 1, got ${r.tasks}`);
  if (r.claims > r.pool) throw new AnchorError('BAD_ARGUMENT', `claims ${r.claims} exceed pool ${r.pool}`);
  return r;
}

type Decomp = {
  brier: number;
  reliability: number;
  resolution: number;
  uncertainty: number;
  baseRate: number;
  meanForecast: number;
};

/** One task: per arm, per round, the out-of-sample decomposition. */
export type ResolutionRecord = Record<'anchored' | 'frozen', Decomp[]>;

/** Run task t. */
function resolutionTask(o: ResolutionResolved, t: number): ResolutionRecord {
  const world = getWorld(o.domain);
  const set = world.featureSets[0]!;
  const rng = new Rng(o.seed).fork(`task-${t}`);
  const task = world.sampleTask(rng.fork('task'), `${o.domain}-${t}`);
  const baseRng = rng.fork('base');
  const X: Float32Array[] = [];
  const y: number[] = [];
  for (let i = 0; i < o.base; i++) {
    const p = world.randomProgram(baseRng);
    X.push(world.features(p, set));
    y.push(world.evaluate(p, task) >= o.threshold ? 1 : 0);
  }
  const frozen = fitLogistic(X, y, o.lambda);
  let anchored = frozen;
  const rec: ResolutionRecord = { anchored: [], frozen: [] };
  for (let r = 0; r < o.rounds; r++) {
    const poolRng = rng.fork(`round-${r}`);
    const progs = Array.from({ length: o.pool }, () => world.randomProgram(poolRng));
    const feats = progs.map((p) => world.features(p, set));
    const outcome = progs.map((p) => (world.evaluate(p, task) >= o.threshold ? 1 : 0));
    for (const arm of ['anchored', 'frozen'] as const) {
      const prob = predictLogistic(arm === 'anchored' ? anchored : frozen, feats);
      const sel = topK(prob, o.claims);
      const f = sel.map((i) => prob[i]!);
      const oc = sel.map((i) => outcome[i]!);
      const b = brierDecomposition(f, oc);
      rec[arm].push({
        brier: b.brier,
        reliability: b.reliability,
        resolution: b.resolution,
        uncertainty: b.uncertainty,
        baseRate: b.baseRate,
        meanForecast: f.reduce((a, x) => a + x, 0) / f.length,
      });
      if (arm === 'anchored') {
        for (const i of sel) {
          X.push(feats[i]!);
          y.push(outcome[i]!);
        }
        anchored = fitLogistic(X, y, o.lambda);
      }
    }
  }
  return rec;
}

/** Per round, mean ± SE over tasks. */
interface ResolutionRound {
  round: number;
  anchored: Record<keyof Decomp, Stat>;
  frozen: Record<keyof Decomp, Stat>;
}

/** Result. */
export interface ResolutionResult {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  rounds: number;
  pool: number;
  claims: number;
  base: number;
  threshold: number;
  perRound: ResolutionRound[];
}

const KEYS = ['brier', 'reliability', 'resolution', 'uncertainty', 'baseRate', 'meanForecast'] as const;

/** Aggregate. */
function aggregateResolution(o: ResolutionResolved, recs: readonly ResolutionRecord[]): ResolutionResult {
  const arm = (a: 'anchored' | 'frozen', r: number): Record<keyof Decomp, Stat> =>
    Object.fromEntries(KEYS.map((k) => [k, stat(recs.map((x) => x[a][r]![k]))])) as Record<keyof Decomp, Stat>;
  return {
    domain: o.domain,
    tasks: recs.length,
    seed: o.seed,
    rounds: o.rounds,
    pool: o.pool,
    claims: o.claims,
    base: o.base,
    threshold: o.threshold,
    perRound: Array.from({ length: o.rounds }, (_, r) => ({
      round: r + 1,
      anchored: arm('anchored', r),
      frozen: arm('frozen', r),
    })),
  };
}

/** As per-task units. */
export const resolutionExperiment: TaskExperiment<ResolutionResolved, ResolutionRecord, ResolutionResult> = {
  task: resolutionTask,
  aggregate: aggregateResolution,
};

/** Run. */
export function runResolution(opts: ResolutionOptions & { onTask?: (d: number, total: number) => void }): ResolutionResult {
  const o = resolveResolution(opts);
  return aggregateResolution(
    o,
    runTaskRange(resolutionExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}

/** Headline figures. */
export function resolutionHeadlines(r: ResolutionResult): Headline[] {
  const e = `resolution ${r.domain}`;
  const first = r.perRound[0]!;
  const last = r.perRound[r.perRound.length - 1]!;
  const h = (arm: 'anchored' | 'frozen', row: ResolutionRound, k: 'reliability' | 'resolution' | 'brier'): Headline => ({
    experiment: e,
    figure: `${arm}: ${k} of round-${row.round} claims (out of sample)`,
    value: row[arm][k].mean,
    se: row[arm][k].se,
    note: 'per-task 10-bin decomposition, mean ± SE over tasks',
  });
  return [
    h('anchored', first, 'reliability'),
    h('anchored', last, 'reliability'),
    h('frozen', last, 'reliability'),
    h('anchored', first, 'resolution'),
    h('anchored', last, 'resolution'),
    h('frozen', last, 'resolution'),
    h('anchored', last, 'brier'),
    h('frozen', last, 'brier'),
  ];
}
