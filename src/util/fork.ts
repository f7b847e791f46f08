/**
 * Forking a project module as a child process. From a source checkout the modules are
 * TypeScript, so the child gets tsx's loader; `extraExecArgv` adds flags such as
 * `--no-node-snapshot` (needed by isolated-vm on Node 20+).
 */
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Fork `moduleUrl` (a `new URL('./x.ts', import.meta.url)`) with the right loader flags. */
export function forkModule(moduleUrl: URL, args: string[] = [], opts: ForkOptions & { extraExecArgv?: string[] } = {}): ChildProcess {
  const path = fileURLToPath(moduleUrl);
  const execArgv = [...(path.endsWith('.ts') ? ['--import', 'tsx'] : []), ...(opts.extraExecArgv ?? [])];
  const { extraExecArgv: _ignored, ...rest } = opts;
  return fork(path, args, { ...rest, execArgv });
}
