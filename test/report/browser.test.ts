/**
 * The report in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core;
 * never a downloaded browser) opens the generated HTML offline, the charts must have laid out
 * with a visible line per arm in the arm's colour, the page must log no errors and make no
 * network request, and a screenshot is saved. Skips, saying why, only where Chromium is absent.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { armColors } from '../../src/report/colors.ts';
import { writeReport } from '../../src/report/report.ts';
import { chromiumMissingReason, launchChromium } from '../../support/chromium.ts';
import { FAKE_ARMS, writeFakeRun } from '../helpers/fake-run.ts';
import { available } from '../../support/requirements.ts';

const haveChromium = available('report browser test', chromiumMissingReason());

const CHARTS = ['proxy-gold', 'gold', 'gap', 'kl', 'gold-kl', 'length', 'entropy'];
const ARMS = [...FAKE_ARMS, 'custom-arm'];

describe.skipIf(!haveChromium)('report in headless Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'anchor-report-browser-'));
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];
  let reportPath = '';

  beforeAll(async () => {
    const fake = writeFakeRun(join(root, 'run'), {
      steps: 120,
      noise: 0.03,
      samplesPerStep: 4,
      arms: ARMS,
      running: { judge: 90 },
    });
    reportPath = (await writeReport(fake.dir, join(root, 'report.html'), { window: 10 })).path;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1240, height: 1400 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(reportPath).href, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('renders every chart with a visible line per arm in the arm’s colour', async () => {
    const colors = armColors(ARMS);
    for (const id of CHARTS) {
      const svg = page.locator(`#chart-${id} svg`);
      expect(await svg.count(), id).toBe(1);
      const box = await svg.boundingBox();
      expect(box!.width, id).toBeGreaterThan(300);
      expect(box!.height, id).toBeGreaterThan(150);
      for (const arm of ARMS) {
        const line = page.locator(`#chart-${id} path[aria-roledescription="line mark"][stroke="${colors.get(arm)}"]`);
        // proxy-gold draws two lines per arm (proxy and gold); the others one.
        expect(await line.count(), `${id}/${arm}`).toBe(id === 'proxy-gold' ? 2 : 1);
        expect(await line.first().getAttribute('aria-label'), `${id}/${arm}`).toMatch(new RegExp(`arm: ${arm}(;|$)`));
        const lb = await line.first().boundingBox();
        expect(lb, `${id}/${arm} laid out`).not.toBeNull();
        expect(lb!.width, `${id}/${arm}`).toBeGreaterThan(50);
      }
    }
    // Drift markers at settlement windows: 4 per arm (steps 25..100) except judge, stopped at 90 → 3.
    expect(await page.locator('#chart-gap path[aria-roledescription="point"]').count()).toBe(4 * 4 + 3);
  });

  it('shows the comparison table, samples and config', async () => {
    expect(await page.locator('table.compare tbody tr').count()).toBe(ARMS.length);
    expect(await page.locator('tr[data-arm="judge"] td').first().innerText()).toMatch(/judge\s*\*/);
    expect(await page.locator('details[data-arm] pre.completion').count()).toBeGreaterThanOrEqual(ARMS.length * 3);
    // Escaped text arrives as text, not as elements.
    expect(await page.locator('pre.completion', { hasText: '<frozen> & "0"' }).count()).toBeGreaterThan(0);
    expect(await page.locator('frozen').count()).toBe(0);
    expect(await page.locator('pre.config').innerText()).toContain('every: 25');
  });

  it('logs no errors and fetches nothing from the network', () => {
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('saves a screenshot', async () => {
    const png = join(root, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    const bytes = readFileSync(png);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(statSync(png).size).toBeGreaterThan(20_000);
    // Full page: taller than the viewport (charts, samples and config all rendered).
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(1400);
  });
});
