/** Options shared by every command that takes a run config. */
import type { Argv } from 'yargs';

/** `--config FILE` and repeatable `--set a.b.c=value`. */
export interface ConfigArgs {
  config?: string;
  set: string[];
}

/** Add `--config` and `--set` to a command. */
export function configOptions<T>(y: Argv<T>): Argv<T & ConfigArgs> {
  return y
    .option('config', { alias: 'c', type: 'string', describe: 'YAML run config (default: the embedded defaults)' })
    .option('set', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Override a config value, typed by the schema: --set grpo.lr=1e-4 --set arms=[frozen,anchored]',
    }) as unknown as Argv<T & ConfigArgs>;
}
