/**
 * Results that survive statistics: the arms of several seed runs compared with interval estimates
 * ({@link ./interval-stats.ts}). For each measure (final-window gold, held-out pass rate) every arm
 * is paired by seed with a reference arm (default: the execution arm) — per-seed ratios arm/reference,
 * their mean and IQM with stratified bootstrap 95% intervals — and every two arms get the probability
 * of improvement P(A > B) on the raw per-seed values, with its interval. A ratio interval that
 * includes 1 (a difference from the reference that includes zero) and a P(A > B) interval that
 * includes ½ are reported as not distinguishable.
 */
import type { TopLevelSpec } from 'vega-lite';
import { armColorEncoding, CHART_CONFIG } from './chart-style.ts';
import { AnchorError } from '../util/errors.ts';
import { markdownTable } from '../util/table.ts';
import { Rng } from '../util/rng.ts';
import {
  aggregateIqm,
  aggregateMean,
  DEFAULT_REPS,
  independentBootstrap,
  intervalIncludes,
  probabilityOfImprovement,
  stratifiedBootstrap,
  type Interval,
} from './interval-stats.ts';

/** The measures compared over seeds: compare-table column keys. */
export const SEED_STAT_MEASURES = [
  { key: 'finalGold', label: 'final gold' },
  { key: 'heldOut', label: 'held-out pass rate' },
] as const;

/** A measure's column key. */
type SeedStatKey = (typeof SEED_STAT_MEASURES)[number]['key'];

/** How an arm stands against the reference (or another arm) once the interval is taken into account. */
export type Verdict = 'higher' | 'lower' | 'not distinguishable';

/** One arm against the reference, paired by seed. */
interface ArmRatioStats {
  arm: string;
  /** arm/reference per run (in the comparison's run order); null where either is missing or the reference ≤ 0. */
  ratios: (number | null)[];
  /** Seeds (of the runs) with a ratio. */
  seeds: (number | null)[];
  /** Mean ratio with its interval (null without a paired seed). */
  mean: Interval | null;
  /** Interquartile mean of the ratios with its interval. */
  iqm: Interval | null;
  /** Against the reference by the IQM interval: above 1, below 1, or including 1 (null: fewer than 2 paired seeds). */
  verdict: Verdict | null;
}

/** P(A > B) between two arms over their per-seed values. */
interface PairImprovement {
  a: string;
  b: string;
  /** Runs of each arm with a value. */
  nA: number;
  nB: number;
  poi: Interval;
  /** Above ½ (A better), below ½ (B better), or including ½. */
  verdict: Verdict;
}

/** One measure's statistics. */
export interface MeasureStats {
  key: SeedStatKey;
  label: string;
  arms: ArmRatioStats[];
  /** Every unordered pair of arms with values in at least 2 runs each (P(B > A) = 1 − P(A > B)). */
  pairs: PairImprovement[];
}

/** The statistics over seeds (compare.json `statistics`). */
export interface SeedStatistics {
  /** The arm every ratio is taken against. */
  reference: string;
  reps: number;
  confidence: number;
  /** Seed of the bootstrap (each arm and pair draws its own stream forked from it). */
  seed: number;
  measures: MeasureStats[];
}

/** What {@link seedStatistics} reads: per arm, its values per run. */
export interface SeedStatInput {
  /** Seed per run (null when unknown). */
  seeds: readonly (number | null)[];
  arms: readonly { arm: string; values: Record<SeedStatKey, readonly (number | null)[]> }[];
}

/** Options of {@link seedStatistics}. */
export interface SeedStatOptions {
  /** The reference arm (must be one of the arms). */
  reference: string;
  reps?: number;
  confidence?: number;
  seed?: number;
}

/** A numeric seed for one named stream, forked from the bootstrap seed (order-independent). */
function streamSeed(seed: number, label: string): number {
  return new Rng(seed).fork(label).nextU32();
}

function verdictAgainst(i: Interval, level: number): Verdict {
  if (intervalIncludes(i, level)) return 'not distinguishable';
  return i.lo > level ? 'higher' : 'lower';
}

