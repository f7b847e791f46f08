/**
 * The sweep's summaries: knobPoints (the settlement knob's data, derived by hand from a small
 * comparison table), the Markdown table, and the files written for a sweep of fake seed runs —
 * compare.json/md across seeds, sweep.md and report.html with the knob chart.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompareCell, CompareTable } from '../../src/report/compare.ts';
import {
  formatKnobMarkdown,
  knobChartSpec,
  knobPoints,
  writeSweepReport,
  writeSweepSummaries,
  type SweepInfo,
} from '../../src/report/sweep.ts';
import { expandSweepDirs } from '../../src/train/sweep-format.ts';
import { writeFakeSweep } from '../helpers/fake-run.ts';
import { externalRefs } from './external-refs.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-sweep-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const c = (mean: number | null, se: number | null = null, n = 2): CompareCell => ({ mean, se, n: mean === null ? 0 : n });

/** A comparison table with just what knobPoints reads: gold, budget, gap per arm. */
function table(
  rows: Record<string, [gold: number | null, goldSe: number | null, budget: number | null, gap: number]>,
  incomplete: string[] = [],
): CompareTable {
  return {
    window: 25,
    runs: [
      { dir: '/s/seed-0', name: 'x-seed0', seed: 0, incompleteArms: [], emptyArms: [] },
      { dir: '/s/seed-1', name: 'x-seed1', seed: 1, incompleteArms: [], emptyArms: [] },
    ],
    columns: [],
    rows: Object.entries(rows).map(([arm, [g, se, b, gap]]) => ({
      arm,
      // The roles compare reads from each arm's spec (reward source and labels).
      ...(arm === 'frozen' ? { role: 'frozen' as const } : arm === 'execution' ? { role: 'execution' as const } : {}),
      runs: 2,
      incomplete: incomplete.includes(arm),
      states: ['done', 'done'],
      values: { finalGold: c(g, se), execBudget: c(b, 0), gap: c(gap, 0.01) } as CompareTable['rows'][number]['values'],
      perRun: [],
    })),
    incompleteArms: incomplete,
    emptyArms: [],
    warnings: [],
    statistics: null,
  };
}

const sweep: SweepInfo = {
  grid: [
    { key: 'settlement.rate', values: [0.2, 0.05, 0.1] },
    { key: 'settlement.strategy', values: ['random', 'top-proxy'] },
  ],
  cells: {
    'rate-0.2_strategy-random': { 'settlement.rate': 0.2, 'settlement.strategy': 'random' },
    'rate-0.2_strategy-top-proxy': { 'settlement.rate': 0.2, 'settlement.strategy': 'top-proxy' },
    'rate-0.05_strategy-random': { 'settlement.rate': 0.05, 'settlement.strategy': 'random' },
    'rate-0.05_strategy-top-proxy': { 'settlement.rate': 0.05, 'settlement.strategy': 'top-proxy' },
    'rate-0.1_strategy-random': { 'settlement.rate': 0.1, 'settlement.strategy': 'random' },
    'rate-0.1_strategy-top-proxy': { 'settlement.rate': 0.1, 'settlement.strategy': 'top-proxy' },
  },
  references: ['frozen', 'execution'],
  armBase: 'anchored',
  config: { settlement: { rate: 0.1, strategy: 'random', every: 25 } },
};

const t = table(
  {
    frozen: [0.1, 0.01, 0, 0.4],
    execution: [0.2, 0.02, 1920, 0.02],
    'rate-0.2_strategy-random': [0.19, 0.01, 384, 0.1],
    'rate-0.2_strategy-top-proxy': [0.18, 0.01, 384, 0.1],
    'rate-0.05_strategy-random': [0.12, 0.01, 96, 0.3],
    'rate-0.05_strategy-top-proxy': [0.15, 0.01, 96, 0.2],
    'rate-0.1_strategy-random': [0.16, 0.02, 192, 0.2],
    'rate-0.1_strategy-top-proxy': [null, null, null, 0],
  },
  ['rate-0.1_strategy-top-proxy'],
);

