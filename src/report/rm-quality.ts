/**
 * Is ranking quality what decides anchoring? Across the arms of a comparison, the RM's
 * out-of-sample ranking quality (within-group pairwise accuracy and AUC on each settlement
 * window's labels, before the refit; reward/models/ranking-quality.ts) against the arm's final
 * gold over the execution arm's. Arms whose reward executes every rollout are left out: their gold
 * does not depend on the RM.
 */
import type { TopLevelSpec } from 'vega-lite';
import { spearmanOrNull } from '../util/correlation.ts';
import { armColorEncoding, CHART_CONFIG } from './chart-style.ts';
import type { CompareTable } from './compare.ts';
import { markdownTable } from '../util/table.ts';

/** One arm (one point per run, and its means). */
interface RmQualityArm {
  arm: string;
  pairAcc: number | null;
  auc: number | null;
  goldRatio: number | null;
  /** Per run (seed): the same three values. */
  runs: { seed: number | null; pairAcc: number | null; auc: number | null; goldRatio: number | null }[];
}

/** The relation across arms. */
export interface RmQualityRelation {
  arms: RmQualityArm[];
  /** Spearman ρ over arms of mean pair accuracy vs mean gold ratio (null: fewer than 3 arms, or no variance). */
  rhoPairAcc: number | null;
  /** The same for the AUC. */
  rhoAuc: number | null;
  /**
   * Spearman ρ over every arm-and-seed point (pair accuracy of that run vs its gold ratio): with
   * two or three RM arms, the across-arm ρ has too few points to say anything; this one pools
   * the seeds (null: fewer than 3 points, or no variance).
   */
  rhoPairAccRuns: number | null;
  /** The same for the AUC. */
  rhoAucRuns: number | null;
  /** Points behind each pooled ρ. */
  nPairAccRuns: number;
  nAucRuns: number;
}

/** The relation, or null when no arm has both an RM quality and a gold ratio. */
export function rmQualityRelation(t: CompareTable): RmQualityRelation | null {
  const arms: RmQualityArm[] = t.rows
    // Over seeds, an arm with an unfinished run (running, stopped, failed) is left out, as in the
    // statistics over seeds: a partial window is not the arm's result, and would rank it. One run
    // (the live view of a run in progress) keeps its arms: there the relation is "so far".
    .filter((r) => r.role !== 'execution' && !(t.runs.length > 1 && r.incomplete))
    .map((r) => ({
      arm: r.arm,
      pairAcc: r.values.rmPairAcc.mean,
      auc: r.values.rmAuc.mean,
      goldRatio: r.values.goldRatio.mean,
      runs: r.perRun.map((v, i) => ({
        seed: t.runs[i]?.seed ?? null,
        pairAcc: v?.rmPairAcc ?? null,
        auc: v?.rmAuc ?? null,
        goldRatio: v?.goldRatio ?? null,
      })),
    }))
    .filter((a) => a.goldRatio !== null && (a.pairAcc !== null || a.auc !== null));
  if (arms.length === 0) return null;
  const rho = (k: 'pairAcc' | 'auc'): number | null => {
    const both = arms.filter((a) => a[k] !== null);
    return spearmanOrNull(
      both.map((a) => a[k]!),
      both.map((a) => a.goldRatio!),
    );
  };
  const pooled = (k: 'pairAcc' | 'auc') => {
    const pts = arms.flatMap((a) => a.runs.filter((r) => r[k] !== null && r.goldRatio !== null));
    return {
      rho: spearmanOrNull(
        pts.map((r) => r[k]!),
        pts.map((r) => r.goldRatio!),
      ),
      n: pts.length,
    };
  };
  const pa = pooled('pairAcc');
  const au = pooled('auc');
  return {
    arms,
    rhoPairAcc: rho('pairAcc'),
    rhoAuc: rho('auc'),
    rhoPairAccRuns: pa.rho,
    rhoAucRuns: au.rho,
    nPairAccRuns: pa.n,
    nAucRuns: au.n,
  };
}

const num = (v: number | null, d = 2): string => (v === null ? 'n/a' : v.toFixed(d));

/** One sentence: the rank correlations across arms. */
export function rmQualitySentence(rel: RmQualityRelation): string {
  return (
    `RM ranking quality vs gold ratio across ${rel.arms.length} arm${rel.arms.length === 1 ? '' : 's'} ` +
    `(execution-reward arms left out): Spearman ρ = ${num(rel.rhoPairAcc)} for the within-group pairwise accuracy, ` +
    `${num(rel.rhoAuc)} for the AUC (n/a: fewer than 3 arms or no variance); over every arm and seed ` +
    `(${rel.nPairAccRuns} points) ρ = ${num(rel.rhoPairAccRuns)} for the pair accuracy, ${num(rel.rhoAucRuns)} for the AUC (${rel.nAucRuns} points).`
  );
}

/** Markdown: the sentence, then one row per arm and seed (pair accuracy, AUC, gold ratio), then the arm means. */
export function formatRmQualityMarkdown(rel: RmQualityRelation): string {
  const rows = rel.arms.flatMap((a) => [
    ...a.runs
      .filter((r) => r.pairAcc !== null || r.auc !== null || r.goldRatio !== null)
      .map((r) => [a.arm, r.seed === null ? 'n/a' : String(r.seed), num(r.pairAcc, 3), num(r.auc, 3), num(r.goldRatio)]),
    [`**${a.arm}** (mean)`, '', num(a.pairAcc, 3), num(a.auc, 3), num(a.goldRatio)],
  ]);
  return [
    rmQualitySentence(rel),
    '',
    ...markdownTable(['arm', 'seed', 'RM pair acc', 'RM AUC', '× execution gold'], rows, [false, true, true, true, true]),
  ].join('\n');
}

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** Gold ratio against RM pair accuracy: one small point per arm and run, one large point per arm mean. */
export function rmQualityChartSpec(rel: RmQualityRelation, colors: Map<string, string>): TopLevelSpec | null {
  const runs = rel.arms.flatMap((a) =>
    a.runs
      .filter((r) => r.pairAcc !== null && r.goldRatio !== null)
      .map((r) => ({ arm: a.arm, x: r6(r.pairAcc!), y: r6(r.goldRatio!), seed: r.seed })),
  );
  const means = rel.arms.filter((a) => a.pairAcc !== null).map((a) => ({ arm: a.arm, x: r6(a.pairAcc!), y: r6(a.goldRatio!) }));
  if (means.length === 0) return null;
  const names = rel.arms.map((a) => a.arm);
  const color = armColorEncoding(names, colors);
  const x = {
    field: 'x',
    type: 'quantitative' as const,
    title: 'RM within-group pairwise accuracy (out of sample)',
    scale: { zero: false },
  };
  const y = { field: 'y', type: 'quantitative' as const, title: '× execution gold', scale: { zero: false } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: CHART_CONFIG,
    width: 420,
    height: 260,
    layer: [
      { data: { values: runs }, mark: { type: 'point', filled: true, size: 25, opacity: 0.4 }, encoding: { x, y, color } },
      {
        data: { values: means },
        mark: { type: 'point', filled: true, size: 120, stroke: 'black', strokeWidth: 0.5 },
        encoding: { x, y, color },
      },
    ],
  } as TopLevelSpec;
}
