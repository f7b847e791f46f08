/**
 * `anchor-rl config show [--config X] [--set a.b=c ...] [--json]`: the resolved run config.
 */
import type { CommandModule } from 'yargs';
import { stringify } from 'yaml';
import { loadRunConfig } from '../../config/run-config.ts';
import { configOptions, type ConfigArgs } from '../options.ts';

const show: CommandModule<object, ConfigArgs & { json?: boolean }> = {
  command: 'show',
  describe: 'Print the resolved run config (file + --set overrides + defaults)',
  builder: (y) => configOptions(y).option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of YAML' }),
  handler: (args) => {
    const config = loadRunConfig(args.config, args.set);
    process.stdout.write(args.json ? JSON.stringify(config, null, 2) + '\n' : stringify(config, { lineWidth: 0 }));
  },
};

/** `anchor-rl config <subcommand>`. */
export const configCommand: CommandModule = {
  command: 'config <command>',
  describe: 'Work with run configs',
  builder: (y) => y.command(show).demandCommand(1),
  handler: () => {},
};
