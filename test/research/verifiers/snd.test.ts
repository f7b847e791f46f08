import { describe, expect, it } from 'vitest';
import { sndCurve } from '../../../src/research/verifiers/snd.ts';

describe('Snd@N', () => {
  it('hand case: a verifier that ranks the bad candidate first', () => {
    // V: N=1 → 2/3, N=2 → 1/3. Oracle: N=1 → 2/3, N=2 → 1.
    const r = sndCurve([{ scores: [3, 2, 1], gold: [0, 1, 1] }]);
    expect(r.points.map((p) => p.n)).toEqual([1, 2]);
    expect(r.points[0]!.snd).toBeCloseTo(1, 12);
    expect(r.points[1]!.snd).toBeCloseTo(1 / 3, 12);
    expect(r.auc).toBeCloseTo(2 / 3, 12);
  });

  it('is 1 at every N for the sound verifier and uses a ratio of means across problems', () => {
    const pools = [
      { scores: [0.1, 0.9, 0.5, 0.2], gold: [0, 1, 0.5, 0] },
      { scores: [5, 4, 3, 2], gold: [0, 0, 1, 0] },
    ];
    const sound = sndCurve(pools.map((p) => ({ scores: p.gold, gold: p.gold })));
    for (const p of sound.points) expect(p.snd).toBeCloseTo(1, 12);
    expect(sound.auc).toBeCloseTo(1, 12);
    const r = sndCurve(pools, 2);
    // N=4: V picks gold 1 on problem 1, gold 0 on problem 2; oracle gets 1 and 1.
    expect(r.points[2]!.verifierGold).toBeCloseTo(0.5, 12);
    expect(r.points[2]!.oracleGold).toBeCloseTo(1, 12);
    expect(r.points[2]!.snd).toBeCloseTo(0.5, 12);
    expect(r.points[2]!.se).toBeGreaterThan(0);
  });

  it('refuses a max log2 larger than the smallest pool allows', () => {
    expect(() => sndCurve([{ scores: [1, 2, 3], gold: [0, 0, 1] }], 2)).toThrow(/at least 4/);
  });
});
