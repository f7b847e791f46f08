/**
 * Feature extractors: text (a completion, optionally with its prompt) → a fixed-length vector.
 */

/** A deterministic feature extractor with a fixed output dimension. */
export interface FeatureExtractor {
  /** Registry name (e.g. `js-surface`). */
  readonly name: string;
  /** Output length, fixed by the extractor's config. */
  readonly dim: number;
  /**
   * What each dimension means, where the extractor can say (length `dim`): the gate's critic
   * attributes an RM's weights to these names. Absent: dimensions are anonymous.
   */
  readonly featureNames?: readonly string[];
  /**
   * Features of a completion. `prompt`, when given, is text the completion continues (JS
   * extractors parse prompt + completion so a function body is seen inside its signature).
   */
  extract(text: string, prompt?: string): Float32Array;
}

/**
 * Add hashed counts of token 1..maxN-grams into `out[0..hashDim)` (FNV-1a). The order prefix keeps
 * a unigram and a bigram with the same text in different buckets.
 */
export function addHashedNgrams(
  out: Float32Array,
  toks: readonly string[],
  hashDim: number,
  maxN: number,
  hash: (s: string) => number,
): void {
  for (let n = 1; n <= maxN; n++) {
    for (let i = 0; i + n <= toks.length; i++) {
      const gram = n + '\u0001' + toks.slice(i, i + n).join('\u0001');
      out[hash(gram) % hashDim]! += 1;
    }
  }
}
