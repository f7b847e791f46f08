import { describe, expect, it } from 'vitest';
import { conservativeReward, parShape, shapesReward } from '../../src/train/proxy-reward.ts';
import { proxyConfigSchema } from '../../src/train/config.ts';

describe('conservative ensemble reward', () => {
  const preds = [Float64Array.from([0.2, 0.5, 0.9]), Float64Array.from([0.4, 0.5, 0.1]), Float64Array.from([0.3, 0.5, 0.5])];
  it('std mode: member mean minus λ times the population std', () => {
    const r = conservativeReward(preds, 'std', 2);
    const sd0 = Math.sqrt(((0.2 - 0.3) ** 2 + (0.4 - 0.3) ** 2 + 0) / 3);
    const sd2 = Math.sqrt(((0.9 - 0.5) ** 2 + (0.1 - 0.5) ** 2 + 0) / 3);
    expect(r[0]).toBeCloseTo(0.3 - 2 * sd0, 12);
    expect(r[1]).toBeCloseTo(0.5, 12); // members agree: no penalty
    expect(r[2]).toBeCloseTo(0.5 - 2 * sd2, 12);
    // The disputed completion (same mean as the agreed one) now earns less.
    expect(r[2]!).toBeLessThan(r[1]!);
  });
  it('min mode: the worst member; λ = 0 is the plain mean', () => {
    expect(Array.from(conservativeReward(preds, 'min', 1))).toEqual([0.2, 0.5, 0.1]);
    const m = conservativeReward(preds, 'std', 0);
    [0.3, 0.5, 0.5].forEach((v, i) => expect(m[i]).toBeCloseTo(v, 12));
  });
});

describe('PAR shaping', () => {
  it('is 0.5 at the reference, bounded in (0, 1) and monotone', () => {
    const r = parShape([0.15, -10, 10, 0.25, 0.35], 0.15, 0.1);
    expect(r[0]).toBeCloseTo(0.5, 12);
    expect(r[1]!).toBeGreaterThan(0);
    expect(r[2]!).toBeLessThanOrEqual(1);
    expect(r[3]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
    expect(r[4]! - r[3]!).toBeLessThan(r[3]! - r[0]!); // saturates above the reference
  });
  it('the default proxy config leaves the reward alone', () => {
    const cfg = proxyConfigSchema.parse({});
    expect(shapesReward(cfg)).toBe(false);
    expect(shapesReward(proxyConfigSchema.parse({ par: { enabled: true } }))).toBe(true);
    expect(() => proxyConfigSchema.parse({ ensemble: { mode: 'max' } })).toThrow();
  });
});
