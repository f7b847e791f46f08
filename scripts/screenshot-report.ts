/**
 * Render a run's (or a sweep's) report and save a screenshot of it:
 *
 *   npx tsx scripts/screenshot-report.ts RUN_DIR [OUT.png] [--window N] [--full] [--chart NAME] [--live]
 *
 * Writes RUN_DIR/report.html (like `anchor-rl report`) and a PNG (default docs/report-screenshot.png)
 * of its top part (title, comparison table and charts) — or the whole page with --full, or one
 * chart with --chart NAME (its figure `#chart-NAME`, e.g. `gold-kl`: docs/default-gold-kl.png) —
 * taken in headless Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
 *
 * RUN_DIR may also be an HTML report already written (e.g. `anchor-rl report DIR DIR --out x.html`,
 * the report of several directories paired by seed): it is screenshotted as it is.
 *
 * With --live it writes nothing into RUN_DIR: it starts `anchor-rl serve` on RUN_DIR
 * (any free port), opens the run's (or sweep's) live page and saves its screenshot (default
 * docs/live-screenshot.png) once the page is connected.
 */
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeReport } from '../src/report/report.ts';
import { writeSweepReport } from '../src/report/sweep.ts';
import { startServer } from '../src/serve/server.ts';
import { isSweepDir } from '../src/train/sweep-format.ts';
import { chromiumMissingReason, launchChromium } from '../support/chromium.ts';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const full = args.includes('--full');
  const live = args.includes('--live');
  const wi = args.indexOf('--window');
  // Default: the run's settlement window (what `anchor-rl report` uses).
  const window = wi >= 0 ? Number(args[wi + 1]) : undefined;
  const ci = args.indexOf('--chart');
  const chart = ci >= 0 ? args[ci + 1] : undefined;
  const pos = args.filter((a, i) => !a.startsWith('--') && !(wi >= 0 && i === wi + 1) && !(ci >= 0 && i === ci + 1));
  const [runDir, outPng = live ? 'docs/live-screenshot.png' : 'docs/report-screenshot.png'] = pos;
  if (!runDir) {
    process.stderr.write(
      'usage: npx tsx scripts/screenshot-report.ts RUN_DIR [OUT.png] [--window N] [--full] [--chart NAME] [--live]\n',
    );
    process.exit(2);
  }
  const missing = chromiumMissingReason();
  if (missing) {
    process.stderr.write(`cannot take a screenshot: ${missing}\n`);
    process.exit(1);
  }
  // Served from the run (or sweep) itself: its id is then its directory name, also inside a sweep.
  const server = live ? await startServer({ dir: resolve(runDir), port: 0 }) : null;
  const html = runDir.endsWith('.html') ? resolve(runDir) : null;
  const rep = live
    ? null
    : html
      ? { path: html }
      : isSweepDir(runDir)
        ? await writeSweepReport(runDir, undefined, { window })
        : await writeReport(runDir, undefined, { window });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1240, height: 1400 }, deviceScaleFactor: 1 });
    if (server) {
      const kind = isSweepDir(runDir) ? 'sweep' : 'run';
      const url = new URL(`/${kind}/${encodeURIComponent(basename(resolve(runDir)))}`, server.url);
      url.searchParams.set('token', server.token ?? '');
      if (window !== undefined) url.searchParams.set('window', String(window));
      await page.goto(url.href);
      await page.locator('#live-status.ok').waitFor({ timeout: 30_000 });
    } else await page.goto(pathToFileURL(rep!.path).href);
    if (chart) await page.locator(`#chart-${chart}`).screenshot({ path: resolve(outPng) });
    else await page.screenshot({ path: resolve(outPng), fullPage: full });
  } finally {
    await browser.close();
    await server?.close();
  }
  process.stdout.write(`wrote ${rep && !html ? `${rep.path} and ` : ''}${resolve(outPng)}\n`);
}

await main();
