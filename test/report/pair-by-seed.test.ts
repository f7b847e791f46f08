import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRunData, compareRuns } from '../../src/report/compare.ts';
import { pairRunsBySeed, readRunsPairedBySeed, sourceName } from '../../src/report/pair-by-seed.ts';
import { readRun } from '../../src/report/read-run.ts';
import { expandSweepDirs } from '../../src/train/sweep-format.ts';
import { runCli } from '../helpers/cli.ts';
import { writeFakeRun, writeFakeSweep } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-pair-by-seed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// One experiment split over three sweep directories, seeds 0..2: the execution arm in one, the
// same registry arm (anchored) under two reward models in the other two.
const seeds = [0, 1, 2];
const execDir = join(root, 'exec');
const rmA = join(root, 'rm-a');
const rmB = join(root, 'rm-b');
writeFakeSweep(execDir, { seeds, rates: [], references: ['execution'] });
writeFakeSweep(rmA, { seeds, rates: [], references: ['anchored'] });
writeFakeSweep(rmB, { seeds, rates: [], references: ['anchored', 'judge'] });

const W = 10;
/** Final-window gold of an arm of one seed run, from the files. */
const finalGold = (dir: string, seed: number, arm: string): number => {
  const m = readRun(join(dir, `seed-${seed}`)).arms.find((a) => a.name === arm)!.metrics;
  const last = m.slice(-W).map((l) => l['reward/gold'] as number);
  return last.reduce((a, b) => a + b, 0) / last.length;
};

