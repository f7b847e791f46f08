/**
 * The charts of one run's report, one builder per concern: proxy and gold per arm, a metric's
 * rolling mean across arms, the hacking gap with drift at the settlement windows, and the RM's
 * out-of-sample ranking quality per window. Each returns a Vega-Lite spec with its title and
 * caption; rendering is charts.ts's.
 */
import type { TopLevelSpec } from 'vega-lite';
import { METRIC_KEYS as K } from '../train/run-format.ts';
import { armColorEncoding, CHART_CONFIG } from './chart-style.ts';
import type { RunData } from './read-run.ts';
import { finiteOrNull, rollingMean } from './stats.ts';

/** A chart before rendering. */
export interface ChartSpec {
  id: string;
  title: string;
  /** What the chart shows, for the caption. */
  caption: string;
  spec: TopLevelSpec;
}

/** What every per-run chart is drawn from. */
export interface RunChartContext {
  /** The run, with the gap filled in where only proxy and gold were logged ({@link withGap}). */
  run: RunData;
  /** Arm names in run order. */
  arms: string[];
  /** Rolling-mean window in steps. */
  window: number;
  colors: Map<string, string>;
}

/** One plotted point (long format: one row per arm × step × measure). */
interface Point {
  arm: string;
  step: number;
  measure: string;
  value: number;
}

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** The rolling mean of `key` per arm, long format, labelled `measure`. */
export function series(run: RunData, key: string, window: number, measure: string): Point[] {
  const out: Point[] = [];
  for (const a of run.arms) {
    for (const p of rollingMean(a.metrics, key, window)) {
      if (p.value !== null) out.push({ arm: a.name, step: p.step, measure, value: r6(p.value) });
    }
  }
  return out;
}

/** Gap per step from the logged key, or proxy − gold where only those are logged. */
export function withGap(run: RunData): RunData {
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

const stepAxis = { field: 'step', type: 'quantitative' as const, title: 'step' };
const rolledText = (w: number): string => `rolling mean over ${w} step${w > 1 ? 's' : ''}`;

/** One metric's rolling mean, one line per arm. */
export function lineChart(
  c: RunChartContext,
  what: { id: string; title: string; caption: string; key: string; yTitle: string; zero?: boolean },
): ChartSpec {
  return {
    id: what.id,
    title: what.title,
    caption: `${what.caption}, ${rolledText(c.window)}.`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: CHART_CONFIG,
      width: 420,
      height: 220,
      data: { values: series(c.run, what.key, c.window, what.yTitle) },
      mark: { type: 'line', strokeWidth: 2 },
      encoding: {
        x: stepAxis,
        y: { field: 'value', type: 'quantitative', title: what.yTitle, scale: { zero: what.zero ?? false } },
        color: armColorEncoding(c.arms, c.colors),
      },
    } as TopLevelSpec,
  };
}

