/**
 * `anchor-rl report RUN_DIR [--out report.html] [--window N]`: a self-contained HTML report of a
 * run (charts as inline SVG, the comparison table, config and sample completions), or of a sweep
 * directory (the settlement-knob chart and the cells compared across seeds), or of several
 * directories whose runs are merged by seed (`report DIR DIR ... --out FILE`).
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';
import { formatWarning } from '../../report/read-run.ts';
import { isSweepDir } from '../../train/sweep-format.ts';
import { checkWindow, WHERE_OPTION } from './compare.ts';

interface ReportArgs {
  run: string[];
  out?: string;
  window?: number;
  samples: number;
  where: string[];
}

/** `anchor-rl report`. */
export const reportCommand: CommandBody<object, ReportArgs> = {
  builder: (y) =>
    y
      .positional('run', {
        type: 'string',
        array: true,
        demandOption: true,
        describe:
          'Run directory (runs/NAME), or a sweep directory (the settlement-knob report over its seeds); several (with --out): their runs merged by seed into one report (arms paired by seed, gold against √KL per arm)',
      })
      .option('out', { type: 'string', describe: 'Output HTML file (default RUN_DIR/report.html)' })
      .option('window', {
        type: 'number',
        describe: "Rolling-mean and final window in steps (default: the run's settlement window settlement.every, else 25)",
      })
      .option('where', WHERE_OPTION)
      .option('samples', {
        type: 'number',
        default: 3,
        describe: 'Sample completions per arm and phase (early, peak, final)',
      }) as Argv<ReportArgs>,
  handler: async (args) => {
    if (!(Number.isInteger(args.samples) && args.samples >= 0))
      throw new AnchorError('BAD_ARGUMENT', `--samples must be a non-negative integer, got ${args.samples}`);
    const window = args.window === undefined ? undefined : checkWindow(args.window);
    const [run, ...more] = args.run;
    if (more.length > 0 && args.out === undefined)
      throw new AnchorError('BAD_ARGUMENT', 'a report of several directories needs --out FILE (it belongs to none of them)');
    if (more.length > 0 && args.where.length > 0)
      throw new AnchorError('BAD_ARGUMENT', '--where applies to a report of one run directory');
    // Loaded on demand: vega takes seconds to import and no other command needs it.
    const res =
      more.length > 0
        ? await (await import('../../report/paired-report.ts')).writePairedReport(args.run, args.out!, { window })
        : isSweepDir(run!)
          ? await (await import('../../report/sweep.ts')).writeSweepReport(run!, args.out, { window })
          : await (await import('../../report/report.ts')).writeReport(run!, args.out, {
              window,
              samplesPerPhase: args.samples,
              where: args.where,
            });
    for (const w of res.warnings) process.stderr.write(`warning: ${formatWarning(w, process.cwd())}\n`);
    if (res.table.incompleteArms.length > 0)
      process.stderr.write(`note: incomplete arms: ${res.table.incompleteArms.join(', ')}\n`);
    process.stdout.write(`wrote ${res.path} (${(res.bytes / 1024).toFixed(0)} KiB)\n`);
  },
};
