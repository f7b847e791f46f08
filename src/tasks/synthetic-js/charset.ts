/**
 * The fixed character set of `synthetic-js`. Every prompt and reference solution the family
 * emits uses only these characters (a test checks it), so a char-level tokenizer built from
 * this string covers the whole pretraining corpus. Hidden tests are never shown to the policy
 * and are not constrained.
 *
 * Contents (89 characters, in this order): newline, space, the printable punctuation
 * `!"%&'()*+,-./:;<=>?[]_{|}`, digits 0-9, A-Z, a-z. Left out on purpose: tab, `#$@\^` and
 * backtick (no template literals, no escapes).
 */
export const SYNTHETIC_JS_CHARSET: string =
  '\n !"%&\'()*+,-./:;<=>?[]_{|}' + '0123456789' + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' + 'abcdefghijklmnopqrstuvwxyz';

/** True when every character of `text` is in {@link SYNTHETIC_JS_CHARSET}. */
export function inSyntheticJsCharset(text: string): boolean {
  for (const ch of text) if (!SYNTHETIC_JS_CHARSET.includes(ch)) return false;
  return true;
}
