/** Hugging Face tokenizer.json tokenizers through @huggingface/tokenizers. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HfTokenizer, tokenizerFromJSON } from '../../src/policy/tokenizer/index.ts';
import { haveSharedPath } from '../helpers/paths.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const fixture = resolve(here, '../fixtures/tiny-tokenizer.json');
const gpt2Dir = resolve(repoRoot, '../shared/models/tiny-random-gpt2-fp32');
const haveGpt2 = haveSharedPath('tokenizer-hf GPT-2 tokenizer tests', resolve(gpt2Dir, 'tokenizer.json'));

describe('HfTokenizer on a tiny BPE fixture', () => {
  const json = JSON.parse(readFileSync(fixture, 'utf8'));
  const t = new HfTokenizer(json, { eos_token: '</s>', pad_token: '<pad>' });

  it('applies the BPE merges and round-trips', () => {
    expect(t.vocabSize).toBe(11);
    expect(t.eosId).toBe(1);
    expect(t.padId).toBe(0);
    expect(t.encode('abc')).toEqual([9]);
    expect(t.encode('ab c(a)')).toEqual([8, 5, 10, 2, 7]);
    expect(t.decode(t.encode('ab c(a)'))).toBe('ab c(a)');
  });

  it('drops special tokens when decoding, and serialises through toJSON', () => {
    expect(t.decode([9, 1, 0])).toBe('abc');
    expect(t.decode([1])).toBe(''); // an EOS-only completion
    const back = tokenizerFromJSON(JSON.parse(JSON.stringify(t.toJSON())));
    expect(back.encode('cab')).toEqual(t.encode('cab'));
    expect(back.eosId).toBe(1);
  });

  it('falls back to eos for padding and rejects non-tokenizer JSON', () => {
    const noPad = new HfTokenizer(json, { eos_token: '</s>' });
    expect(noPad.padId).toBe(1);
    expect(() => new HfTokenizer({ hello: 1 })).toThrow(/not a Hugging Face tokenizer/);
  });
});

describe.skipIf(!haveGpt2)('HfTokenizer on the tiny-random-gpt2 tokenizer.json', () => {
  it('loads from a directory, finds <|endoftext|>, and round-trips code', () => {
    const t = HfTokenizer.fromDir(gpt2Dir);
    expect(t.eosId).toBe(50256);
    expect(t.padId).toBe(50256);
    expect(t.vocabSize).toBeGreaterThan(50256);
    const code = 'function add(a, b) {\n  return a + b;\n}';
    const ids = t.encode(code);
    expect(ids.slice(0, 3)).toEqual([8818, 751, 7]); // GPT-2 BPE: "function", " add", "("
    expect(t.decode(ids)).toBe(code);
    expect(t.decode([...ids, t.eosId])).toBe(code);
  });
});
