/**
 * The report's charts: Vega-Lite specs compiled to Vega and rendered to SVG in Node (no browser,
 * no canvas), so the HTML report carries finished SVG and needs no script to display.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { METRIC_KEYS as K } from '../train/run-format.ts';
import { GOLD_WATCH_METRIC_KEYS as W } from '../train/gold-watch.ts';
import { armColorEncoding, CHART_CONFIG } from './chart-style.ts';
import { executionArm } from './compare.ts';
import { gaoChart } from './gao-chart.ts';
import type { RunData } from './read-run.ts';
import {
  gapDriftChart,
  lineChart,
  proxyGoldChart,
  rmQualityChart,
  series,
  withGap,
  type ChartSpec,
  type RunChartContext,
} from './run-charts.ts';

/** One rendered chart. */
export interface Chart extends ChartSpec {
  svg: string;
}

/** Render a Vega-Lite spec to an SVG string, headless. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Options of {@link buildCharts}. */
export interface ChartOptions {
  /** Rolling-mean window in steps. */
  window: number;
  /** Arm → colour (every arm of the run). */
  colors: Map<string, string>;
  /** The arm whose Gao fit every panel of the gold-vs-√KL chart repeats (default: the execution arm). */
  reference?: string;
}

/** All charts of the report, rendered. */
export async function buildCharts(runIn: RunData, opts: ChartOptions): Promise<Chart[]> {
  const run = withGap(runIn);
  const c: RunChartContext = { run, arms: run.arms.map((a) => a.name), window: opts.window, colors: opts.colors };
  const logged = (key: string) => run.arms.some((a) => a.metrics.some((m) => typeof m[key] === 'number'));
  const specs: (ChartSpec | null)[] = [
    proxyGoldChart(c),
    lineChart(c, {
      id: 'gold',
      title: 'Gold reward, all arms',
      caption: 'Executed pass rate of the training batch',
      key: K.gold,
      yTitle: 'gold',
    }),
    gapDriftChart(c),
    lineChart(c, {
      id: 'kl',
      title: 'KL to the reference policy',
      caption: 'Mean per-token k3 KL',
      key: K.kl,
      yTitle: 'KL',
      zero: true,
    }),
    gaoChart(
      run.arms.map((a) => ({ name: a.name, data: [a] })),
      opts.colors,
      { reference: opts.reference ?? executionArm(run)?.name },
    ),
    lineChart(c, {
      id: 'length',
      title: 'Completion length',
      caption: 'Mean completion length in tokens (collapsing length often marks a degenerate exploit)',
      key: K.length,
      yTitle: 'tokens',
      zero: true,
    }),
    lineChart(c, {
      id: 'entropy',
      title: 'Policy entropy',
      caption: 'Mean per-token entropy of the sampling policy',
      key: K.entropy,
      yTitle: 'entropy',
      zero: true,
    }),
    // Runs logged before the monitor existed (or without gold for every rollout) have no Snd@G.
    logged(K.sndG)
      ? lineChart(c, {
          id: 'snd',
          title: 'On-policy soundness Snd@G',
          caption:
            "Gold of the RM's favourite over the group's best gold, mean over groups with a positive best (1 = sound); it rises when a group collapses onto near-identical completions, so read it next to entropy",
          key: K.sndG,
          yTitle: 'Snd@G',
          zero: true,
        })
      : null,
    rmQualityChart(c),
    ...goldWatchCharts(c, logged),
  ];
  const out: Chart[] = [];
  for (const s of specs) if (s) out.push({ ...s, svg: await renderSvg(s.spec) });
  return out;
}

/** The gold watch's charts (docs/gold-watch.md); runs logged before it have neither key, and get none. */
function goldWatchCharts(c: RunChartContext, logged: (key: string) => boolean): (ChartSpec | null)[] {
  return [
    logged(W.parityOnlyRate)
      ? lineChart(c, {
          id: 'parity-only',
          title: 'Hacks the strict verdict caught (gold/parity_only_rate)',
          caption:
            'Share of executed rollouts that pass the published harness (parity) but fail strict; above 0 the policy answers in ways only the loose harness accepts',
          key: W.parityOnlyRate,
          yTitle: 'parity-only rate',
          zero: true,
        })
      : null,
    logged(W.canaryPassRate)
      ? lineChart(c, {
          id: 'canary',
          title: 'Canary pass rate (canary/pass_rate)',
          caption:
            'Share of canary executions (impossible variants of the tests) that pass under either verdict; no honest program passes a canary, so any pass is a tamper',
          key: W.canaryPassRate,
          yTitle: 'canary pass rate',
          zero: true,
        })
      : null,
  ];
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
    config: CHART_CONFIG,
    width: 760,
    height: 320,
    data: { values },
    mark: { type: 'line', strokeWidth: 2 },
    encoding: {
      x: { field: 'step', type: 'quantitative', title: 'step' },
      y: { field: 'value', type: 'quantitative', title: key, scale: { zero: false } },
      color: armColorEncoding(arms, opts.colors),
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
