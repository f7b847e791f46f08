/**
 * The charts of arms compared over seeds, shared by the sweep report and the paired report:
 * gold against √KL as small multiples (one panel per arm, its seeds pooled), the interval chart of
 * the per-seed ratios, and the RM's ranking quality against the gold ratio.
 */
import type { CompareTable } from './compare.ts';
import { renderSvg, type Chart } from './charts.ts';
import { gaoChart } from './gao-chart.ts';
import type { RunData } from './read-run.ts';
import { rmQualityChartSpec, rmQualityRelation, rmQualitySentence } from './rm-quality.ts';
import { intervalChartSpec } from './seed-stats.ts';

/** The over-seeds charts of `table` (computed from `runs`); a chart without data is null. */
export interface SeedCharts {
  gao: Chart;
  interval: Chart | null;
  quality: Chart | null;
}

/** Render the over-seeds charts of a comparison of `runs` (arm colours from `colors`). */
export async function buildSeedCharts(
  table: CompareTable,
  runs: readonly RunData[],
  colors: Map<string, string>,
): Promise<SeedCharts> {
  const gaoSpec = gaoChart(
    table.rows.map((r) => ({ name: r.arm, data: runs.flatMap((run) => run.arms.filter((x) => x.name === r.arm)) })),
    colors,
    { reference: table.rows.find((r) => r.role === 'execution')?.arm },
  );
  const stats = table.statistics;
  const intervalSpec = stats ? intervalChartSpec(stats, colors) : null;
  const interval: Chart | null =
    stats && intervalSpec
      ? {
          id: 'seed-intervals',
          title: `Final gold and held-out pass rate over seeds, × ${stats.reference} (paired by seed)`,
          caption: `Bars: ${Math.round(stats.confidence * 100)}% stratified bootstrap intervals of the mean and the IQM of the per-seed ratios; ticks: the point estimates; dashed rule: the reference (1). An interval crossing the rule is not distinguishable from the reference.`,
          svg: await renderSvg(intervalSpec),
          spec: intervalSpec,
        }
      : null;
  const rel = rmQualityRelation(table);
  const qualitySpec = rel ? rmQualityChartSpec(rel, colors) : null;
  const quality: Chart | null =
    rel && qualitySpec
      ? {
          id: 'rm-quality',
          title: 'Is ranking quality what decides anchoring? RM pair accuracy against gold ratio',
          caption: `x: the RM's within-group pairwise accuracy on each settlement window's labels before the refit that adds them, mean over windows; y: final gold × the execution arm's. Small points: one per arm and seed; large: the arm's mean. ${rmQualitySentence(rel)}`,
          svg: await renderSvg(qualitySpec),
          spec: qualitySpec,
        }
      : null;
  return { gao: { ...gaoSpec, svg: await renderSvg(gaoSpec.spec) }, interval, quality };
}
