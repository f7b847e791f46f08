/**
 * The report's charts: Vega-Lite specs compiled to Vega and rendered to SVG in Node (no browser,
 * no canvas), so the HTML report carries finished SVG and needs no script to display.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { METRIC_KEYS as K } from '../train/run-format.ts';
import { GOLD_WATCH_METRIC_KEYS as W } from '../train/gold-watch.ts';
import { armGaoFit, gaoCurve, gaoPoints } from './gao.ts';
import type { ArmData, RunData } from './read-run.ts';
import { rollingMean } from './stats.ts';

/** One rendered chart. */
export interface Chart {
  id: string;
  title: string;
  /** What the chart shows, for the caption. */
  caption: string;
  svg: string;
  spec: TopLevelSpec;
}

/** One plotted point (long format: one row per arm × step × measure). */
interface Point {
  arm: string;
  step: number;
  measure: string;
  value: number;
}

function series(run: RunData, key: string, window: number, measure: string): Point[] {
  const out: Point[] = [];
  for (const a of run.arms) {
    for (const p of rollingMean(a.metrics, key, window)) {
      if (p.value !== null) out.push({ arm: a.name, step: p.step, measure, value: Math.round(p.value * 1e6) / 1e6 });
    }
  }
  return out;
}

/** Gap per step from the logged key, or proxy − gold where only those are logged. */
function withGap(run: RunData): RunData {
  return {
    ...run,
    arms: run.arms.map((a) => ({
      ...a,
      metrics: a.metrics.map((m) => {
        if (typeof m[K.gap] === 'number') return m;
        const p = m[K.proxy];
        const g = m[K.gold];
        return { ...m, [K.gap]: typeof p === 'number' && typeof g === 'number' ? p - g : null };
      }),
    })),
  };
}

const BASE_CONFIG = {
  background: 'white',
  font: 'sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#eee' },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  title: { fontSize: 13, anchor: 'start' as const },
  view: { stroke: '#ddd' },
};

/** Render a Vega-Lite spec to an SVG string, headless. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Gold against d = √KL(π‖π_base) for every arm, with its Gao et al. RL fit
 * gold = g₀ + d(α − β ln d): one point per step (several runs of an arm pooled) and the fitted
 * curve over the arm's range of d.
 */
export function gaoChart(
  arms: readonly { name: string; data: readonly Pick<ArmData, 'metrics'>[] }[],
  colors: Map<string, string>,
): { id: string; title: string; caption: string; spec: TopLevelSpec } {
  const names = arms.map((a) => a.name);
  const color = {
    field: 'arm',
    type: 'nominal' as const,
    title: 'arm',
    sort: names,
    scale: { domain: names, range: names.map((a) => colors.get(a) ?? '#888') },
  };
  const points: { arm: string; d: number; gold: number }[] = [];
  const curves: { arm: string; d: number; gold: number }[] = [];
  let approximate = false;
  for (const a of arms) {
    const pooled = a.data.flatMap((r) => {
      const g = gaoPoints(r.metrics);
      approximate ||= g.approximate;
      return g.points;
    });
    for (const p of pooled) points.push({ arm: a.name, d: Math.round(p.d * 1e6) / 1e6, gold: p.gold });
    const fit = armGaoFit({ metrics: pooled.map((p, i) => ({ step: i, 'kl/sqrt': p.d, 'reward/gold': p.gold })) });
    if (fit) for (const c of gaoCurve(fit.fit, Math.max(...pooled.map((p) => p.d)))) curves.push({ arm: a.name, ...c });
  }
  const x = { field: 'd', type: 'quantitative' as const, title: '√KL(π‖π_base) (nats^½)' };
  const y = { field: 'gold', type: 'quantitative' as const, title: 'gold' };
  return {
    id: 'gold-kl',
    title: 'Gold against √KL, with Gao et al. fits',
    caption:
      'Points: gold of each step against d = √(sequence-level KL to the base policy)' +
      (approximate ? ' (runs logged before kl/sqrt: √(per-token KL × length), an approximation)' : '') +
      '; lines: the RL form gold = g₀ + d(α − β ln d) fitted per arm (all its seeds pooled). A curve that turns over marks where optimising the reward began to cost gold.',
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: BASE_CONFIG,
      width: 420,
      height: 260,
      layer: [
        { data: { values: points }, mark: { type: 'point', filled: true, size: 12, opacity: 0.35 }, encoding: { x, y, color } },
        { data: { values: curves }, mark: { type: 'line', strokeWidth: 2.5 }, encoding: { x, y, color } },
      ],
    } as TopLevelSpec,
  };
}

