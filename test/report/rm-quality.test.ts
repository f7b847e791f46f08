import { describe, expect, it } from 'vitest';
import type { CompareTable } from '../../src/report/compare.ts';
import { rmQualityChartSpec, rmQualityRelation, rmQualitySentence } from '../../src/report/rm-quality.ts';

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
