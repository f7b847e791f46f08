import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copulaPickGold, predictPool, runCopula, runCopulaOnRecords } from '../../../src/research/experiments/copula.ts';
import { normCdf } from '../../../src/research/experiments/gaussian.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runMain } from './run-main.ts';

function discreteGold(rng: Rng, m: number): number[] {
  return Array.from({ length: m }, () => Math.floor(rng.next() * rng.next() * 9) / 8);
}

describe('copula predictions', () => {
  it('copulaPickGold equals a Monte Carlo simulation of the copula model', () => {
    const rng = new Rng(1);
    const gold = discreteGold(rng, 400);
    const sorted = [...gold].sort((a, b) => a - b);
    const r = 0.6;
    const exact = copulaPickGold(gold, r, [4, 32]);
    [4, 32].forEach((n, i) => {
      let s = 0;
      const R = 6000;
      for (let k = 0; k < R; k++) {
        let best = -Infinity;
        let bz = 0;
        for (let j = 0; j < n; j++) {
          const zg = rng.normal();
          const zp = r * zg + Math.sqrt(1 - r * r) * rng.normal();
          if (zp > best) [best, bz] = [zp, zg];
        }
        s += sorted[Math.min(sorted.length - 1, Math.floor(normCdf(bz) * sorted.length))]!;
      }
      expect(Math.abs(s / R - exact[i]!)).toBeLessThan(0.012);
    });
  });

  it('r = 0 gives the pool mean at every N', () => {
    const gold = discreteGold(new Rng(2), 300);
    const mean = gold.reduce((a, b) => a + b, 0) / gold.length;
    for (const v of copulaPickGold(gold, 0, [2, 64, 256])) expect(v).toBeCloseTo(mean, 6);
  });

  it('a verifier that scores gold is measured as sound and both predictions are close to 1', () => {
    const rng = new Rng(3);
    const gold = discreteGold(rng, 256).map((g) => g + rng.next() * 1e-6); // continuous ⇒ ranks = gold
    const p = predictPool(gold, gold, 6);
    for (const m of p.measured) expect(m).toBeCloseTo(1, 12);
    expect(p.spearman).toBeCloseTo(1, 12);
    for (const c of p.copula) expect(c).toBeGreaterThan(0.9);
    for (const c of p.pearson) expect(c).toBeCloseTo(1, 6);
  });

  it('runs on goodhart pools and on a pool file (same figures from the same pools)', async () => {
    const r = runCopula({ domain: 'dsl6', tasks: 2, seed: 4, train: 150, pool: 128, maxLog2: 6 });
    expect(r.verifiers[0]!.verifier).toBe('ridge-43');
    expect(r.verifiers[0]!.perN.map((x) => x.n)).toEqual([2, 4, 8, 16, 32, 64]);
    expect(r.verifiers[0]!.copulaMedianAbsErr.value).toBeGreaterThanOrEqual(0);
    const rng = new Rng(9);
    const records = [0, 1, 2].flatMap((p) =>
      Array.from({ length: 64 }, (_, i) => {
        const gold = Math.floor(rng.next() * 3) / 2;
        return { problem: `p${p}`, candidate: String(i), scores: { v: gold + rng.normal() }, gold };
      }),
    );
    const f = runCopulaOnRecords(records, 'mem');
    expect(f.problems).toBe(3);
    expect(f.maxLog2).toBe(6);
    const dir = mkdtempSync(join(tmpdir(), 'copula-'));
    const file = join(dir, 'pool.jsonl');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const cli = await runMain(['experiment', 'copula', '--pool', file, '--json']);
    expect(cli.code).toBe(0);
    const j = JSON.parse(cli.stdout);
    expect(j.verifiers[0].copulaMedianAbsErr.value).toBeCloseTo(f.verifiers[0]!.copulaMedianAbsErr.value, 12);
  });

  it('CLI smoke on goodhart pools', async () => {
    const r = await runMain(['experiment', 'copula', '--tasks', '2', '--train', '100', '--pool-size', '64']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/median \|copula − measured\|/);
  });
});
