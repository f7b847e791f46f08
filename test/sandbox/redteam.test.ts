/**
 * The shared hostile corpus (../shared/redteam: js_attacks.jsonl, py_attacks.jsonl) through
 * `anchor-rl sandbox run`, scored with the corpus's own rules (../shared/redteam/score.mjs):
 * no WRONG-PASS, GOLD, LEAK, TWIN-DIFFER or NONDET row, and every control passes. WRONG-STATUS
 * (one non-pass status for another) costs no gold and is reported, not failed.
 *
 * Rows whose expected verdict rests on a limit this repository documented and has since lifted
 * are held to the verdict the lifted limit gives (`LIFTED`, each with its reason, also in
 * docs/sandbox.md); the corpus's own score for them is printed.
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

/** Rows whose expectation was a documented limit that is lifted: the status (and passed count) they must now get. */
const LIFTED: Record<string, { status: string; passed: string; why: string }> = {
  J9_02_setTimeout_late_answer: {
    status: 'pass',
    passed: '2/2',
    why: "a correct add answering through setTimeout; 'error' only because the program realm had no timers (js-program-timers.ts)",
  },
};

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
      const lifted = LIFTED[id!];
      if (lifted) {
        console.info(
          `[redteam] ${id}: ${verdict} by the corpus (expected ${expected}); held to ${lifted.status} ${lifted.passed}: ${lifted.why}`,
        );
        if (got !== lifted.status || counts !== lifted.passed)
          wrong.push(`${id}: expected ${lifted.status} ${lifted.passed} (lifted limit), got ${got} ${counts}`);
        continue;
      }
      if (verdict === 'ok' || verdict === 'WRONG-STATUS') continue;
      const line = `${id}: ${verdict} (expected ${expected}, got ${got} ${counts}) ${error ?? ''}`;
      wrong.push(line);
    }
    console.info(`[redteam] ${[...verdicts].map(([v, n]) => `${v} ${n}`).join(', ')}`);
    expect(wrong).toEqual([]);
  }, 600_000);
});
