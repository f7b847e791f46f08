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
   * Features of a completion. `prompt`, when given, is text the completion continues (JS
   * extractors parse prompt + completion so a function body is seen inside its signature).
   */
  extract(text: string, prompt?: string): Float32Array;
}
