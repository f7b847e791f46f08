import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChunked, suiteJobs } from '../../../src/research/experiments/suite.ts';
import { runTaskRange } from '../../../src/research/experiments/common.ts';
import { main } from '../../../src/cli/main.ts';

describe('chunked and monolithic runs give identical figures', () => {
  for (const job of suiteJobs(true)) {
    it(`${job.id}: tasks one chunk at a time (and via the on-disk cache) = all at once`, () => {
      const mono = job.experiment.aggregate(job.opts, runTaskRange(job.experiment, job.opts, 0, job.tasks));
      const dir = mkdtempSync(join(tmpdir(), `chunks-${job.id}-`));
      const chunked = runChunked(job.experiment, job.opts, job.tasks, 1, dir);
      expect(chunked).toEqual(mono);
      // Second run reads every chunk from disk and still gives the same result.
      let computed = 0;
      const again = runChunked(job.experiment, job.opts, job.tasks, 1, dir, () => computed++);
      expect(again).toEqual(mono);
      expect(computed).toBe(job.tasks); // one progress call per cached chunk, none per recomputed task
      // The headline figures are finite numbers.
      for (const h of job.headlines(mono)) expect(typeof h.value).toBe('number');
    }, 60_000);
  }
});

describe('anchor-rl reproduce --quick', () => {
  it('writes the table, JSON and the HTML report, and does not rerun a finished experiment', async () => {
    const out = mkdtempSync(join(tmpdir(), 'reproduce-'));
    const args = ['reproduce', '--quick', '--out', out, '--only', 'exchange-rate', 'resolution-dsl6', '--chunk', '1'];
    expect(await main(args)).toBe(0);
    const md = readFileSync(join(out, 'reproduction.md'), 'utf8');
    expect(md).toMatch(/\| exchange-rate \| max \\\|simulated/);
    expect(md).toMatch(/resolution dsl6/);
    const json = JSON.parse(readFileSync(join(out, 'reproduction.json'), 'utf8'));
    expect(json.experiments.map((e: { id: string }) => e.id)).toEqual(['exchange-rate', 'resolution-dsl6']);
    for (const e of json.experiments) for (const h of e.headlines) expect(h).toHaveProperty('se');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(3);
    expect(html).not.toMatch(/<script/);
    expect(existsSync(join(out, 'chunks', 'exchange-rate', 'tasks-0-1.json'))).toBe(true);
    const cached = join(out, 'results', 'exchange-rate.json');
    const before = statSync(cached).mtimeMs;
    const saved = readFileSync(cached, 'utf8');
    expect(await main(args)).toBe(0);
    expect(statSync(cached).mtimeMs).toBe(before);
    expect(readFileSync(cached, 'utf8')).toBe(saved);
    expect(await main(['reproduce', '--quick', '--out', out, '--only', 'nope'])).toBe(2);
  }, 120_000);
});
