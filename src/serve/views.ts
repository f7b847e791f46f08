/**
 * The live view's pages as HTML fragments ("slots") built from the run directories on every
 * change: the runs index, a run, a sweep and an overlay of runs. The charts, the comparison table
 * and the knob chart are the report's own (src/report/), so the live page and report.html agree;
 * what is added here is the arms' progress (step/total, ETA, state) and the navigation.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildCharts, buildOverlayChart, type Chart } from '../report/charts.ts';
import { armColors } from '../report/colors.ts';
import { compareRunData, defaultWindow, formatCell, type CompareTable } from '../report/compare.ts';
import { formatWarning, readRun, type RunData, type RunWarning } from '../report/read-run.ts';
import { compareHtml, escapeHtml, figureHtml, swatch } from '../report/report.ts';
import { buildKnobChart, knobPoints, knobTableHtml, readSweep } from '../report/sweep.ts';
import { METRIC_KEYS as K } from '../train/run-format.ts';
import { GOLD_WATCH_METRIC_KEYS as W } from '../train/gold-watch.ts';
import { finiteOrNull, meanOf } from '../report/stats.ts';
import type { Entry } from './discover.ts';

/** A page's content: named HTML fragments the client swaps in place. */
export interface Slots {
  title: string;
  slots: Record<string, string>;
}

// --- progress -----------------------------------------------------------------------------------

/** One arm's progress as the live view shows it. */
interface ArmProgressRow {
  arm: string;
  state: string;
  step: number;
  total: number | null;
  /** Seconds to go (running arms with a pace), else null. */
  eta: number | null;
  /** Last write to metrics.jsonl (ms since the epoch), or null. */
  updated: number | null;
  error: string | null;
}

/** Steps in the trailing mean of `perf/step_s` the ETA is computed from. */
const ETA_STEPS = 20;

