/**
 * Plain-text tables for the experiment and `snd` commands (stdout), and the stderr progress bar.
 */
import cliProgress from 'cli-progress';

/** Right-aligned columns under a header, separated by two spaces. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => (r[j] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, j) => c.padStart(widths[j]!)).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** `0.123 ± 0.004`. */
export function pm(mean: number, se: number, digits = 3): string {
  if (!Number.isFinite(mean)) return 'n/a';
  return `${mean.toFixed(digits)} ± ${se.toFixed(digits)}`;
}

/** A progress bar on stderr (silent when stderr is not a terminal); returns update/stop. */
export function progressBar(label: string, total: number): { update: (done: number) => void; stop: () => void } {
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {value}/{total} tasks | {duration_formatted}`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (d) => bar.update(d), stop: () => bar.stop() };
}
