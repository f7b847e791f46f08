import { describe, expect, it } from 'vitest';
import { editDistance, mutate, runAdversaryExperiment } from '../../../src/research/experiments/adversary.ts';
import { dsl6, richdsl } from '../../../src/tasks/index.ts';
import { Rng } from '../../../src/util/rng.ts';
import { runMain } from './run-main.ts';
import { main } from '../../../src/cli/main.ts';

describe('adversary pieces', () => {
  it('editDistance is Levenshtein', () => {
    expect(editDistance('', 'ABC')).toBe(3);
    expect(editDistance('ADQ', 'ADQ')).toBe(0);
    expect(editDistance('ADQ', 'AQ')).toBe(1);
    expect(editDistance('ADQ', 'ATQ')).toBe(1);
    expect(editDistance('ADQS', 'SADQ')).toBe(2);
  });

  it('mutate makes one edit and keeps the program within the world', () => {
    const rng = new Rng(1);
    for (const w of [dsl6, richdsl]) {
      let p = w.randomProgram(rng);
      for (let i = 0; i < 500; i++) {
        const q = mutate(w, p, rng);
        expect(editDistance(p, q)).toBe(1);
        expect(q.length).toBeGreaterThanOrEqual(1);
        expect(q.length).toBeLessThanOrEqual(w.maxLength);
        for (const ch of q) expect(w.tokens).toContain(ch);
        p = q;
      }
    }
  });

  it('sound has zero gap, only anchored spends reality queries, settlement-aware restarts only against anchored', () => {
    const r = runAdversaryExperiment({ domain: 'dsl6', tasks: 2, seed: 1, steps: 30, base: 200, every: 5, probes: 32 });
    for (const s of r.series) {
      expect(s.gold).toHaveLength(31);
      if (s.target === 'sound') for (const g of s.gap) expect(g.mean).toBe(0);
      if (s.target !== 'anchored') expect(s.queries.mean).toBe(0);
      else expect(s.queries.mean).toBeGreaterThan(0);
      if (s.adversary === 'settlement-aware' && s.target !== 'anchored') expect(s.restarts.mean).toBe(0);
      // Steepest ascent on the sound verifier never loses gold.
      if (s.adversary === 'steepest' && s.target === 'sound')
        for (let t = 1; t <= 30; t++) expect(s.gold[t]!.mean).toBeGreaterThanOrEqual(s.gold[t - 1]!.mean);
    }
    // Each adversary starts from the same program whatever the verifier.
    const by = (a: string, v: string) => r.series.find((s) => s.adversary === a && s.target === v)!;
    expect(by('steepest', 'frozen').gold[0]).toEqual(by('steepest', 'sound').gold[0]);
    // Until the first settlement the frozen and anchored verifiers are the same model.
    for (let t = 0; t < 5; t++) expect(by('evolutionary', 'anchored').gap[t]).toEqual(by('evolutionary', 'frozen').gap[t]);
  });

  it('CLI smoke and bad input', async () => {
    const r = await runMain([
      'experiment',
      'adversary',
      '--tasks',
      '1',
      '--steps',
      '10',
      '--base',
      '100',
      '--every',
      '5',
      '--probes',
      '16',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/settlement-aware vs anchored/);
    expect(await main(['experiment', 'adversary', '--tasks', '1', '--steps', '0'])).toBe(2);
  });
});