describe('knobPoints', () => {
  const d = knobPoints(t, sweep);

  it('groups cells into one line per strategy, ordered by rate', () => {
    expect(d.seriesKeys).toEqual(['settlement.strategy']);
    expect(d.series).toEqual(['random', 'top-proxy']);
    expect(d.points.map((p) => [p.series, p.rate, p.cell])).toEqual([
      ['random', 0.05, 'rate-0.05_strategy-random'],
      ['random', 0.1, 'rate-0.1_strategy-random'],
      ['random', 0.2, 'rate-0.2_strategy-random'],
      ['top-proxy', 0.05, 'rate-0.05_strategy-top-proxy'],
      ['top-proxy', 0.1, 'rate-0.1_strategy-top-proxy'],
      ['top-proxy', 0.2, 'rate-0.2_strategy-top-proxy'],
    ]);
  });

  it("x = last budget/exec, y = final gold ± SE, fraction of the execution arm's gold", () => {
    const p = d.points.find((q) => q.cell === 'rate-0.1_strategy-random')!;
    expect(p.budget.mean).toBe(192);
    expect(p.gold).toEqual(c(0.16, 0.02));
    expect(p.fractionOfExecution).toBeCloseTo(0.8, 12);
    expect(p.strategy).toBe('random');
    expect(p.incomplete).toBe(false);
    const missing = d.points.find((q) => q.cell === 'rate-0.1_strategy-top-proxy')!;
    expect([missing.gold.mean, missing.fractionOfExecution, missing.incomplete]).toEqual([null, null, true]);
  });

  it('the frozen and execution arms are references with their gold and budget', () => {
    expect(d.frozen).toMatchObject({ arm: 'frozen', gold: c(0.1, 0.01), budget: c(0, 0), fractionOfExecution: 0.5 });
    expect(d.execution).toMatchObject({ arm: 'execution', gold: c(0.2, 0.02), budget: c(1920, 0), fractionOfExecution: 1 });
  });

  it('without an execution reference there is no fraction; without a strategy axis, one line', () => {
    const only: SweepInfo = {
      ...sweep,
      grid: [{ key: 'settlement.rate', values: [0.2] }],
      cells: { 'rate-0.2': { 'settlement.rate': 0.2 } },
      references: ['frozen'],
      armBase: 'anchored-top-proxy',
    };
    const e = knobPoints(table({ frozen: [0.1, null, 0, 0.4], 'rate-0.2': [0.3, null, 10, 0.1] }), only);
    expect(e.series).toEqual(['anchored-top-proxy']);
    // The strategy comes from the base arm's overlay; the execution arm is absent.
    expect(e.points[0]).toMatchObject({ rate: 0.2, strategy: 'top-proxy', fractionOfExecution: null });
    expect(e.execution).toBeNull();
  });

  it('the chart plots the cells with budget and gold (error bars gold ± SE) and the references as rules', () => {
    const spec = knobChartSpec(d) as unknown as {
      layer: { data: { values: Record<string, unknown>[] }; mark: { type: string } }[];
    };
    const marks = spec.layer.map((l) => l.mark.type);
    expect(marks).toEqual(['rule', 'text', 'rule', 'text', 'rule', 'line']);
    const line = spec.layer.at(-1)!.data.values;
    expect(line.map((v) => v.cell)).toEqual(d.points.filter((p) => p.gold.mean !== null).map((p) => p.cell));
    expect(line[0]).toMatchObject({ budget: 96, gold: 0.12, lo: 0.11, hi: 0.13 });
    expect(spec.layer[1]!.data.values[0]!.label).toBe('frozen: gold 0.100 ± 0.010 (budget 0)');
    expect(spec.layer[3]!.data.values[0]!.label).toBe('execution: gold 0.200 ± 0.020 (budget 1,920 = every rollout)');
  });

  it('the gap variant plots the same cells with their hacking gap, and the references at theirs', () => {
    const spec = knobChartSpec(d, 'gap') as unknown as {
      layer: { data: { values: Record<string, unknown>[] }; mark: { type: string } }[];
    };
    const line = spec.layer.at(-1)!.data.values;
    const withGap = d.points.filter((p) => p.gap.mean !== null && p.budget.mean !== null);
    expect(line.map((v) => v.cell)).toEqual(withGap.map((p) => p.cell));
    expect(line.map((v) => v.gold)).toEqual(withGap.map((p) => Math.round(p.gap.mean! * 1e6) / 1e6));
    expect(spec.layer[1]!.data.values[0]!.label).toBe('frozen: gap 0.400 ± 0.010 (budget 0)');
  });

  it('the Markdown table has one row per reference and cell: rate, strategy, budget, gold ± SE, × execution, gap', () => {
    const md = formatKnobMarkdown(d, sweep).trim().split('\n');
    expect(md[0]).toBe('| cell | rate | strategy | exec budget | gold final | × execution | gap |');
    expect(md).toHaveLength(2 + 2 + 6);
    expect(md[2]).toBe('| frozen (reference) | — | — | 0 | 0.100 ± 0.010 | 0.50 | 0.400 ± 0.010 |');
    expect(md).toContain('| rate-0.1_strategy-random | 0.1 | random | 192 | 0.160 ± 0.020 | 0.80 | 0.200 ± 0.010 |');
    expect(md).toContain('| rate-0.1_strategy-top-proxy\\* | 0.1 | top-proxy | n/a | n/a | n/a | 0.000 ± 0.010 |');
  });
});

