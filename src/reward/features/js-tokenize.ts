/**
 * A simple, total JavaScript tokenizer for surface features. It never throws (completions are
 * often not valid JS) and normalises literals so the n-gram vocabulary stays small: string and
 * template literals become `<str>`, comments `<comment>`, numbers keep their text (small
 * constants matter in synthetic tasks), identifiers and punctuators are kept verbatim.
 */

const TOKEN_RE = new RegExp(
  [
    String.raw`(?<ws>\s+)`,
    String.raw`(?<comment>\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))`,
    String.raw`(?<str>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|` + '`(?:[^`\\\\]|\\\\.)*`?)',
    String.raw`(?<num>0[xXbBoO][\da-fA-F_]+n?|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?n?)`,
    String.raw`(?<id>[A-Za-z_$][\w$]*)`,
    String.raw`(?<punct>>>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|>>>|\?\?=|&&=|\|\|=|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\.|\+\+|--|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|\*\*|<<|>>|[^\s])`,
  ].join('|'),
  'gy',
);

/** Tokens of `text` with literals normalised (see module comment). */
export function tokenizeJs(text: string): string[] {
  const out: string[] = [];
  TOKEN_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN_RE.lastIndex < text.length && (m = TOKEN_RE.exec(text)) !== null) {
    const g = m.groups!;
    if (g.ws !== undefined) continue;
    if (g.comment !== undefined) out.push('<comment>');
    else if (g.str !== undefined) out.push('<str>');
    else out.push(m[0]);
  }
  return out;
}
