/**
 * Vitest global set-up: every temporary directory of one `npm test` run lives under one root.
 *
 * Fifty-odd test files make scratch directories with `mkdtempSync(tmpdir())`, and the CLI smoke
 * runs they spawn make more; many of those are never removed (a test stopped by its timeout
 * cannot clean up), so every run used to leave ~100 directories in the system's temporary folder.
 * Pointing `TMPDIR` at a root made here, before the workers fork, gathers all of them (workers
 * and the processes they spawn inherit the environment) and lets the teardown remove exactly what
 * this run created. `ANCHOR_RL_KEEP_TEST_TMP=1` keeps the root for a post-mortem and prints it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Name prefix of the run's root; test/support/scratch-root.test.ts checks workers see it. */
export const SCRATCH_PREFIX = 'anchor-test-';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), SCRATCH_PREFIX));
  process.env.TMPDIR = root;
  return () => {
    if (process.env.ANCHOR_RL_KEEP_TEST_TMP === '1') {
      console.log(`test scratch kept: ${root}`);
      return;
    }
    rmSync(root, { recursive: true, force: true });
  };
}
