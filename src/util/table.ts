/**
 * Tables: plain text for stdout (the experiment, `snd` and `compare` commands) and Markdown for
 * the files runs and the reproduction suite write. The one table formatter of the project.
 */

/** Right-aligned columns under a header, separated by two spaces. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => (r[j] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, j) => c.padStart(widths[j]!)).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A Markdown table as lines: `|` in cells escaped, `numeric` columns right-aligned. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: readonly boolean[],
): string[] {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]): string => `| ${cells.map(esc).join(' | ')} |`;
  return [line(header), `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`, ...rows.map(line)];
}

/** `0.123 ± 0.004`. */
export function pm(mean: number, se: number, digits = 3): string {
  if (!Number.isFinite(mean)) return 'n/a';
  return `${mean.toFixed(digits)} ± ${se.toFixed(digits)}`;
}
