/**
 * `anchor-rl reproduce [--quick] [--out DIR]`: every reproduction experiment (src/research/experiments/
 * suite.ts) at reference sizes (or reduced `--quick` sizes), resumable by experiment and by chunk
 * of tasks, then one table of headline figures with standard errors (reproduction.md / .json) and
 * the charts in the report style (report.html, self-contained SVG).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';
import type { JobResult, SuiteJob } from '../../research/experiments/suite.ts';
import { headlinesMarkdown } from '../../research/experiments/text.ts';
import { markdownTable } from '../../util/table.ts';
import type { Headline } from '../../research/experiments/common.ts';

interface ReproduceArgs {
  quick: boolean;
  out?: string;
  seed: number;
  only?: string[];
  chunk: number;
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

const CSS = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 24px auto; max-width: 1180px; padding: 0 16px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta { color: #555; font-size: 13px; } .meta code { font-size: 12px; }
table.compare { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
table.compare th, table.compare td { border-bottom: 1px solid #e5e5e5; padding: 4px 6px; text-align: right; }
table.compare th { background: #f6f6f6; } table.compare td:nth-child(-n+2), table.compare th:nth-child(-n+2), table.compare td:last-child { text-align: left; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px 24px; }
figure { margin: 0; } figure.wide { grid-column: 1 / -1; } figcaption { font-size: 12px; color: #555; margin-top: 2px; } figure svg { max-width: 100%; height: auto; }
pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 11px; background: #f8f8f8; border: 1px solid #e5e5e5; padding: 8px; overflow-x: auto; }
details > summary { cursor: pointer; font-weight: 600; margin: 12px 0 6px; }
`;

function num(x: number): string {
  return Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(4)) : '–';
}

/** The HTML report of a suite run (charts rendered to inline SVG). */
async function reproduceHtml(jobs: readonly SuiteJob[], results: readonly JobResult[], quick: boolean): Promise<string> {
  // The experiments and the chart renderer (vega) load when the suite runs, not with the command list.
  const { renderSvg } = await import('../../report/charts.ts');
  const { escapeHtml } = await import('../../report/report.ts');
  const sections: string[] = [];
  for (const r of results) {
    const job = jobs.find((j) => j.id === r.id)!;
    const figs: string[] = [];
    for (const c of job.charts(r.result)) {
      figs.push(
        `<figure id="${escapeHtml(c.id)}"${c.wide ? ' class="wide"' : ''}><div class="title"><b>${escapeHtml(c.title)}</b></div>${await renderSvg(c.spec)}<figcaption>${escapeHtml(c.caption)}</figcaption></figure>`,
      );
    }
    sections.push(
      `<h2 id="${escapeHtml(r.id)}">${escapeHtml(r.title)}</h2><p class="meta"><code>${escapeHtml(r.command)}</code> · ${r.tasks} tasks · ${r.seconds.toFixed(0)} s</p>` +
        `<div class="charts">${figs.join('')}</div><details><summary>Full table</summary><pre>${escapeHtml(job.format(r.result))}</pre></details>`,
    );
  }
  const rows = results.flatMap((r) => r.headlines);
  const table = `<table class="compare"><thead><tr><th>experiment</th><th>figure</th><th>value</th><th>SE</th><th>note</th></tr></thead><tbody>${rows
    .map(
      (h) =>
        `<tr><td>${escapeHtml(h.experiment)}</td><td>${escapeHtml(h.figure)}</td><td>${num(h.value)}</td><td>${num(h.se)}</td><td>${escapeHtml(h.note ?? '')}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>anchor-rl reproduction${quick ? ' (quick)' : ''}</title><style>${CSS}</style></head><body><h1>anchor-rl reproduction suite${quick ? ' — quick sizes' : ''}</h1><p class="meta">${results.length} experiments · generated ${escapeHtml(new Date().toISOString())}</p><h2>Headline figures</h2>${table}${sections.join('')}</body></html>`;
}

/** Markdown table of a suite run. */
function reproduceMarkdown(results: readonly JobResult[], quick: boolean): string {
  const rows: Headline[] = results.flatMap((r) => r.headlines);
  return [
    `# anchor-rl reproduction suite${quick ? ' (quick sizes)' : ''}`,
    '',
    'Headline figures of every reproduction experiment (`anchor-rl reproduce`). SE = standard error (over tasks unless the note says otherwise); – = not applicable.',
    '',
    ...markdownTable(
      ['experiment', 'command', 'tasks', 'compute time (s)'],
      results.map((r) => [r.id, `\`${r.command}\``, String(r.tasks), r.seconds.toFixed(0)]),
      [false, false, true, true],
    ),
    '',
    headlinesMarkdown(rows),
    '',
  ].join('\n');
}

