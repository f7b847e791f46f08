/**
 * `anchor-rl train` and `anchor-rl resume`: multi-arm GRPO runs. The trainer (tfjs, ONNX Runtime,
 * the sandbox) is imported in the handlers: `--help` loads none of it.
 */
import type { CommandBody } from '../command-body.ts';
import { configOptions, type ConfigArgs } from '../options.ts';
import { checkRedisUrl } from '../../sandbox/queue/connection.ts';
import { summarizeRun } from '../summaries.ts';
import { printServeHint } from './serve.ts';
import { join } from 'node:path';

interface TrainArgs extends ConfigArgs {
  out?: string;
  force?: boolean;
  queue?: string;
}

/** `anchor-rl train --config X [--set ...] [--out runs/NAME] [--force]`. */
export const trainCommand: CommandBody<object, TrainArgs> = {
  builder: (y) =>
    configOptions(y)
      .option('out', { type: 'string', describe: 'Run directory (default runs/<config name>)' })
      .option('force', {
        type: 'boolean',
        default: false,
        describe:
          'Replace an existing run directory (only one holding an anchor-rl run manifest.json, never ., .., the working directory, its parents or home)',
      })
      .option('queue', {
        type: 'string',
        describe:
          'Redis URL: queue the arms for `anchor-rl worker --role trainer` machines (the run directory must be a shared path)',
      }),
  handler: async (args) => {
    if (args.queue) checkRedisUrl(args.queue); // before any work: a typo should not cost a pretraining run
    // The run-config schema (zod) is loaded here, not at import: `train --help` stays light.
    const { loadRunConfig } = await import('../../train/run-config.ts');
    printServeHint(() => args.out ?? join('runs', loadRunConfig(args.config, args.set).name), 'run');
    const { trainRun } = await import('../../train/run.ts');
    const dir = await trainRun({
      configPath: args.config,
      sets: args.set,
      out: args.out,
      force: args.force,
      summarize: summarizeRun,
      ...(args.queue ? { queue: args.queue } : {}),
    });
    process.stderr.write(`run written to ${dir}\n`);
  },
};

/** `anchor-rl resume RUN_DIR [--arm A]`. */
export const resumeCommand: CommandBody<object, { run: string; arm?: string; queue?: string; 'allow-config-change': string[] }> =
  {
    builder: (y) =>
      y
        .positional('run', { type: 'string', demandOption: true, describe: 'Run directory' })
        .option('arm', { type: 'string', describe: 'Only this arm' })
        .option('queue', { type: 'string', describe: 'Redis URL: queue the arms for `anchor-rl worker --role trainer` machines' })
        .option('allow-config-change', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe:
            "Apply these edited keys (or sections) of manifest.json's config from the arms' current steps (recorded in the manifest); without it resume refuses a changed config",
        }),
    handler: async (args) => {
      if (args.queue) checkRedisUrl(args.queue);
      printServeHint(() => args.run, 'run');
      const { resumeRun } = await import('../../train/run.ts');
      const dir = await resumeRun(args.run, {
        arm: args.arm,
        summarize: summarizeRun,
        allowConfigChange: args['allow-config-change'],
        ...(args.queue ? { queue: args.queue } : {}),
      });
      process.stderr.write(`run ${dir} resumed\n`);
    },
  };
