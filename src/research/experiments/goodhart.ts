/**
 * The Goodhart reproduction (docs/design.md, "The synthetic worlds"): per task, fit a shallow learned
 * verifier (ridge, α = 1, on the world's features) on labelled random programs, score a fresh
 * pool of random programs, and compare the expected gold of the best-of-N pick under the
 * execution verifier (gold itself) and under the learned verifier, N = 2^0 … 2^k. Subsampling
 * without replacement is handled exactly in expectation (src/research/verifiers/best-of-n.ts).
 *
 * Verifiers: DSL-6 — ridge (α = 1) on the 43 features; RichDSL — ridge on the 111 weak features,
 * gradient-boosted trees on the 359 strong features (the reference's pair), plus ridge on the
 * strong features as an extra column.
 *
 * Uses the worlds' in-process evaluator (the sandbox agreement test in src/tasks proves it equals
 * the compiled JS) and the float64 ridge path, which shares its solve with the tfjs model.
 */
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { getWorld, type DslWorld, type DslWorldName } from '../../tasks/index.ts';
import { fitRidgeF64, predictLinear } from '../../reward/models/ridge-math.ts';
import { fitGbt, predictGbt } from '../verifiers/gbt.ts';
import { expectedBestOfNCurve, meanAndSe, powersOfTwo } from '../verifiers/best-of-n.ts';
import { spearman } from '../../util/correlation.ts';
import { runTaskRange, sndAuc, stat, type TaskExperiment } from './common.ts';

/** Sizes and seeds of one Goodhart run. */
export interface GoodhartOptions {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  /** Labelled random programs per task (default 1,000 DSL-6; 2,000 RichDSL). */
  train?: number;
  /** Fresh pool per task (default 2,048 DSL-6; 4,096 RichDSL). */
  pool?: number;
  /** Largest log2 N (default 11 DSL-6; 12 RichDSL). */
  maxLog2?: number;
  alpha?: number;
  onTask?: (done: number, total: number) => void;
}

/** The reference sizes per domain (docs/design.md, "The synthetic worlds"). */
export const GOODHART_DEFAULTS: Record<
  DslWorldName,
  { train: number; pool: number; maxLog2: number; verifiers: VerifierSpec[] }
> = {
  dsl6: { train: 1000, pool: 2048, maxLog2: 11, verifiers: [{ name: 'ridge-43', set: 'default', model: 'ridge' }] },
  richdsl: {
    train: 2000,
    pool: 4096,
    maxLog2: 12,
    verifiers: [
      { name: 'ridge-weak-111', set: 'weak', model: 'ridge' },
      {
        name: 'gbt-strong-359',
        set: 'strong',
        model: 'gbt',
        note: 'gradient-boosted trees, sklearn defaults: 100 trees, lr 0.1, depth 3',
      },
      // Not in the reference: separates "more features" from "a more flexible model".
      {
        name: 'ridge-strong-359',
        set: 'strong',
        model: 'ridge',
        note: 'ridge on the strong features (extra, not in the reference)',
      },
    ],
  },
};

/** A learned verifier of the experiment: a model kind over one of the world's feature sets. */
export interface VerifierSpec {
  name: string;
  set: string;
  model: 'ridge' | 'gbt';
  note?: string;
}

/** Per-N row of the result. */
interface GoodhartRow {
  n: number;
  execution: { mean: number; se: number };
  /** Per verifier name. */
  learned: Record<string, { mean: number; se: number }>;
  snd: Record<string, { value: number; se: number }>;
}

/** Result of {@link runGoodhart}. */
export interface GoodhartResult {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  train: number;
  pool: number;
  alpha: number;
  verifiers: { name: string; model: 'ridge' | 'gbt'; features: string; dim: number; note?: string }[];
  rows: GoodhartRow[];
  auc: Record<string, number>;
  /** Delta-method SE of the AUC over tasks. */
  aucSe: Record<string, number>;
  /** Mean over tasks of Spearman(proxy, gold) on the pool. */
  spearman: Record<string, { mean: number; se: number }>;
  /** Mean gold of a random program (pool mean), over tasks. */
  poolMeanGold: { mean: number; se: number };
}

function labelled(world: DslWorld, rng: Rng, count: number): string[] {
  return Array.from({ length: count }, () => world.randomProgram(rng));
}

/** Options with every default filled in. */
export interface GoodhartResolved {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  train: number;
  pool: number;
  maxLog2: number;
  alpha: number;
}

/** Fill in the reference sizes and check them. */
export function resolveGoodhart(opts: GoodhartOptions): GoodhartResolved {
  const d = GOODHART_DEFAULTS[opts.domain];
  if (!d) throw new AnchorError('BAD_ARGUMENT', `unknown domain ${opts.domain}`);
  const r = {
    domain: opts.domain,
    tasks: opts.tasks,
    seed: opts.seed,
    train: opts.train ?? d.train,
    pool: opts.pool ?? d.pool,
    maxLog2: opts.maxLog2 ?? d.maxLog2,
    alpha: opts.alpha ?? 1,
  };
  if (!(r.tasks >= 1)) throw new AnchorError('BAD_ARGUMENT', `--tasks must be >= 1, got ${r.tasks}`);
  if (2 ** r.maxLog2 > r.pool)
    throw new AnchorError('BAD_ARGUMENT', `N up to 2^${r.maxLog2} needs a pool of at least ${2 ** r.maxLog2}, got ${r.pool}`);
  return r;
}

