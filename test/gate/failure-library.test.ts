import { describe, expect, it } from 'vitest';
import { FailureLibrary } from '../../src/gate/failure-library.ts';
import type { Finding } from '../../src/gate/types.ts';

function finding(mode: string, id: string, gap = 0.6): Finding {
  return {
    claim: { item: { id, proxy: 0.9, gold: null }, gold: 0.9 - gap, gap, source: 'probe' },
    mode,
    severity: gap,
    high: gap >= 0.3,
    attribution: [],
  };
}

/** Reality: only ids starting with "real" reproduce. */
const verify = (c: { item: { id: string } }) => c.item.id.startsWith('real');

describe('failure library', () => {
  it('stores reproduced claims and refuses unreproduced ones (reward 0, not stored)', async () => {
    const lib = new FailureLibrary(verify);
    const fake = await lib.submit(finding('m1', 'fake-1'), 0);
    expect(fake).toEqual({ reproduced: false, stored: false, novel: false, surprise: false, reward: 0 });
    expect(lib.size).toBe(0);
    expect(lib.has('m1')).toBe(false);
    const real = await lib.submit(finding('m1', 'real-1'), 1);
    expect(real).toMatchObject({ reproduced: true, stored: true, novel: true, reward: 1 });
    expect(lib.has('m1')).toBe(true);
    expect(lib.stats).toMatchObject({ claims: 2, reproduced: 1, rejected: 1, rewardReproduced: 1, rewardRejected: 0 });
  });

  it('accepts async verification', async () => {
    const lib = new FailureLibrary(async (c) => c.item.id === 'real');
    expect((await lib.submit(finding('m', 'real'), 0)).stored).toBe(true);
    expect((await lib.submit(finding('n', 'nope'), 0)).stored).toBe(false);
  });

  it('only grows', async () => {
    const lib = new FailureLibrary(verify);
    let prev = 0;
    const ids = ['real-a', 'fake-b', 'real-c', 'real-a2', 'fake-d', 'real-e'];
    const modes = ['a', 'b', 'c', 'a', 'd', 'e'];
    for (let i = 0; i < ids.length; i++) {
      await lib.submit(finding(modes[i]!, ids[i]!), i);
      expect(lib.size).toBeGreaterThanOrEqual(prev);
      prev = lib.size;
    }
    expect(lib.modes()).toEqual(['a', 'c', 'e']);
    expect(Object.getOwnPropertyNames(FailureLibrary.prototype).filter((n) => /delete|remove|clear/i.test(n))).toEqual([]);
  });

  it('counts a surprise only for a committed, reproduced failure of an unknown mode — once per mode', async () => {
    const lib = new FailureLibrary(verify);
    expect((await lib.submit(finding('a', 'real-1'), 0, false)).surprise).toBe(false); // found before commit
    expect((await lib.submit(finding('a', 'real-2'), 1, true)).surprise).toBe(false); // known by now
    expect((await lib.submit(finding('b', 'fake-3'), 2, true)).surprise).toBe(false); // not reproduced
    expect((await lib.submit(finding('b', 'real-4'), 3, true)).surprise).toBe(true);
    expect((await lib.submit(finding('b', 'real-5'), 4, true)).surprise).toBe(false); // cannot surprise twice
    expect(lib.stats.surprises).toBe(1);
  });

  it('Good–Turing on a hand case: fraction of observations whose mode was seen exactly once', async () => {
    const lib = new FailureLibrary(verify);
    expect(lib.goodTuring()).toBe(1);
    // Observations per round: a a a b c c d  -> counts a3 b1 c2 d1, n = 7, n1 = 2 -> 2/7
    const seq = ['a', 'a', 'a', 'b', 'c', 'c', 'd'];
    for (let r = 0; r < seq.length; r++) await lib.submit(finding(seq[r]!, `real-${r}`), r);
    expect(lib.stats.observations).toBe(7);
    expect(lib.goodTuring()).toBeCloseTo(2 / 7, 12);
    // A second failing completion of mode b in the same round is the same draw: no new observation.
    await lib.submit(finding('b', 'real-3bis'), 3);
    expect(lib.goodTuring()).toBeCloseTo(2 / 7, 12);
    // b seen again in a new round: n = 8, n1 = 1 (d) -> 1/8
    await lib.submit(finding('b', 'real-9'), 9);
    expect(lib.goodTuring()).toBeCloseTo(1 / 8, 12);
  });

  it('exact missing mass under a known distribution', async () => {
    const lib = new FailureLibrary(verify);
    const p = new Map([
      ['a', 0.5],
      ['b', 0.3],
      ['c', 0.2],
    ]);
    expect(lib.missingMass(p)).toBeCloseTo(1);
    await lib.submit(finding('b', 'real-1'), 0);
    expect(lib.missingMass(p)).toBeCloseTo(0.7);
    await lib.submit(finding('a', 'real-2'), 1);
    expect(lib.missingMass(p)).toBeCloseTo(0.2);
  });

  it('round-trips through JSON (checkpoint) with the same behaviour', async () => {
    const lib = new FailureLibrary(verify, { maxExemplars: 2 });
    for (let r = 0; r < 5; r++) await lib.submit(finding(r % 2 ? 'x' : 'y', `real-${r}`), r, true);
    await lib.submit(finding('z', 'fake'), 6);
    const back = FailureLibrary.fromJSON(JSON.parse(JSON.stringify(lib.toJSON())), verify);
    expect(back.toJSON()).toEqual(lib.toJSON());
    expect(back.goodTuring()).toBe(lib.goodTuring());
    expect(back.entry('y')!.exemplars).toHaveLength(2);
    // Still refuses unverified claims after restore, and still knows its modes.
    expect((await back.submit(finding('q', 'fake-2'), 7)).stored).toBe(false);
    expect((await back.submit(finding('x', 'real-8'), 8, true)).surprise).toBe(false);
  });
});
