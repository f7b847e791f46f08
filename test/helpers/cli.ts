/** Run the real CLI in a child process, as a user would. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { repoRoot } from './paths.ts';

/** Result of one CLI invocation. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `anchor-rl ARGS` from the repo root (or `cwd`). */
export function runCli(
  args: string[],
  opts: { cwd?: string; input?: string; timeoutMs?: number; env?: Record<string, string> } = {},
): CliResult {
  const r = spawnSync(process.execPath, [resolve(repoRoot, 'bin/anchor-rl.js'), ...args], {
    cwd: opts.cwd ?? repoRoot,
    input: opts.input,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    env: { ...process.env, ...opts.env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
