/**
 * `anchor-rl eval` through the CLI, as a user runs it: the shipped base policy on generated
 * problems, pass@k from n samples per problem, the per-problem rows written with --out, the same
 * seed giving the same numbers, and the sandbox options validated like the config's `sandbox`
 * section (a bad value is exit 2 quoting the key).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-eval-cli-'));
const base = ['eval', '--checkpoint', 'models/base-synthetic-js', '--dataset', 'synthetic-js', '--limit', '6', '--n', '4'];

describe('anchor-rl eval', () => {
  it('scores the shipped base: pass@k from the rows it writes, the same for the same seed', () => {
    const out = join(work, 'rows.jsonl');
    const r = runCli([...base, '--k', '1,4', '--json', '--out', out], { timeoutMs: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as Record<string, number>;
    expect(summary).toMatchObject({ dataset: 'synthetic-js', problems: 6, n: 4 });
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; c: number; statuses: Record<string, number> });
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.n).toBe(4);
      expect(Object.values(row.statuses).reduce((a, b) => a + b, 0)).toBe(4);
      expect(row.c).toBe(row.statuses.pass ?? 0);
    }
    // pass@1 is the mean pass rate; pass@n is the share of problems with any pass.
    expect(summary['pass@1']).toBeCloseTo(rows.reduce((a, x) => a + x.c / x.n, 0) / rows.length, 12);
    expect(summary['pass@4']).toBeCloseTo(rows.filter((x) => x.c > 0).length / rows.length, 12);
    const again = runCli([...base, '--k', '1,4', '--json'], { timeoutMs: 300_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(summary);
  }, 600_000);

  it('refuses bad sandbox options and k values with exit 2 naming them', () => {
    const workers = runCli([...base, '--k', '1', '--workers', '0']);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toMatch(/workers: got 0, expected at least 1/);
    const k = runCli([...base, '--k', '1,5']);
    expect(k.code).toBe(2);
    expect(k.stderr).toMatch(/--k 1,5: every k must be an integer in \[1, n=4\]/);
  }, 120_000);
});
