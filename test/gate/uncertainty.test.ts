import { describe, expect, it } from 'vitest';
import { GapWindow, hackingGapUcb } from '../../src/gate/uncertainty.ts';
import { Rng } from '../../src/util/rng.ts';

describe('uncertainty', () => {
  it('is mean + z·stderr (one-sided) on a hand case', () => {
    // gaps 0, 0.1, 0.2, 0.3: mean 0.15, sample sd 0.1291, stderr 0.06455
    const b = hackingGapUcb([0, 0.1, 0.2, 0.3], 1.645);
    expect(b.mean).toBeCloseTo(0.15, 12);
    expect(b.stderr).toBeCloseTo(0.0645497, 6);
    expect(b.u).toBeCloseTo(0.15 + 1.645 * 0.0645497, 6);
    expect(b.n).toBe(4);
  });

  it('is +Infinity without enough settled evidence', () => {
    expect(hackingGapUcb([]).u).toBe(Number.POSITIVE_INFINITY);
    expect(hackingGapUcb([0.1]).u).toBe(Number.POSITIVE_INFINITY);
    expect(hackingGapUcb([0.1, 0.2, 0.3], 1.645, 30).u).toBe(Number.POSITIVE_INFINITY);
  });

  it('a larger z gives a larger bound; more samples a tighter one', () => {
    const rng = new Rng(1);
    const gaps = Array.from({ length: 400 }, () => 0.02 + 0.1 * rng.normal());
    expect(hackingGapUcb(gaps, 2.326).u).toBeGreaterThan(hackingGapUcb(gaps, 1.645).u);
    expect(hackingGapUcb(gaps, 1.645).u - hackingGapUcb(gaps).mean).toBeLessThan(
      hackingGapUcb(gaps.slice(0, 40), 1.645).stderr * 1.645,
    );
  });

  it('GapWindow matches hackingGapUcb on its last `capacity` gaps and round-trips', () => {
    const rng = new Rng(2);
    const w = new GapWindow(50);
    const all: number[] = [];
    for (let i = 0; i < 237; i++) {
      const g = rng.next() - 0.3;
      all.push(g);
      w.push(g);
    }
    const last = all.slice(-50);
    expect(w.values()).toEqual(last);
    const a = w.bound(1.645, 30);
    const b = hackingGapUcb(last, 1.645, 30);
    expect(a.u).toBeCloseTo(b.u, 10);
    expect(a.mean).toBeCloseTo(b.mean, 12);
    expect(GapWindow.fromJSON(JSON.parse(JSON.stringify(w.toJSON()))).bound().u).toBeCloseTo(w.bound().u, 12);
  });
});
