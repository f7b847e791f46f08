/**
 * `anchor-rl report`: one self-contained HTML file per run — charts rendered to inline SVG in
 * Node, inline CSS, no scripts, fonts or stylesheets fetched from anywhere — so it opens offline
 * and can be mailed or archived with the run. `train` calls {@link writeReport} at the end of
 * every run.
 */
import { resolve } from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { SampleLine } from '../train/run-format.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { buildCharts, type Chart } from './charts.ts';
import { armColors } from './colors.ts';
import { compareRunData, defaultWindow, formatCell, formatCompareMarkdown, type CompareTable } from './compare.ts';
import { seedStatsNote, seedStatTables, type SeedStatistics } from './seed-stats.ts';
import { formatWarning, readRun, type ArmData, type RunData, type RunWarning } from './read-run.ts';
import { filterRun, parseWhere } from './provenance.ts';

/** Options of {@link writeReport} / {@link buildReportHtml}. */
export interface ReportOptions {
  /** Rolling-mean and final window in steps (default: the run's settlement window, else 25). */
  window?: number;
  /** Sample completions shown per arm and phase (early, peak, final). Default 3. */
  samplesPerPhase?: number;
  /** Provenance conditions (`--where key=value`, ./provenance.ts): only matching samples' steps. */
  where?: readonly string[];
}

