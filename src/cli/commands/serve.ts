/**
 * `anchor-rl serve [RUNS_DIR] [--port N] [--token T | --no-token]`: watch runs live in a browser
 * (src/serve/). Prints the URL to open — with its access token — and serves until interrupted.
 */
import { basename, dirname, relative, resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { AnchorError } from '../../util/errors.ts';

interface ServeArgs {
  dir: string;
  port: number;
  token?: string | boolean;
}

/** The default port (TensorBoard's 6006 plus one, so both can run side by side). */
const DEFAULT_SERVE_PORT = 6007;

/**
 * On a terminal, tell the user how to watch the run (or sweep) in `dir` live: `anchor-rl serve`
 * on its parent directory (the run itself may not exist yet) and the page to open there.
 * Silent when `stream` is not a TTY (CI logs, pipes). `dirOf` is only called on a terminal.
 */
export function printServeHint(
  dirOf: () => string,
  kind: 'run' | 'sweep',
  stream: { isTTY?: boolean; write(s: string): unknown } = process.stderr,
): void {
  if (!stream.isTTY) return;
  let abs: string;
  try {
    abs = resolve(dirOf());
  } catch {
    return; // a bad config: the command itself reports it
  }
  const rel = relative(process.cwd(), dirname(abs));
  const parent = rel === '' ? '.' : rel.startsWith('..') ? dirname(abs) : rel;
  stream.write(
    `watch it live: anchor-rl serve ${parent}  (then open the printed URL; this ${kind} is /${kind}/${basename(abs)})\n`,
  );
}

/** `anchor-rl serve`. */
export const serveCommand: CommandBody<object, ServeArgs> = {
  builder: (y) =>
    y
      .positional('dir', {
        type: 'string',
        default: 'runs',
        describe: 'Runs directory (every run and sweep under it), or one run or sweep directory',
      })
      .option('port', { type: 'number', default: DEFAULT_SERVE_PORT, describe: 'Port on 127.0.0.1 (0 = any free port)' })
      .option('token', {
        type: 'string',
        describe:
          'Access token required with every request (default: a random one, printed in the URL); --no-token lets any local user read the runs',
      }) as unknown as Argv<ServeArgs>,
  handler: async (args) => {
    if (!(Number.isInteger(args.port) && args.port >= 0 && args.port <= 65535))
      throw new AnchorError('BAD_ARGUMENT', `--port must be an integer in 0..65535, got ${args.port}`);
    if (args.token === '' || args.token === true)
      throw new AnchorError('BAD_ARGUMENT', '--token needs a value (or use --no-token)');
    const { startServer } = await import('../../serve/server.ts');
    const server = await startServer({ dir: args.dir, port: args.port, token: args.token === false ? null : args.token });
    process.stdout.write(`anchor-rl serve: watching ${args.dir} at\n  ${server.url}\n`);
    if (server.token === null) process.stderr.write('note: --no-token: any user of this machine can read these runs\n');
    process.stderr.write('press Ctrl-C to stop\n');
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        void server.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};
