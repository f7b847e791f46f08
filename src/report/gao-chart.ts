/**
 * Gold against d = √KL(π‖π_base), with Gao et al.'s RL fit gold = g₀ + d(α − β ln d), as small
 * multiples: one panel per arm (its steps, several runs pooled, and its fitted curve), every
 * panel on the same axes and carrying the reference arm's fitted curve in grey — thirteen arms
 * on one set of axes cannot be read.
 */
import type { TopLevelSpec } from 'vega-lite';
import { armColorEncoding, CHART_CONFIG } from './chart-style.ts';
import { armGaoFit, gaoCurve, gaoPoints } from './gao.ts';
import type { ArmData } from './read-run.ts';
import type { ChartSpec } from './run-charts.ts';

/** The colour of the reference curve drawn in every panel (no arm's colour). */
export const GAO_REFERENCE_COLOR = '#555555';

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** One arm's points (its steps) and fitted curve, or no curve when the fit fails. */
function armSeries(a: { name: string; data: readonly Pick<ArmData, 'metrics'>[] }): {
  points: { d: number; gold: number }[];
  curve: { d: number; gold: number }[];
  approximate: boolean;
} {
  let approximate = false;
  const pooled = a.data.flatMap((r) => {
    const g = gaoPoints(r.metrics);
    approximate ||= g.approximate;
    return g.points;
  });
  const fit = armGaoFit({ metrics: pooled.map((p, i) => ({ step: i, 'kl/sqrt': p.d, 'reward/gold': p.gold })) });
  const curve = fit ? gaoCurve(fit.fit, Math.max(...pooled.map((p) => p.d))) : [];
  return { points: pooled.map((p) => ({ d: r6(p.d), gold: p.gold })), curve, approximate };
}

/**
 * The gold-vs-√KL chart of `arms` (several runs of an arm pooled), one panel per arm; `reference`
 * (an arm name, usually the execution arm) has its curve repeated in every other panel.
 */
export function gaoChart(
  arms: readonly { name: string; data: readonly Pick<ArmData, 'metrics'>[] }[],
  colors: Map<string, string>,
  opts: { reference?: string } = {},
): ChartSpec {
  const names = arms.map((a) => a.name);
  const rows: { arm: string; kind: 'step' | 'fit' | 'reference'; d: number; gold: number }[] = [];
  let approximate = false;
  const all = arms.map((a) => ({ name: a.name, ...armSeries(a) }));
  const ref = all.find((a) => a.name === opts.reference && a.curve.length > 0);
  for (const a of all) {
    approximate ||= a.approximate;
    for (const p of a.points) rows.push({ arm: a.name, kind: 'step', ...p });
    for (const c of a.curve) rows.push({ arm: a.name, kind: 'fit', ...c });
    if (ref && ref !== a) for (const c of ref.curve) rows.push({ arm: a.name, kind: 'reference', ...c });
  }
  const x = { field: 'd', type: 'quantitative' as const, title: '√KL(π‖π_base) (nats^½)' };
  const y = { field: 'gold', type: 'quantitative' as const, title: 'gold' };
  const color = { ...armColorEncoding(names, colors), legend: null };
  const only = (kind: string) => ({ filter: `datum.kind === '${kind}'` });
  return {
    id: 'gold-kl',
    title: 'Gold against √KL, with Gao et al. fits (one panel per arm)',
    caption:
      'Points: gold of each step against d = √(sequence-level KL to the base policy)' +
      (approximate ? ' (runs logged before kl/sqrt: √(per-token KL × length), an approximation)' : '') +
      '; coloured line: the RL form gold = g₀ + d(α − β ln d) fitted per arm (all its seeds pooled)' +
      (ref ? `; grey dashed line in every panel: the ${ref.name} arm's fit, for reference` : '') +
      '. All panels share their axes. A curve that turns over marks where optimising the reward began to cost gold.',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: CHART_CONFIG,
      data: { values: rows },
      facet: { field: 'arm', type: 'nominal', sort: names, title: null },
      columns: Math.min(4, Math.max(1, names.length)),
      spec: {
        width: 190,
        height: 140,
        layer: [
          {
            transform: [only('reference')],
            mark: { type: 'line', strokeWidth: 1.5, strokeDash: [5, 3], color: GAO_REFERENCE_COLOR },
            encoding: { x, y },
          },
          {
            transform: [only('step')],
            mark: { type: 'point', filled: true, size: 12, opacity: 0.35 },
            encoding: { x, y, color },
          },
          { transform: [only('fit')], mark: { type: 'line', strokeWidth: 2.5 }, encoding: { x, y, color } },
        ],
      },
    } as TopLevelSpec,
  };
}