/** What {@link writeReport} produced. */
export interface ReportResult {
  path: string;
  table: CompareTable;
  warnings: RunWarning[];
  bytes: number;
}

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The report's stylesheet (inline; the sweep report reuses it). */
export const REPORT_CSS = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1180px; padding: 0 16px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta { color: #555; font-size: 13px; } .meta code { font-size: 12px; }
.warn { background: #fff7e6; border: 1px solid #f0c36d; padding: 8px 12px; font-size: 13px; }
.warn ul { margin: 4px 0; padding-left: 20px; }
table.compare { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
table.compare th, table.compare td { border-bottom: 1px solid #e5e5e5; padding: 4px 6px; text-align: right; white-space: nowrap; }
table.compare th { white-space: normal; vertical-align: bottom; font-size: 12px; }
table.compare th:first-child, table.compare td:first-child { text-align: left; }
table.compare th { background: #f6f6f6; cursor: help; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: baseline; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px 24px; }
figure { margin: 0; } figure.wide { grid-column: 1 / -1; } figcaption { font-size: 12px; color: #555; margin-top: 2px; }
figure svg { max-width: 100%; height: auto; }
pre, .completion { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 12px; }
pre.config { background: #f8f8f8; border: 1px solid #e5e5e5; padding: 10px; overflow-x: auto; }
.samples { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 12px; }
.sample { border: 1px solid #e5e5e5; border-radius: 4px; padding: 6px 8px; }
.sample .hdr { font-size: 12px; color: #555; margin-bottom: 4px; }
.completion { white-space: pre-wrap; word-break: break-word; background: #fafafa; margin: 0; padding: 4px; }
details > summary { cursor: pointer; font-weight: 600; margin: 12px 0 6px; }
`;

function fmt(v: number | null | undefined, digits = 3): string {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–';
}

/** An arm's colour swatch. */
export function swatch(color: string): string {
  return `<span class="swatch" style="background:${escapeHtml(color)}"></span>`;
}

/** One chart as a figure (`#chart-ID`): title, SVG, caption; `wide` spans the charts grid. */
export function figureHtml(c: Chart, wide: boolean): string {
  return `<figure id="chart-${c.id}" class="${wide ? 'wide' : ''}" data-chart="${c.id}"><h3>${escapeHtml(c.title)}</h3>${c.svg}<figcaption>${escapeHtml(c.caption)}</figcaption></figure>`;
}

/** The comparison as an HTML table: one row per arm with its colour swatch, column definitions on hover. */
export function compareHtml(t: CompareTable, colors: Map<string, string>): string {
  // The anchoring column (armAnchoring) is shown where some arm's config is known.
  const anchored = t.rows.some((r) => r.anchoring);
  const anchorHead = anchored
    ? '<th title="RM kind and options; settlement controls that silence or roll back the RM (rm_gate, rollback, silenced mode)">anchoring</th>'
    : '';
  const head = `<tr><th>arm</th>${anchorHead}${t.columns.map((c) => `<th title="${escapeHtml(c.describe)}">${escapeHtml(c.label)}</th>`).join('')}</tr>`;
  const rows = t.rows.map((r) => {
    const cells = t.columns
      .map((c) => `<td>${escapeHtml(formatCell(r.values[c.key], c.digits, t.runs.length > 1))}</td>`)
      .join('');
    const note = r.incomplete ? ` <span title="incomplete: ${escapeHtml(r.states.join(', '))}">*</span>` : '';
    return `<tr data-arm="${escapeHtml(r.arm)}"><td>${swatch(colors.get(r.arm) ?? '#999')}${escapeHtml(r.arm)}${note}</td>${anchored ? `<td class="anchoring">${escapeHtml(r.anchoring ?? '')}</td>` : ''}${cells}</tr>`;
  });
  const notes = [`Final-window columns average the last ${t.window} steps; hover a column header for its definition.`];
  if (t.incompleteArms.length > 0) notes.push(`* incomplete (running, failed or not started): ${t.incompleteArms.join(', ')}.`);
  return `<div class="table-wrap"><table class="compare"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></div><p class="meta">${notes.map(escapeHtml).join('<br>')}</p>`;
}

/** The statistics over seeds as HTML tables (the sweep report's "Over seeds" section). */
export function seedStatsHtml(s: SeedStatistics): string {
  const tables = seedStatTables(s).map((t) => {
    const cls = (i: number) => (t.numeric[i] ? '' : ' style="text-align:left"');
    const head = t.header.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join('');
    const body = t.rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('');
    return `<h3>${escapeHtml(t.title)}</h3><div class="table-wrap"><table class="compare seed-stats"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
  });
  return `<p class="meta">${escapeHtml(seedStatsNote(s))}</p>${tables.join('\n')}`;
}

/** The sample completions shown for one arm: up to `k` from the early, peak and final steps. */
export function pickSamples(
  arm: ArmData,
  peakStep: number | null,
  k: number,
): { phase: string; step: number; samples: SampleLine[] }[] {
  const samples = arm.samples ?? [];
  if (samples.length === 0) return [];
  const byStep = new Map<number, SampleLine[]>();
  for (const s of samples) {
    const l = byStep.get(s.step);
    if (l) l.push(s);
    else byStep.set(s.step, [s]);
  }
  const steps = [...byStep.keys()].sort((a, b) => a - b);
  const nearest = (target: number): number =>
    steps.reduce((best, s) => (Math.abs(s - target) < Math.abs(best - target) ? s : best), steps[0]!);
  const phases: [string, number][] = [['early', steps[0]!]];
  if (peakStep !== null) phases.push(['peak gold', nearest(peakStep)]);
  phases.push(['final', steps.at(-1)!]);
  const out: { phase: string; step: number; samples: SampleLine[] }[] = [];
  for (const [phase, step] of phases) {
    const prev = out.find((o) => o.step === step);
    if (prev) {
      prev.phase += ` / ${phase}`;
      continue;
    }
    const chosen = [...byStep.get(step)!].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).slice(0, k);
    out.push({ phase, step, samples: chosen });
  }
  return out;
}

function samplesHtml(run: RunData, t: CompareTable, colors: Map<string, string>, k: number): string {
  const parts: string[] = [];
  for (const arm of run.arms) {
    const row = t.rows.find((r) => r.arm === arm.name);
    const phases = pickSamples(arm, row?.values.peakStep.mean ?? null, k);
    const body =
      phases.length === 0
        ? '<p class="meta">No samples logged.</p>'
        : phases
            .map(
              (p) =>
                `<h4>${escapeHtml(p.phase)} — step ${p.step}</h4><div class="samples">${p.samples
                  .map(
                    (s) =>
                      `<div class="sample"><div class="hdr">problem ${escapeHtml(String(s.problem))} · #${s.index} · proxy ${fmt(s.proxy)} · gold ${fmt(s.gold)}` +
                      `${s.judge !== null && s.judge !== undefined ? ` · judge ${fmt(s.judge)}` : ''}${s.settled ? ' · settled' : ''}` +
                      `${s.status ? ` · ${escapeHtml(s.status)}` : ''} · ${s.tokens ?? '?'} tokens</div><pre class="completion">${escapeHtml(s.text)}</pre></div>`,
                  )
                  .join('')}</div>`,
            )
            .join('');
    parts.push(
      `<details open data-arm="${escapeHtml(arm.name)}"><summary>${swatch(colors.get(arm.name) ?? '#999')}${escapeHtml(arm.name)}</summary>${body}</details>`,
    );
  }
  return parts.join('\n');
}

/** Build the report's HTML for a run read with samples. */
export async function buildReportHtml(run: RunData, opts: ReportOptions = {}): Promise<{ html: string; table: CompareTable }> {
  const window = opts.window ?? defaultWindow([run]);
  const table = compareRunData([run], { window });
  const colors = armColors(run.arms.map((a) => a.name));
  const charts = await buildCharts(run, { window, colors });
  const m = run.manifest;
  const meta = [
    m?.seed !== undefined ? `seed <code>${escapeHtml(String(m.seed))}</code>` : '',
    m?.startedAt ? `started ${escapeHtml(m.startedAt)}` : '',
    m ? (m.endedAt ? `ended ${escapeHtml(m.endedAt)}` : '<b>not finished</b>') : '',
    m?.tfBackend ? `tfjs backend <code>${escapeHtml(m.tfBackend)}</code>` : '',
    m?.gitCommit ? `commit <code>${escapeHtml(m.gitCommit)}</code>` : '',
    m?.versions
      ? `versions ${Object.entries(m.versions)
          .map(([k, v]) => `<code>${escapeHtml(k)} ${escapeHtml(String(v))}</code>`)
          .join(', ')}`
      : '',
  ].filter(Boolean);
  const armStates = run.arms
    .map(
      (a) =>
        `${swatch(colors.get(a.name)!)}${escapeHtml(a.name)}: ${escapeHtml(a.status?.state ?? 'unknown')} ${a.metrics.length}${a.status ? `/${a.status.totalSteps}` : ''} steps`,
    )
    .join(' · ');
  const warnings =
    run.warnings.length > 0
      ? `<div class="warn"><b>${run.warnings.length} problem${run.warnings.length > 1 ? 's' : ''} reading the run</b> (the rest was read):<ul>${run.warnings
          .map((w) => `<li><code>${escapeHtml(formatWarning(w, run.dir))}</code></li>`)
          .join('')}</ul></div>`
      : '';
  const chartsHtml = charts.map((c) => figureHtml(c, c.id === 'proxy-gold')).join('\n');
  const config = m?.config ? toYaml(m.config) : '(no manifest.json)';
  const title = `anchor-rl report — ${run.name}`;
  const html = htmlPage(
    title,
    `<p class="meta">${meta.join(' · ')}<br>${armStates}<br>run directory <code>${escapeHtml(run.dir)}</code></p>
${warnings}
<h2>Comparison</h2>
${compareHtml(table, colors)}
<h2>Charts</h2>
<div class="charts">
${chartsHtml}
</div>
<h2>Sample completions</h2>
<p class="meta">Up to ${opts.samplesPerPhase ?? 3} completions per arm from the first step, the step nearest the rolling-gold peak, and the last step.</p>
${samplesHtml(run, table, colors, opts.samplesPerPhase ?? 3)}
<h2>Resolved config</h2>
<pre class="config">${escapeHtml(config)}</pre>
<p class="meta">Generated by anchor-rl report at ${escapeHtml(new Date().toISOString())}.</p>
`,
  );
  return { html, table };
}

/** A self-contained HTML page in the report's style: title, heading, then `body`. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}</body>
</html>
`;
}

/** Read `runDir` and write its report to `outPath` (default RUN_DIR/report.html). */
export async function writeReport(runDir: string, outPath?: string, opts: ReportOptions = {}): Promise<ReportResult> {
  const run = filterRun(readRun(runDir, { samples: true }), parseWhere(opts.where ?? []));
  const { html, table } = await buildReportHtml(run, opts);
  const path = resolve(outPath ?? resolve(runDir, 'report.html'));
  writeFileAtomic(path, html);
  return { path, table, warnings: run.warnings, bytes: Buffer.byteLength(html) };
}

/** What {@link writeRunSummaries} wrote. */
export interface RunSummaries {
  compareJson: string;
  compareMd: string;
  report: string;
  table: CompareTable;
  warnings: RunWarning[];
}

/**
 * The end-of-run outputs of `train` in one call: RUN_DIR/compare.json (the structured table),
 * RUN_DIR/compare.md (Markdown) and RUN_DIR/report.html, from one read of the run.
 */
export async function writeRunSummaries(runDir: string, opts: ReportOptions = {}): Promise<RunSummaries> {
  const run = readRun(runDir, { samples: true });
  const { html, table } = await buildReportHtml(run, opts);
  const out = {
    compareJson: resolve(run.dir, 'compare.json'),
    compareMd: resolve(run.dir, 'compare.md'),
    report: resolve(run.dir, 'report.html'),
  };
  writeFileAtomic(out.compareJson, JSON.stringify(table, null, 2) + '\n');
  writeFileAtomic(out.compareMd, formatCompareMarkdown(table));
  writeFileAtomic(out.report, html);
  return { ...out, table, warnings: run.warnings };
}