function mtime(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * The progress of each arm of a run: steps logged (arm.json's count is only updated at
 * checkpoints, the log at every step), total steps, state, and an ETA from the trailing mean
 * step time (`perf/step_s`), else from the pace since the arm started.
 */
function armProgress(run: RunData, now = Date.now()): ArmProgressRow[] {
  const cfgSteps = (run.manifest?.config?.grpo as { steps?: unknown } | undefined)?.steps;
  return run.arms.map((a) => {
    const step = Math.max(a.status?.stepsDone ?? 0, a.metrics.length);
    const total = a.status?.totalSteps ?? (typeof cfgSteps === 'number' ? cfgSteps : null);
    const state = a.status?.state ?? (a.metrics.length > 0 ? 'running' : 'pending');
    const updated = mtime(join(a.dir, 'metrics.jsonl'));
    let eta: number | null = null;
    if (state === 'running' && total !== null && step < total) {
      const per = meanOf(a.metrics.slice(-ETA_STEPS).map((m) => finiteOrNull(m[K.stepSeconds])));
      const started = a.status?.startedAt ? Date.parse(a.status.startedAt) : NaN;
      const pace = per ?? (Number.isFinite(started) && step > 0 ? (now - started) / 1000 / step : null);
      if (pace !== null) eta = pace * (total - step);
    }
    return { arm: a.name, state, step, total, eta, updated, error: a.status?.error ?? null };
  });
}

/** A run's state from its arms': failed > running > done; otherwise incomplete (stopped) or pending. */
function runState(rows: readonly ArmProgressRow[]): string {
  if (rows.some((r) => r.state === 'failed')) return 'failed';
  if (rows.some((r) => r.state === 'running')) return 'running';
  if (rows.length > 0 && rows.every((r) => r.state === 'done')) return 'done';
  if (rows.every((r) => r.state === 'pending')) return 'pending';
  return 'incomplete';
}

/** `1h 02m`, `3m 05s`, `42s`. */
function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** Local wall-clock time of a file write (absolute, so a cached fragment never goes stale). */
function at(ms: number | null): string {
  if (ms === null || ms <= 0) return '–';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const badge = (state: string) => `<span class="state state-${escapeHtml(state)}">${escapeHtml(state)}</span>`;

function bar(step: number, total: number | null): string {
  const pct = total ? Math.min(100, (100 * step) / total) : 0;
  return `<span class="bar"><span style="width:${pct.toFixed(1)}%"></span></span> ${step}${total !== null ? `/${total}` : ''}`;
}

/** A link to a file of a run (`arm` null: the run directory's own files), served as it is on disk. */
function fileLink(runId: string, arm: string | null, file: string, text = file): string {
  const q = new URLSearchParams({ ...(arm !== null ? { arm } : {}), f: file });
  return `<a href="/files/${runId.split('/').map(encodeURIComponent).join('/')}?${escapeHtml(q.toString())}">${escapeHtml(text)}</a>`;
}

/** The progress table; `seed` labels rows of a sweep's seed runs, `runId` links each arm's logs. */
function progressHtml(rows: readonly (ArmProgressRow & { seed?: string; runId: string })[], colors: Map<string, string>): string {
  const seeds = rows.some((r) => r.seed !== undefined);
  const head = `<tr>${seeds ? '<th>seed run</th>' : ''}<th>arm</th><th>state</th><th>progress</th><th>ETA</th><th>last update</th><th>logs</th></tr>`;
  const body = rows
    .map((r) => {
      const note = r.error ? `<div class="error">${escapeHtml(r.error)}</div>` : '';
      return (
        `<tr data-arm="${escapeHtml(r.arm)}" data-state="${escapeHtml(r.state)}"${r.seed ? ` data-seed="${escapeHtml(r.seed)}"` : ''}` +
        // The page marks a running arm whose log has not moved for a while (its process may be gone).
        `${r.state === 'running' && r.updated !== null ? ` data-updated="${Math.round(r.updated)}"` : ''}>` +
        (seeds ? `<td>${escapeHtml(r.seed ?? '')}</td>` : '') +
        `<td>${swatch(colors.get(r.arm) ?? '#999')}${escapeHtml(r.arm)}</td><td>${badge(r.state)}${note}</td><td>${bar(r.step, r.total)}</td>` +
        `<td>${r.eta !== null ? formatDuration(r.eta) : '–'}</td><td>${at(r.updated)}</td>` +
        `<td>${['metrics', 'samples', 'refits'].map((f) => fileLink(r.runId, r.arm, `${f}.jsonl`, f)).join(' · ')}</td></tr>`
      );
    })
    .join('');
  return `<div class="table-wrap"><table class="compare progress"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

function warningsHtml(warnings: readonly RunWarning[], base: string, what: string): string {
  if (warnings.length === 0) return '';
  return `<details class="warn"><summary>${warnings.length} problem${warnings.length > 1 ? 's' : ''} reading the ${what} (the rest was read)</summary><ul>${warnings
    .map((w) => `<li><code>${escapeHtml(formatWarning(w, base))}</code></li>`)
    .join('')}</ul></details>`;
}

function chartsHtml(charts: readonly Chart[], wide: (id: string) => boolean): string {
  return charts.map((c) => figureHtml(c, wide(c.id))).join('\n');
}

const runLink = (id: string, text = id) =>
  `<a href="/run/${id.split('/').map(encodeURIComponent).join('/')}">${escapeHtml(text)}</a>`;
const sweepLink = (id: string, text = id) =>
  `<a href="/sweep/${id.split('/').map(encodeURIComponent).join('/')}">${escapeHtml(text)}</a>`;

// --- index --------------------------------------------------------------------------------------

/** Headline of one arm in the index: gold over the final window. */
function headline(table: CompareTable, colors: Map<string, string>): string {
  return table.rows
    .map(
      (r) =>
        `<span class="hl">${swatch(colors.get(r.arm) ?? '#999')}${escapeHtml(r.arm)} ${escapeHtml(formatCell(r.values.finalGold, 3, false))}</span>`,
    )
    .join(' ');
}

/** The runs index: every run and sweep with its state, progress and headline figures. */
export function indexSlots(entries: readonly Entry[], now = Date.now()): Slots {
  const rows: string[] = [];
  for (const e of entries) {
    try {
      if (e.kind === 'sweep') {
        const { sweep, runs, table } = readSweep(e.dir);
        const prog = runs.flatMap((r) => armProgress(r, now));
        const best = [...table.rows]
          .filter((r) => r.values.finalGold.mean !== null)
          .sort((a, b) => b.values.finalGold.mean! - a.values.finalGold.mean!)[0];
        const steps = prog.reduce((a, p) => a + p.step, 0);
        const total = prog.reduce((a, p) => a + (p.total ?? 0), 0);
        rows.push(
          `<tr class="sweep" data-id="${escapeHtml(e.id)}" data-kind="sweep" data-state="${runState(prog)}"><td></td><td>${sweepLink(e.id)} <span class="kind">sweep</span></td><td>${badge(runState(prog))}</td>` +
            `<td>${bar(steps, total)} · ${prog.filter((p) => p.state === 'done').length}/${prog.length} arms done</td>` +
            `<td>${Object.keys(sweep.cells).length} cells × ${sweep.seeds.length} seeds${best ? `; best gold final: ${escapeHtml(best.arm)} ${escapeHtml(formatCell(best.values.finalGold, 3, runs.length > 1))}` : ''}</td>` +
            `<td>${at(Math.max(0, ...prog.map((p) => p.updated ?? 0)))}</td></tr>`,
        );
        continue;
      }
      const run = readRun(e.dir);
      const prog = armProgress(run, now);
      const table = compareRunData([run]);
      const colors = armColors(run.arms.map((a) => a.name));
      const steps = prog.reduce((a, p) => a + p.step, 0);
      const total = prog.reduce((a, p) => a + (p.total ?? 0), 0);
      const label = e.sweep ? e.id.slice(e.sweep.length + 1) : e.id;
      rows.push(
        `<tr class="${e.sweep ? 'seed' : 'run'}" data-id="${escapeHtml(e.id)}" data-kind="run" data-state="${runState(prog)}"><td><input type="checkbox" name="overlay" value="${escapeHtml(e.id)}" aria-label="overlay ${escapeHtml(e.id)}"></td>` +
          `<td>${e.sweep ? '↳ ' : ''}${runLink(e.id, label)}</td><td>${badge(runState(prog))}</td>` +
          `<td>${bar(steps, total)} · ${prog.filter((p) => p.state === 'done').length}/${prog.length} arms done</td><td>${headline(table, colors)}</td>` +
          `<td>${at(Math.max(0, ...prog.map((p) => p.updated ?? 0)))}</td></tr>`,
      );
    } catch (err) {
      // Deleted or half-written while we read it: listed as such, fixed on the next change.
      rows.push(
        `<tr data-id="${escapeHtml(e.id)}" data-state="unreadable"><td></td><td>${escapeHtml(e.id)}</td><td>${badge('unreadable')}</td><td colspan="3">${escapeHtml((err as Error).message)}</td></tr>`,
      );
    }
  }
  const table =
    rows.length === 0
      ? '<p class="meta">No runs yet. Start one with <code>anchor-rl train</code>; it appears here as soon as its manifest.json is written.</p>'
      : `<div class="table-wrap"><table class="compare runs"><thead><tr><th></th><th>run</th><th>state</th><th>progress</th><th>gold over the final window</th><th>last update</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
  return { title: 'anchor-rl runs', slots: { runs: table } };
}

// --- a run --------------------------------------------------------------------------------------

/** The window when the URL gives none or a bad one. */
function windowOf(requested: number | undefined, runs: readonly RunData[]): number {
  return requested !== undefined && Number.isInteger(requested) && requested >= 1 ? requested : defaultWindow(runs);
}

/** A run's page: meta, progress, comparison and the report's charts. */
export async function runSlots(e: Entry, window?: number, now = Date.now()): Promise<Slots & { window: number }> {
  const run = readRun(e.dir);
  const w = windowOf(window, [run]);
  const colors = armColors(run.arms.map((a) => a.name));
  const table = compareRunData([run], { window: w });
  const charts = await buildCharts(run, { window: w, colors });
  const m = run.manifest;
  const meta = [
    m?.seed !== undefined ? `seed <code>${escapeHtml(String(m.seed))}</code>` : '',
    m?.startedAt ? `started ${escapeHtml(m.startedAt)}` : '',
    m ? (m.endedAt ? `ended ${escapeHtml(m.endedAt)}` : '<b>not finished</b>') : '',
    e.sweep ? `seed run of sweep ${sweepLink(e.sweep)}` : '',
    `run directory <code>${escapeHtml(run.dir)}</code>`,
    // Written when the run ends; the live page is the view while it runs.
    existsSync(join(run.dir, 'report.html')) ? fileLink(e.id, null, 'report.html', 'report.html (with samples and config)') : '',
  ].filter(Boolean);
  return {
    title: `anchor-rl — ${run.name}`,
    window: w,
    slots: {
      meta: `<p class="meta">${meta.join(' · ')}</p>`,
      warnings: warningsHtml(run.warnings, run.dir, 'run'),
      progress: progressHtml(
        armProgress(run, now).map((p) => ({ ...p, runId: e.id })),
        colors,
      ),
      compare: compareHtml(table, colors),
      charts: `<div class="charts">${chartsHtml(charts, (id) => id === 'proxy-gold')}</div>`,
    },
  };
}

// --- a sweep ------------------------------------------------------------------------------------

/** A sweep's page: progress of every seed run's arms, the knob charts and table, the comparison. */
export async function sweepSlots(e: Entry, window?: number, now = Date.now()): Promise<Slots & { window: number }> {
  const first = readSweep(e.dir, window);
  const w = windowOf(window, first.runs);
  const { sweep, runs, runDirs, table } = w === first.table.window ? first : readSweep(e.dir, w);
  const knob = knobPoints(table, sweep);
  const charts = [await buildKnobChart(knob, 'gold'), await buildKnobChart(knob, 'gap')];
  const colors = armColors(table.rows.map((r) => r.arm));
  const rows = runs.flatMap((r, i) => {
    const seed = runDirs[i]!.slice(e.dir.length + 1);
    return armProgress(r, now).map((p) => ({ ...p, seed, runId: `${e.id}/${seed}` }));
  });
  const seeds = runDirs
    .map((d) => `<li>${runLink(`${e.id}/${d.slice(e.dir.length + 1)}`, d.slice(e.dir.length + 1))}</li>`)
    .join('');
  return {
    title: `anchor-rl sweep — ${sweep.name}`,
    window: w,
    slots: {
      meta: `<p class="meta">${sweep.grid.map((a) => `${escapeHtml(a.key)} = ${escapeHtml(a.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', '))}`).join('; ')} · seeds ${escapeHtml(sweep.seeds.join(', '))} · started ${escapeHtml(sweep.startedAt)} · ${sweep.endedAt ? `ended ${escapeHtml(sweep.endedAt)}` : '<b>not finished</b>'}<br>sweep directory <code>${escapeHtml(e.dir)}</code></p>`,
      warnings: warningsHtml(table.warnings, e.dir, 'seed runs'),
      progress: progressHtml(rows, colors),
      knob: `${chartsHtml(charts, () => true)}${knobTableHtml(knob, sweep)}`,
      compare: compareHtml(table, colors),
      seeds: `<ul>${seeds}</ul>`,
    },
  };
}

// --- overlay ------------------------------------------------------------------------------------

/** Numeric metric keys logged by any arm of the runs, the report's headline keys first. */
function numericKeys(runs: readonly RunData[]): string[] {
  const seen = new Set<string>();
  for (const r of runs)
    for (const a of r.arms)
      for (const m of a.metrics) for (const [k, v] of Object.entries(m)) if (k !== 'step' && typeof v === 'number') seen.add(k);
  const first = [K.gold, K.proxy, K.gap, K.kl, K.length, K.entropy, K.sndG, W.parityOnlyRate, W.canaryPassRate].filter(
    (k) => seen.has(k) || k === K.gap,
  );
  return [...first, ...[...seen].filter((k) => !first.includes(k as (typeof first)[number])).sort()];
}

/** Several runs' `metric` on one chart, with the metric picker. */
export async function overlaySlots(
  entries: readonly Entry[],
  metric: string | undefined,
  window?: number,
): Promise<Slots & { window: number; metric: string }> {
  const runs = entries.map((e) => ({ label: e.id, run: readRun(e.dir) }));
  const w = windowOf(
    window,
    runs.map((r) => r.run),
  );
  const keys = numericKeys(runs.map((r) => r.run));
  const key = metric && keys.includes(metric) ? metric : K.gold;
  const colors = armColors([...new Set(runs.flatMap((r) => r.run.arms.map((a) => a.name)))]);
  const chart = await buildOverlayChart(runs, key, { window: w, colors });
  const options = keys
    .map((k) => `<option value="${escapeHtml(k)}"${k === key ? ' selected' : ''}>${escapeHtml(k)}</option>`)
    .join('');
  const states = runs.map((r) => `<li>${runLink(r.label)} ${badge(runState(armProgress(r.run)))}</li>`).join('');
  return {
    title: `anchor-rl overlay — ${runs.map((r) => r.label).join(' vs ')}`,
    window: w,
    metric: key,
    slots: {
      picker: `<label>metric <select id="metric">${options}</select></label>`,
      runs: `<ul class="inline">${states}</ul>`,
      charts: chartsHtml([chart], () => true),
    },
  };
}
