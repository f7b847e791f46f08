/**
 * `py-surface`: the Python counterpart of `js-surface` for reward models on MBPP/HumanEval —
 * hashed token n-gram counts (n = 1…3 over {@link tokenizePy} tokens, FNV-1a hashed into
 * `hashDim` buckets) followed by {@link PY_LENGTH_FEATURES}. Only the completion is featurised.
 *
 * Indentation is Python's block structure, so line starts become INDENT/DEDENT tokens (by change
 * of leading-space width) and the length features include the deepest indentation.
 */
import { fnv1a32 } from '../../tasks/index.ts';
import { addHashedNgrams, type FeatureExtractor } from './types.ts';
import { AnchorError } from '../../util/errors.ts';

/** Names of the length features that close the `py-surface` vector. */
export const PY_LENGTH_FEATURES = [
  'chars',
  'log1p_chars',
  'lines',
  'tokens',
  'log1p_tokens',
  'max_line_length',
  'max_indent',
  'paren_balance',
] as const;

/** Options of `py-surface`. */
export interface PySurfaceOptions {
  /** Hash buckets for the n-gram counts (default 1024). */
  hashDim?: number;
  /** Largest n-gram order (default 3). */
  maxN?: number;
}

const TOKEN =
  /("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|[rbfuRBFU]{0,2}"(?:\\.|[^"\\\n])*"?|[rbfuRBFU]{0,2}'(?:\\.|[^'\\\n])*'?|#[^\n]*|\d[\w.]*|[A-Za-z_]\w*|\*\*=?|\/\/=?|<<=?|>>=?|[-+*/%&|^<>=!:@]=|->|\.\.\.|\S)/g;

/**
 * A total Python tokenizer for surface features (never throws): names, numbers, strings
 * (literal text replaced by a length class), comments, operators, and NEWLINE/INDENT/DEDENT.
 */
export function tokenizePy(text: string): string[] {
  const out: string[] = [];
  const widths: number[] = [0];
  for (const line of text.split('\n')) {
    const body = line.replace(/^[ \t]*/, '');
    if (body === '' || body.startsWith('#')) {
      if (body) out.push('#');
      continue;
    }
    const width = line.length - body.length;
    const top = widths[widths.length - 1]!;
    if (width > top) {
      widths.push(width);
      out.push('<INDENT>');
    } else {
      while (widths.length > 1 && width < widths[widths.length - 1]!) {
        widths.pop();
        out.push('<DEDENT>');
      }
    }
    for (const m of body.matchAll(TOKEN)) {
      const t = m[0];
      if (t.startsWith('#')) out.push('#');
      else if (/^[rbfuRBFU]{0,2}["']/.test(t)) out.push(t.length <= 3 ? '<STR0>' : t.length < 12 ? '<STR>' : '<LSTR>');
      else out.push(t);
    }
    out.push('<NL>');
  }
  return out;
}

/** The `py-surface` extractor: hashed 1–3-gram counts + length features. */
export function pySurfaceExtractor(opts: PySurfaceOptions = {}): FeatureExtractor {
  const hashDim = opts.hashDim ?? 1024;
  const maxN = opts.maxN ?? 3;
  if (!Number.isInteger(hashDim) || hashDim < 1)
    throw new AnchorError('BAD_CONFIG', `hashDim must be a positive integer, got ${hashDim}`);
  const dim = hashDim + PY_LENGTH_FEATURES.length;
  return {
    name: 'py-surface',
    dim,
    extract(text) {
      const out = new Float32Array(dim);
      const toks = tokenizePy(text);
      addHashedNgrams(out, toks, hashDim, maxN, fnv1a32);
      const lines = text.split('\n');
      let paren = 0;
      for (const t of toks) {
        if (t === '(' || t === '[' || t === '{') paren++;
        else if (t === ')' || t === ']' || t === '}') paren--;
      }
      let maxIndent = 0;
      for (const l of lines) if (l.trim()) maxIndent = Math.max(maxIndent, l.length - l.trimStart().length);
      out.set(
        [
          text.length,
          Math.log1p(text.length),
          lines.length,
          toks.length,
          Math.log1p(toks.length),
          Math.max(...lines.map((l) => l.length)),
          maxIndent,
          paren,
        ],
        hashDim,
      );
      return out;
    },
  };
}
