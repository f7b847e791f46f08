/**
 * Feature extractors of the DSL worlds' learned verifiers, exactly as the reference study
 * sizes them (docs/design.md, "The synthetic worlds"):
 *
 * - DSL-6 `default` (43): 6 token counts, 36 bigram counts, length.
 * - RichDSL `weak` (111): 10 token counts, 100 bigram counts, length.
 * - RichDSL `strong` (359): the 111 weak features, then 100 positional token indicators
 *   (10 positions × 10 tokens), 128 hashed trigram counts, 10 first-token and 10 last-token
 *   one-hots: 111 + 100 + 128 + 10 + 10 = 359.
 *
 * Layout (K tokens in the world's token order, t = token index):
 *   [t]                    count of token t
 *   [K + K*a + b]          count of adjacent pair (a, b)
 *   [K + K*K]              length (number of characters)
 *   strong only, with W = K + K*K + 1:
 *   [W + K*p + t]          1 if position p (0-based, p < 10) holds token t
 *   [W + 10K + h]          count of trigrams whose bucket is h = fnv1a32(trigram) mod 128
 *   [W + 10K + 128 + t]    1 if the first token is t
 *   [W + 10K + 138 + t]    1 if the last token is t
 * Characters that are not tokens are skipped (they break no pair; they still count in length):
 * the features are defined on legal programs, anything else is best-effort.
 */
import { fnv1a32 } from '../hash.ts';

/** Buckets of the hashed trigram block. */
const TRIGRAM_BUCKETS = 128;
/** Positions covered by the positional indicators. */
const POSITIONS = 10;

/** A named feature extractor over programs of one token alphabet. */
export interface FeatureSet {
  name: string;
  dim: number;
  names: string[];
  extract(program: string): Float32Array;
}

function tokenIndexer(tokens: readonly string[]): (ch: string) => number {
  const map = new Map<string, number>();
  tokens.forEach((t, i) => map.set(t, i));
  return (ch) => map.get(ch) ?? -1;
}

/** Unigram + bigram counts + length (`dsl6` default, `richdsl` weak). */
export function ngramFeatureSet(name: string, tokens: readonly string[]): FeatureSet {
  const K = tokens.length;
  const idx = tokenIndexer(tokens);
  const names = [...tokens.map((t) => `count:${t}`), ...tokens.flatMap((a) => tokens.map((b) => `bigram:${a}${b}`)), 'length'];
  return {
    name,
    dim: names.length,
    names,
    extract(program) {
      const out = new Float32Array(names.length);
      writeNgrams(out, program, K, idx);
      return out;
    },
  };
}

function writeNgrams(out: Float32Array, program: string, K: number, idx: (ch: string) => number): void {
  let prev = -1;
  for (let i = 0; i < program.length; i++) {
    const t = idx(program[i]!);
    if (t >= 0) {
      out[t]! += 1;
      if (prev >= 0) out[K + K * prev + t]! += 1;
    }
    prev = t;
  }
  out[K + K * K] = program.length;
}

/** The trigram bucket of three tokens (their concatenated characters). */
export function trigramBucket(trigram: string): number {
  return fnv1a32(trigram) % TRIGRAM_BUCKETS;
}

/** The RichDSL strong set: n-grams + positional indicators + hashed trigrams + first/last. */
export function strongFeatureSet(name: string, tokens: readonly string[]): FeatureSet {
  const K = tokens.length;
  const idx = tokenIndexer(tokens);
  const W = K + K * K + 1;
  const posBase = W;
  const triBase = posBase + POSITIONS * K;
  const firstBase = triBase + TRIGRAM_BUCKETS;
  const lastBase = firstBase + K;
  const names = [
    ...tokens.map((t) => `count:${t}`),
    ...tokens.flatMap((a) => tokens.map((b) => `bigram:${a}${b}`)),
    'length',
    ...Array.from({ length: POSITIONS }, (_, p) => tokens.map((t) => `pos${p}:${t}`)).flat(),
    ...Array.from({ length: TRIGRAM_BUCKETS }, (_, h) => `trigram#${h}`),
    ...tokens.map((t) => `first:${t}`),
    ...tokens.map((t) => `last:${t}`),
  ];
  return {
    name,
    dim: names.length,
    names,
    extract(program) {
      const out = new Float32Array(names.length);
      writeNgrams(out, program, K, idx);
      for (let p = 0; p < Math.min(POSITIONS, program.length); p++) {
        const t = idx(program[p]!);
        if (t >= 0) out[posBase + K * p + t] = 1;
      }
      for (let i = 0; i + 3 <= program.length; i++) {
        const tri = program.slice(i, i + 3);
        if (idx(tri[0]!) < 0 || idx(tri[1]!) < 0 || idx(tri[2]!) < 0) continue;
        out[triBase + trigramBucket(tri)]! += 1;
      }
      if (program.length > 0) {
        const f = idx(program[0]!);
        const l = idx(program[program.length - 1]!);
        if (f >= 0) out[firstBase + f] = 1;
        if (l >= 0) out[lastBase + l] = 1;
      }
      return out;
    },
  };
}