/** Options of {@link buildCharts}. */
export interface ChartOptions {
  /** Rolling-mean window in steps. */
  window: number;
  /** Arm → colour (every arm of the run). */
  colors: Map<string, string>;
}

/** All charts of the report, rendered. */
export async function buildCharts(runIn: RunData, opts: ChartOptions): Promise<Chart[]> {
  const run = withGap(runIn);
  const arms = run.arms.map((a) => a.name);
  const color = {
    field: 'arm',
    type: 'nominal' as const,
    title: 'arm',
    sort: arms,
    scale: { domain: arms, range: arms.map((a) => opts.colors.get(a)!) },
  };
  const x = { field: 'step', type: 'quantitative' as const, title: 'step' };
  const w = opts.window;
  const rolled = `rolling mean over ${w} step${w > 1 ? 's' : ''}`;

  const lineChart = (
    id: string,
    title: string,
    caption: string,
    key: string,
    yTitle: string,
    zero = false,
  ): { id: string; title: string; caption: string; spec: TopLevelSpec } => ({
    id,
    title,
    caption,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: BASE_CONFIG,
      width: 420,
      height: 220,
      data: { values: series(run, key, w, yTitle) },
      mark: { type: 'line', strokeWidth: 2 },
      encoding: { x, y: { field: 'value', type: 'quantitative', title: yTitle, scale: { zero } }, color },
    } as TopLevelSpec,
  });

  const proxyGold = [...series(run, K.proxy, w, 'proxy'), ...series(run, K.gold, w, 'gold')];
  const refitRules: { step: number }[] = [];
  const driftPoints: { arm: string; step: number; drift: number; kind: string }[] = [];
  for (const a of run.arms) {
    for (const r of a.refits) {
      if (!refitRules.some((q) => q.step === r.step)) refitRules.push({ step: r.step });
      // Monitoring lines (refit: false) carry a drift only when gold was known.
      const measured = r.refit !== false || (typeof r.driftGold === 'number' && Number.isFinite(r.driftGold));
      if (measured && typeof r.drift === 'number' && Number.isFinite(r.drift)) {
        driftPoints.push({ arm: a.name, step: r.step, drift: r.drift, kind: r.refit === false ? 'monitor' : 'refit' });
      }
    }
  }

  const specs: { id: string; title: string; caption: string; spec: TopLevelSpec }[] = [
    {
      id: 'proxy-gold',
      title: 'Proxy and gold reward per arm',
      caption: `Proxy = mean RM score (dashed), gold = executed pass rate (solid), ${rolled}. The Goodhart signature: proxy climbing while gold peaks and falls.`,
      spec: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        config: BASE_CONFIG,
        data: { values: proxyGold },
        facet: { field: 'arm', type: 'nominal', sort: arms, title: null },
        columns: Math.min(4, Math.max(1, arms.length)),
        spec: {
          width: 200,
          height: 160,
          mark: { type: 'line', strokeWidth: 2 },
          encoding: {
            x,
            y: { field: 'value', type: 'quantitative', title: 'reward' },
            color,
            strokeDash: {
              field: 'measure',
              type: 'nominal',
              title: 'measure',
              sort: ['gold', 'proxy'],
              scale: {
                domain: ['gold', 'proxy'],
                range: [
                  [1, 0],
                  [6, 3],
                ],
              },
            },
          },
        },
      } as TopLevelSpec,
    },
    lineChart('gold', 'Gold reward, all arms', `Executed pass rate of the training batch, ${rolled}.`, K.gold, 'gold'),
    {
      id: 'gap',
      title: 'Hacking gap and drift at settlement windows',
      caption: `Lines: hacking gap proxy − gold, ${rolled}. Markers: drift mean |RM − label| on the newly settled claims at each settlement window, measured before the refit (triangles, "refit") or only monitored against gold in arms that never refit (diamonds, "monitor"). Grey rules: settlement windows.`,
      spec: {
        $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
        config: BASE_CONFIG,
        width: 420,
        height: 220,
        layer: [
          ...(refitRules.length > 0
            ? [
                {
                  data: { values: refitRules },
                  mark: { type: 'rule' as const, color: '#bbb', strokeDash: [3, 3] },
                  encoding: { x },
                },
              ]
            : []),
          {
            data: { values: series(run, K.gap, w, 'gap') },
            mark: { type: 'line', strokeWidth: 2 },
            encoding: { x, y: { field: 'value', type: 'quantitative', title: 'proxy − gold / drift' }, color },
          },
          ...(driftPoints.length > 0
            ? [
                {
                  data: { values: driftPoints },
                  mark: { type: 'point' as const, filled: true, size: 70, stroke: 'black', strokeWidth: 0.5 },
                  encoding: {
                    x,
                    y: { field: 'drift', type: 'quantitative' as const },
                    color,
                    shape: {
                      field: 'kind',
                      type: 'nominal' as const,
                      title: 'drift',
                      scale: { domain: ['refit', 'monitor'], range: ['triangle-up', 'diamond'] },
                    },
                  },
                },
              ]
            : []),
        ],
      } as TopLevelSpec,
    },
    lineChart('kl', 'KL to the reference policy', `Mean per-token k3 KL, ${rolled}.`, K.kl, 'KL', true),
    gaoChart(
      run.arms.map((a) => ({ name: a.name, data: [a] })),
      opts.colors,
    ),
    lineChart(
      'length',
      'Completion length',
      `Mean completion length in tokens, ${rolled}. Collapsing length often marks a degenerate exploit.`,
      K.length,
      'tokens',
      true,
    ),
    lineChart(
      'entropy',
      'Policy entropy',
      `Mean per-token entropy of the sampling policy, ${rolled}.`,
      K.entropy,
      'entropy',
      true,
    ),
    // Runs logged before the monitor existed (or without gold for every rollout) have no Snd@G.
    ...(run.arms.some((a) => a.metrics.some((m) => typeof m[K.sndG] === 'number'))
      ? [
          lineChart(
            'snd',
            'On-policy soundness Snd@G',
            `Gold of the RM's favourite over the group's best gold, mean over groups with a positive best (1 = sound), ${rolled}. It rises when a group collapses onto near-identical completions, so read it next to entropy.`,
            K.sndG,
            'Snd@G',
            true,
          ),
        ]
      : []),
    // The gold watch (docs/gold-watch.md): runs logged before it have neither key.
    ...(run.arms.some((a) => a.metrics.some((m) => typeof m[W.parityOnlyRate] === 'number'))
      ? [
          lineChart(
            'parity-only',
            'Hacks the strict verdict caught (gold/parity_only_rate)',
            `Share of executed rollouts that pass the published harness (parity) but fail strict, ${rolled}. Above 0: the policy answers in ways only the loose harness accepts.`,
            W.parityOnlyRate,
            'parity-only rate',
            true,
          ),
        ]
      : []),
    ...(run.arms.some((a) => a.metrics.some((m) => typeof m[W.canaryPassRate] === 'number'))
      ? [
          lineChart(
            'canary',
            'Canary pass rate (canary/pass_rate)',
            `Share of canary executions (impossible variants of the tests) that pass under either verdict, ${rolled}. No honest program passes a canary: any pass is a tamper.`,
            W.canaryPassRate,
            'canary pass rate',
            true,
          ),
        ]
      : []),
  ];
  const out: Chart[] = [];
  for (const s of specs) out.push({ ...s, svg: await renderSvg(s.spec) });
  return out;
}

