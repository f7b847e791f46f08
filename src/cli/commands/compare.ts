/**
 * `anchor-rl compare RUN_DIR [RUN_DIR ...] [--window 25] [--json | --csv]`: one row per arm;
 * several run directories of one config (seeds) give mean ± standard error per arm. A sweep
 * directory (sweep.json) stands for its seed runs.
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';
import type { CompareTable } from '../../report/compare.ts';
import { filterRun, parseWhere } from '../../report/provenance.ts';
import { formatWarning, readRun } from '../../report/read-run.ts';
import { untilStep } from '../../report/until-step.ts';
import { expandSweepDirs } from '../../train/sweep-format.ts';

interface CompareArgs {
  runs: string[];
  window?: number;
  where: string[];
  json: boolean;
  csv: boolean;
  'reference-arm'?: string;
  reps?: number;
  'bootstrap-seed': number;
  markdown: boolean;
  'pair-by-seed': boolean;
  until?: number;
}

/** Check a --window value (shared with `report`). */
export function checkWindow(w: number): number {
  if (!(Number.isInteger(w) && w >= 1))
    throw new AnchorError('BAD_ARGUMENT', `--window must be a positive integer (steps), got ${w}`);
  return w;
}

/** `--where KEY=VALUE` (shared with `report`): only the steps whose samples carry these provenance stamps. */
export const WHERE_OPTION = {
  type: 'string',
  array: true,
  default: [] as string[],
  describe:
    'Only steps whose samples carry this provenance stamp (repeatable): policy.step, policy.weights, rm.refit, rm.hash, harness, verdict, seed; hashes match by prefix',
} as const;

function checkCount(v: number, flag: string, min = 1): number {
  if (!(Number.isInteger(v) && v >= min)) throw new AnchorError('BAD_ARGUMENT', `${flag} must be an integer ≥ ${min}, got ${v}`);
  return v;
}

/** `anchor-rl compare`. */
export const compareCommand: CommandBody<object, CompareArgs> = {
  builder: (y) =>
    y
      .positional('runs', {
        type: 'string',
        array: true,
        describe: 'Run directories (runs/NAME), or sweep directories (their seed runs)',
      })
      .option('window', {
        type: 'number',
        describe: "Final/rolling window in steps (default: the run's settlement window settlement.every, else 25)",
      })
      .option('where', WHERE_OPTION)
      .option('json', { type: 'boolean', default: false, describe: 'Print the table as JSON' })
      .option('csv', { type: 'boolean', default: false, describe: 'Print the table as CSV' })
      .option('markdown', {
        type: 'boolean',
        default: false,
        describe: 'Print the tables as Markdown (as compare.md: arms, alarms, interval estimates over seeds)',
      })
      .option('until', {
        type: 'number',
        describe:
          'Compare every arm up to this step only (arms that reached different steps, compared over the same ones; the final window ends here)',
      })
      .option('pair-by-seed', {
        type: 'boolean',
        default: false,
        describe:
          'Directories holding different arms of the same seeds (e.g. one sweep per reward model): merge the runs of each seed into one, so every arm is paired with the reference of its seed; an arm name found twice in one seed becomes ARM@DIRNAME',
      })
      .option('reference-arm', {
        type: 'string',
        describe:
          'Several runs: the arm every arm is paired with by seed for the interval estimates (ratios, mean and IQM with bootstrap 95% CIs). Default: the execution arm',
      })
      .option('reps', { type: 'number', describe: 'Bootstrap replicates of the interval estimates (default 10000)' })
      .option('bootstrap-seed', {
        type: 'number',
        default: 0,
        describe: 'Seed of the bootstrap (the intervals are deterministic given it)',
      }) as unknown as Argv<CompareArgs>,
  handler: async (args) => {
    if ([args.json, args.csv, args.markdown].filter(Boolean).length > 1)
      throw new AnchorError('BAD_ARGUMENT', '--json, --csv and --markdown are mutually exclusive');
    // The comparison (and the config schema it reads runs with) loads here: `compare --help` stays light.
    const { compareRunData, compareRuns, formatCompareCsv, formatCompareMarkdown, formatCompareText } = await import(
      '../../report/compare.ts'
    );
    const opts = {
      window: args.window === undefined ? undefined : checkWindow(args.window),
      where: args.where,

      statistics: true,
      reference: args['reference-arm'],
      reps: args.reps === undefined ? undefined : checkCount(args.reps, '--reps'),
      bootstrapSeed: checkCount(args['bootstrap-seed'], '--bootstrap-seed', 0),
    };
    // A sweep directory stands for its seed runs: its arms (= cells) get mean ± SE over seeds.
    const until = args.until === undefined ? undefined : checkCount(args.until, '--until');
    let table: CompareTable;
    if (!args['pair-by-seed'] && until === undefined) table = compareRuns(expandSweepDirs(args.runs), opts);
    else {
      const where = parseWhere(args.where);
      const runs = args['pair-by-seed']
        ? (await import('../../report/pair-by-seed.ts')).readRunsPairedBySeed(args.runs, { where: args.where })
        : expandSweepDirs(args.runs).map((d) => filterRun(readRun(d, { samples: where.length > 0 }), where));
      table = compareRunData(until === undefined ? runs : runs.map((r) => untilStep(r, until)), opts);
    }
    for (const w of table.warnings) process.stderr.write(`warning: ${formatWarning(w, process.cwd())}\n`);
    if (table.rows.every((r) => r.values.steps.mean === 0 || r.values.steps.mean === null)) {
      throw new AnchorError('BAD_ARGUMENT', `nothing to compare: no arm has logged a step yet (${args.runs.join(', ')})`);
    }
    if (args.json) process.stdout.write(JSON.stringify(table, null, 2) + '\n');
    else if (args.csv) process.stdout.write(formatCompareCsv(table));
    else if (args.markdown) {
      const { formatRmQualityMarkdown, rmQualityRelation } = await import('../../report/rm-quality.ts');
      const rel = rmQualityRelation(table);
      process.stdout.write(formatCompareMarkdown(table) + (rel ? `\n## RM quality\n\n${formatRmQualityMarkdown(rel)}\n` : ''));
    } else process.stdout.write(formatCompareText(table));
  },
};
