/**
 * Access to the real sandbox executor for this directory's tests. The executor is written in
 * another part of the project; until `src/sandbox/index.ts` exists, tests that need it skip
 * with a printed reason.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Executor } from '../../src/sandbox/types.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sandboxIndex = path.join(repoRoot, 'src/sandbox/index.ts');

/** True when the sandbox module is present. */
export const sandboxAvailable: boolean = existsSync(sandboxIndex);

/** Reason printed when sandbox tests skip. */
export const sandboxSkipReason = `src/sandbox/index.ts (createExecutor) is not present; sandbox-graded task tests are skipped`;

/** A local executor with two workers. */
export async function makeExecutor(): Promise<Executor> {
  const mod = (await import(sandboxIndex)) as {
    createExecutor: (opts?: Record<string, unknown>) => Executor | Promise<Executor>;
  };
  return await mod.createExecutor({ backend: 'local', workers: 2, timeoutMs: 2000, memoryMb: 64 });
}