/** Every experiment's full text table (what `anchor-rl experiment NAME` prints), as Markdown. */
function reproduceTables(jobs: readonly SuiteJob[], results: readonly JobResult[], quick: boolean): string {
  return [
    `# anchor-rl reproduction suite — full tables${quick ? ' (quick sizes)' : ''}`,
    '',
    ...results.flatMap((r) => [
      `## ${r.title}`,
      '',
      `\`${r.command}\` — ${r.tasks} tasks, ${r.seconds.toFixed(0)} s`,
      '',
      '```',
      jobs.find((j) => j.id === r.id)!.format(r.result),
      '```',
      '',
    ]),
  ].join('\n');
}

/** `anchor-rl reproduce`. */
export const reproduceCommand: CommandBody<object, ReproduceArgs> = {
  builder: (y) =>
    (y as Argv)
      .option('quick', { type: 'boolean', default: false, describe: 'Reduced sizes (CI smoke run)' })
      .option('out', {
        type: 'string',
        describe: 'Output directory (default runs/reproduce, or runs/reproduce-quick with --quick)',
      })
      .option('seed', { type: 'number', default: 0, describe: 'Seed of every experiment' })
      .option('only', { type: 'array', string: true, describe: 'Run only these experiment ids' })
      .option('chunk', {
        type: 'number',
        default: 5,
        describe: 'Tasks per cached chunk (does not change any figure)',
      }) as Argv<ReproduceArgs>,
  handler: async (args) => {
    if (!(Number.isInteger(args.chunk) && args.chunk >= 1))
      throw new AnchorError('BAD_ARGUMENT', `--chunk must be a positive integer, got ${args.chunk}`);
    const out = resolve(args.out ?? (args.quick ? 'runs/reproduce-quick' : 'runs/reproduce'));
    mkdirSync(out, { recursive: true });
    const { runJob, suiteJobs } = await import('../../research/experiments/suite.ts');
    let jobs = suiteJobs(args.quick, args.seed);
    if (args.only && args.only.length > 0) {
      const unknown = args.only.filter((id) => !jobs.some((j) => j.id === id));
      if (unknown.length)
        throw new AnchorError(
          'BAD_ARGUMENT',
          `unknown experiment id(s): ${unknown.join(', ')} (known: ${jobs.map((j) => j.id).join(', ')})`,
        );
      jobs = jobs.filter((j) => args.only!.includes(j.id));
    }
    // A bar per experiment on a terminal; on a pipe or log file, a progress line every 10 s and at
    // the end of each experiment (cli-progress draws nothing useful there).
    const tty = process.stderr.isTTY === true;
    const bars = tty
      ? new cliProgress.MultiBar(
          {
            stream: process.stderr,
            format: '{id} [{bar}] {value}/{total} tasks | {duration_formatted} | {state}',
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
    const results: JobResult[] = [];
    try {
      for (const job of jobs) {
        const bar = bars?.create(job.tasks, 0, { id: job.id.padEnd(24), state: 'running' });
        const t0 = Date.now();
        let last = 0;
        const log = (msg: string): void =>
          void process.stderr.write(`[reproduce ${new Date().toISOString().slice(11, 19)}] ${job.id}: ${msg}\n`);
        if (!tty) log(`started (${job.tasks} tasks)`);
        const { result, cached } = runJob(out, job, args.quick, args.chunk, (d) => {
          bar?.update(d);
          if (!tty && Date.now() - last > 10_000) {
            last = Date.now();
            log(`${d}/${job.tasks} tasks, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
          }
        });
        bar?.update(job.tasks, { state: cached ? 'cached' : `done in ${result.seconds.toFixed(0)} s` });
        bar?.stop();
        if (!tty) log(cached ? 'cached (finished earlier), not rerun' : `done in ${result.seconds.toFixed(0)} s`);
        results.push(result);
        // Keep the table current after every experiment, so an interrupted run still leaves one.
        writeAtomic(
          join(out, 'reproduction.json'),
          JSON.stringify(
            {
              quick: args.quick,
              seed: args.seed,
              experiments: results.map((r) => ({
                id: r.id,
                title: r.title,
                command: r.command,
                tasks: r.tasks,
                seconds: r.seconds,
                finishedAt: r.finishedAt,
                headlines: r.headlines,
              })),
            },
            null,
            1,
          ),
        );
        writeAtomic(join(out, 'reproduction.md'), reproduceMarkdown(results, args.quick));
      }
    } finally {
      bars?.stop();
    }
    writeAtomic(join(out, 'report.html'), await reproduceHtml(jobs, results, args.quick));
    writeAtomic(join(out, 'tables.md'), reproduceTables(jobs, results, args.quick));
    process.stdout.write(
      reproduceMarkdown(results, args.quick) +
        `\nwritten: ${['reproduction.md', 'reproduction.json', 'tables.md', 'report.html'].map((f) => join(out, f)).join(', ')}\n`,
    );
  },
};
