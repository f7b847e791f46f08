/** Run the real CLI in a child process, as a user would. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

/** A CLI started in the background: the child, its stderr so far, and its exit code. */
export interface CliChild {
  proc: ChildProcess;
  /** Everything the CLI wrote to stderr so far. */
  stderr(): string;
  /** Exit code once it exits (1 when a signal ended it). */
  exited: Promise<number>;
}

/** Start `anchor-rl ARGS` in the background from the repo root, collecting its stderr (stdout is ignored). */
function spawnCli(args: string[]): CliChild {
  const proc = spawn(process.execPath, [resolve(repoRoot, 'bin/anchor-rl.js'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => (err += d));
  const exited = new Promise<number>((res) => proc.on('exit', (c) => res(c ?? 1)));
  return { proc, stderr: () => err, exited };
}

/**
 * Start `anchor-rl train` on configs/smoke.yaml in the background: one `arm` for `steps` steps,
 * the base policy pretrained into (or reused from) `base`, the run in `out`; `extra` are more
 * arguments (`--set` overrides, `--queue URL`).
 */
export function spawnSmokeTrain(opts: { arm: string; steps: number; base: string; out: string; extra?: string[] }): CliChild {
  return spawnCli([
    'train',
    '--config',
    'configs/smoke.yaml',
    '--set',
    `arms=[${opts.arm}]`,
    '--set',
    `grpo.steps=${opts.steps}`,
    '--set',
    `policy.base=${opts.base}`,
    ...(opts.extra ?? []),
    '--out',
    opts.out,
  ]);
}
