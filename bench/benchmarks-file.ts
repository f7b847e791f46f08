/**
 * BENCHMARKS.md is shared by every `npm run bench:*`: each bench owns one `## Heading` section and
 * replaces only that one (appending it when absent), leaving the other benches' figures alone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replace (or append) the section whose heading line is exactly `## ${heading}` in `file`. */
export function writeBenchSection(file: string, heading: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  let out: string[];
  if (start < 0) {
    out = [...text.trimEnd().split('\n'), '', ...section.trimEnd().split('\n'), ''];
  } else {
    let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
    if (end < 0) end = lines.length;
    out = [...lines.slice(0, start), ...section.trimEnd().split('\n'), '', ...lines.slice(end)];
  }
  writeFileSync(
    file,
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n',
  );
}
