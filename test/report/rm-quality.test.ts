import { describe, expect, it } from 'vitest';
import type { CompareTable } from '../../src/report/compare.ts';
import {
  formatRmQualityMarkdown,
  rmQualityChartSpec,
  rmQualityRelation,
  rmQualitySentence,
} from '../../src/report/rm-quality.ts';

type Values = CompareTable['rows'][number]['values'];
const cell = (mean: number | null) => ({ mean, se: null, n: mean === null ? 0 : 1 });

/** A one-run table with what rmQualityRelation reads. */
function table(
  rows: [arm: string, pairAcc: number | null, auc: number | null, ratio: number | null, exec?: boolean][],
): CompareTable {
  return {
    window: 10,
    runs: [{ dir: '/r', name: 'r', seed: 4, incompleteArms: [], emptyArms: [] }],
    columns: [],
    rows: rows.map(([arm, p, a, g, exec]) => ({
      arm,
      ...(exec ? { role: 'execution' as const } : {}),
      runs: 1,
      incomplete: false,
      states: ['done'],
      values: { rmPairAcc: cell(p), rmAuc: cell(a), goldRatio: cell(g) } as Values,
      perRun: [{ rmPairAcc: p, rmAuc: a, goldRatio: g } as Record<keyof Values, number | null>],
    })),
    incompleteArms: [],
    emptyArms: [],
    warnings: [],
    statistics: null,
  };
}

describe('rmQualityRelation', () => {
  it('over seeds, leaves an arm with an unfinished run out (no pooled point, no place in ρ); one live run keeps it', () => {
    const one = table([
      ['a', 0.6, 0.7, 0.7],
      ['b', 0.7, 0.6, 0.8],
      ['c', 0.8, 0.5, 0.9],
      // Still running on one seed: its partial window would reverse the order if it counted.
      ['d', 0.9, 0.4, 0.1],
    ]);
    const t: CompareTable = {
      ...one,
      runs: [...one.runs, { dir: '/s', name: 's', seed: 5, incompleteArms: ['d'], emptyArms: [] }],
      rows: one.rows.map((r) => ({
        ...r,
        runs: 2,
        perRun: [r.perRun[0]!, r.perRun[0]!],
        ...(r.arm === 'd' ? { incomplete: true, states: ['done', 'running'] } : { states: ['done', 'done'] }),
      })),
    };
    const rel = rmQualityRelation(t)!;
    expect(rel.arms.map((a) => a.arm)).toEqual(['a', 'b', 'c']);
    expect(rel.rhoPairAcc).toBeCloseTo(1, 12);
    expect(rel.nPairAccRuns).toBe(6);
    expect(rel.rhoPairAccRuns).toBeCloseTo(1, 12);
    one.rows[3] = { ...one.rows[3]!, incomplete: true, states: ['running'] };
    expect(rmQualityRelation(one)!.arms.map((a) => a.arm)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ranks arms by RM quality against their gold ratio, leaving execution-reward arms out', () => {
    const rel = rmQualityRelation(
      table([
        ['execution', 0.1, 0.1, 1, true],
        ['a', 0.6, 0.7, 0.7],
        ['b', 0.7, 0.6, 0.8],
        ['c', 0.8, 0.5, 0.9],
        ['no-rm', null, null, 0.5],
      ]),
    )!;
    expect(rel.arms.map((a) => a.arm)).toEqual(['a', 'b', 'c']);
    expect(rel.rhoPairAcc).toBeCloseTo(1, 12);
    expect(rel.rhoAuc).toBeCloseTo(-1, 12);
    expect(rel.arms[0]!.runs).toEqual([{ seed: 4, pairAcc: 0.6, auc: 0.7, goldRatio: 0.7 }]);
    expect(rmQualitySentence(rel)).toMatch(
      /across 3 arms .*ρ = 1\.00 for the within-group pairwise accuracy, -1\.00 for the AUC/,
    );
    expect(rmQualityChartSpec(rel, new Map())).not.toBeNull();
  });

  it('null without an arm that has both; ρ null with fewer than 3 arms', () => {
    expect(rmQualityRelation(table([['a', null, null, 0.7]]))).toBeNull();
    expect(rmQualityRelation(table([['a', 0.6, null, 0.7]]))!.rhoPairAcc).toBeNull();
  });
});

describe('rmQualityRelation pooled over arm and seed', () => {
  // Two RM arms × three seeds: too few arms for an across-arm ρ, six points for the pooled one.
  const runs: [pairAcc: number, ratio: number][][] = [
    [
      [0.5, 0.5],
      [0.6, 0.6],
      [0.7, 0.7],
    ],
    [
      [0.8, 0.9],
      [0.55, 0.4],
      [0.65, 0.65],
    ],
  ];
  const t: CompareTable = {
    ...table([]),
    runs: [0, 1, 2].map((seed) => ({ dir: `/r${seed}`, name: 'r', seed: 100 + seed, incompleteArms: [], emptyArms: [] })),
    rows: runs.map((rs, i) => ({
      arm: ['a', 'b'][i]!,
      runs: 3,
      incomplete: false,
      states: ['done', 'done', 'done'],
      values: {
        rmPairAcc: cell(rs.reduce((s, r) => s + r[0], 0) / 3),
        rmAuc: cell(null),
        goldRatio: cell(rs.reduce((s, r) => s + r[1], 0) / 3),
      } as Values,
      perRun: rs.map(([p, g]) => ({ rmPairAcc: p, rmAuc: null, goldRatio: g }) as Record<keyof Values, number | null>),
    })),
  };

  it('ranks the six points by hand: pair-acc ranks 1,3,5,6,2,4 against ratio ranks 2,3,5,6,1,4, Σd² = 2, ρ = 1 − 12/210', () => {
    const rel = rmQualityRelation(t)!;
    expect(rel.rhoPairAcc).toBeNull();
    expect(rel.nPairAccRuns).toBe(6);
    expect(rel.rhoPairAccRuns).toBeCloseTo(1 - 12 / 210, 12);
    expect(rel.rhoAucRuns).toBeNull();
    expect(rel.nAucRuns).toBe(0);
    expect(rmQualitySentence(rel)).toContain('over every arm and seed (6 points) ρ = 0.94 for the pair accuracy');
  });

  it('tabulates every arm and seed, then the arm means, in Markdown', () => {
    const md = formatRmQualityMarkdown(rmQualityRelation(t)!);
    expect(md).toContain('| b | 101 | 0.550 | n/a | 0.40 |');
    expect(md).toContain('| **a** (mean) |  | 0.600 | n/a | 0.60 |');
  });
});