/** Interval statistics of every arm against `reference` (paired by run) and between every two arms. */
export function seedStatistics(input: SeedStatInput, opts: SeedStatOptions): SeedStatistics {
  const ref = input.arms.find((a) => a.arm === opts.reference);
  if (!ref)
    throw new AnchorError(
      'BAD_ARGUMENT',
      `reference arm ${JSON.stringify(opts.reference)} is not among the compared arms (${input.arms.map((a) => a.arm).join(', ')})`,
    );
  const seed = opts.seed ?? 0;
  const bs = { reps: opts.reps ?? DEFAULT_REPS, confidence: opts.confidence ?? 0.95 };
  const measures = SEED_STAT_MEASURES.map(({ key, label }): MeasureStats => {
    const refValues = ref.values[key];
    const arms = input.arms.map((a): ArmRatioStats => {
      const ratios = a.values[key].map((v, i) => {
        const r = refValues[i] ?? null;
        return v !== null && r !== null && r > 0 ? v / r : null;
      });
      const paired = ratios.filter((r): r is number => r !== null);
      const seeds = ratios.flatMap((r, i) => (r === null ? [] : [input.seeds[i] ?? null]));
      if (paired.length === 0) return { arm: a.arm, ratios, seeds, mean: null, iqm: null, verdict: null };
      const scores = paired.map((r) => [r]);
      const mean = stratifiedBootstrap(scores, aggregateMean, { ...bs, seed: streamSeed(seed, `${key}/mean/${a.arm}`) });
      const iqm = stratifiedBootstrap(scores, aggregateIqm, { ...bs, seed: streamSeed(seed, `${key}/iqm/${a.arm}`) });
      // One seed has a degenerate interval: no verdict from it.
      const verdict = a.arm === ref.arm || paired.length < 2 ? null : verdictAgainst(iqm, 1);
      return { arm: a.arm, ratios, seeds, mean, iqm, verdict };
    });
    const present = input.arms
      .map((a) => ({ arm: a.arm, scores: a.values[key].filter((v): v is number => v !== null).map((v) => [v]) }))
      // An arm with one run has no interval to compare: it takes part in no pair.
      .filter((a) => a.scores.length >= 2);
    const pairs: PairImprovement[] = [];
    for (let i = 0; i < present.length; i++) {
      for (let j = i + 1; j < present.length; j++) {
        const A = present[i]!;
        const B = present[j]!;
        const poi = independentBootstrap(A.scores, B.scores, probabilityOfImprovement, {
          ...bs,
          seed: streamSeed(seed, `${key}/poi/${A.arm}/${B.arm}`),
        });
        pairs.push({ a: A.arm, b: B.arm, nA: A.scores.length, nB: B.scores.length, poi, verdict: verdictAgainst(poi, 0.5) });
      }
    }
    return { key, label, arms, pairs };
  });
  return { reference: ref.arm, reps: bs.reps, confidence: bs.confidence, seed, measures };
}

/** P(A > B) for an ordered pair, from the stored unordered one (null when absent). */
export function improvementOf(m: MeasureStats, a: string, b: string): { poi: Interval; verdict: Verdict } | null {
  const direct = m.pairs.find((p) => p.a === a && p.b === b);
  if (direct) return { poi: direct.poi, verdict: direct.verdict };
  const rev = m.pairs.find((p) => p.a === b && p.b === a);
  if (!rev) return null;
  const flip: Record<Verdict, Verdict> = { higher: 'lower', lower: 'higher', 'not distinguishable': 'not distinguishable' };
  return { poi: { point: 1 - rev.poi.point, lo: 1 - rev.poi.hi, hi: 1 - rev.poi.lo }, verdict: flip[rev.verdict] };
}

const f = (x: number, d = 2): string => x.toFixed(d);
/** `0.91 [0.80, 1.02]`. */
function formatInterval(i: Interval | null, digits = 2): string {
  return i === null ? 'n/a' : `${f(i.point, digits)} [${f(i.lo, digits)}, ${f(i.hi, digits)}]`;
}

/** One table of the statistics (shared by Markdown and HTML). */
export interface SeedStatTable {
  title: string;
  header: string[];
  rows: string[][];
  numeric: boolean[];
}

/** The statistics' one-line explanation (what the intervals are, what "not distinguishable" means). */
export function seedStatsNote(s: SeedStatistics): string {
  const pct = Math.round(s.confidence * 100);
  return (
    `Interval estimates over seeds (Agarwal et al. 2021, rliable's definitions): ratios arm/${s.reference} paired by seed; ` +
    `mean and IQM (25% trimmed mean) with ${pct}% stratified percentile bootstrap intervals (${s.reps} replicates, seed ${s.seed}); ` +
    'an interval that includes 1 (for P(A > B): ½) is not distinguishable; an unfinished arm-run (running, stopped or failed) is left out.'
  );
}

