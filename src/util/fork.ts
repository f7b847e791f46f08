/**
 * Forking a project module as a child process. The child runs the same flavour of the project
 * as its parent: from a source checkout (tsx, vitest) the modules are TypeScript and the child
 * gets tsx's loader; from the compiled package (`dist/`, see tsconfig.build.json) it forks the
 * sibling `.js` file with no loader, so an installed package needs no tsx at run time.
 * `extraExecArgv` adds flags such as `--no-node-snapshot` (needed by isolated-vm on Node 20+).
 */
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A module to fork: its file and the Node flags it needs. */
export interface ModuleEntry {
  path: string;
  execArgv: string[];
}

/**
 * The module `name` (a relative specifier without extension, e.g. `./arm-process`) next to the
 * caller `from` (its `import.meta.url`), in the caller's own flavour (`.ts` or `.js`).
 */
export function moduleEntry(name: string, from: string): ModuleEntry {
  const source = from.endsWith('.ts');
  const path = fileURLToPath(new URL(`${name}${source ? '.ts' : '.js'}`, from));
  // tsx is resolved from this package, not from the working directory: a bare `--import tsx`
  // would make a run started outside the checkout fail to fork its children.
  return { path, execArgv: source ? ['--import', import.meta.resolve('tsx')] : [] };
}

/** Fork the module `name` next to `from` (see moduleEntry) with the right loader flags. */
export function forkModule(
  name: string,
  from: string,
  args: string[] = [],
  opts: ForkOptions & { extraExecArgv?: string[] } = {},
): ChildProcess {
  const { extraExecArgv = [], ...rest } = opts;
  const entry = moduleEntry(name, from);
  return fork(entry.path, args, { ...rest, execArgv: [...entry.execArgv, ...extraExecArgv] });
}
