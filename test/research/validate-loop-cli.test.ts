import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'bin/anchor-rl.js');

function run(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
}

describe('anchor-rl validate-loop (CLI)', () => {
  it('--json --rounds 5000 prints a machine-readable report; exit code follows ok', () => {
    const res = run(['validate-loop', '--json', '--rounds', '5000', '--seed', '3']);
    const report = JSON.parse(res.stdout);
    expect(report.params).toMatchObject({ rounds: 5000, seed: 3, modes: 300, alpha: 1.1, epsilon: 0.05, violationRate: 0.05 });
    expect(report.checks).toHaveLength(6);
    for (const c of report.checks) {
      expect(typeof c.name).toBe('string');
      expect(typeof c.pass).toBe('boolean');
      expect(typeof c.detail).toBe('string');
    }
    expect(report.ok).toBe(report.checks.every((c: { pass: boolean }) => c.pass));
    expect(res.status).toBe(report.ok ? 0 : 1);
    // Whatever else a short run shows, no violation is ever committed.
    expect(report.checks[0].figures.committed).toBe(0);
    expect(report.checkpoints.length).toBeGreaterThan(0);
  });

  it('bad input exits 2', () => {
    const res = run(['validate-loop', '--rounds', '5']);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/--rounds/);
  });
});
