/**
 * `anchor-rl config show [--config X] [--set a.b=c ...] [--json]`: the resolved run config.
 */
import type { CommandModule } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { configOptions, type ConfigArgs } from '../options.ts';

const show: CommandModule<object, ConfigArgs & { json?: boolean }> = {
  command: 'show',
  describe: 'Print the resolved run config (file + --set overrides + defaults)',
  builder: (y) => configOptions(y).option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of YAML' }),
  handler: async (args) => {
    const { stringify } = await import('yaml');
    const { loadRunConfig } = await import('../../train/run-config.ts');
    const config = loadRunConfig(args.config, args.set);
    process.stdout.write(args.json ? JSON.stringify(config, null, 2) + '\n' : stringify(config, { lineWidth: 0 }));
  },
};

/** `anchor-rl config <subcommand>`. */
export const configCommand: CommandBody = {
  builder: (y) => y.command(show).demandCommand(1),
  handler: () => {},
};
