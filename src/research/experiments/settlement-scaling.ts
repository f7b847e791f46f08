/**
 * `settlement-scaling`: how the learned verifier's Soundness AUC grows with the settled-label
 * budget S, under three ways of choosing what to settle:
 * - `on-policy`: label what the current verifier selects (the top of a fresh candidate pool by
 *   proxy — what a policy optimising the verifier would produce);
 * - `random`: label random programs;
 * - `uncertainty`: label the candidates with the largest variance across a bootstrap committee of
 *   ridge fits on the current labels.
 *
 * Per task: all strategies start from the same `init` random labels and see the same fresh
 * candidate pool at each acquisition step (`candidates` programs, of which `batch` are labelled);
 * at each budget S of the grid the verifier (ridge, α = 1, the world's default features) is refit
 * on its S labels and scored on a fresh evaluation pool the acquisition never sees. Snd AUC over
 * N = 2^0 … 2^k is computed across tasks (ratio of means, delta-method SE). Trend: OLS of AUC on
 * log₂ S per strategy, with R².
 */
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { getWorld, type DslWorldName } from '../../tasks/index.ts';
import { fitRidgeF64, predictLinear } from '../../reward/models/ridge-math.ts';
import { expectedBestOfNCurve, powersOfTwo } from '../verifiers/best-of-n.ts';
import { GOODHART_DEFAULTS } from './goodhart.ts';
import { topK } from './settlement-loop.ts';
import { linearFit, runTaskRange, sndAuc, type Headline, type TaskExperiment } from './common.ts';

/** Acquisition strategies. */
const STRATEGIES = ['on-policy', 'random', 'uncertainty'] as const;
type Strategy = (typeof STRATEGIES)[number];

/** Options. */
export interface ScalingOptions {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  budgets?: number[];
  init?: number;
  batch?: number;
  candidates?: number;
  committee?: number;
  evalPool?: number;
  maxLog2?: number;
  alpha?: number;
}

/** Resolved options. */
export type ScalingResolved = Required<Omit<ScalingOptions, 'domain'>> & { domain: DslWorldName };

/** Defaults. */
export const SCALING_DEFAULTS = {
  budgets: [32, 64, 128, 256, 512, 1024],
  init: 32,
  batch: 32,
  candidates: 512,
  committee: 5,
} as const;

/** Fill in defaults and check. */
export function resolveScaling(o: ScalingOptions): ScalingResolved {
  const g = GOODHART_DEFAULTS[o.domain];
  if (!g) throw new AnchorError('BAD_ARGUMENT', `unknown domain ${o.domain}`);
  const r: ScalingResolved = {
    domain: o.domain,
    tasks: o.tasks,
    seed: o.seed,
    budgets: o.budgets ?? [...SCALING_DEFAULTS.budgets],
    init: o.init ?? SCALING_DEFAULTS.init,
    batch: o.batch ?? SCALING_DEFAULTS.batch,
    candidates: o.candidates ?? SCALING_DEFAULTS.candidates,
    committee: o.committee ?? SCALING_DEFAULTS.committee,
    evalPool: o.evalPool ?? g.pool,
    maxLog2: o.maxLog2 ?? g.maxLog2,
    alpha: o.alpha ?? 1,
  };
  if (!(r.tasks >= 1)) throw new AnchorError('BAD_ARGUMENT', `--tasks must be >= 1, got ${r.tasks}`);
  if (2 ** r.maxLog2 > r.evalPool)
    throw new AnchorError('BAD_ARGUMENT', `N up to 2^${r.maxLog2} needs an evaluation pool of at least ${2 ** r.maxLog2}`);
  if (r.budgets.some((b, i) => b < r.init || (i > 0 && b <= r.budgets[i - 1]!) || (b - r.init) % r.batch !== 0))
    throw new AnchorError(
      'BAD_ARGUMENT',
      `budgets must increase, start at >= init (${r.init}) and differ from it by multiples of batch (${r.batch})`,
    );
  if (r.batch > r.candidates) throw new AnchorError('BAD_ARGUMENT', 'batch exceeds candidates');
  return r;
}

/** One task: the oracle best-of-N curve and, per strategy and budget, the verifier's curve. */
export interface ScalingRecord {
  exec: number[];
  curves: Record<Strategy, number[][]>;
}

/** Indices of the `k` candidates with the largest bootstrap-committee variance. Exported for tests. */
export function uncertaintyPick(
  X: readonly Float32Array[],
  y: readonly number[],
  cand: readonly Float32Array[],
  k: number,
  committee: number,
  alpha: number,
  rng: Rng,
): number[] {
  const preds: Float64Array[] = [];
  for (let c = 0; c < committee; c++) {
    const idx = Array.from({ length: X.length }, () => rng.int(X.length));
    preds.push(
      predictLinear(
        fitRidgeF64(
          idx.map((i) => X[i]!),
          idx.map((i) => y[i]!),
          { alpha },
        ),
        cand,
      ),
    );
  }
  const v = cand.map((_, j) => {
    const m = preds.reduce((a, p) => a + p[j]!, 0) / committee;
    return preds.reduce((a, p) => a + (p[j]! - m) ** 2, 0) / committee;
  });
  return topK(v, k);
}