/** Proxy (dashed) and gold (solid) per arm, one panel per arm. */
export function proxyGoldChart(c: RunChartContext): ChartSpec {
  const values = [...series(c.run, K.proxy, c.window, 'proxy'), ...series(c.run, K.gold, c.window, 'gold')];
  return {
    id: 'proxy-gold',
    title: 'Proxy and gold reward per arm',
    caption: `Proxy = mean RM score (dashed), gold = executed pass rate (solid), ${rolledText(c.window)}. The Goodhart signature: proxy climbing while gold peaks and falls.`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: CHART_CONFIG,
      data: { values },
      facet: { field: 'arm', type: 'nominal', sort: c.arms, title: null },
      columns: Math.min(4, Math.max(1, c.arms.length)),
      spec: {
        width: 200,
        height: 160,
        mark: { type: 'line', strokeWidth: 2 },
        encoding: {
          x: stepAxis,
          y: { field: 'value', type: 'quantitative', title: 'reward' },
          color: armColorEncoding(c.arms, c.colors),
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
  };
}

/** The settlement windows (rules) and the drift measured at each (points) from the refits logs. */
function settlementMarks(run: RunData): {
  rules: { step: number }[];
  drift: { arm: string; step: number; drift: number; kind: string }[];
} {
  const rules: { step: number }[] = [];
  const drift: { arm: string; step: number; drift: number; kind: string }[] = [];
  for (const a of run.arms) {
    for (const r of a.refits) {
      if (!rules.some((q) => q.step === r.step)) rules.push({ step: r.step });
      // Monitoring lines (refit: false) carry a drift only when gold was known.
      const measured = r.refit !== false || finiteOrNull(r.driftGold) !== null;
      if (measured && finiteOrNull(r.drift) !== null) {
        drift.push({ arm: a.name, step: r.step, drift: r.drift, kind: r.refit === false ? 'monitor' : 'refit' });
      }
    }
  }
  return { rules, drift };
}

/** The hacking gap per arm with the drift at each settlement window. */
export function gapDriftChart(c: RunChartContext): ChartSpec {
  const { rules, drift } = settlementMarks(c.run);
  const color = armColorEncoding(c.arms, c.colors);
  return {
    id: 'gap',
    title: 'Hacking gap and drift at settlement windows',
    caption: `Lines: hacking gap proxy − gold, ${rolledText(c.window)}. Markers: drift mean |RM − label| on the newly settled claims at each settlement window, measured before the refit (triangles, "refit") or only monitored against gold in arms that never refit (diamonds, "monitor"). Grey rules: settlement windows.`,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: CHART_CONFIG,
      width: 420,
      height: 220,
      layer: [
        ...(rules.length > 0
          ? [
              {
                data: { values: rules },
                mark: { type: 'rule' as const, color: '#bbb', strokeDash: [3, 3] },
                encoding: { x: stepAxis },
              },
            ]
          : []),
        {
          data: { values: series(c.run, K.gap, c.window, 'gap') },
          mark: { type: 'line', strokeWidth: 2 },
          encoding: { x: stepAxis, y: { field: 'value', type: 'quantitative', title: 'proxy − gold / drift' }, color },
        },
        ...(drift.length > 0
          ? [
              {
                data: { values: drift },
                mark: { type: 'point' as const, filled: true, size: 70, stroke: 'black', strokeWidth: 0.5 },
                encoding: {
                  x: stepAxis,
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
  };
}

/**
 * The RM's out-of-sample ranking quality at each settlement window (refits.jsonl `pairAcc` and
 * `auc`), one panel per measure; null when no window has one.
 */
export function rmQualityChart(c: RunChartContext): ChartSpec | null {
  const rows: { arm: string; step: number; measure: string; value: number }[] = [];
  for (const a of c.run.arms) {
    for (const r of a.refits) {
      const p = finiteOrNull(r.pairAcc);
      const u = finiteOrNull(r.auc);
      if (p !== null) rows.push({ arm: a.name, step: r.step, measure: 'within-group pair accuracy', value: r6(p) });
      if (u !== null) rows.push({ arm: a.name, step: r.step, measure: 'AUC', value: r6(u) });
    }
  }
  if (rows.length === 0) return null;
  return {
    id: 'rm-quality',
    title: 'RM ranking quality at each settlement window (out of sample)',
    caption:
      "The RM as it stood, scored on each window's settled labels before the refit that adds them (arms that never refit: on the window's gold): within-group pairwise accuracy and AUC over all pairs with different labels. 0.5 = no better than chance.",
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: CHART_CONFIG,
      data: { values: rows },
      facet: { field: 'measure', type: 'nominal', sort: ['within-group pair accuracy', 'AUC'], title: null },
      spec: {
        width: 300,
        height: 180,
        mark: { type: 'line', strokeWidth: 2, point: { filled: true, size: 30 } },
        encoding: {
          x: stepAxis,
          y: { field: 'value', type: 'quantitative', title: null, scale: { domain: [0, 1] } },
          color: armColorEncoding(c.arms, c.colors),
        },
      },
    } as TopLevelSpec,
  };
}
