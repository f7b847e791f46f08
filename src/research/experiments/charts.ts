/**
 * Vega-Lite specs for the reproduction report. Rendering (to SVG, in Node) is the report's own
 * `renderSvg` (src/report/charts.ts); colours come from src/report/colors.ts so `anchored` and
 * `frozen` look the same as in training reports.
 */
import type { TopLevelSpec } from 'vega-lite';
import { armColors } from '../../report/colors.ts';
import type { GoodhartResult } from './goodhart.ts';
import type { SettlementLoopResult } from './settlement-loop.ts';
import type { ExchangeRateResult } from './exchange-rate.ts';
import type { CopulaResult } from './copula.ts';
import type { AdversaryResult } from './adversary.ts';
import type { ScalingResult } from './settlement-scaling.ts';
import type { ResolutionResult } from './resolution.ts';

/** A chart before rendering. */
export interface ChartSpec {
  id: string;
  title: string;
  caption: string;
  spec: TopLevelSpec;
  /** Spans the full page width (faceted charts). */
  wide?: boolean;
}

const CONFIG = {
  background: 'white',
  font: 'sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#eee' },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  title: { fontSize: 13, anchor: 'start' as const },
  view: { stroke: '#ddd' },
};
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

function colorEnc(field: string, names: readonly string[], title = field): Record<string, unknown> {
  const c = armColors(names);
  return { field, type: 'nominal', title, sort: names, scale: { domain: names, range: names.map((n) => c.get(n)!) } };
}

/** Lines with ±1 SE bands: rows {series, x, y, lo, hi}. */
function bandLines(
  rows: { series: string; x: number; y: number; lo: number; hi: number }[],
  x: Record<string, unknown>,
  yTitle: string,
  names: readonly string[],
  extra: Record<string, unknown> = {},
): TopLevelSpec {
  const color = colorEnc('series', names, 'verifier / arm');
  return {
    $schema: SCHEMA,
    config: CONFIG,
    width: 420,
    height: 240,
    data: { values: rows.map((r) => ({ ...r, y: r6(r.y), lo: r6(r.lo), hi: r6(r.hi) })) },
    layer: [
      {
        mark: { type: 'area', opacity: 0.15 },
        encoding: { x, y: { field: 'lo', type: 'quantitative', title: yTitle }, y2: { field: 'hi' }, color },
      },
      {
        mark: { type: 'line', strokeWidth: 2, point: true },
        encoding: { x, y: { field: 'y', type: 'quantitative', title: yTitle }, color },
      },
    ],
    ...extra,
  } as TopLevelSpec;
}

const LOG2X = (title: string): Record<string, unknown> => ({
  field: 'x',
  type: 'quantitative',
  title,
  scale: { type: 'log', base: 2 },
  axis: { format: 'd' },
});

function goodhart(r: GoodhartResult, id: string): ChartSpec[] {
  const names = ['execution', ...r.verifiers.map((v) => v.name)];
  const rows = r.rows.flatMap((row) => [
    {
      series: 'execution',
      x: row.n,
      y: row.execution.mean,
      lo: row.execution.mean - row.execution.se,
      hi: row.execution.mean + row.execution.se,
    },
    ...r.verifiers.map((v) => {
      const s = row.learned[v.name]!;
      return { series: v.name, x: row.n, y: s.mean, lo: s.mean - s.se, hi: s.mean + s.se };
    }),
  ]);
  const snd = r.rows.flatMap((row) =>
    r.verifiers.map((v) => ({
      series: v.name,
      x: row.n,
      y: row.snd[v.name]!.value,
      lo: row.snd[v.name]!.value - row.snd[v.name]!.se,
      hi: row.snd[v.name]!.value + row.snd[v.name]!.se,
    })),
  );
  return [
    {
      id: `${id}-bon`,
      title: `Best-of-N gold, ${r.domain}`,
      caption: `Mean gold of the best-of-N pick under execution and each learned verifier (± 1 SE over ${r.tasks} tasks).`,
      spec: bandLines(rows, LOG2X('N'), 'gold of the pick', names),
    },
    {
      id: `${id}-snd`,
      title: `Snd@N, ${r.domain}`,
      caption: 'Soundness under pressure: E[G(V pick)] / E[G(G pick)], ± 1 delta-method SE.',
      spec: bandLines(
        snd,
        LOG2X('N'),
        'Snd@N',
        r.verifiers.map((v) => v.name),
      ),
    },
  ];
}

