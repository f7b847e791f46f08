/**
 * Render a run's (or a sweep's) report and save a screenshot of it:
 *
 *   npx tsx scripts/screenshot-report.ts RUN_DIR [OUT.png] [--window N] [--full]
 *
 * Writes RUN_DIR/report.html (like `anchor-rl report`) and a PNG (default docs/report-screenshot.png)
 * of its top part (title, comparison table and charts) — or the whole page with --full — taken in
 * headless Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeReport } from '../src/report/report.ts';
import { writeSweepReport } from '../src/report/sweep.ts';
import { isSweepDir } from '../src/train/sweep-format.ts';
import { chromiumMissingReason, launchChromium } from '../support/chromium.ts';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const full = args.includes('--full');
  const wi = args.indexOf('--window');
  // Default: the run's settlement window (what `anchor-rl report` uses).
  const window = wi >= 0 ? Number(args[wi + 1]) : undefined;
  const pos = args.filter((a, i) => !a.startsWith('--') && !(wi >= 0 && i === wi + 1));
  const [runDir, outPng = 'docs/report-screenshot.png'] = pos;
  if (!runDir) {
    process.stderr.write('usage: npx tsx scripts/screenshot-report.ts RUN_DIR [OUT.png] [--window N] [--full]\n');
    process.exit(2);
  }
  const missing = chromiumMissingReason();
  if (missing) {
    process.stderr.write(`cannot take a screenshot: ${missing}\n`);
    process.exit(1);
  }
  const rep = isSweepDir(runDir) ? await writeSweepReport(runDir, undefined, { window }) : await writeReport(runDir, undefined, { window });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1240, height: 1400 }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(rep.path).href);
    await page.screenshot({ path: resolve(outPng), fullPage: full });
  } finally {
    await browser.close();
  }
  process.stdout.write(`wrote ${rep.path} and ${resolve(outPng)}\n`);
}

await main();
