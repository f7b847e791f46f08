/**
 * The shared hostile corpus (../shared/redteam: js_attacks.jsonl, py_attacks.jsonl) through
 * `anchor-rl sandbox run`, scored with the corpus's own rules (../shared/redteam/score.mjs):
 * no WRONG-PASS, GOLD, LEAK, TWIN-DIFFER or NONDET row, and every control passes. WRONG-STATUS
 * (one non-pass status for another) costs no gold and is reported, not failed.
 *
 * Skips with a printed reason without ../shared; fails under CI=true (support/requirements.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { available } from '../../support/requirements.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const redteam = path.resolve(repoRoot, '../shared/redteam');
const files = ['js_attacks.jsonl', 'py_attacks.jsonl', 'score.mjs'].map((f) => path.join(redteam, f));
const missing = files.find((f) => !existsSync(f));
const run = available('shared red-team corpus', missing ? `${missing} not found` : null);

describe.skipIf(!run)('shared red-team corpus through anchor-rl sandbox run', () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'anchor-rl-redteam-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const sandboxRun = (input: string, out: string) => {
    const r = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'bin/anchor-rl.js'), 'sandbox', 'run', input, '--out', out, '--workers', '2'],
      { encoding: 'utf8', timeout: 400_000, cwd: tmp },
    );
    expect(r.status, r.stderr).toBe(0);
  };

  it('judges every row as a sound strict harness does', () => {
    const js = path.join(tmp, 'js.jsonl');
    const py = path.join(tmp, 'py.jsonl');
    sandboxRun(path.join(redteam, 'js_attacks.jsonl'), js);
    sandboxRun(path.join(redteam, 'py_attacks.jsonl'), py);
    const score = spawnSync(process.execPath, [path.join(redteam, 'score.mjs'), js, py], { encoding: 'utf8' });
    expect(score.status, score.stderr).toBe(0);
    const rows = score.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    expect(rows.length).toBeGreaterThan(150);
    const verdicts = new Map<string, number>();
    const wrong: string[] = [];
    for (const [id, expected, got, counts, , verdict, , error] of rows) {
      verdicts.set(verdict!, (verdicts.get(verdict!) ?? 0) + 1);
      if (verdict === 'ok' || verdict === 'WRONG-STATUS') continue;
      const line = `${id}: ${verdict} (expected ${expected}, got ${got} ${counts}) ${error ?? ''}`;
      wrong.push(line);
    }
    console.info(`[redteam] ${[...verdicts].map(([v, n]) => `${v} ${n}`).join(', ')}`);
    expect(wrong).toEqual([]);
  }, 600_000);
});
