/**
 * CLI smoke tests for `compare` and `report`, run as a user would (child process). Exit codes of
 * the error paths are checked in-process in cli-errors.test.ts (each child pays the CLI's startup).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FAKE_ARMS, writeFakeRun } from '../helpers/fake-run.ts';
import { externalRefs } from './external-refs.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-report-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const full = writeFakeRun(join(root, 'full'), { steps: 50, noise: 0.02 });
const partial = writeFakeRun(join(root, 'partial'), {
  steps: 50,
  running: { anchored: 30 },
  noSteps: ['judge'],
  truncate: { arm: 'frozen', file: 'metrics' },
});

describe('anchor-rl compare', () => {
  it('prints an aligned table with one row per arm', () => {
    const r = runCli(['compare', full.dir, '--window', '10']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^arm\s+steps\s+gold final\s+gold peak\s+peak step\s+proxy final\s+gap\s+KL\s+√KL\s+held-out\s+× exec gold\s+length\s+entropy$/,
    );
    // Three tables: outcomes, settlement/cost, alarms.
    for (const arm of FAKE_ARMS) expect(lines.filter((l) => l.startsWith(`${arm} `))).toHaveLength(3);
    expect(lines.some((l) => /^arm\s+ρ\(drift,gap\)\s+ρ\(1−Snd@G,gap\)/.test(l))).toBe(true);
    // Columns line up: every row of the first table is as wide as its header.
    expect(new Set(lines.slice(0, 6).map((l) => l.length)).size).toBe(1);
    expect(r.stdout).toContain('1 run (fake seed 0); window 10 steps');
  });

  it('--json prints the structured table; --csv one line per arm', () => {
    const j = runCli(['compare', full.dir, full.dir, '--json']);
    expect(j.code).toBe(0);
    const t = JSON.parse(j.stdout);
    expect(t.window).toBe(25);
    expect(t.rows.map((r: { arm: string }) => r.arm)).toEqual([...FAKE_ARMS]);
    expect(t.rows[0].values.finalGold.n).toBe(2);
    expect(t.rows[0].values.finalGold.se).toBe(0); // the same run twice
    const c = runCli(['compare', full.dir, '--csv']);
    expect(c.code).toBe(0);
    const rows = c.stdout.trim().split('\n');
    expect(rows).toHaveLength(5);
    expect(rows[0]!.startsWith('arm,runs,incomplete,steps,finalGold,')).toBe(true);
  });

  it('reads a partial run, naming the truncated line and the incomplete arms (exit 0)', () => {
    const r = runCli(['compare', partial.dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*frozen\/metrics\.jsonl:50: truncated line/);
    expect(r.stderr).toMatch(/warning: .*judge\/metrics\.jsonl: arm 'judge' has no steps \(state pending\)/);
    expect(r.stdout).toContain('* incomplete (still running, failed or not started): anchored, judge');
    expect(r.stdout).toMatch(/^frozen\s+49 /m);
  });
});

describe('anchor-rl report', () => {
  it('writes a self-contained HTML report', () => {
    const out = join(root, 'reports', 'r.html');
    const r = runCli(['report', partial.dir, '--out', out, '--window', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*r\.html \(\d+ KiB\)/);
    expect(r.stderr).toMatch(/note: incomplete arms: anchored, judge/);
    const html = readFileSync(out, 'utf8');
    expect(externalRefs(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<figure id="chart-/g)).toHaveLength(8);
    expect(html).toContain('rolling mean over 5 steps');
  });
});