/** Per measure with values: the ratio table and the P(row > column) matrix. */
export function seedStatTables(s: SeedStatistics): SeedStatTable[] {
  const pct = Math.round(s.confidence * 100);
  const out: SeedStatTable[] = [];
  for (const m of s.measures) {
    if (m.arms.every((a) => a.mean === null)) continue;
    out.push({
      title: `${m.label}, × ${s.reference}`,
      header: ['arm', 'seeds', 'per-seed ratio', `mean [${pct}% CI]`, `IQM [${pct}% CI]`, `vs ${s.reference}`],
      rows: m.arms.map((a) => [
        a.arm,
        String(a.seeds.length),
        a.ratios.map((r) => (r === null ? '–' : f(r))).join(', '),
        formatInterval(a.mean),
        formatInterval(a.iqm),
        a.arm === s.reference ? '(reference)' : a.verdict === null ? 'n/a' : a.verdict,
      ]),
      numeric: [false, true, false, true, true, false],
    });
    const arms = [...new Set(m.pairs.flatMap((p) => [p.a, p.b]))];
    if (arms.length < 2) continue;
    out.push({
      title: `P(row > column) on ${m.label} per seed [${pct}% CI]; ~ marks not distinguishable from ½`,
      header: ['P(row > column)', ...arms],
      rows: arms.map((a) => [
        a,
        ...arms.map((b) => {
          if (a === b) return '—';
          const p = improvementOf(m, a, b);
          return p === null ? 'n/a' : `${p.verdict === 'not distinguishable' ? '~' : ''}${formatInterval(p.poi)}`;
        }),
      ]),
      numeric: [false, ...arms.map(() => true)],
    });
  }
  return out;
}

/** The statistics in Markdown: per measure, the ratio table and the P(A > B) matrix. */
export function formatSeedStatsMarkdown(s: SeedStatistics): string {
  const out: string[] = [seedStatsNote(s), ''];
  for (const t of seedStatTables(s)) out.push(`**${t.title}**`, '', ...markdownTable(t.header, t.rows, t.numeric), '');
  return out.join('\n');
}

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * The interval chart (rliable's `plot_interval_estimates`): per measure and statistic (mean, IQM),
 * one row per arm with its point estimate and bootstrap interval of the ratio to the reference,
 * and a rule at 1 (the reference). Null when no arm has a ratio.
 */
export function intervalChartSpec(s: SeedStatistics, colors: Map<string, string>): TopLevelSpec | null {
  const rows: { measure: string; statistic: string; arm: string; point: number; lo: number; hi: number }[] = [];
  for (const m of s.measures) {
    for (const a of m.arms) {
      for (const [statistic, i] of [
        ['mean', a.mean],
        ['IQM', a.iqm],
      ] as const) {
        if (i !== null) rows.push({ measure: m.label, statistic, arm: a.arm, point: r6(i.point), lo: r6(i.lo), hi: r6(i.hi) });
      }
    }
  }
  if (rows.length === 0) return null;
  const arms = [...new Set(rows.map((r) => r.arm))];
  const color = { ...armColorEncoding(arms, colors), legend: null };
  const y = { field: 'arm', type: 'nominal' as const, sort: arms, title: null };
  const x = { field: 'lo', type: 'quantitative' as const, title: `× ${s.reference}`, scale: { zero: false } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: CHART_CONFIG,
    data: { values: rows },
    facet: {
      row: { field: 'measure', type: 'nominal', title: null, sort: s.measures.map((m) => m.label) },
      column: { field: 'statistic', type: 'nominal', title: null, sort: ['mean', 'IQM'] },
    },
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 260,
      height: { step: 18 },
      layer: [
        { mark: { type: 'rule', color: '#999', strokeDash: [4, 3] }, encoding: { x: { datum: 1 } } },
        { mark: { type: 'rule', strokeWidth: 3, opacity: 0.6 }, encoding: { y, x, x2: { field: 'hi' }, color } },
        {
          mark: { type: 'tick', thickness: 2, size: 14 },
          encoding: { y, x: { field: 'point', type: 'quantitative' }, color: { value: 'black' } },
        },
      ],
    },
  } as TopLevelSpec;
}
