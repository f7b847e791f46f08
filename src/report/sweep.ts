/**
 * The settlement-budget sweep's summaries: the "settlement knob" — final-window gold against the
 * execution budget spent on settlement, one line per strategy, with the frozen and execution arms
 * as reference rules — as a Markdown table (sweep.md) and a vega-lite chart in a self-contained
 * HTML report, plus the arms compared across seeds (compare.json/compare.md).
 *
 * {@link knobPoints} derives everything plotted or tabulated from the comparison table and the
 * sweep record, so the chart and the table can never disagree and the derivation is testable
 * without a run.
 */
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG } from './chart-style.ts';
import { stringify as toYaml } from 'yaml';
import { ARM_REGISTRY } from '../train/arms.ts';
import { readSweepRecord, sweepRunDirs, type SweepRecord } from '../train/sweep-format.ts';
import { AnchorError } from '../util/errors.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { markdownTable } from '../util/table.ts';
import { renderSvg, type Chart } from './charts.ts';
import { armColor, armColors } from './colors.ts';
import {
  compareRunData,
  defaultWindow,
  formatCell,
  formatCompareMarkdown,
  type ArmRole,
  type CompareCell,
  type CompareOptions,
  type CompareTable,
} from './compare.ts';
import { formatWarning, readRun, type RunData, type RunWarning } from './read-run.ts';
import { compareHtml, escapeHtml, figureHtml, htmlPage, seedStatsHtml } from './report.ts';
import { rmQualityRelation, rmQualitySentence } from './rm-quality.ts';
import { buildSeedCharts } from './seed-charts.ts';

/** The grid key that orders a strategy's points (and is not a line of its own). */
export const RATE_KEY = 'settlement.rate';
/** The key whose values name the lines when it is swept. */
export const STRATEGY_KEY = 'settlement.strategy';

/** What {@link knobPoints} needs of a sweep record. */
export type SweepInfo = Pick<SweepRecord, 'grid' | 'cells' | 'references' | 'config' | 'armBase'>;

/** One cell of the sweep as plotted: its budget and gold, mean ± SE over seeds. */
export interface KnobPoint {
  cell: string;
  /** The line it belongs to: its values of every grid key except settlement.rate. */
  series: string;
  /** settlement.rate in force (the cell's, else the base arm's overlay, else the config's). */
  rate: number | null;
  /** settlement.strategy in force (resolved the same way). */
  strategy: string | null;
  /** The cell's grid values by key path. */
  values: Record<string, unknown>;
  /** Last `budget/exec` of the arm: programs executed for training signal. */
  budget: CompareCell;
  /** Final-window gold. */
  gold: CompareCell;
  /** Final-window hacking gap proxy − gold. */
  gap: CompareCell;
  /** Mean gold over the execution arm's mean gold (null without an execution reference). */
  fractionOfExecution: number | null;
  incomplete: boolean;
}

/** A reference arm, drawn as a horizontal rule at its final gold. */
export interface KnobReference {
  arm: string;
  /** What the arm is a reference for (its compare row's role). */
  role: ArmRole;
  gold: CompareCell;
  budget: CompareCell;
  gap: CompareCell;
  fractionOfExecution: number | null;
  incomplete: boolean;
}