describe('a sweep directory of fake seed runs', async () => {
  const dir = join(root, 'sweep');
  const arms = ['frozen', 'execution', 'rate-0.1', 'rate-0.2'];
  writeFakeSweep(dir);
  const res = await writeSweepSummaries(dir);

  it('expands to its seed runs for compare', () => {
    expect(expandSweepDirs([dir, '/elsewhere/run'])).toEqual([join(dir, 'seed-0'), join(dir, 'seed-1'), '/elsewhere/run']);
  });

  it('compare.json/md hold every arm across both seeds, with ± SE', () => {
    const json = JSON.parse(readFileSync(res.compareJson, 'utf8')) as CompareTable;
    expect(json.runs.map((r) => r.seed)).toEqual([0, 1]);
    expect(json.rows.map((r) => r.arm)).toEqual(arms);
    expect(json.rows[2]!.values.finalGold.n).toBe(2);
    const md = readFileSync(res.compareMd, 'utf8');
    expect(md).toMatch(/^\| rate-0\.1 \| 50 \| \d\.\d{3} ± \d\.\d{3} \|/m);
    expect(md).toContain('2 runs (fake-seed0 seed 0, fake-seed1 seed 1)');
    // Interval estimates over the two seeds, every arm paired with the execution arm.
    expect(json.statistics?.reference).toBe('execution');
    expect(json.statistics!.measures[0]!.arms.map((a) => a.arm)).toEqual(arms);
    expect(md).toMatch(/^## Over seeds$/m);
    expect(md).toMatch(/^\| rate-0\.1 \| +2 \| [\d.]+, [\d.]+ \| [\d.]+ \[[\d.]+, [\d.]+\] \|/m);
  });

  it('sweep.md has the knob table and the arms', () => {
    const md = readFileSync(res.sweepMd, 'utf8');
    expect(md).toMatch(/^# Settlement budget sweep: fake$/m);
    expect(md).toContain('grid: settlement.rate = 0.1, 0.2 (2 cells, each an arm extending anchored)');
    // The fake config names no strategy, so the column says so rather than guessing.
    expect(md).toMatch(/^\| rate-0\.2 \| 0\.2 \| n\/a \| 160 \| \d\.\d{3} ± \d\.\d{3} \| \d\.\d{2} \|/m);
    expect(md).toMatch(/^\| execution \(reference\) \| — \| — \| 1600 \| [\d.]+ ± [\d.]+ \| 1\.00 \|/m);
    expect(md).toMatch(/^## All arms$/m);
    // The fake arms' RM quality falls as their gap opens: ranked against their gold ratios.
    expect(md).toMatch(
      /^RM ranking quality vs gold ratio across 3 arms \(execution-reward arms left out\): Spearman ρ = -?\d\.\d\d for the within-group pairwise accuracy/m,
    );
  });

  it('report.html is self-contained and holds the knob chart with a line and two reference rules', async () => {
    const html = readFileSync(res.report, 'utf8');
    expect(externalRefs(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    const fig = html.match(/<figure id="chart-settlement-knob"[^>]*>([\s\S]*?)<\/figure>/);
    expect(fig).not.toBeNull();
    expect(fig![1]).toMatch(/<svg[^>]*class="marks"/);
    expect(fig![1]).toContain('frozen: gold');
    expect(fig![1]).toMatch(/execution: gold [\d.]+ ± [\d.]+ \(budget 1,600 = every rollout\)/);
    const gap = html.match(/<figure id="chart-settlement-knob-gap"[^>]*>([\s\S]*?)<\/figure>/);
    expect(gap).not.toBeNull();
    expect(gap![1]).toMatch(/<svg[^>]*class="marks"/);
    expect(gap![1]).toMatch(/frozen: gap [\d.]+ ± [\d.]+ \(budget 0\)/);
    expect(html).toContain('<a href="seed-0/report.html">');
    const intervals = html.match(/<figure id="chart-seed-intervals"[^>]*>([\s\S]*?)<\/figure>/);
    expect(intervals).not.toBeNull();
    expect(intervals![1]).toMatch(/<svg[^>]*class="marks"/);
    expect(html).toMatch(/<h3>P\(row &gt; column\) on final gold/);
    expect(html).toMatch(/<figure id="chart-rm-quality"[^>]*>[\s\S]*?<svg[^>]*class="marks"/);
    // `report SWEEP_DIR --out elsewhere` links the seed reports relative to where it is written.
    const other = await writeSweepReport(dir, join(root, 'elsewhere', 'r.html'));
    expect(readFileSync(other.path, 'utf8')).toContain('<a href="../sweep/seed-1/report.html">');
  });
});
