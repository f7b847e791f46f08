/**
 * `anchor-rl sweep`: the settlement-budget sweep — a grid of arm overlays (e.g. settlement rate ×
 * strategy) × seeds, one run directory per seed, one queue of arm processes, resumable.
 */
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { DEFAULT_SEEDS, SWEEP_SECTIONS } from '../../train/sweep-format.ts';
import { configOptions, type ConfigArgs } from '../options.ts';
import { summarizeRun, summarizeSweep } from '../summaries.ts';
import { printServeHint } from './serve.ts';
import { join } from 'node:path';

interface SweepArgs extends ConfigArgs {
  grid: string[];
  seeds: string;
  arm: string;
  reference: string;
  out?: string;
  force: boolean;
}

/** `anchor-rl sweep --config X [--grid KEY=V1,V2 ...] [--seeds N] [--arm A] [--reference R,R|none] [--out DIR] [--force]`. */
export const sweepCommand: CommandBody<object, SweepArgs> = {
  builder: (y) =>
    configOptions(y)
      .usage(
        '$0 sweep --config X [--grid KEY=V1,V2,... ...] [options]\n\n' +
          'Each cell of the grid (the cartesian product of the --grid axes) becomes an inline arm extending --arm, trained next to the ' +
          '--reference arms in one run directory per seed (OUT/seed-<s>/). Rerunning the same command continues the sweep ' +
          '(done arms are skipped, unfinished ones resume from their checkpoints).\n\n' +
          'Without --grid the sweep trains the --reference arms alone: many registry arms × seeds in one command.\n\n' +
          'Writes OUT/sweep.json, OUT/compare.md (mean ± SE per cell over seeds), OUT/sweep.md and OUT/report.html (the settlement-knob chart).',
      )
      .option('grid', {
        type: 'string',
        array: true,
        default: [],
        describe: `An axis: a config key an arm overlay may set (sections ${SWEEP_SECTIONS.join(', ')}) and its values, typed like --set: --grid settlement.rate=0,0.05,0.1. None: only the --reference arms are trained (a comparison of registry arms over seeds)`,
      })
      .option('seeds', {
        type: 'string',
        default: String(DEFAULT_SEEDS),
        describe:
          'Seeds per cell: a count N (config seed, seed+1, ...), an explicit list 0,3,7, or a range 10..19 (e.g. reporting seeds apart from development seeds)',
      })
      .option('arm', { type: 'string', default: 'anchored', describe: 'The built-in arm every cell extends' })
      .option('reference', {
        type: 'string',
        default: 'frozen,execution',
        describe: 'Built-in arms trained once per seed as references (comma-separated, or none)',
      })
      .option('out', { type: 'string', describe: 'Sweep directory (default runs/<config name>-sweep)' })
      .option('force', {
        type: 'boolean',
        default: false,
        describe:
          'Start over: delete an existing sweep directory first (only one holding an anchor-rl sweep.json, never ., .., the working directory, its parents or home)',
      })
      .example(
        '$0 sweep --config configs/default.yaml --grid settlement.rate=0,0.025,0.05,0.1,0.2 --grid settlement.strategy=random,top-proxy --seeds 3',
        'the settlement-budget sweep',
      )
      .example(
        '$0 sweep --config configs/default.yaml --reference execution,anchored,settled-gao-hold --seeds 10..19',
        'three registry arms over ten reporting seeds 10-19 (interval estimates in compare.md and report.html)',
      )
      .example(
        '$0 sweep --config configs/default.yaml --reference frozen,anchored,execution,judge,anchored-gao,settled-groups --seeds 3',
        'registry arms compared over three seeds (no grid)',
      ) as unknown as Argv<SweepArgs>,
  handler: async (args) => {
    // The run-config schema (zod) is loaded here, not at import: `sweep --help` stays light.
    const { loadRunConfig } = await import('../../train/run-config.ts');
    printServeHint(() => args.out ?? join('runs', `${loadRunConfig(args.config, args.set).name}-sweep`), 'sweep');
    const { sweepRun } = await import('../../train/sweep.ts');
    const dir = await sweepRun({
      configPath: args.config,
      sets: args.set,
      grids: args.grid,
      seeds: args.seeds,
      arm: args.arm,
      references: args.reference,
      out: args.out,
      force: args.force,
      summarizeRun,
      summarizeSweep,
    });
    process.stderr.write(`sweep written to ${dir}\n`);
  },
};
