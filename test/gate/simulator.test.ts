import { describe, expect, it } from 'vitest';
import { probeOrder, rankClaims, WindowMiningSimulator } from '../../src/gate/simulator.ts';
import type { WindowItem } from '../../src/gate/types.ts';

const opts = { depth: 2, topK: 3, margin: 0.2 };

describe('simulator', () => {
  it('mines settled completions whose proxy most exceeds gold, above the margin', async () => {
    const window: WindowItem[] = [
      { id: 'a', proxy: 0.9, gold: 0.1 }, // gap 0.8
      { id: 'b', proxy: 0.6, gold: 0.5 }, // gap 0.1: below margin
      { id: 'c', proxy: 0.7, gold: 0.2 }, // gap 0.5
      { id: 'd', proxy: 0.95, gold: 0.05 }, // gap 0.9
      { id: 'e', proxy: 0.5, gold: 0.25 }, // gap 0.25
      { id: 'f', proxy: 0.2, gold: 0.9 }, // underpaid, never a claim
    ];
    const claims = await new WindowMiningSimulator().find(window, opts);
    expect(claims.map((c) => c.item.id)).toEqual(['d', 'a', 'c']);
    expect(claims[0]!.gap).toBeCloseTo(0.9);
    expect(claims.every((c) => c.source === 'settled')).toBe(true);
  });

  it('spends its probe depth on the highest-proxy unsettled completions', async () => {
    const window: WindowItem[] = [
      { id: 'u1', proxy: 0.99, gold: null },
      { id: 'u2', proxy: 0.5, gold: null },
      { id: 'u3', proxy: 0.9, gold: null },
      { id: 's1', proxy: 0.95, gold: 0.9 },
    ];
    expect(probeOrder(window, 2).map((w) => w.id)).toEqual(['u1', 'u3']);
    expect(probeOrder(window, 0)).toEqual([]);
    const probed: string[] = [];
    const sim = new WindowMiningSimulator((it) => {
      probed.push(it.id);
      return 0; // every probed completion fails its tests
    });
    const claims = await sim.find(window, opts);
    expect(probed).toEqual(['u1', 'u3']);
    expect(claims.map((c) => [c.item.id, c.source])).toEqual([
      ['u1', 'probe'],
      ['u3', 'probe'],
    ]);
    // Deeper simulation finds the third failure too.
    expect((await sim.find(window, { ...opts, depth: 3 })).map((c) => c.item.id)).toEqual(['u1', 'u3', 'u2']);
  });

  it('ignores probes that cannot tell (null) and supports async probes', async () => {
    const window: WindowItem[] = [
      { id: 'x', proxy: 0.9, gold: null },
      { id: 'y', proxy: 0.8, gold: null },
    ];
    const sim = new WindowMiningSimulator(async (it) => (it.id === 'y' ? 0.1 : null));
    const claims = await sim.find(window, opts);
    expect(claims.map((c) => c.item.id)).toEqual(['y']);
  });

  it('rankClaims breaks ties by id and honours topK', () => {
    const mk = (id: string, gap: number) => ({ item: { id, proxy: gap, gold: 0 }, gold: 0, gap, source: 'settled' as const });
    expect(rankClaims([mk('b', 0.5), mk('a', 0.5), mk('c', 0.9)], 2, 0.2).map((c) => c.item.id)).toEqual(['c', 'a']);
    expect(rankClaims([mk('a', 0.2)], 5, 0.2)).toEqual([]);
  });
});
