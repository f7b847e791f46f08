/**
 * `anchor-rl train` and `anchor-rl resume`: multi-arm GRPO runs.
 */
import type { CommandModule } from 'yargs';
import { resumeRun, trainRun } from '../../train/run.ts';
import { configOptions, type ConfigArgs } from '../options.ts';

interface TrainArgs extends ConfigArgs {
  out?: string;
  force?: boolean;
}

/** `anchor-rl train --config X [--set ...] [--out runs/NAME] [--force]`. */
export const trainCommand: CommandModule<object, TrainArgs> = {
  command: 'train',
  describe: 'Train every arm of a run config (frozen, anchored, execution, judge by default)',
  builder: (y) =>
    configOptions(y)
      .option('out', { type: 'string', describe: 'Run directory (default runs/<config name>)' })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite a non-empty run directory' }),
  handler: async (args) => {
    const dir = await trainRun({ configPath: args.config, sets: args.set, out: args.out, force: args.force });
    process.stderr.write(`run written to ${dir}\n`);
  },
};

/** `anchor-rl resume RUN_DIR [--arm A]`. */
export const resumeCommand: CommandModule<object, { run: string; arm?: string }> = {
  command: 'resume <run>',
  describe: 'Continue the unfinished arms of a run from their last checkpoints',
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'Run directory' })
      .option('arm', { type: 'string', describe: 'Only this arm' }),
  handler: async (args) => {
    const dir = await resumeRun(args.run, { arm: args.arm });
    process.stderr.write(`run ${dir} resumed\n`);
  },
};
