/**
 * The settlement-loop reproduction (docs/design.md, "The synthetic worlds"): per task, both arms start from a ridge verifier
 * fitted on the same base labels; each round draws a fresh pool (shared by the arms), each arm
 * selects its top-k by proxy, and those k are settled (executed). The drift — mean |proxy − gold|
 * over the settled, measured before any refit — and the gold of the selection are recorded.
 * `anchored` appends the settled labels and refits on everything; `frozen` never refits.
 * The verifier is any of the domain's Goodhart verifiers (`verifier`; default the first: ridge on
 * the default features) — on RichDSL also GBT on the strong features (`strong-verifier`).
 * Task t draws only from the stream (seed, t), so chunked runs are exact (common.ts).
 */
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { getWorld, type DslWorldName } from '../../tasks/index.ts';
import { fitRidgeF64, predictLinear } from '../../reward/models/ridge-math.ts';
import { fitGbt, predictGbt } from '../verifiers/gbt.ts';
import { meanAndSe } from '../verifiers/best-of-n.ts';
import { GOODHART_DEFAULTS, type VerifierSpec } from './goodhart.ts';
import { runTaskRange, type TaskExperiment } from './common.ts';

/** Sizes and seeds of one settlement-loop run. */
export interface SettlementLoopOptions {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  rounds?: number;
  pool?: number;
  top?: number;
  base?: number;
  alpha?: number;
  /** Verifier name from the domain's Goodhart set (default: the first — ridge on the default features). */
  verifier?: string;
  onTask?: (done: number, total: number) => void;
}

/** The reference sizes (docs/design.md, "The synthetic worlds"). */
export const SETTLEMENT_DEFAULTS = { rounds: 10, pool: 512, top: 32, base: 300 } as const;

type Stat = { mean: number; se: number };

/** One round, mean ± SE over tasks. */
interface SettlementRound {
  round: number;
  anchored: { gold: Stat; drift: Stat };
  frozen: { gold: Stat; drift: Stat };
  /** Paired per-task difference anchored − frozen (the arms share tasks and pools). */
  diff: { gold: Stat; drift: Stat };
  /** Mean gold of the pool's best k by gold (the ceiling of the selection). */
  oracleTopGold: Stat;
  /** Mean gold of the pool (a random selection's expectation). */
  poolGold: Stat;
}

/** Result of {@link runSettlementLoop}. */
export interface SettlementLoopResult {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  rounds: number;
  pool: number;
  top: number;
  base: number;
  alpha: number;
  verifier: { name: string; model: 'ridge' | 'gbt'; features: string; dim: number };
  perRound: SettlementRound[];
  /** Labels the anchored verifier ends with (base + rounds × top). */
  anchoredFinalLabels: number;
}

/** Indices of the k largest scores (ties: lower index first — pools are i.i.d., so order is random). */
export function topK(scores: ArrayLike<number>, k: number): number[] {
  return Array.from({ length: scores.length }, (_, i) => i)
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, k);
}

/** Options with every default filled in. */
export interface SettlementResolved {
  domain: DslWorldName;
  tasks: number;
  seed: number;
  rounds: number;
  pool: number;
  top: number;
  base: number;
  alpha: number;
  verifier: VerifierSpec;
}

