/**
 * Character-level tokenizer for the built-in synthetic tasks. The vocabulary is built from a
 * corpus (plus, by default, printable ASCII, tab and newline) and stored with the checkpoint.
 * A character outside the vocabulary is an error (AnchorError BAD_DATASET naming the character
 * and where it occurred), raised at data-preparation time rather than silently dropped.
 */
import { AnchorError } from '../../util/errors.ts';
import type { Tokenizer } from './types.ts';

/** Serialised form (what `char-vocab.json` holds). */
export interface CharTokenizerJson {
  kind: 'char';
  version: 1;
  /** Characters in id order, starting at id 2 (0 = pad, 1 = eos). */
  chars: string[];
}

/** Printable ASCII plus tab and newline. */
export const ASCII_CHARS: readonly string[] = ['\t', '\n', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))];

/** A character ⇄ id tokenizer (ids 0 = pad, 1 = eos, then one id per character). */
export class CharTokenizer implements Tokenizer {
  readonly kind = 'char' as const;
  readonly padId = 0;
  readonly eosId = 1;
  readonly vocabSize: number;
  private readonly chars: string[];
  private readonly index: Map<string, number>;

  constructor(chars: readonly string[]) {
    const seen = new Set<string>();
    for (const ch of chars) {
      if ([...ch].length !== 1)
        throw new AnchorError('BAD_MODEL', `char tokenizer: vocabulary entry ${JSON.stringify(ch)} is not one character`);
      if (seen.has(ch)) throw new AnchorError('BAD_MODEL', `char tokenizer: duplicate vocabulary entry ${JSON.stringify(ch)}`);
      seen.add(ch);
    }
    this.chars = [...chars];
    this.index = new Map(this.chars.map((c, i) => [c, i + 2]));
    this.vocabSize = this.chars.length + 2;
  }

  /**
   * Vocabulary from the characters of `texts` (sorted by code point), plus printable ASCII,
   * tab and newline unless `includeAscii` is false.
   */
  static fromCorpus(texts: Iterable<string>, opts: { includeAscii?: boolean } = {}): CharTokenizer {
    const set = new Set<string>(opts.includeAscii === false ? [] : ASCII_CHARS);
    for (const t of texts) for (const ch of t) set.add(ch);
    const chars = [...set].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
    return new CharTokenizer(chars);
  }

  /** Rebuild from {@link toJSON} output. */
  static fromJSON(json: unknown): CharTokenizer {
    const j = json as Partial<CharTokenizerJson> | null;
    if (j?.kind !== 'char' || !Array.isArray(j.chars) || j.chars.some((c) => typeof c !== 'string')) {
      throw new AnchorError('BAD_MODEL', 'char tokenizer: malformed vocabulary file (expected {kind:"char", chars:[...]})');
    }
    return new CharTokenizer(j.chars);
  }

  encode(text: string, where?: string): number[] {
    const out: number[] = [];
    let offset = 0;
    for (const ch of text) {
      const id = this.index.get(ch);
      if (id === undefined) {
        const line = text.slice(0, offset).split('\n').length;
        const loc = where ? `${where}, ` : '';
        throw new AnchorError(
          'BAD_DATASET',
          `character ${JSON.stringify(ch)} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) at ${loc}offset ${offset} (line ${line}) is not in the tokenizer vocabulary`,
          { char: ch, offset, where },
        );
      }
      out.push(id);
      offset += ch.length;
    }
    return out;
  }

  decode(ids: readonly number[]): string {
    let s = '';
    for (const id of ids) {
      if (id < 2) continue;
      const ch = this.chars[id - 2];
      if (ch === undefined)
        throw new AnchorError('BAD_ARGUMENT', `char tokenizer: id ${id} is outside the vocabulary (${this.vocabSize})`);
      s += ch;
    }
    return s;
  }

  /** True when every character of `text` is in the vocabulary. */
  covers(text: string): boolean {
    for (const ch of text) if (!this.index.has(ch)) return false;
    return true;
  }

  toJSON(): CharTokenizerJson {
    return { kind: 'char', version: 1, chars: [...this.chars] };
  }
}
