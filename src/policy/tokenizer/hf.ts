/**
 * Hugging Face `tokenizer.json` tokenizers (BPE, WordPiece, Unigram, ...) through the maintained
 * `@huggingface/tokenizers` library, for bring-your-own models.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer as HfTokenizerImpl } from '@huggingface/tokenizers';
import { AnchorError } from '../../util/errors.ts';
import type { Tokenizer } from './types.ts';

/** Serialised form: the two Hugging Face files, verbatim. */
export interface HfTokenizerJson {
  kind: 'hf';
  tokenizer: unknown;
  config: Record<string, unknown>;
}

/** Pull a special token's text out of tokenizer_config.json (string or AddedToken object). */
function tokenText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string')
    return (v as { content: string }).content;
  return undefined;
}

/** A Hugging Face tokenizer. */
export class HfTokenizer implements Tokenizer {
  readonly kind = 'hf' as const;
  readonly vocabSize: number;
  readonly eosId: number;
  readonly padId: number;
  private readonly impl: HfTokenizerImpl;
  private readonly tokenizerJson: unknown;
  private readonly config: Record<string, unknown>;
  private readonly specialIds: Set<number>;

  /**
   * @param tokenizerJson parsed `tokenizer.json`
   * @param config parsed `tokenizer_config.json` (may be `{}`); `eos_token`/`pad_token` pick the
   *   special ids, falling back to `<|endoftext|>` / `</s>` / `<eos>` among the added tokens, and
   *   pad falls back to eos.
   * @param source where the tokenizer came from (a file path), named in every error
   */
  constructor(tokenizerJson: unknown, config: Record<string, unknown> = {}, source = 'tokenizer.json') {
    if (!tokenizerJson || typeof tokenizerJson !== 'object' || !('model' in tokenizerJson)) {
      throw new AnchorError('BAD_MODEL', `${source}: not a Hugging Face tokenizer (no "model" section)`, { file: source });
    }
    try {
      this.impl = new HfTokenizerImpl(tokenizerJson, config);
    } catch (err) {
      throw new AnchorError('BAD_MODEL', `${source}: cannot load: ${(err as Error).message}`, { file: source }, { cause: err });
    }
    this.tokenizerJson = tokenizerJson;
    this.config = config;
    const vocab = this.impl.get_vocab(true);
    let maxId = -1;
    for (const id of vocab.values()) maxId = Math.max(maxId, id);
    this.vocabSize = maxId + 1;
    const find = (names: (string | undefined)[]): number | undefined => {
      for (const n of names) {
        if (!n) continue;
        const id = this.impl.token_to_id(n);
        if (id !== undefined) return id;
      }
      return undefined;
    };
    const eos = find([tokenText(config.eos_token), '<|endoftext|>', '</s>', '<eos>', '<|eos|>']);
    if (eos === undefined)
      throw new AnchorError('BAD_MODEL', `${source}: no end-of-sequence token found (set eos_token in tokenizer_config.json)`, {
        file: source,
      });
    this.eosId = eos;
    this.padId = find([tokenText(config.pad_token)]) ?? eos;
    this.specialIds = new Set<number>();
    for (const [id, tok] of this.impl.get_added_tokens_decoder()) if (tok.special) this.specialIds.add(id);
    this.specialIds.add(this.eosId);
    this.specialIds.add(this.padId);
  }

  /** Load `tokenizer.json` (+ `tokenizer_config.json` when present) from a directory. */
  static fromDir(dir: string): HfTokenizer {
    const tj = join(dir, 'tokenizer.json');
    if (!existsSync(tj)) throw new AnchorError('NOT_FOUND', `no tokenizer.json in ${dir}`);
    const cfgPath = join(dir, 'tokenizer_config.json');
    let cfg: Record<string, unknown> = {};
    try {
      if (existsSync(cfgPath)) cfg = JSON.parse(readFileSync(cfgPath, 'utf8')) as Record<string, unknown>;
      return new HfTokenizer(JSON.parse(readFileSync(tj, 'utf8')), cfg, tj);
    } catch (err) {
      if (err instanceof AnchorError) throw err;
      throw new AnchorError('BAD_MODEL', `cannot read tokenizer in ${dir}: ${(err as Error).message}`, undefined, { cause: err });
    }
  }

  /** Rebuild from {@link toJSON} output. */
  static fromJSON(json: unknown): HfTokenizer {
    const j = json as Partial<HfTokenizerJson> | null;
    if (j?.kind !== 'hf') throw new AnchorError('BAD_MODEL', 'hf tokenizer: malformed serialised tokenizer');
    return new HfTokenizer(j.tokenizer, j.config ?? {});
  }

  encode(text: string, where?: string): number[] {
    try {
      return this.impl.encode(text, { add_special_tokens: false }).ids;
    } catch (err) {
      throw new AnchorError(
        'BAD_DATASET',
        `cannot tokenize ${where ?? 'text'}: ${(err as Error).message}`,
        { where },
        { cause: err },
      );
    }
  }

  /** The parsed `tokenizer_config.json` (chat template, special token names). */
  get tokenizerConfig(): Readonly<Record<string, unknown>> {
    return this.config;
  }

  decode(ids: readonly number[]): string {
    const kept = ids.filter((id) => !this.specialIds.has(id));
    // The library rejects an empty list; a completion that is only EOS decodes to ''.
    if (kept.length === 0) return '';
    return this.impl.decode(kept, { skip_special_tokens: true, clean_up_tokenization_spaces: false });
  }

  /** The token string for an id (for debugging and stop-string handling). */
  idToToken(id: number): string | undefined {
    return this.impl.id_to_token(id);
  }

  toJSON(): HfTokenizerJson {
    return { kind: 'hf', tokenizer: this.tokenizerJson, config: this.config };
  }
}
