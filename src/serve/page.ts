/**
 * The HTML shell of a `anchor-rl serve` page: navigation, the page's slots (filled by
 * ./views.ts, refreshed by ./client.ts through `/api/...`), and an error banner.
 */
import { REPORT_CSS, escapeHtml } from '../report/report.ts';
import type { Entry } from './discover.ts';
import { watchQuery, type Target } from './router.ts';
import type { Slots } from './views.ts';

const SERVE_CSS = `
nav.top { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; font-size: 13px; margin: 4px 0 12px; }
nav.top select, nav.top input { font-size: 13px; } nav.top input[type=number] { width: 4.5em; }
.live { font-size: 12px; color: #555; } .live.ok::before { content: "● "; color: #2ca02c; } .live.bad::before { content: "● "; color: #d62728; }
.state { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; background: #eee; }
.state-running { background: #e3f0fb; color: #1f5f99; } .state-done { background: #e5f5e5; color: #1d6b1d; }
.state-failed { background: #fde2e1; color: #a61b1b; font-weight: 600; } .state-incomplete, .state-unreadable { background: #fff4d6; color: #7a5a00; }
.stale-note { color: #7a5a00; font-size: 12px; white-space: normal; max-width: 420px; }
.error { color: #a61b1b; font-size: 12px; white-space: normal; max-width: 420px; }
.bar { display: inline-block; width: 90px; height: 8px; background: #eee; border-radius: 4px; vertical-align: middle; overflow: hidden; }
.bar > span { display: block; height: 100%; background: #1f77b4; }
table.runs td, table.progress td, table.progress th { text-align: left; } tr.seed td:nth-child(2) { padding-left: 18px; }
.kind { font-size: 11px; color: #777; } .hl { margin-right: 8px; white-space: nowrap; }
ul.inline { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.banner { background: #fde2e1; border: 1px solid #f3a5a3; padding: 8px 12px; font-size: 13px; }
`;

/** The slots of each page, in order, with their headings. */
const SECTIONS: Record<Target['page'], [string, string | null][]> = {
  index: [['runs', 'Runs and sweeps']],
  run: [
    ['meta', null],
    ['warnings', null],
    ['progress', 'Arms'],
    ['compare', 'Comparison'],
    ['charts', 'Charts'],
  ],
  sweep: [
    ['meta', null],
    ['warnings', null],
    ['progress', 'Arms of every seed run'],
    ['knob', 'The settlement knob'],
    ['compare', 'All arms'],
    ['seeds', 'Seed runs'],
  ],
  overlay: [
    ['runs', null],
    ['charts', null],
  ],
};

/** The navigation bar: a switch over `entries`, the window or overlay controls, the live status. */
function nav(t: Target, entries: readonly Entry[], window: number | undefined, picker: string): string {
  const options = entries
    .map((e) => {
      const href = `/${e.kind}/${e.id.split('/').map(encodeURIComponent).join('/')}`;
      const sel = t.page !== 'index' && t.page !== 'overlay' && t.entries[0]?.id === e.id && t.entries[0]?.kind === e.kind;
      return `<option value="${escapeHtml(href)}"${sel ? ' selected' : ''}>${e.kind === 'sweep' ? 'sweep ' : ''}${escapeHtml(e.id)}</option>`;
    })
    .join('');
  return (
    `<nav class="top"><a href="/">all runs</a>` +
    `<label>run <select id="run-switch"><option value="">—</option>${options}</select></label>` +
    (t.page === 'index'
      ? `<button id="overlay-button" type="button" disabled>Overlay selected runs</button>`
      : `<label title="rolling-mean and final window, in steps">window <input id="window" type="number" min="1" step="1" value="${window ?? ''}"></label>`) +
    (t.page === 'overlay' ? `<span data-slot="picker">${picker}</span>` : '') +
    (t.page === 'run'
      ? `<a href="/overlay?run=${encodeURIComponent(t.entries[0]!.id)}" title="plot any metric the arms log">any logged metric…</a>`
      : '') +
    `<span id="live-status" class="live">connecting…</span></nav>`
  );
}

/**
 * A full page for target `t` with slots `s`; `entries` are the runs and sweeps the navigation
 * offers, `apiPath` where the page fetches its slots again, `fp` the fingerprint it was built at,
 * `error` a banner (the shell of a page whose run cannot be shown right now).
 */
export function pageHtml(
  t: Target,
  s: Slots & { window?: number },
  entries: readonly Entry[],
  apiPath: string,
  fp: string,
  error?: string,
): string {
  const slots = SECTIONS[t.page]
    .map(
      ([name, heading]) =>
        `${heading ? `<h2>${escapeHtml(heading)}</h2>` : ''}<div data-slot="${name}">${s.slots[name] ?? ''}</div>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(s.title)}</title>
<style>${REPORT_CSS}${SERVE_CSS}</style>
</head>
<body>
<h1>${escapeHtml(s.title)}</h1>
<div id="live" data-api="${escapeHtml(apiPath)}" data-watch="${escapeHtml(watchQuery(t))}" data-fingerprint="${escapeHtml(fp)}"></div>
${nav(t, entries, s.window, s.slots.picker ?? '')}
${error ? `<p class="banner">${escapeHtml(error)}</p>` : ''}
${slots}
<script src="/static/live.js"></script>
</body>
</html>
`;
}

/** The bare page of an error with no page to show it in. */
export function errorPageHtml(message: string): string {
  return `<!doctype html><meta charset="utf-8"><title>anchor-rl</title><p>${escapeHtml(message)}</p><p><a href="/">all runs</a></p>`;
}
