/**
 * CI honesty: with CI=true a test file whose service is missing fails instead of skipping;
 * without CI it still skips with a printed reason. The services are made missing on purpose:
 * chromium through CHROMIUM_PATH, redis-server through a PATH that holds only `node`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths.ts';
import { available } from '../../support/requirements.ts';

const onlyNode = mkdtempSync(join(tmpdir(), 'anchor-ci-path-'));
symlinkSync(process.execPath, join(onlyNode, 'node'));

/** Run one test file in a fresh vitest with `env` on top of ours (CI removed unless given). */
function vitest(file: string, env: Record<string, string>) {
  const { CI: _ci, ...base } = process.env;
  const r = spawnSync(process.execPath, [resolve(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', file], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...base, ...env },
  });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('missing services under CI', () => {
  it('available(): true when present, skip with a reason locally, throw under CI', () => {
    const { CI } = process.env;
    try {
      delete process.env.CI;
      expect(available('x', null)).toBe(true);
      expect(available('x', 'gone')).toBe(false);
      process.env.CI = 'true';
      expect(() => available('x', 'gone')).toThrow(/x: gone; CI=true requires it/);
    } finally {
      if (CI === undefined) delete process.env.CI;
      else process.env.CI = CI;
    }
  });

  it('chromium missing: the browser test skips locally and fails with CI=true', () => {
    const local = vitest('test/report/browser.test.ts', { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(local.code, local.out).toBe(0);
    expect(local.out).toMatch(/\[skip\] report browser test: \/nonexistent\/chromium not found/);
    const ci = vitest('test/report/browser.test.ts', { CHROMIUM_PATH: '/nonexistent/chromium', CI: 'true' });
    expect(ci.code, ci.out).not.toBe(0);
    expect(ci.out).toMatch(/report browser test: \/nonexistent\/chromium not found.*CI=true requires it/);
  }, 240_000);

  it('redis-server missing: the queue tests skip locally and fail with CI=true', () => {
    const local = vitest('test/sandbox/queue/config.test.ts', { PATH: onlyNode });
    expect(local.code, local.out).toBe(0);
    expect(local.out).toMatch(/\[skip\] Redis password test: redis-server is not installed/);
    const ci = vitest('test/sandbox/queue/config.test.ts', { PATH: onlyNode, CI: 'true' });
    expect(ci.code, ci.out).not.toBe(0);
    expect(ci.out).toMatch(/Redis password test: redis-server is not installed.*CI=true requires it/);
  }, 240_000);

  it('.ci/run fails (does not skip) when a service cannot be installed under CI', () => {
    const script = spawnSync('bash', ['-c', 'sed -n "/^need()/,/^}/p" .ci/run'], { cwd: repoRoot, encoding: 'utf8' }).stdout;
    // The need() function alone, with no apt-get on PATH (nothing installed), for a command that does not exist.
    const run = (ci: string) =>
      spawnSync(
        '/bin/bash',
        ['-c', `set -euo pipefail; SUDO=""; CI=${ci}; ${script}\nneed no-such-service-cmd no-such-pkg "the x tests"; echo after`],
        {
          encoding: 'utf8',
          env: { PATH: onlyNode },
        },
      );
    const ci = run('true');
    expect(ci.status).toBe(1);
    expect(ci.stderr).toMatch(/no-such-service-cmd is missing and could not be installed/);
    const local = run('false');
    expect(local.status).toBe(0);
    expect(local.stdout).toMatch(/no-such-service-cmd unavailable: the x tests will skip\nafter/);
  });
});
