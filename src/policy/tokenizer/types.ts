/**
 * The tokenizer interface the policy, the rollout engine and checkpoints share.
 */

/** Which implementation a saved tokenizer needs. */
type TokenizerKind = 'char' | 'hf';

/** Text ⇄ token ids. */
export interface Tokenizer {
  readonly kind: TokenizerKind;
  /** Number of ids (the model's vocabulary size must be at least this). */
  readonly vocabSize: number;
  /** End-of-sequence id (generation stops on it; pretraining appends it to references). */
  readonly eosId: number;
  /** Padding id (never a target; masked out everywhere). */
  readonly padId: number;
  /**
   * Ids for `text`, without special tokens. `where` names the text's origin for error
   * messages (e.g. `problem js-sum-3 prompt`).
   */
  encode(text: string, where?: string): number[];
  /** Text for `ids`; special tokens (pad, eos) are dropped. */
  decode(ids: readonly number[]): string;
  /** A JSON-serialisable description sufficient to rebuild the tokenizer (see ./index.ts). */
  toJSON(): unknown;
}
