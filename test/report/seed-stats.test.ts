import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRuns, formatCompareMarkdown } from '../../src/report/compare.ts';
import { renderSvg } from '../../src/report/charts.ts';
import {
  formatSeedStatsMarkdown,
  improvementOf,
  intervalChartSpec,
  seedStatistics,
  type SeedStatInput,
} from '../../src/report/seed-stats.ts';
import { writeFakeRun } from '../helpers/fake-run.ts';

/** Three seeds worked by hand (final gold; held-out left empty). */
const input: SeedStatInput = {
  seeds: [0, 1, 2],
  arms: [
    { arm: 'execution', values: { finalGold: [0.5, 0.4, 0.6], heldOut: [null, null, null] } },
    // Ratios 0.9, 1.0, 0.5: mean = IQM (n = 3 trims nothing) = 0.8.
    { arm: 'a', values: { finalGold: [0.45, 0.4, 0.3], heldOut: [null, null, null] } },
    // Ratios 2, 2, 2.
    { arm: 'b', values: { finalGold: [1.0, 0.8, 1.2], heldOut: [null, null, null] } },
    // Missing on seed 1: paired on seeds 0 and 2 only (ratios 0.2, 0.5).
    { arm: 'c', values: { finalGold: [0.1, null, 0.3], heldOut: [null, null, null] } },
    // One seed only: a ratio, but no verdict and no pair.
    { arm: 'd', values: { finalGold: [null, 0.8, null], heldOut: [null, null, null] } },
  ],
};

describe('seedStatistics on a small example worked by hand', () => {
  const s = seedStatistics(input, { reference: 'execution', reps: 20_000, seed: 0 });
  const gold = s.measures.find((m) => m.key === 'finalGold')!;
  const arm = (name: string) => gold.arms.find((a) => a.arm === name)!;

  it('pairs each arm with the reference by seed', () => {
    expect(arm('a').ratios.map((r) => Math.round(r! * 1e9) / 1e9)).toEqual([0.9, 1, 0.5]);
    expect(arm('c').ratios.map((r) => (r === null ? null : Math.round(r * 1e9) / 1e9))).toEqual([0.2, null, 0.5]);
    expect(arm('c').seeds).toEqual([0, 2]);
    expect(arm('execution').ratios).toEqual([1, 1, 1]);
  });

  it('mean and IQM with their bootstrap intervals; an interval including 1 is not distinguishable', () => {
    expect(arm('a').mean!.point).toBeCloseTo(0.8, 12);
    expect(arm('a').iqm!.point).toBeCloseTo(0.8, 12);
    // Resamples of (0.9, 1.0, 0.5): all three 0.5 (P = 1/27 ≈ 3.7% > 2.5%) is the lowest mean,
    // all three 1.0 (also 3.7%) the highest: the 95% interval is exactly [0.5, 1.0].
    expect(arm('a').mean!.lo).toBeCloseTo(0.5, 12);
    expect(arm('a').mean!.hi).toBeCloseTo(1.0, 12);
    expect(arm('a').verdict).toBe('not distinguishable');
    expect(arm('b').iqm).toEqual({ point: 2, lo: 2, hi: 2 });
    expect(arm('b').verdict).toBe('higher');
    expect(arm('c').verdict).toBe('lower');
    expect(arm('execution').verdict).toBeNull();
    expect(arm('d').iqm!.point).toBeCloseTo(2, 12);
    expect(arm('d').verdict).toBeNull();
  });

  it('P(A > B) between every two arms on the raw per-seed values', () => {
    // a = 0.45, 0.4, 0.3 against execution = 0.5, 0.4, 0.6: 1 + ½ + 0 of 9 pairs.
    expect(improvementOf(gold, 'a', 'execution')!.poi.point).toBeCloseTo(1.5 / 9, 12);
    expect(improvementOf(gold, 'execution', 'a')!.poi.point).toBeCloseTo(7.5 / 9, 12);
    expect(improvementOf(gold, 'b', 'execution')).toEqual({ poi: { point: 1, lo: 1, hi: 1 }, verdict: 'higher' });
    expect(improvementOf(gold, 'execution', 'b')!.verdict).toBe('lower');
    expect(gold.pairs).toHaveLength(6); // execution, a, b, c; d has one run
    expect(improvementOf(gold, 'd', 'a')).toBeNull();
    // No held-out values anywhere: no pairs, no ratios.
    expect(s.measures.find((m) => m.key === 'heldOut')!.pairs).toEqual([]);
  });

  it('is deterministic for a seed, and independent of arm order', () => {
    const again = seedStatistics({ ...input, arms: [...input.arms].reverse() }, { reference: 'execution', reps: 20_000 });
    const a2 = again.measures[0]!.arms.find((a) => a.arm === 'a')!;
    expect(a2).toEqual(arm('a'));
  });

  it('prints Markdown with the verdicts and renders the interval chart', async () => {
    const md = formatSeedStatsMarkdown(s);
    expect(md).toMatch(
      /\| a +\| +3 \| 0\.90, 1\.00, 0\.50 \| 0\.80 \[0\.50, 1\.00\] \| 0\.80 \[0\.50, 1\.00\] \| not distinguishable/,
    );
    expect(md).toMatch(/\| c .*\| 0\.20, –, 0\.50 \|.*\| lower/);
    expect(md).toMatch(/~0\.17 \[/);
    const spec = intervalChartSpec(s, new Map());
    expect(spec).not.toBeNull();
    expect(await renderSvg(spec!)).toMatch(/^<svg/);
  });

  it('an unknown reference is an error naming the arms', () => {
    expect(() => seedStatistics(input, { reference: 'nope' })).toThrow(
      /"nope" is not among the compared arms \(execution, a, b, c, d\)/,
    );
  });
});

describe('compare over seeds carries the statistics', () => {
  const root = mkdtempSync(join(tmpdir(), 'anchor-seedstats-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const dirs = [0, 1, 2].map((seed) => writeFakeRun(join(root, `s${seed}`), { steps: 40, seed, noise: 0.02 }).dir);

  it('several runs: ratios against the execution arm by default; one run: none', () => {
    const t = compareRuns(dirs, { window: 10, reps: 500, statistics: true });
    expect(t.statistics?.reference).toBe('execution');
    const gold = t.statistics!.measures[0]!;
    const frozen = gold.arms.find((a) => a.arm === 'frozen')!;
    const perRun = t.rows.find((r) => r.arm === 'frozen')!.perRun;
    const exec = t.rows.find((r) => r.arm === 'execution')!.perRun;
    expect(frozen.ratios).toEqual(perRun.map((v, i) => v!.finalGold! / exec[i]!.finalGold!));
    expect(formatCompareMarkdown(t)).toMatch(/## Over seeds/);
    expect(compareRuns([dirs[0]!], { window: 10, statistics: true }).statistics).toBeNull();
    expect(compareRuns(dirs, { window: 10, reps: 200, reference: 'anchored', statistics: true }).statistics?.reference).toBe(
      'anchored',
    );
    expect(() => compareRuns(dirs, { reference: 'nope' })).toThrow(/--reference-arm "nope" is not an arm/);
    // Not asked for (the live view): none computed.
    expect(compareRuns(dirs, { window: 10 }).statistics).toBeNull();
  });
});
