/**
 * The live view in a real browser: `anchor-rl serve` (the CLI, in a child process) on a runs
 * directory while this test writes one of the runs; headless Chromium (Debian's `chromium`
 * through playwright-core, as the report's browser test) must see the chart gain points without
 * a reload, a failed arm marked failed, switch runs, overlay two runs, log no errors and fetch
 * nothing from elsewhere; a request without the token is refused. Skips, saying why, only where
 * Chromium is absent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { armColors } from '../../src/report/colors.ts';
import { chromiumMissingReason, launchChromium } from '../../support/chromium.ts';
import { FAKE_ARMS, liveFakeRun, writeFakeRun, type LiveFakeRun } from '../helpers/fake-run.ts';
import { repoRoot } from '../helpers/paths.ts';

const missing = chromiumMissingReason();
if (missing) console.warn(`[skip] serve browser test: ${missing}`);

const colors = armColors([...FAKE_ARMS]);

describe.skipIf(missing !== null)('anchor-rl serve in headless Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'anchor-serve-browser-'));
  let child: ChildProcess;
  let url = '';
  let base = '';
  let browser: Browser;
  let page: Page;
  let live: LiveFakeRun;
  const problems: string[] = [];
  const foreign: string[] = [];

  /** Points of an arm's line in a chart (vega draws a line as M x,y L x,y ...). */
  const linePoints = async (chart: string, arm: string): Promise<number> => {
    const d = await page
      .locator(`#chart-${chart} path[aria-roledescription="line mark"][stroke="${colors.get(arm)}"]`)
      .first()
      .getAttribute('d');
    return (d ?? '').split(/[ML]/).filter((s) => s.trim()).length;
  };

  beforeAll(async () => {
    live = liveFakeRun(join(root, 'live'), { steps: 80, noise: 0.02, name: 'live-run', start: 20 });
    writeFakeRun(join(root, 'finished'), { steps: 80, seed: 3, noise: 0.02, name: 'finished-run' });
    // Arms left 'running' whose logs have not moved for an hour (their processes died).
    writeFakeRun(join(root, 'stalled'), { steps: 80, name: 'stalled-run', running: { frozen: 10, anchored: 12 } });
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const arm of FAKE_ARMS) utimesSync(join(root, 'stalled', arm, 'metrics.jsonl'), hourAgo, hourAgo);
    child = spawn(process.execPath, [resolve(repoRoot, 'bin/anchor-rl.js'), 'serve', root, '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await new Promise<string>((res, rej) => {
      let out = '';
      let err = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
        if (m) res(m[1]!);
      });
      child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
      child.on('exit', (code) => rej(new Error(`serve exited with ${code}: ${err}`)));
    });
    base = url.slice(0, url.indexOf('/?token='));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1240, height: 1400 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(base + '/')) foreign.push(r.url());
    });
  });

  afterAll(async () => {
    await browser?.close();
    child?.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a request without the token', async () => {
    const res = await fetch(base + '/api/index');
    expect(res.status).toBe(403);
    expect((await fetch(base + '/run/live')).status).toBe(403);
  });

  it('opens the index from the printed URL and lists both runs with their state', async () => {
    await page.goto(url);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false); // moved into a cookie
    await expect.poll(() => page.locator('#live-status.ok').count()).toBe(1);
    expect(await page.locator('tr[data-id="live"][data-state="running"]').count()).toBe(1);
    expect(await page.locator('tr[data-id="finished"][data-state="done"]').count()).toBe(1);
  });

  it('the run page’s charts gain points as the run is written, without a reload', async () => {
    await page.locator('tr[data-id="live"] a').click();
    await page.waitForURL(/\/run\/live$/);
    await page.locator('#live-status.ok').waitFor();
    await page.evaluate(() => ((globalThis as unknown as { sameDocument: boolean }).sameDocument = true));
    const before = await linePoints('gold', 'frozen');
    expect(before).toBe(20);
    expect(await page.locator('table.progress tr[data-arm="frozen"]').innerText()).toMatch(/20\/80/);

    live.advance(15);
    await expect.poll(() => linePoints('gold', 'frozen'), { timeout: 20_000 }).toBe(35);
    expect(await linePoints('proxy-gold', 'anchored')).toBe(35);
    expect(await page.locator('table.progress tr[data-arm="frozen"]').innerText()).toMatch(/35\/80/);
    expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('marks a failed arm failed', async () => {
    live.fail('judge', 'Error: the arm process exited (code 137)');
    await expect.poll(() => page.locator('tr[data-arm="judge"][data-state="failed"]').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator('table.progress tr[data-arm="judge"] .state').innerText()).toBe('failed');
    expect(await page.locator('table.progress tr[data-arm="judge"]').innerText()).toContain('exited (code 137)');
    expect(await page.locator('tr[data-arm="frozen"][data-state="running"]').count()).toBe(1);
  });

  it('switches to another run', async () => {
    await page.selectOption('#run-switch', { label: 'finished' });
    await page.waitForURL(/\/run\/finished$/);
    expect(await page.locator('h1').innerText()).toContain('finished-run');
    await page.locator('#live-status.ok').waitFor();
    expect(await linePoints('gold', 'execution')).toBe(80);
    expect(await page.locator('table.progress tr[data-state="done"]').count()).toBe(4);
  });

  it('overlays two runs picked in the index on one chart', async () => {
    await page.goto(base + '/');
    await page.locator('input[name="overlay"][value="live"]').check();
    expect(await page.locator('#overlay-button').isDisabled()).toBe(true);
    await page.locator('input[name="overlay"][value="finished"]').check();
    await page.locator('#overlay-button').click();
    await page.waitForURL(/\/overlay\?run=finished&run=live$/);
    const lines = page.locator('#chart-overlay path[aria-roledescription="line mark"]');
    expect(await lines.count()).toBe(8); // 2 runs × 4 arms
    // One solid and one dashed line per arm: the runs are told apart by dash pattern.
    for (const arm of FAKE_ARMS)
      expect(
        await page.locator(`#chart-overlay path[aria-roledescription="line mark"][stroke="${colors.get(arm)}"]`).count(),
        arm,
      ).toBe(2);
    expect(await page.locator('#chart-overlay path[aria-roledescription="line mark"][stroke-dasharray="1,0"]').count()).toBe(4);
    expect(await page.locator('#chart-overlay path[aria-roledescription="line mark"][stroke-dasharray="7,4"]').count()).toBe(4);
    // Another metric, then live growth of the overlaid run.
    await page.selectOption('#metric', 'kl/ref');
    await expect.poll(() => page.locator('#chart-overlay h3').innerText()).toContain('kl/ref');
    expect(page.url()).toContain('metric=kl%2Fref');
    // The live run (second in the URL) is the dashed one.
    const liveLine = page.locator(
      `#chart-overlay path[aria-roledescription="line mark"][stroke="${colors.get('anchored')}"][stroke-dasharray="7,4"]`,
    );
    const d0 = await liveLine.getAttribute('d');
    live.advance(10);
    await expect.poll(() => liveLine.getAttribute('d'), { timeout: 20_000 }).not.toBe(d0);
  });

  it('flags running arms whose logs have stopped moving', async () => {
    await page.goto(base + '/run/stalled');
    await page.locator('#live-status.ok').waitFor();
    expect(await page.locator('table.progress tr.stale').count()).toBe(2);
    // An hour ago, plus the time the tests before this one took.
    expect(await page.locator('table.progress tr[data-arm="frozen"] .stale-note').innerText()).toMatch(
      /no step logged for 6\d min/,
    );
    expect(await page.locator('table.progress tr[data-state="done"].stale').count()).toBe(0);
    // The live run's arms are written to by this test: not stale.
    await page.goto(base + '/run/live');
    await page.locator('#live-status.ok').waitFor();
    expect(await page.locator('table.progress tr.stale').count()).toBe(0);
  });

  it('logs no errors and fetches nothing from elsewhere', () => {
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
