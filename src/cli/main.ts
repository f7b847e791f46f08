/**
 * CLI entry. The only place that turns errors into exit codes and messages:
 * 0 ok, 1 a run failed, 2 bad input (bad config, bad arguments, malformed data, a run directory
 * in use), 130 stopped by SIGINT/SIGTERM after checkpointing.
 */
import yargs, { type Argv } from 'yargs';
import { AnchorError, isInputError } from '../util/errors.ts';
import { commandName, commands } from './commands/index.ts';

/** Exit codes of the `anchor-rl` command. */
const EXIT = { ok: 0, runFailed: 1, badInput: 2, interrupted: 130 } as const;

/** Run the CLI on `argv` (without `node` and the script path); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  try {
    await (await buildCli(argv)).parseAsync();
  } catch (err) {
    exitCode = report(err);
  }
  return typeof process.exitCode === 'number' && process.exitCode !== 0 && exitCode === 0 ? process.exitCode : exitCode;
}

/** The yargs parser for `argv`, with the invoked command's module loaded. */
async function buildCli(argv: string[]): Promise<Argv> {
  const cli = yargs(argv)
    .scriptName('anchor-rl')
    .usage('$0 <command> [options]\n\nRL training orchestrator for code generation with a reality-anchored reward model.');
  // Only the invoked command's module is imported (its options, handler and what they load);
  // every other command is registered by name and description alone, which is all `--help`
  // and yargs' "did you mean" need. No global option takes a value, so the first word that is
  // not an option is the command.
  const invoked = argv.find((a) => !a.startsWith('-'));
  for (const entry of commands) {
    if (commandName(entry) === invoked)
      cli.command({ command: entry.command, describe: entry.describe, ...(await entry.load()) });
    else cli.command(entry.command, entry.describe);
  }
  cli
    .demandCommand(1, 'Give a command; see --help.')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((msg, err) => {
      // Parse errors (unknown option, missing argument) are bad input; handler errors go below.
      if (err) throw err;
      throw new AnchorError('BAD_ARGUMENT', msg);
    })
    .exitProcess(false);
  return cli;
}

function report(err: unknown): number {
  if (err instanceof AnchorError) {
    process.stderr.write(`anchor-rl: ${err.message}\n`);
    if (process.env.ANCHOR_DEBUG && err.stack) process.stderr.write(err.stack + '\n');
    if (err.code === 'INTERRUPTED') return EXIT.interrupted;
    return isInputError(err) ? EXIT.badInput : EXIT.runFailed;
  }
  const e = err as Error;
  process.stderr.write(`anchor-rl: internal error: ${e?.stack ?? String(err)}\n`);
  return EXIT.runFailed;
}
