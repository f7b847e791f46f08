/**
 * `strong-verifier`: RichDSL with the weak verifier (ridge, α = 1, on the 111 weak features) and
 * the strong one (gradient-boosted trees on the 359 strong features, src/research/verifiers/gbt.ts),
 * side by side in both reproduction experiments:
 * - `goodhart` (best-of-N gold and Snd@N; the richdsl goodhart set also carries ridge on the
 *   strong features as an extra column), and
 * - `settlement-loop` (anchored vs frozen, once with each verifier).
 * One per-task unit runs all three on the same task index, so chunking is exact here too.
 */
import { AnchorError } from '../../util/errors.ts';
import {
  aggregateGoodhart,
  goodhartTask,
  resolveGoodhart,
  type GoodhartResolved,
  type GoodhartResult,
  type GoodhartTaskRecord,
} from './goodhart.ts';
import {
  aggregateSettlement,
  resolveSettlement,
  settlementTask,
  type SettlementLoopResult,
  type SettlementResolved,
  type SettlementTaskRecord,
} from './settlement-loop.ts';
import { runTaskRange, type Headline, type TaskExperiment } from './common.ts';

/** The two verifiers compared. */
const WEAK = 'ridge-weak-111';
const STRONG = 'gbt-strong-359';

/** Options. */
export interface StrongVerifierOptions {
  domain?: 'dsl6' | 'richdsl';
  tasks: number;
  seed: number;
  /** Goodhart sizes. */
  train?: number;
  pool?: number;
  maxLog2?: number;
  /** Settlement-loop sizes. */
  rounds?: number;
  loopPool?: number;
  top?: number;
  base?: number;
}

/** Resolved. */
export interface StrongVerifierResolved {
  goodhart: GoodhartResolved;
  weak: SettlementResolved;
  strong: SettlementResolved;
}

/** Fill in defaults (RichDSL only: DSL-6 has no strong feature set). */
export function resolveStrongVerifier(o: StrongVerifierOptions): StrongVerifierResolved {
  if ((o.domain ?? 'richdsl') !== 'richdsl')
    throw new AnchorError('BAD_ARGUMENT', 'strong-verifier is defined on RichDSL only (DSL-6 has no strong feature set)');
  const loop = {
    domain: 'richdsl' as const,
    tasks: o.tasks,
    seed: o.seed,
    rounds: o.rounds,
    pool: o.loopPool,
    top: o.top,
    base: o.base,
  };
  return {
    goodhart: resolveGoodhart({
      domain: 'richdsl',
      tasks: o.tasks,
      seed: o.seed,
      train: o.train,
      pool: o.pool,
      maxLog2: o.maxLog2,
    }),
    weak: resolveSettlement({ ...loop, verifier: WEAK }),
    strong: resolveSettlement({ ...loop, verifier: STRONG }),
  };
}

/** One task's record. */
export interface StrongVerifierRecord {
  goodhart: GoodhartTaskRecord;
  weak: SettlementTaskRecord;
  strong: SettlementTaskRecord;
}

/** Result. */
export interface StrongVerifierResult {
  goodhart: GoodhartResult;
  settlement: { weak: SettlementLoopResult; strong: SettlementLoopResult };
}

/** As per-task units. */
export const strongVerifierExperiment: TaskExperiment<StrongVerifierResolved, StrongVerifierRecord, StrongVerifierResult> = {
  task: (o, t) => ({
    goodhart: goodhartTask(o.goodhart, t),
    weak: settlementTask(o.weak, t),
    strong: settlementTask(o.strong, t),
  }),
  aggregate: (o, recs) => ({
    goodhart: aggregateGoodhart(
      o.goodhart,
      recs.map((r) => r.goodhart),
    ),
    settlement: {
      weak: aggregateSettlement(
        o.weak,
        recs.map((r) => r.weak),
      ),
      strong: aggregateSettlement(
        o.strong,
        recs.map((r) => r.strong),
      ),
    },
  }),
};

/** Run. */
export function runStrongVerifier(
  opts: StrongVerifierOptions & { onTask?: (d: number, total: number) => void },
): StrongVerifierResult {
  const o = resolveStrongVerifier(opts);
  return strongVerifierExperiment.aggregate(
    o,
    runTaskRange(strongVerifierExperiment, o, 0, opts.tasks, (d) => opts.onTask?.(d, opts.tasks)),
  );
}

/** Headline figures of a goodhart result (used for both domains). */
export function goodhartHeadlines(r: GoodhartResult, experiment = `goodhart ${r.domain}`): Headline[] {
  const last = r.rows[r.rows.length - 1]!;
  const out: Headline[] = [
    { experiment, figure: `execution: best-of-${last.n} gold`, value: last.execution.mean, se: last.execution.se },
  ];
  for (const v of r.verifiers) {
    const curve = r.rows.map((row) => row.learned[v.name]!);
    let peak = 0;
    curve.forEach((c, i) => {
      if (c.mean > curve[peak]!.mean) peak = i;
    });
    out.push(
      {
        experiment,
        figure: `${v.name}: Snd AUC over log N`,
        value: r.auc[v.name]!,
        se: r.aucSe?.[v.name] ?? NaN,
        note: 'delta-method SE over tasks',
      },
      { experiment, figure: `${v.name}: Snd@${last.n}`, value: last.snd[v.name]!.value, se: last.snd[v.name]!.se },
      {
        experiment,
        figure: `${v.name}: peak best-of-N gold (at N = ${r.rows[peak]!.n})`,
        value: curve[peak]!.mean,
        se: curve[peak]!.se,
      },
      {
        experiment,
        figure: `${v.name}: best-of-${last.n} gold`,
        value: curve[curve.length - 1]!.mean,
        se: curve[curve.length - 1]!.se,
      },
    );
  }
  return out;
}

/** Headline figures of a settlement-loop result. */
export function settlementHeadlines(
  r: SettlementLoopResult,
  experiment = `settlement-loop ${r.domain} ${r.verifier.name}`,
): Headline[] {
  const last = r.perRound[r.perRound.length - 1]!;
  return [
    {
      experiment,
      figure: `round ${last.round}: gold of the selection, anchored`,
      value: last.anchored.gold.mean,
      se: last.anchored.gold.se,
    },
    {
      experiment,
      figure: `round ${last.round}: gold of the selection, frozen`,
      value: last.frozen.gold.mean,
      se: last.frozen.gold.se,
    },
    {
      experiment,
      figure: `round ${last.round}: Δgold anchored − frozen (paired)`,
      value: last.diff.gold.mean,
      se: last.diff.gold.se,
    },
    { experiment, figure: `round ${last.round}: drift anchored`, value: last.anchored.drift.mean, se: last.anchored.drift.se },
    { experiment, figure: `round ${last.round}: drift frozen`, value: last.frozen.drift.mean, se: last.frozen.drift.se },
    {
      experiment,
      figure: `round ${last.round}: Δdrift anchored − frozen (paired)`,
      value: last.diff.drift.mean,
      se: last.diff.drift.se,
    },
  ];
}

/** Headline figures of the strong-verifier experiment. */
export function strongVerifierHeadlines(r: StrongVerifierResult): Headline[] {
  return [
    ...goodhartHeadlines(r.goodhart, 'strong-verifier: goodhart richdsl'),
    ...settlementHeadlines(r.settlement.weak, `strong-verifier: settlement-loop richdsl ${WEAK}`),
    ...settlementHeadlines(r.settlement.strong, `strong-verifier: settlement-loop richdsl ${STRONG}`),
  ];
}