/** One run of an overlay: its data and the label its lines carry. */
export interface OverlayRun {
  label: string;
  run: RunData;
}

/**
 * One logged metric of several runs on one chart (the live view's overlay): a line per run × arm,
 * coloured by arm as in the report and dashed by run, rolling mean over `window` steps.
 */
export async function buildOverlayChart(runs: readonly OverlayRun[], key: string, opts: ChartOptions): Promise<Chart> {
  const arms = [...new Set(runs.flatMap((r) => r.run.arms.map((a) => a.name)))];
  const labels = runs.map((r) => r.label);
  const values = runs.flatMap((r) => series(withGap(r.run), key, opts.window, r.label));
  const w = opts.window;
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: BASE_CONFIG,
    width: 760,
    height: 320,
    data: { values },
    mark: { type: 'line', strokeWidth: 2 },
    encoding: {
      x: { field: 'step', type: 'quantitative', title: 'step' },
      y: { field: 'value', type: 'quantitative', title: key, scale: { zero: false } },
      color: {
        field: 'arm',
        type: 'nominal',
        title: 'arm',
        sort: arms,
        scale: { domain: arms, range: arms.map((a) => opts.colors.get(a) ?? '#999') },
      },
      strokeDash: {
        field: 'measure',
        type: 'nominal',
        title: 'run',
        sort: labels,
        scale: {
          domain: labels,
          range: [
            [1, 0],
            [7, 4],
            [2, 3],
            [10, 3, 2, 3],
            [4, 2],
          ],
        },
      },
      detail: { field: 'measure', type: 'nominal' },
    },
  } as TopLevelSpec;
  return {
    id: 'overlay',
    title: `${key}: ${labels.join(' vs ')}`,
    caption: `${key} per arm (colour) and run (dash pattern), rolling mean over ${w} step${w > 1 ? 's' : ''}.`,
    svg: await renderSvg(spec),
    spec,
  };
}
