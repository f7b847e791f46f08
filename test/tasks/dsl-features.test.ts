import { describe, expect, it } from 'vitest';
import { dsl6, fnv1a32, richdsl, trigramBucket } from '../../src/tasks/index.ts';
import { Rng } from '../../src/util/rng.ts';

/** Independent FNV-1a (BigInt arithmetic) to check the shared one. */
function fnvRef(text: string): number {
  let h = 0x811c9dc5n;
  for (const ch of text) {
    h ^= BigInt(ch.charCodeAt(0));
    h = (h * 0x01000193n) % 0x100000000n;
  }
  return Number(h);
}

/** Sparse view: index -> value for the nonzero entries. */
function nonzero(v: Float32Array): Record<number, number> {
  const out: Record<number, number> = {};
  v.forEach((x, i) => {
    if (x !== 0) out[i] = x;
  });
  return out;
}

describe('FNV-1a', () => {
  it('matches the published test vectors and an independent implementation', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
    for (const s of ['PMG', 'AAA', 'QHM', 'GGG']) expect(fnv1a32(s)).toBe(fnvRef(s));
  });
});

describe('DSL-6 features (43)', () => {
  it('has 6 counts + 36 bigrams + length', () => {
    expect(dsl6.featureDim()).toBe(43);
    expect(dsl6.featureSets).toEqual(['default']);
    const names = dsl6.featureNames();
    expect(names.slice(0, 6)).toEqual(['count:A', 'count:S', 'count:D', 'count:T', 'count:N', 'count:Q']);
    expect(names[6]).toBe('bigram:AA');
    expect(names[7]).toBe('bigram:AS');
    expect(names[41]).toBe('bigram:QQ');
    expect(names[42]).toBe('length');
  });

  it('hand-computed: AASQ', () => {
    // counts A=2 S=1 Q=1; bigrams AA (6+0*6+0=6), AS (6+0*6+1=7), SQ (6+1*6+5=17); length 4.
    expect(nonzero(dsl6.features('AASQ'))).toEqual({ 0: 2, 1: 1, 5: 1, 6: 1, 7: 1, 17: 1, 42: 4 });
  });

  it('hand-computed: repeated bigrams are counted, single token has no bigram', () => {
    // NNN: count N (index 4) = 3, bigram NN = 6 + 4*6 + 4 = 34 twice, length 3.
    expect(nonzero(dsl6.features('NNN'))).toEqual({ 4: 3, 34: 2, 42: 3 });
    expect(nonzero(dsl6.features('T'))).toEqual({ 3: 1, 42: 1 });
  });

  it('rejects unknown feature sets', () => {
    expect(() => dsl6.features('A', 'strong')).toThrow(/no feature set/);
  });
});

describe('RichDSL features', () => {
  it('weak: 10 counts + 100 bigrams + length = 111', () => {
    expect(richdsl.featureSets).toEqual(['weak', 'strong']);
    expect(richdsl.featureDim()).toBe(111);
    expect(richdsl.featureDim('weak')).toBe(111);
    // Tokens A S D T H N Q P M G -> P=7, M=8, G=9. PM = 10+7*10+8 = 88, MG = 10+8*10+9 = 99.
    expect(nonzero(richdsl.features('PMG'))).toEqual({ 7: 1, 8: 1, 9: 1, 88: 1, 99: 1, 110: 3 });
    expect(richdsl.features('PMG', 'weak')).toEqual(richdsl.features('PMG'));
  });

  it('strong: 111 + 100 positional + 128 hashed trigrams + 10 first + 10 last = 359', () => {
    expect(richdsl.featureDim('strong')).toBe(359);
    const names = richdsl.featureNames('strong');
    expect(names.length).toBe(359);
    expect(names[111]).toBe('pos0:A');
    expect(names[210]).toBe('pos9:G');
    expect(names[211]).toBe('trigram#0');
    expect(names[338]).toBe('trigram#127');
    expect(names[339]).toBe('first:A');
    expect(names[349]).toBe('last:A');
    expect(names[358]).toBe('last:G');
  });

  it('strong hand-computed: PMG', () => {
    const bucket = fnvRef('PMG') % 128;
    expect(trigramBucket('PMG')).toBe(bucket);
    const expected: Record<number, number> = {
      7: 1,
      8: 1,
      9: 1,
      88: 1,
      99: 1,
      110: 3, // the weak block
      [111 + 0 * 10 + 7]: 1, // pos0 = P
      [111 + 1 * 10 + 8]: 1, // pos1 = M
      [111 + 2 * 10 + 9]: 1, // pos2 = G
      [211 + bucket]: 1, // trigram PMG
      [339 + 7]: 1, // first = P
      [349 + 9]: 1, // last = G
    };
    expect(nonzero(richdsl.features('PMG', 'strong'))).toEqual(expected);
  });

  it('strong hand-computed: AAAA has two AAA trigrams, first = last = A', () => {
    const b = fnvRef('AAA') % 128;
    const expected: Record<number, number> = {
      0: 4,
      10: 3,
      110: 4,
      111: 1,
      121: 1,
      131: 1,
      141: 1,
      [211 + b]: 2,
      339: 1,
      349: 1,
    };
    expect(nonzero(richdsl.features('AAAA', 'strong'))).toEqual(expected);
  });

  it('strong: positions cover all 10 slots of a maximal program', () => {
    const f = richdsl.features('GGGGGGGGGG', 'strong');
    for (let p = 0; p < 10; p++) expect(f[111 + p * 10 + 9]).toBe(1);
    expect(f[9]).toBe(10);
    expect(f[110]).toBe(10);
  });

  it('the weak block of strong features equals the weak features on random programs', () => {
    const rng = new Rng(3);
    for (let i = 0; i < 500; i++) {
      const p = richdsl.randomProgram(rng);
      const strong = richdsl.features(p, 'strong');
      expect(Array.from(strong.subarray(0, 111))).toEqual(Array.from(richdsl.features(p, 'weak')));
      // Sums of the blocks: counts = length, bigrams = length - 1, positions = length,
      // trigrams = max(0, length - 2), first + last = 2.
      const sum = (a: number, b: number): number => strong.subarray(a, b).reduce((s, x) => s + x, 0);
      expect(sum(0, 10)).toBe(p.length);
      expect(sum(10, 110)).toBe(p.length - 1);
      expect(sum(111, 211)).toBe(p.length);
      expect(sum(211, 339)).toBe(Math.max(0, p.length - 2));
      expect(sum(339, 359)).toBe(2);
    }
  });
});