/** One task's scored pool: gold and every verifier's scores per candidate. */
export interface GoodhartPool {
  task: string;
  programs: string[];
  gold: number[];
  scores: Record<string, number[]>;
}

/**
 * Task t's fitted verifiers and scored fresh pool. Seeded only by (seed, t): the same pool the
 * Goodhart run scores, so `copula` can rebuild it without a file.
 */
export function goodhartPool(o: GoodhartResolved, t: number): GoodhartPool {
  const world = getWorld(o.domain);
  const rng = new Rng(o.seed).fork(`task-${t}`);
  const task = world.sampleTask(rng.fork('task'), `${o.domain}-${t}`);
  const trainProgs = labelled(world, rng.fork('train'), o.train);
  const trainGold = trainProgs.map((p) => world.evaluate(p, task));
  const poolProgs = labelled(world, rng.fork('pool'), o.pool);
  const gold = poolProgs.map((p) => world.evaluate(p, task));
  const scores: Record<string, number[]> = {};
  for (const v of GOODHART_DEFAULTS[o.domain].verifiers) {
    const Xtr = trainProgs.map((p) => world.features(p, v.set));
    const Xpool = poolProgs.map((p) => world.features(p, v.set));
    const s =
      v.model === 'ridge'
        ? predictLinear(fitRidgeF64(Xtr, trainGold, { alpha: o.alpha }), Xpool)
        : predictGbt(fitGbt(Xtr, trainGold), Xpool);
    scores[v.name] = Array.from(s);
  }
  return { task: task.id, programs: poolProgs, gold, scores };
}

/** One task's record: best-of-N curves (execution and per verifier), Spearman, pool mean. */
export interface GoodhartTaskRecord {
  exec: number[];
  learned: Record<string, number[]>;
  spearman: Record<string, number | null>;
  poolMean: number;
}

/** Run task t (see {@link goodhartPool}). */
export function goodhartTask(o: GoodhartResolved, t: number): GoodhartTaskRecord {
  const ns = powersOfTwo(o.maxLog2);
  const p = goodhartPool(o, t);
  const gold = Float64Array.from(p.gold);
  const learned: Record<string, number[]> = {};
  const rho: Record<string, number | null> = {};
  for (const [name, s] of Object.entries(p.scores)) {
    learned[name] = expectedBestOfNCurve({ scores: s, gold }, ns);
    const r = spearman(s, gold);
    rho[name] = Number.isFinite(r) ? r : null;
  }
  return {
    exec: expectedBestOfNCurve({ scores: gold, gold }, ns),
    learned,
    spearman: rho,
    poolMean: gold.reduce((a, b) => a + b, 0) / gold.length,
  };
}

/** The Goodhart result from the ordered task records. */
export function aggregateGoodhart(o: GoodhartResolved, recs: readonly GoodhartTaskRecord[]): GoodhartResult {
  const world = getWorld(o.domain);
  const d = GOODHART_DEFAULTS[o.domain];
  const ns = powersOfTwo(o.maxLog2);
  const exec = recs.map((r) => r.exec);
  const snd = new Map(
    d.verifiers.map((v) => [
      v.name,
      sndAuc(
        recs.map((r) => r.learned[v.name]!),
        exec,
      ),
    ]),
  );
  const rows: GoodhartRow[] = ns.map((n, k) => ({
    n,
    execution: meanAndSe(exec.map((r) => r[k]!)),
    learned: Object.fromEntries(d.verifiers.map((v) => [v.name, meanAndSe(recs.map((r) => r.learned[v.name]![k]!))])),
    snd: Object.fromEntries(d.verifiers.map((v) => [v.name, snd.get(v.name)!.snd[k]!])),
  }));
  return {
    domain: o.domain,
    tasks: recs.length,
    seed: o.seed,
    train: o.train,
    pool: o.pool,
    alpha: o.alpha,
    verifiers: d.verifiers.map((v) => ({
      name: v.name,
      model: v.model,
      features: `${o.domain}:${v.set}`,
      dim: world.featureDim(v.set),
      ...(v.note ? { note: v.note } : {}),
    })),
    rows,
    auc: Object.fromEntries(d.verifiers.map((v) => [v.name, snd.get(v.name)!.auc])),
    aucSe: Object.fromEntries(d.verifiers.map((v) => [v.name, snd.get(v.name)!.se])),
    spearman: Object.fromEntries(d.verifiers.map((v) => [v.name, stat(recs.map((r) => r.spearman[v.name] ?? null))])),
    poolMeanGold: meanAndSe(recs.map((r) => r.poolMean)),
  };
}

/** The Goodhart experiment as independent per-task units. */
export const goodhartExperiment: TaskExperiment<GoodhartResolved, GoodhartTaskRecord, GoodhartResult> = {
  task: goodhartTask,
  aggregate: aggregateGoodhart,
};

/** Run the Goodhart experiment. */
export function runGoodhart(opts: GoodhartOptions): GoodhartResult {
  const o = resolveGoodhart(opts);
  return aggregateGoodhart(
    o,
    runTaskRange(goodhartExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}
