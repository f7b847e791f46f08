import { describe, expect, it } from 'vitest';
import { runStrongVerifier } from '../../../src/research/experiments/strong-verifier.ts';
import { runSettlementLoop } from '../../../src/research/experiments/settlement-loop.ts';
import { runMain } from './run-main.ts';
import { main } from '../../../src/cli/main.ts';

describe('strong-verifier', () => {
  it('settlement-loop takes the GBT verifier and differs from ridge', () => {
    const base = { domain: 'richdsl' as const, tasks: 1, seed: 1, rounds: 2, pool: 96, top: 8, base: 80 };
    const g = runSettlementLoop({ ...base, verifier: 'gbt-strong-359' });
    const w = runSettlementLoop(base);
    expect(g.verifier).toMatchObject({ name: 'gbt-strong-359', model: 'gbt', dim: 359 });
    expect(w.verifier).toMatchObject({ name: 'ridge-weak-111', model: 'ridge', dim: 111 });
    expect(g.perRound[0]!.anchored.drift.mean).not.toBe(w.perRound[0]!.anchored.drift.mean);
    expect(() => runSettlementLoop({ ...base, verifier: 'nope' })).toThrow(/not a richdsl verifier/);
  });

  it('runs goodhart and both settlement loops on the same tasks; DSL-6 is rejected', async () => {
    const r = runStrongVerifier({
      tasks: 1,
      seed: 2,
      train: 100,
      pool: 64,
      maxLog2: 6,
      rounds: 2,
      loopPool: 64,
      top: 8,
      base: 60,
    });
    expect(Object.keys(r.goodhart.auc)).toEqual(['ridge-weak-111', 'gbt-strong-359', 'ridge-strong-359']);
    expect(r.settlement.weak.perRound[0]!.poolGold).toEqual(r.settlement.strong.perRound[0]!.poolGold);
    expect(() => runStrongVerifier({ domain: 'dsl6', tasks: 1, seed: 0 })).toThrow(/RichDSL only/);
    expect(await main(['experiment', 'strong-verifier', '--domain', 'dsl6', '--tasks', '1'])).toBe(2);
  });

  it('CLI smoke', async () => {
    const r = await runMain([
      'experiment',
      'strong-verifier',
      '--tasks',
      '1',
      '--train',
      '100',
      '--pool',
      '64',
      '--rounds',
      '2',
      '--top',
      '8',
      '--base',
      '60',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/verifier gbt-strong-359/);
    expect(r.stdout).toMatch(/verifier ridge-weak-111/);
  });
});
