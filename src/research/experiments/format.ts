/**
 * The stderr progress bar of the experiment commands (their tables: src/util/table.ts).
 */
import cliProgress from 'cli-progress';

/** A progress bar on stderr (silent when stderr is not a terminal); returns update/stop. */
export function progressBar(label: string, total: number): { update: (done: number) => void; stop: () => void } {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} tasks | {duration_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (d) => bar.update(d), stop: () => bar.stop() };
}