/** Run task t. */
function scalingTask(o: ScalingResolved, t: number): ScalingRecord {
  const world = getWorld(o.domain);
  const set = world.featureSets[0]!;
  const ns = powersOfTwo(o.maxLog2);
  const rng = new Rng(o.seed).fork(`task-${t}`);
  const task = world.sampleTask(rng.fork('task'), `${o.domain}-${t}`);
  const evalRng = rng.fork('eval');
  const evalProgs = Array.from({ length: o.evalPool }, () => world.randomProgram(evalRng));
  const evalX = evalProgs.map((p) => world.features(p, set));
  const evalGold = Float64Array.from(evalProgs, (p) => world.evaluate(p, task));
  const initRng = rng.fork('init');
  const initProgs = Array.from({ length: o.init }, () => world.randomProgram(initRng));
  const curves = {} as Record<Strategy, number[][]>;
  const maxBudget = o.budgets[o.budgets.length - 1]!;
  for (const s of STRATEGIES) {
    const X = initProgs.map((p) => world.features(p, set));
    const y = initProgs.map((p) => world.evaluate(p, task));
    const out: number[][] = [];
    const pickRng = rng.fork(`pick-${s}`);
    for (let step = 0; ; step++) {
      const fit = fitRidgeF64(X, y, { alpha: o.alpha });
      if (o.budgets.includes(X.length)) out.push(expectedBestOfNCurve({ scores: predictLinear(fit, evalX), gold: evalGold }, ns));
      if (X.length >= maxBudget) break;
      // Same fresh candidates for every strategy at a given step.
      const cRng = rng.fork(`cand-${step}`);
      const cand = Array.from({ length: o.candidates }, () => world.randomProgram(cRng));
      const cX = cand.map((p) => world.features(p, set));
      const take = Math.min(o.batch, maxBudget - X.length);
      const sel =
        s === 'on-policy'
          ? topK(predictLinear(fit, cX), take)
          : s === 'random'
            ? pickRng.sampleIndices(cand.length, take)
            : uncertaintyPick(X, y, cX, take, o.committee, o.alpha, pickRng);
      for (const i of sel) {
        X.push(cX[i]!);
        y.push(world.evaluate(cand[i]!, task));
      }
    }
    curves[s] = out;
  }
  return { exec: expectedBestOfNCurve({ scores: evalGold, gold: evalGold }, ns), curves };
}

/** Per strategy: AUC per budget and the log-linear trend. */
interface ScalingStrategyResult {
  strategy: Strategy;
  auc: { budget: number; auc: number; se: number }[];
  trend: { intercept: number; slope: number; slopeSe: number; r2: number };
}

/** Result. */
export interface ScalingResult {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  budgets: number[];
  evalPool: number;
  maxLog2: number;
  strategies: ScalingStrategyResult[];
}

/** Aggregate. */
function aggregateScaling(o: ScalingResolved, recs: readonly ScalingRecord[]): ScalingResult {
  const exec = recs.map((r) => r.exec);
  return {
    domain: o.domain,
    tasks: recs.length,
    seed: o.seed,
    budgets: o.budgets,
    evalPool: o.evalPool,
    maxLog2: o.maxLog2,
    strategies: STRATEGIES.map((s) => {
      const auc = o.budgets.map((b, i) => {
        const a = sndAuc(
          recs.map((r) => r.curves[s][i]!),
          exec,
        );
        return { budget: b, auc: a.auc, se: a.se };
      });
      return {
        strategy: s,
        auc,
        trend: linearFit(
          auc.map((a) => Math.log2(a.budget)),
          auc.map((a) => a.auc),
        ),
      };
    }),
  };
}

/** As per-task units. */
export const scalingExperiment: TaskExperiment<ScalingResolved, ScalingRecord, ScalingResult> = {
  task: scalingTask,
  aggregate: aggregateScaling,
};

/** Run. */
export function runScaling(opts: ScalingOptions & { onTask?: (d: number, total: number) => void }): ScalingResult {
  const o = resolveScaling(opts);
  return aggregateScaling(
    o,
    runTaskRange(scalingExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}

/** Headline figures. */
export function scalingHeadlines(r: ScalingResult): Headline[] {
  const e = `settlement-scaling ${r.domain}`;
  return r.strategies.flatMap((s) => {
    const first = s.auc[0]!;
    const last = s.auc[s.auc.length - 1]!;
    return [
      {
        experiment: e,
        figure: `${s.strategy}: Snd AUC at S = ${first.budget}`,
        value: first.auc,
        se: first.se,
        note: 'delta-method SE over tasks',
      },
      {
        experiment: e,
        figure: `${s.strategy}: Snd AUC at S = ${last.budget}`,
        value: last.auc,
        se: last.se,
        note: 'delta-method SE over tasks',
      },
      {
        experiment: e,
        figure: `${s.strategy}: AUC slope per doubling of S (log-linear fit, R² = ${s.trend.r2.toFixed(3)})`,
        value: s.trend.slope,
        se: s.trend.slopeSe,
        note: 'OLS SE of the slope over the budget grid',
      },
    ];
  });
}