describe('pairRunsBySeed', () => {
  it('leaves an unfinished arm-run out of the statistics over seeds: its last steps are not a final window', () => {
    const dir = join(root, 'unfinished');
    for (const s of seeds)
      writeFakeRun(join(dir, `seed-${s}`), {
        steps: 50,
        seed: s,
        arms: ['execution', 'anchored'],
        name: `fake-seed${s}`,
        ...(s === 2 ? { running: { anchored: 20 } } : {}),
      });
    const t = compareRuns(
      seeds.map((s) => join(dir, `seed-${s}`)),
      { window: W, statistics: true },
    );
    const gold = t.statistics!.measures.find((m) => m.key === 'finalGold')!;
    const anchored = gold.arms.find((a) => a.arm === 'anchored')!;
    expect(anchored.seeds).toEqual([0, 1]);
    expect(anchored.ratios[2]).toBeNull();
    // The per-arm table still shows the running arm (flagged incomplete), with its partial window.
    expect(t.rows.find((r) => r.arm === 'anchored')!.incomplete).toBe(true);
  });

  it('without it, arms in different directories never meet their reference: no paired ratio at all', () => {
    const t = compareRuns(expandSweepDirs([execDir, rmA]), { window: W, statistics: true });
    const gold = t.statistics!.measures.find((m) => m.key === 'finalGold')!;
    expect(gold.arms.find((a) => a.arm === 'anchored')!.ratios.every((r) => r === null)).toBe(true);
  });

  it('merges the runs of each seed, so every arm is divided by the execution arm of its own seed', () => {
    const runs = readRunsPairedBySeed([execDir, rmA]);
    expect(runs.map((r) => r.manifest?.seed)).toEqual(seeds);
    expect(runs.map((r) => r.arms.map((a) => a.name))).toEqual(seeds.map(() => ['execution', 'anchored']));
    const t = compareRunData(runs, { window: W, statistics: true });
    const gold = t.statistics!.measures.find((m) => m.key === 'finalGold')!;
    const anchored = gold.arms.find((a) => a.arm === 'anchored')!;
    expect(anchored.seeds).toEqual(seeds);
    seeds.forEach((s, i) => {
      expect(anchored.ratios[i]).toBeCloseTo(finalGold(rmA, s, 'anchored') / finalGold(execDir, s, 'execution'), 12);
    });
    expect(t.rows.find((r) => r.arm === 'anchored')!.runs).toBe(3);
  });

  it('qualifies an arm name held twice in one seed with its directory, in every seed, and leaves the others alone', () => {
    const t = compareRunData(readRunsPairedBySeed([execDir, rmA, rmB]), { window: W, statistics: true });
    expect(t.rows.map((r) => [r.arm, r.runs])).toEqual([
      ['execution', 3],
      ['anchored@rm-a', 3],
      ['anchored@rm-b', 3],
      ['judge', 3],
    ]);
    const gold = t.statistics!.measures.find((m) => m.key === 'finalGold')!;
    const b = gold.arms.find((a) => a.arm === 'anchored@rm-b')!;
    expect(b.ratios[2]).toBeCloseTo(finalGold(rmB, 2, 'anchored') / finalGold(execDir, 2, 'execution'), 12);
  });

  it('names a seed-N run given on its own after the directory holding it, so its seeds stay one arm', () => {
    expect(sourceName('/x/runs/rep-tf/seed-100')).toBe('rep-tf');
    expect(sourceName('/x/runs/rep-tf')).toBe('rep-tf');
    expect(sourceName('/x/runs/seed-1x')).toBe('seed-1x');
    // rm-b's seed runs given one by one, next to rm-a as a sweep directory: the same rows as before.
    const t = compareRunData(readRunsPairedBySeed([execDir, rmA, ...seeds.map((s) => join(rmB, `seed-${s}`))]), {
      window: W,
    });
    expect(t.rows.map((r) => [r.arm, r.runs])).toEqual([
      ['execution', 3],
      ['anchored@rm-a', 3],
      ['anchored@rm-b', 3],
      ['judge', 3],
    ]);
  });

  it('leaves runs of distinct seeds, and runs without a seed, as they are', () => {
    const a = writeFakeRun(join(root, 'plain-0'), { steps: 30, seed: 0 });
    const b = writeFakeRun(join(root, 'plain-1'), { steps: 30, seed: 1 });
    const runs = [readRun(a.dir), readRun(b.dir)];
    const out = pairRunsBySeed(runs.map((run, i) => ({ run, source: `s${i}` })));
    expect(out).toEqual(runs);
    const noSeed = { ...runs[0]!, manifest: null };
    const twice = pairRunsBySeed([
      { run: noSeed, source: 'x' },
      { run: noSeed, source: 'y' },
    ]);
    expect(twice.map((r) => r.arms.map((x) => x.name))).toEqual([noSeed.arms.map((x) => x.name), noSeed.arms.map((x) => x.name)]);
  });

  it('compare --pair-by-seed --markdown prints the paired interval table', () => {
    const r = runCli(['compare', execDir, rmA, '--pair-by-seed', '--markdown', '--window', String(W), '--reps', '200']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('## Over seeds');
    expect(r.stdout).toMatch(/\| anchored \|/);
    const j = JSON.parse(runCli(['compare', execDir, rmA, '--pair-by-seed', '--json', '--reps', '200']).stdout);
    const anchored = j.statistics.measures[0].arms.find((a: { arm: string }) => a.arm === 'anchored');
    expect(anchored.ratios.filter((x: number | null) => x !== null)).toHaveLength(3);
  }, 300_000); // two CLI processes; slow on a loaded machine

  it('report DIR DIR --out: one page with gold against √KL per arm (seeds pooled) and the paired intervals', async () => {
    const out = join(root, 'paired.html');
    const { writePairedReport } = await import('../../src/report/paired-report.ts');
    const res = await writePairedReport([execDir, rmA, rmB], out, { window: W });
    expect(res.table.rows.map((r) => r.arm)).toEqual(['execution', 'anchored@rm-a', 'anchored@rm-b', 'judge']);
    const html = readFileSync(out, 'utf8');
    for (const id of ['gold-kl', 'seed-intervals']) expect(html).toContain(`data-chart="${id}"`);
    // One facet panel per arm: every arm's name is a panel header of the gold-vs-√KL chart.
    const gao = html.slice(html.indexOf('data-chart="gold-kl"'), html.indexOf('</figure>', html.indexOf('data-chart="gold-kl"')));
    for (const arm of res.table.rows.map((r) => r.arm)) expect(gao).toContain(arm);
    const cli = runCli(['report', execDir, rmA]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('--out');
  }, 300_000);
});