/** Fill in the defaults and check the sizes. */
export function resolveSettlement(opts: SettlementLoopOptions): SettlementResolved {
  const specs = GOODHART_DEFAULTS[opts.domain]?.verifiers;
  if (!specs) throw new AnchorError('BAD_ARGUMENT', `unknown domain ${opts.domain}`);
  const verifier = opts.verifier === undefined ? specs[0]! : specs.find((v) => v.name === opts.verifier);
  if (!verifier)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--verifier ${opts.verifier} is not a ${opts.domain} verifier (${specs.map((v) => v.name).join(', ')})`,
    );
  const r = {
    domain: opts.domain,
    tasks: opts.tasks,
    seed: opts.seed,
    rounds: opts.rounds ?? SETTLEMENT_DEFAULTS.rounds,
    pool: opts.pool ?? SETTLEMENT_DEFAULTS.pool,
    top: opts.top ?? SETTLEMENT_DEFAULTS.top,
    base: opts.base ?? SETTLEMENT_DEFAULTS.base,
    alpha: opts.alpha ?? 1,
    verifier,
  };
  if (!(r.tasks >= 1)) throw new AnchorError('BAD_ARGUMENT', `--tasks must be >= 1, got ${r.tasks}`);
  if (r.top > r.pool) throw new AnchorError('BAD_ARGUMENT', `top ${r.top} exceeds pool ${r.pool}`);
  return r;
}

/** A fitted verifier as a scoring function. */
type Scorer = (X: readonly ArrayLike<number>[]) => Float64Array;

/** Fit a verifier spec (ridge or GBT) on rows X and labels y. */
function fitVerifier(spec: VerifierSpec, X: readonly ArrayLike<number>[], y: readonly number[], alpha: number): Scorer {
  if (spec.model === 'gbt') {
    const m = fitGbt(X, y);
    return (Z) => predictGbt(m, Z);
  }
  const f = fitRidgeF64(X, y, { alpha });
  return (Z) => predictLinear(f, Z);
}

/** One task's per-round record (index = round − 1). */
export interface SettlementTaskRecord {
  ag: number[];
  ad: number[];
  fg: number[];
  fd: number[];
  og: number[];
  pg: number[];
}

/** Run task t of the settlement loop. */
export function settlementTask(o: SettlementResolved, t: number): SettlementTaskRecord {
  const world = getWorld(o.domain);
  const set = o.verifier.set;
  const rng = new Rng(o.seed).fork(`task-${t}`);
  const task = world.sampleTask(rng.fork('task'), `${o.domain}-${t}`);
  const baseRng = rng.fork('base');
  const X: Float32Array[] = [];
  const y: number[] = [];
  for (let i = 0; i < o.base; i++) {
    const p = world.randomProgram(baseRng);
    X.push(world.features(p, set));
    y.push(world.evaluate(p, task));
  }
  const frozen = fitVerifier(o.verifier, X, y, o.alpha);
  let anchored = frozen;
  const rec: SettlementTaskRecord = { ag: [], ad: [], fg: [], fd: [], og: [], pg: [] };
  for (let r = 0; r < o.rounds; r++) {
    const poolRng = rng.fork(`round-${r}`);
    const progs = Array.from({ length: o.pool }, () => world.randomProgram(poolRng));
    const feats = progs.map((p) => world.features(p, set));
    const gold = progs.map((p) => world.evaluate(p, task));
    rec.pg.push(gold.reduce((a, b) => a + b, 0) / o.pool);
    rec.og.push(topK(gold, o.top).reduce((s, i) => s + gold[i]!, 0) / o.top);
    for (const arm of ['anchored', 'frozen'] as const) {
      const proxy = (arm === 'anchored' ? anchored : frozen)(feats);
      const sel = topK(proxy, o.top);
      const g = sel.reduce((s, i) => s + gold[i]!, 0) / o.top;
      const drift = sel.reduce((s, i) => s + Math.abs(proxy[i]! - gold[i]!), 0) / o.top;
      if (arm === 'anchored') {
        rec.ag.push(g);
        rec.ad.push(drift);
        for (const i of sel) {
          X.push(feats[i]!);
          y.push(gold[i]!);
        }
        anchored = fitVerifier(o.verifier, X, y, o.alpha);
      } else {
        rec.fg.push(g);
        rec.fd.push(drift);
      }
    }
  }
  return rec;
}

/** The settlement-loop result from the ordered task records. */
export function aggregateSettlement(o: SettlementResolved, recs: readonly SettlementTaskRecord[]): SettlementLoopResult {
  const col = (k: keyof SettlementTaskRecord, r: number): number[] => recs.map((x) => x[k][r]!);
  return {
    domain: o.domain,
    tasks: recs.length,
    seed: o.seed,
    rounds: o.rounds,
    pool: o.pool,
    top: o.top,
    base: o.base,
    alpha: o.alpha,
    verifier: {
      name: o.verifier.name,
      model: o.verifier.model,
      features: `${o.domain}:${o.verifier.set}`,
      dim: getWorld(o.domain).featureDim(o.verifier.set),
    },
    perRound: Array.from({ length: o.rounds }, (_, r) => {
      const ag = col('ag', r);
      const ad = col('ad', r);
      const fg = col('fg', r);
      const fd = col('fd', r);
      return {
        round: r + 1,
        anchored: { gold: meanAndSe(ag), drift: meanAndSe(ad) },
        frozen: { gold: meanAndSe(fg), drift: meanAndSe(fd) },
        diff: { gold: meanAndSe(ag.map((v, j) => v - fg[j]!)), drift: meanAndSe(ad.map((v, j) => v - fd[j]!)) },
        oracleTopGold: meanAndSe(col('og', r)),
        poolGold: meanAndSe(col('pg', r)),
      };
    }),
    anchoredFinalLabels: o.base + o.rounds * o.top,
  };
}

/** The settlement loop as independent per-task units. */
export const settlementExperiment: TaskExperiment<SettlementResolved, SettlementTaskRecord, SettlementLoopResult> = {
  task: settlementTask,
  aggregate: aggregateSettlement,
};

/** Run the settlement loop. */
export function runSettlementLoop(opts: SettlementLoopOptions): SettlementLoopResult {
  const o = resolveSettlement(opts);
  return aggregateSettlement(
    o,
    runTaskRange(settlementExperiment, o, 0, o.tasks, (d) => opts.onTask?.(d, o.tasks)),
  );
}
