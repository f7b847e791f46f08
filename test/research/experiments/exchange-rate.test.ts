import { describe, expect, it } from 'vitest';
import { crossingLog2, runExchangeRate, simulateReplicate } from '../../../src/research/experiments/exchange-rate.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runCli } from '../../helpers/cli.ts';
import { runMain } from './run-main.ts';

describe('exchange-rate', () => {
  it('simulateReplicate: at ρ = 1 the pick is the running maximum (non-decreasing); at ρ → 0 it is a prefix draw', () => {
    const picks = simulateReplicate(new Rng(1), [1, 0.5], 8);
    expect(picks[0]).toHaveLength(9);
    for (let k = 1; k < 9; k++) expect(picks[0]![k]!).toBeGreaterThanOrEqual(picks[0]![k - 1]!);
    // Same stream for every ρ: N = 1 picks the same first candidate.
    expect(picks[1]![0]).toBe(picks[0]![0]);
  });

  it('crossingLog2 interpolates linearly in log2 N and returns null beyond range', () => {
    expect(crossingLog2([0, 1, 2], 1.5)).toBeCloseTo(1.5, 12);
    expect(crossingLog2([0, 1, 2], 0)).toBe(0);
    expect(crossingLog2([0, 1, 2], 3)).toBeNull();
  });

  it('simulation agrees with ρ·E[max] within Monte Carlo error, and the penalty forms are ordered sensibly', () => {
    const r = runExchangeRate({ tasks: 4, seed: 2, batch: 50, maxLog2: 8, rhos: [0.5, 0.9, 1] });
    expect(r.replicates).toBe(200);
    expect(r.maxAbsZ).toBeLessThan(4.5);
    for (const p of r.points) if (p.n === 1) expect(p.theory).toBeCloseTo(0, 8);
    for (const p of r.penalty) {
      // A weaker proxy needs more candidates than the sound verifier.
      expect(p.exactLog2).toBeGreaterThan(Math.log2(p.n));
    }
    // The exact N′ grows with N and falls with ρ.
    const at = (rho: number, n: number): number => r.penalty.find((p) => p.rho === rho && p.n === n)!.exactLog2;
    expect(at(0.5, 16)).toBeGreaterThan(at(0.5, 4));
    expect(at(0.5, 16)).toBeGreaterThan(at(0.9, 16));
    expect(r.maxEmpiricalVsExactLog2.pairs).toBeGreaterThan(0);
  });

  it('is deterministic for a seed', () => {
    const a = runExchangeRate({ tasks: 1, seed: 3, batch: 5, maxLog2: 6 });
    expect(runExchangeRate({ tasks: 1, seed: 3, batch: 5, maxLog2: 6 })).toEqual(a);
  });

  it('CLI --quick-size smoke (one real child process, one in-process)', async () => {
    const r = runCli(['experiment', 'exchange-rate', '--tasks', '1', '--batch', '10', '--max-log2', '6', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).points).toHaveLength(8 * 7);
    const t = await runMain(['experiment', 'exchange-rate', '--tasks', '1', '--batch', '5', '--max-log2', '5']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/compute penalty/);
  });
});