function settlement(r: SettlementLoopResult, id: string): ChartSpec[] {
  const arms = ['anchored', 'frozen'] as const;
  const mk = (k: 'gold' | 'drift'): { series: string; x: number; y: number; lo: number; hi: number }[] =>
    r.perRound.flatMap((row) =>
      arms.map((a) => ({
        series: a,
        x: row.round,
        y: row[a][k].mean,
        lo: row[a][k].mean - row[a][k].se,
        hi: row[a][k].mean + row[a][k].se,
      })),
    );
  const x = { field: 'x', type: 'quantitative', title: 'round' };
  return [
    {
      id: `${id}-gold`,
      title: `Settlement loop (${r.domain}, ${r.verifier.name}): gold of the top-${r.top} selection`,
      caption: '± 1 SE over tasks.',
      spec: bandLines(mk('gold'), x, 'gold of the selection', arms),
    },
    {
      id: `${id}-drift`,
      title: `Settlement loop (${r.domain}, ${r.verifier.name}): drift on the settled claims`,
      caption: 'Mean |proxy − gold| over the settled, measured before the refit; ± 1 SE.',
      spec: bandLines(mk('drift'), x, 'drift', arms),
    },
  ];
}

function exchangeRate(r: ExchangeRateResult): ChartSpec[] {
  const pts = r.points.map((p) => ({
    rho: String(p.rho),
    x: p.n,
    sim: r6(p.simulated),
    lo: r6(p.simulated - 2 * p.se),
    hi: r6(p.simulated + 2 * p.se),
    theory: r6(p.theory),
  }));
  const rhos = r.rhos.map(String);
  const color = { field: 'rho', type: 'nominal', title: 'ρ', sort: rhos, scale: { scheme: 'viridis' } };
  const x = LOG2X('N');
  const pen = r.penalty
    .flatMap((p) => [
      { rho: String(p.rho), x: p.n, version: 'exact finite-N', y: r6(p.exactLog2) },
      { rho: String(p.rho), x: p.n, version: 'asymptotic N^(1/ρ²)', y: r6(p.asymptoticLog2) },
      ...(p.empiricalLog2 === null ? [] : [{ rho: String(p.rho), x: p.n, version: 'empirical', y: r6(p.empiricalLog2) }]),
    ])
    .filter((d) => d.y <= 40);
  return [
    {
      id: 'exchange-rate-bon',
      title: 'Best-of-N gold under a ρ-correlated proxy',
      caption: `Points: simulated (± 2 SE, ${r.replicates} replicates); lines: ρ·E[max of N] integrated exactly.`,
      spec: {
        $schema: SCHEMA,
        config: CONFIG,
        width: 420,
        height: 260,
        data: { values: pts },
        layer: [
          {
            mark: { type: 'line', strokeWidth: 1.5 },
            encoding: { x, y: { field: 'theory', type: 'quantitative', title: 'E[gold of the pick] (sd units)' }, color },
          },
          { mark: { type: 'rule' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
          { mark: { type: 'point', filled: true, size: 25 }, encoding: { x, y: { field: 'sim', type: 'quantitative' }, color } },
        ],
      } as TopLevelSpec,
    },
    {
      id: 'exchange-rate-penalty',
      title: 'Compute penalty: log₂ N′ needed to match the sound verifier at N',
      caption:
        'Exact finite-N form (solid), asymptotic N^(1/ρ²) (dashed), empirical from the simulation (points, only where N′ ≤ the simulated range). Values above 40 are cut.',
      spec: {
        $schema: SCHEMA,
        config: CONFIG,
        width: 420,
        height: 260,
        data: { values: pen },
        layer: [
          {
            transform: [{ filter: "datum.version !== 'empirical'" }],
            mark: { type: 'line', strokeWidth: 1.5 },
            encoding: {
              x,
              y: { field: 'y', type: 'quantitative', title: 'log₂ N′' },
              color: { ...color, sort: rhos },
              strokeDash: {
                field: 'version',
                type: 'nominal',
                title: 'form',
                scale: {
                  domain: ['exact finite-N', 'asymptotic N^(1/ρ²)'],
                  range: [
                    [1, 0],
                    [6, 3],
                  ],
                },
              },
            },
          },
          {
            transform: [{ filter: "datum.version === 'empirical'" }],
            mark: { type: 'point', filled: true, size: 30 },
            encoding: { x, y: { field: 'y', type: 'quantitative' }, color },
          },
        ],
      } as TopLevelSpec,
    },
  ];
}

function copula(r: CopulaResult, id: string): ChartSpec[] {
  return r.verifiers.map((v) => ({
    id: `${id}-${v.verifier}`,
    title: `Snd@N predicted from one correlation (${v.verifier})`,
    caption: `Mean over problems of measured Snd@N and the two predictions. Median |error|: copula ${v.copulaMedianAbsErr.value.toFixed(3)}, Pearson ${v.pearsonMedianAbsErr.value.toFixed(3)}.`,
    spec: {
      $schema: SCHEMA,
      config: CONFIG,
      width: 420,
      height: 240,
      data: {
        values: v.perN.flatMap((p) => [
          { series: 'measured', x: p.n, y: r6(p.measuredMean) },
          { series: 'copula (Spearman)', x: p.n, y: r6(p.copulaMean) },
          { series: 'Pearson (Gaussian)', x: p.n, y: r6(p.pearsonMean) },
        ]),
      },
      mark: { type: 'line', strokeWidth: 2, point: true },
      encoding: {
        x: LOG2X('N'),
        y: { field: 'y', type: 'quantitative', title: 'mean Snd@N' },
        color: colorEnc('series', ['measured', 'copula (Spearman)', 'Pearson (Gaussian)'], 'series'),
      },
    } as TopLevelSpec,
  }));
}

function adversary(r: AdversaryResult): ChartSpec[] {
  const targets = ['sound', 'frozen', 'anchored'];
  const c = armColors(['execution', 'frozen', 'anchored']);
  const color = {
    field: 'target',
    type: 'nominal',
    title: 'verifier',
    sort: targets,
    scale: { domain: targets, range: [c.get('execution')!, c.get('frozen')!, c.get('anchored')!] },
  };
  const rows = (k: 'gold' | 'gap'): Record<string, unknown>[] =>
    r.series.flatMap((s) => s[k].map((v, step) => ({ adversary: s.adversary, target: s.target, step, y: r6(v.mean) })));
  const facet = (k: 'gold' | 'gap', yTitle: string): TopLevelSpec =>
    ({
      $schema: SCHEMA,
      config: CONFIG,
      data: { values: rows(k) },
      facet: { field: 'adversary', type: 'nominal', title: null, sort: ['steepest', 'evolutionary', 'settlement-aware'] },
      columns: 3,
      spec: {
        width: 220,
        height: 170,
        mark: { type: 'line', strokeWidth: 2 },
        encoding: {
          x: { field: 'step', type: 'quantitative', title: 'step' },
          y: { field: 'y', type: 'quantitative', title: yTitle },
          color,
        },
      },
    }) as TopLevelSpec;
  return [
    {
      id: 'adversary-gold',
      title: `Adversary champion's gold (${r.domain})`,
      caption: `Mean over ${r.tasks} tasks; the anchored verifier settles the visited programs every ${r.every} steps.`,
      spec: facet('gold', 'champion gold'),
      wide: true,
    },
    {
      id: 'adversary-gap',
      title: `Adversary champion's hacking gap proxy − gold (${r.domain})`,
      caption: 'The sound verifier has gap 0 by construction.',
      spec: facet('gap', 'proxy − gold'),
      wide: true,
    },
  ];
}

function scaling(r: ScalingResult): ChartSpec[] {
  const names = r.strategies.map((s) => s.strategy);
  const rows = r.strategies.flatMap((s) =>
    s.auc.map((a) => ({ series: s.strategy, x: a.budget, y: a.auc, lo: a.auc - a.se, hi: a.auc + a.se })),
  );
  return [
    {
      id: 'settlement-scaling',
      title: `Soundness AUC vs settled-label budget (${r.domain})`,
      caption: `± 1 delta-method SE over ${r.tasks} tasks. Log-linear R²: ${r.strategies.map((s) => `${s.strategy} ${s.trend.r2.toFixed(3)}`).join(', ')}.`,
      spec: bandLines(rows, LOG2X('settled labels S'), 'Snd AUC', names),
    },
  ];
}

function resolution(r: ResolutionResult): ChartSpec[] {
  const arms = ['anchored', 'frozen'] as const;
  const rows = r.perRound.flatMap((row) =>
    arms.flatMap((a) =>
      (['reliability', 'resolution'] as const).map((k) => ({ arm: a, measure: k, round: row.round, y: r6(row[a][k].mean) })),
    ),
  );
  return [
    {
      id: 'resolution',
      title: `Out-of-sample reliability (dashed) and resolution (solid) per round (${r.domain})`,
      caption: `Claims "gold ≥ ${r.threshold}", ${r.claims} per round; 10-bin Brier decomposition before each refit, mean over tasks.`,
      spec: {
        $schema: SCHEMA,
        config: CONFIG,
        width: 420,
        height: 240,
        data: { values: rows },
        mark: { type: 'line', strokeWidth: 2, point: true },
        encoding: {
          x: { field: 'round', type: 'quantitative', title: 'round' },
          y: { field: 'y', type: 'quantitative', title: 'Brier component' },
          color: colorEnc('arm', arms, 'arm'),
          strokeDash: {
            field: 'measure',
            type: 'nominal',
            title: 'component',
            sort: ['resolution', 'reliability'],
            scale: {
              domain: ['resolution', 'reliability'],
              range: [
                [1, 0],
                [6, 3],
              ],
            },
          },
        },
      } as TopLevelSpec,
    },
  ];
}

/** Chart builders per experiment. */
export const chartsFor = { goodhart, settlement, exchangeRate, copula, adversary, scaling, resolution };
