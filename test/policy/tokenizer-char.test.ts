/** The character tokenizer: vocabulary from a corpus, round trips, and unknown-character errors. */
import { describe, expect, it } from 'vitest';
import { AnchorError } from '../../src/util/errors.ts';
import { ASCII_CHARS, CharTokenizer, tokenizerFromJSON } from '../../src/policy/tokenizer/index.ts';

describe('CharTokenizer', () => {
  it('builds a sorted vocabulary from a corpus plus printable ASCII; pad=0, eos=1', () => {
    const t = CharTokenizer.fromCorpus(['héllo', 'wörld']);
    expect(t.padId).toBe(0);
    expect(t.eosId).toBe(1);
    expect(t.vocabSize).toBe(2 + ASCII_CHARS.length + 2); // é and ö are the only non-ASCII chars
    const bare = CharTokenizer.fromCorpus(['cab', 'bad'], { includeAscii: false });
    expect(bare.vocabSize).toBe(2 + 4);
    expect(bare.encode('abcd')).toEqual([2, 3, 4, 5]);
  });

  it('round-trips text and drops special ids on decode', () => {
    const t = CharTokenizer.fromCorpus(['function f(x) {\n  return x * 2;\n}']);
    const text = 'function f(x) {\n\treturn [x, "y"];\n}';
    const ids = t.encode(text);
    expect(ids.length).toBe(text.length);
    expect(t.decode(ids)).toBe(text);
    expect(t.decode([t.padId, ...ids, t.eosId, t.padId])).toBe(text);
  });

  it('rejects unknown characters with BAD_DATASET naming the character and where it is', () => {
    const t = CharTokenizer.fromCorpus(['abc'], { includeAscii: false });
    let err: unknown;
    try {
      t.encode('ab\ncz', 'problem p7 prompt');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AnchorError);
    const e = err as AnchorError;
    expect(e.code).toBe('BAD_DATASET');
    expect(e.message).toContain('"\\n"');
    expect(e.message).toContain('problem p7 prompt');
    expect(e.details).toMatchObject({ char: '\n', offset: 2 });
    expect(() => CharTokenizer.fromCorpus(['abc']).encode('abc€')).toThrow(/U\+20AC/);
  });

  it('serialises through toJSON and rebuilds identically; malformed vocab files are BAD_MODEL', () => {
    const t = CharTokenizer.fromCorpus(['xyz→'], { includeAscii: true });
    const back = tokenizerFromJSON(JSON.parse(JSON.stringify(t.toJSON())));
    expect(back.vocabSize).toBe(t.vocabSize);
    expect(back.encode('x→y')).toEqual(t.encode('x→y'));
    expect(() => tokenizerFromJSON({ kind: 'char', chars: ['a', 'a'] })).toThrow(/duplicate/);
    expect(() => tokenizerFromJSON({ kind: 'char', chars: ['ab'] })).toThrow(/not one character/);
    expect(() => tokenizerFromJSON({ kind: 'nope' })).toThrow(/unknown tokenizer kind/);
  });

  it('rejects ids outside the vocabulary on decode', () => {
    const t = CharTokenizer.fromCorpus(['ab'], { includeAscii: false });
    expect(() => t.decode([2, 99])).toThrow(/outside the vocabulary/);
  });
});
