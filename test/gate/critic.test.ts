import { describe, expect, it } from 'vitest';
import { attribute, Critic, UNATTRIBUTED } from '../../src/gate/critic.ts';
import type { Claim } from '../../src/gate/types.ts';

const rm = { weights: [0.5, 2, -1, 0.1], featureNames: ['len', 'assert_stub', 'loops', 'comments'] };
const mean = [10, 0.1, 1, 2];

function claim(features: number[] | { indices: number[]; values: number[] } | undefined, gap = 0.6): Claim {
  return {
    item: { id: 'c1', proxy: 0.9, gold: 0.9 - gap, ...(features ? { features } : {}) },
    gold: 0.9 - gap,
    gap,
    source: 'settled',
  };
}

describe('critic', () => {
  it('attributes the overpayment w_j·(x_j − x̄_j) to features, largest first', () => {
    // contributions: len 0.5*(12-10)=1, assert_stub 2*(1-0.1)=1.8, loops -1*(0-1)=1, comments 0.1*(2-2)=0
    const a = attribute([12, 1, 0, 2], rm, mean);
    expect(a.map((x) => x.feature)).toEqual(['assert_stub', 'len', 'loops']);
    expect(a[0]!.contribution).toBeCloseTo(1.8);
  });

  it('keys the mode by the most overpaid features and grades severity by the gap', () => {
    const critic = new Critic({ keyFeatures: 2, highSeverity: 0.3 });
    const f = critic.explain(claim([12, 1, 0, 2], 0.6), rm, mean);
    expect(f.mode).toBe('assert_stub+len'); // top two, sorted: a canonical key
    expect(f.severity).toBeCloseTo(0.6);
    expect(f.high).toBe(true);
    expect(critic.explain(claim([12, 1, 0, 2], 0.25), rm, mean).high).toBe(false);
  });

  it('drops minor contributors from the key', () => {
    const critic = new Critic({ keyFeatures: 2, highSeverity: 0.3 });
    // assert_stub 1.8 vs len 0.5*(10.2-10)=0.1: len is below a quarter of the top, so not part of the key.
    expect(critic.explain(claim([10.2, 1, 1, 2]), rm, mean).mode).toBe('assert_stub');
  });

  it('handles sparse features the same as dense', () => {
    const critic = new Critic({ keyFeatures: 1, highSeverity: 0.3 });
    const dense = critic.explain(claim([0, 1, 0, 0]), rm, [0, 0, 0, 0]);
    const sparse = critic.explain(claim({ indices: [1], values: [1] }), rm, [0, 0, 0, 0]);
    expect(sparse.mode).toBe(dense.mode);
    expect(sparse.attribution).toEqual(dense.attribution);
  });

  it('labels failures with no overpaid feature (or no features) as unattributed', () => {
    const critic = new Critic({ keyFeatures: 2, highSeverity: 0.3 });
    expect(critic.explain(claim(undefined), rm, mean).mode).toBe(UNATTRIBUTED);
    expect(critic.explain(claim([10, 0.1, 1, 2]), rm, mean).mode).toBe(UNATTRIBUTED);
  });
});
