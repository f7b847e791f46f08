import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCRATCH_PREFIX } from '../helpers/scratch-root.ts';

// The global set-up (test/helpers/scratch-root.ts) must reach the forked workers and the
// processes tests spawn, or their scratch directories land in the system's folder again.
describe('test scratch root', () => {
  it('is the temporary folder of this worker', () => {
    expect(basename(tmpdir())).toMatch(new RegExp(`^${SCRATCH_PREFIX}`));
  });

  it('is the temporary folder of a spawned process', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], {
      encoding: 'utf8',
    });
    expect(child.stdout).toBe(tmpdir());
  });
});