/** Everything the knob chart and table show. */
export interface KnobData {
  /** Grid keys that split the cells into lines (every key but settlement.rate). */
  seriesKeys: string[];
  /** Line names in first-appearance order of the cells. */
  series: string[];
  /** Cells ordered by series, then by rate (then grid order). */
  points: KnobPoint[];
  references: KnobReference[];
  frozen: KnobReference | null;
  execution: KnobReference | null;
  /** Runs (seeds) the table was computed over. */
  runs: number;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let cur = root;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** The value of `key` a cell trains with: its own, else the base arm's overlay, else the base config's. */
function resolvedValue(sweep: SweepInfo, cell: Record<string, unknown>, key: string): unknown {
  if (key in cell) return cell[key];
  const path = key.split('.');
  const fromArm = valueAt(ARM_REGISTRY[sweep.armBase]?.overlay, path);
  return fromArm !== undefined ? fromArm : valueAt(sweep.config, path);
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Short names of grid keys: the last segment, or the whole key where that is ambiguous. */
function shortKeys(keys: readonly string[]): Map<string, string> {
  const last = keys.map((k) => k.split('.').at(-1)!);
  return new Map(keys.map((k, i) => [k, last.filter((l) => l === last[i]).length > 1 ? k : last[i]!]));
}

const EMPTY: CompareCell = { mean: null, se: null, n: 0 };

/**
 * The knob's data from the comparison over the seed runs and the sweep record: one point per cell
 * (budget = last budget/exec, gold = final-window gold, both mean ± SE over seeds), grouped into
 * lines by every grid key except settlement.rate and ordered by rate, plus the reference arms.
 * Pure.
 */
export function knobPoints(table: CompareTable, sweep: SweepInfo): KnobData {
  const rowOf = (arm: string) => table.rows.find((r) => r.arm === arm);
  const cellOf = (arm: string, key: 'finalGold' | 'execBudget' | 'gap'): CompareCell => rowOf(arm)?.values[key] ?? EMPTY;
  const roleOf = (arm: string): ArmRole => rowOf(arm)?.role ?? null;
  const execRef = sweep.references.find((arm) => roleOf(arm) === 'execution');
  const execGold = execRef !== undefined ? cellOf(execRef, 'finalGold').mean : null;
  const fraction = (g: number | null): number | null => (g !== null && execGold !== null && execGold > 0 ? g / execGold : null);

  const seriesKeys = sweep.grid.map((a) => a.key).filter((k) => k !== RATE_KEY);
  const short = shortKeys(seriesKeys);
  const seriesName = (values: Record<string, unknown>): string => {
    if (seriesKeys.length === 0) return sweep.armBase;
    if (seriesKeys.length === 1) return text(values[seriesKeys[0]!]);
    return seriesKeys.map((k) => `${short.get(k)}=${text(values[k])}`).join(', ');
  };

  const series: string[] = [];
  const points: (KnobPoint & { order: number })[] = Object.entries(sweep.cells).map(([cell, values], order) => {
    const s = seriesName(values);
    if (!series.includes(s)) series.push(s);
    const rate = resolvedValue(sweep, values, RATE_KEY);
    const strategy = resolvedValue(sweep, values, STRATEGY_KEY);
    const gold = cellOf(cell, 'finalGold');
    return {
      cell,
      series: s,
      rate: typeof rate === 'number' ? rate : null,
      strategy: typeof strategy === 'string' ? strategy : null,
      values,
      budget: cellOf(cell, 'execBudget'),
      gold,
      gap: cellOf(cell, 'gap'),
      fractionOfExecution: fraction(gold.mean),
      incomplete: rowOf(cell)?.incomplete ?? true,
      order,
    };
  });
  points.sort(
    (a, b) =>
      series.indexOf(a.series) - series.indexOf(b.series) || (a.rate ?? Infinity) - (b.rate ?? Infinity) || a.order - b.order,
  );

  const references: KnobReference[] = sweep.references.map((arm) => ({
    arm,
    role: roleOf(arm),
    gold: cellOf(arm, 'finalGold'),
    budget: cellOf(arm, 'execBudget'),
    gap: cellOf(arm, 'gap'),
    fractionOfExecution: fraction(cellOf(arm, 'finalGold').mean),
    incomplete: rowOf(arm)?.incomplete ?? true,
  }));
  return {
    seriesKeys,
    series,
    points: points.map(({ order: _o, ...p }) => p),
    references,
    frozen: references.find((r) => r.role === 'frozen') ?? null,
    execution: references.find((r) => r.role === 'execution') ?? null,
    runs: table.runs.length,
  };
}

/** Line colours (none is the frozen red or the execution green the reference rules use). */
const SERIES_COLORS = [
  '#1f77b4',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#17becf',
  '#e377c2',
  '#bcbd22',
  '#7f7f7f',
  '#393b79',
  '#843c39',
];

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const intText = (v: number | null): string => (v === null ? 'n/a' : Math.round(v).toLocaleString('en-US'));

/** What the knob chart puts on y: final-window gold (the knob) or the hacking gap (the repricing). */
export type KnobMeasure = 'gold' | 'gap';

/** The label of a reference rule: its final gold (or gap), and its budget (the execution arm's is every rollout). */
export function referenceLabel(r: KnobReference, multi: boolean, measure: KnobMeasure = 'gold'): string {
  const value = formatCell(r[measure], 3, multi);
  const budget = r.role === 'execution' ? `budget ${intText(r.budget.mean)} = every rollout` : `budget ${intText(r.budget.mean)}`;
  return `${r.arm}: ${measure} ${value} (${budget})`;
}

/** The legend title of the lines. */
function seriesTitle(d: KnobData): string {
  if (d.seriesKeys.length === 0) return 'cells';
  return [...shortKeys(d.seriesKeys).values()].join(', ');
}

/** The vega-lite spec of the settlement-knob chart. */
export function knobChartSpec(d: KnobData, measure: KnobMeasure = 'gold'): TopLevelSpec {
  const multi = d.runs > 1;
  const pts = d.points
    .filter((p) => p.budget.mean !== null && p[measure].mean !== null)
    .map((p, i) => {
      const v = p[measure];
      const se = v.se ?? 0;
      return {
        cell: p.cell,
        series: p.series,
        rate: p.rate,
        order: i,
        budget: r6(p.budget.mean!),
        gold: r6(v.mean!),
        lo: r6(v.mean! - se),
        hi: r6(v.mean! + se),
      };
    });
  const series = d.series.filter((s) => pts.some((p) => p.series === s));
  const color = {
    field: 'series',
    type: 'nominal' as const,
    title: seriesTitle(d),
    sort: series,
    scale: { domain: series, range: series.map((_, i) => SERIES_COLORS[i % SERIES_COLORS.length]!) },
  };
  const x = {
    field: 'budget',
    type: 'quantitative' as const,
    title: 'execution budget spent on settlement (programs executed, mean over seeds)',
  };
  // The y field is called `gold` for either measure (one spec shape); its title says which.
  const y = {
    field: 'gold',
    type: 'quantitative' as const,
    title: `final-window ${measure === 'gold' ? 'gold' : 'hacking gap (proxy − gold)'}${multi ? ' (mean ± SE over seeds)' : ''}`,
    scale: { zero: false },
  };
  // Every reference is a rule, not a point: the execution arm's budget (every rollout) would
  // squash the cells' budgets into the left edge of the axis.
  const refs = d.references.filter((r) => r[measure].mean !== null);
  const refLayers = refs.flatMap((r) => {
    const values = [{ gold: r6(r[measure].mean!), label: referenceLabel(r, multi, measure) }];
    return [
      {
        data: { values },
        mark: { type: 'rule' as const, color: armColor(r.arm), strokeDash: [6, 4], strokeWidth: 1.5 },
        encoding: { y: { field: 'gold', type: 'quantitative' as const } },
      },
      {
        data: { values },
        mark: {
          type: 'text' as const,
          align: 'left' as const,
          baseline: 'bottom' as const,
          dx: 0,
          dy: -3,
          fontSize: 11,
          color: armColor(r.arm),
        },
        encoding: {
          x: { value: 4 },
          y: { field: 'gold', type: 'quantitative' as const },
          text: { field: 'label', type: 'nominal' as const },
        },
      },
    ];
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: CHART_CONFIG,
    width: 620,
    height: 320,
    layer: [
      ...refLayers,
      {
        data: { values: pts },
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color },
      },
      {
        data: { values: pts },
        mark: { type: 'line', strokeWidth: 2, point: { filled: true, size: 60 } },
        encoding: { x, y, color, order: { field: 'order', type: 'quantitative' } },
      },
    ],
  } as TopLevelSpec;
}

/** The knob chart, rendered. */
export async function buildKnobChart(d: KnobData, measure: KnobMeasure = 'gold'): Promise<Chart> {
  const spec = knobChartSpec(d, measure);
  const what = measure === 'gold' ? 'gold' : 'hacking gap (proxy − gold)';
  return {
    id: measure === 'gold' ? 'settlement-knob' : 'settlement-knob-gap',
    title:
      measure === 'gold'
        ? 'The settlement knob: gold bought per execution budget'
        : 'The settlement knob: how far the RM is repriced (hacking gap) per execution budget',
    caption:
      `x: programs executed to produce training signal (last budget/exec of the arm${d.runs > 1 ? ', mean over seeds' : ''}); ` +
      `y: final-window ${what}${d.runs > 1 ? ', mean ± SE over seeds (error bars)' : ''}. One line per ${seriesTitle(d)}, points ordered by settlement rate. ` +
      `Dashed rules: the reference arms at their final ${what} — frozen (no settlement, budget 0) and execution (trained on executed reward: every rollout, far right of this axis).`,
    svg: await renderSvg(spec),
    spec,
  };
}

/** The columns of the knob table that come from the grid (rate and strategy always, then the other keys). */
function gridColumns(sweep: SweepInfo): string[] {
  return [RATE_KEY, STRATEGY_KEY, ...sweep.grid.map((a) => a.key).filter((k) => k !== RATE_KEY && k !== STRATEGY_KEY)];
}

/** The knob table as rows of cell texts (shared by Markdown and HTML). */
function knobRows(d: KnobData, sweep: SweepInfo): { header: string[]; rows: string[][]; numeric: boolean[] } {
  const multi = d.runs > 1;
  const keys = gridColumns(sweep);
  const short = shortKeys(keys);
  const header = ['cell', ...keys.map((k) => short.get(k)!), 'exec budget', 'gold final', '× execution', 'gap'];
  const numeric = [false, ...keys.map((k) => k === RATE_KEY), true, true, true, true];
  const frac = (f: number | null) => (f === null ? 'n/a' : f.toFixed(2));
  const rows: string[][] = [];
  for (const r of d.references) {
    rows.push([
      `${r.arm} (reference)${r.incomplete ? '*' : ''}`,
      ...keys.map(() => '—'),
      formatCell(r.budget, 0, multi),
      formatCell(r.gold, 3, multi),
      frac(r.fractionOfExecution),
      formatCell(r.gap, 3, multi),
    ]);
  }
  for (const p of d.points) {
    const v = (k: string) =>
      k === RATE_KEY
        ? p.rate === null
          ? 'n/a'
          : String(p.rate)
        : k === STRATEGY_KEY
          ? (p.strategy ?? 'n/a')
          : text(p.values[k]);
    rows.push([
      `${p.cell}${p.incomplete ? '*' : ''}`,
      ...keys.map(v),
      formatCell(p.budget, 0, multi),
      formatCell(p.gold, 3, multi),
      frac(p.fractionOfExecution),
      formatCell(p.gap, 3, multi),
    ]);
  }
  return { header, rows, numeric };
}

/** The knob table in Markdown: one row per cell (after the references). */
export function formatKnobMarkdown(d: KnobData, sweep: SweepInfo): string {
  const { header, rows, numeric } = knobRows(d, sweep);
  // A trailing * marks an incomplete cell; escaped so Markdown shows it.
  const marked = rows.map((r) => r.map((c, i) => (i === 0 ? c.replace(/\*$/, '\\*') : c)));
  return markdownTable(header, marked, numeric).join('\n') + '\n';
}

/** The knob table as an HTML table (the sweep report's and the live sweep page's). */
export function knobTableHtml(d: KnobData, sweep: SweepInfo): string {
  const { header, rows, numeric } = knobRows(d, sweep);
  const cls = (i: number) => (numeric[i] ? '' : ' style="text-align:left"');
  return (
    `<div class="table-wrap"><table class="compare" id="knob-table"><thead><tr>${header.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>` +
    rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('') +
    '</tbody></table></div>'
  );
}

function gridText(sweep: SweepInfo): string {
  if (sweep.grid.length === 0) return 'none (the reference arms only)';
  return sweep.grid.map((a) => `${a.key} = ${a.values.map(text).join(', ')}`).join('; ');
}

function notes(d: KnobData, sweep: SweepRecord, window: number): string[] {
  return [
    sweep.grid.length === 0
      ? `grid: ${gridText(sweep)}`
      : `grid: ${gridText(sweep)} (${Object.keys(sweep.cells).length} cells, each an arm extending ${sweep.armBase})`,
    `references: ${sweep.references.length ? sweep.references.join(', ') : 'none'}`,
    `seeds: ${sweep.seeds.join(', ')} (${d.runs} run${d.runs === 1 ? '' : 's'} found)${d.runs > 1 ? '; mean ± standard error over seeds' : ''}; final window ${window} steps`,
    "exec budget: programs executed to produce training signal (last budget/exec); × execution: gold final over the execution arm's; gap: proxy − gold over the final window",
  ];
}

/** sweep.md: the knob table, then the arms compared across seeds. */
export function formatSweepMarkdown(d: KnobData, sweep: SweepRecord, table: CompareTable): string {
  const incomplete = [
    ...d.references.filter((r) => r.incomplete).map((r) => r.arm),
    ...d.points.filter((p) => p.incomplete).map((p) => p.cell),
  ];
  return [
    `# Settlement budget sweep: ${sweep.name}`,
    '',
    ...notes(d, sweep, table.window).map((n) => `- ${n}`),
    `- started ${sweep.startedAt}${sweep.endedAt ? `, ended ${sweep.endedAt}` : ' (not finished)'}`,
    '',
    '## The settlement knob',
    '',
    formatKnobMarkdown(d, sweep).trimEnd(),
    '',
    ...(incomplete.length ? [`\\* incomplete (still running, failed or not started): ${incomplete.join(', ')}`, ''] : []),
    '## All arms',
    '',
    formatCompareMarkdown(table).trimEnd(),
    '',
    ...(rmQualityRelation(table) ? ['## RM quality', '', rmQualitySentence(rmQualityRelation(table)!), ''] : []),
  ].join('\n');
}

/** Build the sweep report's HTML. */
export async function buildSweepReportHtml(
  sweep: SweepRecord,
  table: CompareTable,
  opts: {
    dir: string;
    runDirs: readonly string[];
    runs: readonly RunData[];
    reportPath: string;
    warnings: readonly RunWarning[];
  },
): Promise<{ html: string; knob: KnobData }> {
  const knob = knobPoints(table, sweep);
  const colors = armColors(table.rows.map((r) => r.arm));
  const { gao, interval: intervalChart, quality: qualityChart } = await buildSeedCharts(table, opts.runs, colors);
  const charts = [await buildKnobChart(knob, 'gold'), await buildKnobChart(knob, 'gap'), gao];
  const stats = table.statistics;
  const title = `anchor-rl sweep — ${sweep.name}`;
  const links = opts.runDirs
    .map((d) => {
      const rel = relative(dirname(opts.reportPath), join(d, 'report.html')) || 'report.html';
      return `<li><code>${escapeHtml(basename(d))}</code>: <a href="${escapeHtml(rel)}">${escapeHtml(rel)}</a></li>`;
    })
    .join('');
  const warnings =
    opts.warnings.length > 0
      ? `<div class="warn"><b>${opts.warnings.length} problem${opts.warnings.length > 1 ? 's' : ''} reading the seed runs</b> (the rest was read):<ul>${opts.warnings
          .map((w) => `<li><code>${escapeHtml(formatWarning(w, opts.dir))}</code></li>`)
          .join('')}</ul></div>`
      : '';
  const html = htmlPage(
    title,
    `<p class="meta">${notes(knob, sweep, table.window).map(escapeHtml).join('<br>')}<br>started ${escapeHtml(sweep.startedAt)} · ${sweep.endedAt ? `ended ${escapeHtml(sweep.endedAt)}` : '<b>not finished</b>'}<br>sweep directory <code>${escapeHtml(opts.dir)}</code></p>
${warnings}
<h2>The settlement knob</h2>
${charts.map((chart) => figureHtml(chart, true)).join('\n')}
${knobTableHtml(knob, sweep)}
<h2>All arms</h2>
${compareHtml(table, colors)}
${stats ? `<h2>Over seeds</h2>\n${intervalChart ? figureHtml(intervalChart, true) : ''}\n${seedStatsHtml(stats)}` : ''}
${qualityChart ? `<h2>RM quality</h2>\n${figureHtml(qualityChart, true)}` : ''}
<h2>Seed runs</h2>
<p class="meta">Each seed is an ordinary run directory with its own report (per-step charts and samples).</p>
<ul>${links}</ul>
<h2>Base config</h2>
<pre class="config">${escapeHtml(toYaml(sweep.config))}</pre>
<p class="meta">Generated by anchor-rl at ${escapeHtml(new Date().toISOString())}.</p>
`,
  );
  return { html, knob };
}

/** A sweep directory read: its record, its seed runs and their comparison (the arms = cells across seeds). */
export function readSweep(
  dir: string,
  window?: number,
  opts: Pick<CompareOptions, 'statistics'> = {},
): { root: string; sweep: SweepRecord; runDirs: string[]; runs: RunData[]; table: CompareTable } {
  const root = resolve(dir);
  const sweep = readSweepRecord(root);
  const runDirs = sweepRunDirs(root, sweep);
  if (runDirs.length === 0) throw new AnchorError('BAD_ARGUMENT', `sweep ${dir} has no seed run yet (no seed-*/manifest.json)`);
  const runs = runDirs.map((d) => readRun(d));
  const table = compareRunData(runs, { window: window ?? defaultWindow(runs), ...opts });
  return { root, sweep, runDirs, runs, table };
}

/** What {@link writeSweepReport} produced (the shape of `writeReport`'s result). */
export interface SweepReportResult {
  path: string;
  table: CompareTable;
  knob: KnobData;
  warnings: RunWarning[];
  bytes: number;
}

/** Read a sweep directory and write its HTML report to `outPath` (default SWEEP_DIR/report.html). */
export async function writeSweepReport(
  dir: string,
  outPath?: string,
  opts: { window?: number } = {},
): Promise<SweepReportResult> {
  const { root, sweep, runDirs, runs, table } = readSweep(dir, opts.window, { statistics: true });
  const path = resolve(outPath ?? join(root, 'report.html'));
  const { html, knob } = await buildSweepReportHtml(sweep, table, {
    dir: root,
    runDirs,
    runs,
    reportPath: path,
    warnings: table.warnings,
  });
  writeFileAtomic(path, html);
  return { path, table, knob, warnings: table.warnings, bytes: Buffer.byteLength(html) };
}

/** What {@link writeSweepSummaries} wrote. */
export interface SweepSummaries {
  compareJson: string;
  compareMd: string;
  sweepMd: string;
  report: string;
  table: CompareTable;
  knob: KnobData;
}

/**
 * The end-of-sweep outputs: SWEEP_DIR/compare.json and compare.md (the arms = cells compared
 * across seeds), sweep.md (the knob table) and report.html (the knob chart), from one read.
 */
export async function writeSweepSummaries(dir: string, opts: { window?: number } = {}): Promise<SweepSummaries> {
  const { root, sweep, runDirs, runs, table } = readSweep(dir, opts.window, { statistics: true });
  const out = {
    compareJson: join(root, 'compare.json'),
    compareMd: join(root, 'compare.md'),
    sweepMd: join(root, 'sweep.md'),
    report: join(root, 'report.html'),
  };
  const { html, knob } = await buildSweepReportHtml(sweep, table, {
    dir: root,
    runDirs,
    runs,
    reportPath: out.report,
    warnings: table.warnings,
  });
  writeFileAtomic(out.compareJson, JSON.stringify(table, null, 2) + '\n');
  writeFileAtomic(out.compareMd, formatCompareMarkdown(table));
  writeFileAtomic(out.sweepMd, formatSweepMarkdown(knob, sweep, table));
  writeFileAtomic(out.report, html);
  return { ...out, table, knob };
}
