/**
 * Tokenizers: the {@link Tokenizer} interface, the character-level tokenizer for synthetic
 * tasks and Hugging Face `tokenizer.json` tokenizers; plus (de)serialisation by kind.
 */
import { AnchorError } from '../../util/errors.ts';
import { CharTokenizer } from './char.ts';
import { HfTokenizer } from './hf.ts';
import type { Tokenizer } from './types.ts';

export type { Tokenizer } from './types.ts';
export { CharTokenizer, ASCII_CHARS } from './char.ts';
export { HfTokenizer } from './hf.ts';

/** Rebuild a tokenizer from its `toJSON()` output. */
export function tokenizerFromJSON(json: unknown): Tokenizer {
  const kind = (json as { kind?: unknown } | null)?.kind;
  if (kind === 'char') return CharTokenizer.fromJSON(json);
  if (kind === 'hf') return HfTokenizer.fromJSON(json);
  throw new AnchorError('BAD_MODEL', `unknown tokenizer kind ${JSON.stringify(kind)}`);
}
