/**
 * The summaries `train`, `resume` and `sweep` write after training: the CLI composes the trainer
 * (src/train) with the report writers (src/report), so neither layer imports the other. The
 * report modules (vega) load only when a run finishes.
 */
import { join } from 'node:path';

/** Write a run's compare.json/md and report.html; resolves to a line for the log. */
export async function summarizeRun(runDir: string): Promise<string> {
  const { writeRunSummaries } = await import('../report/report.ts');
  await writeRunSummaries(runDir);
  return `comparison and report: ${join(runDir, 'compare.md')}, ${join(runDir, 'report.html')}`;
}

/** Write a sweep's comparison over seeds, knob table and report; resolves to a line for the log. */
export async function summarizeSweep(dir: string): Promise<string> {
  const { writeSweepSummaries } = await import('../report/sweep.ts');
  const res = await writeSweepSummaries(dir);
  return `sweep comparison and knob chart: ${res.compareMd}, ${res.sweepMd}, ${res.report}`;
}
