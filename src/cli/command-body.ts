/**
 * The part of a subcommand that lives in its own module: its options (`builder`) and what it does
 * (`handler`). Its name and one-line description live in the registry (./commands/index.ts), so
 * `anchor-rl --help` lists every command without importing any of their modules.
 */
import type { CommandModule } from 'yargs';

/** A subcommand's options and handler; yargs' CommandModule without `command`/`describe`. */
export type CommandBody<T = object, U = object> = Pick<CommandModule<T, U>, 'builder' | 'handler'>;
