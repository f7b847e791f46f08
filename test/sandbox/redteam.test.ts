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

/**
 * Python rows still wrong at this branch's head; the Python half of issue 25 is sbx-py's (the
 * other helper's branch). Remove each id as that branch fixes it — the lead empties this list when
 * merging. Only these ids are tolerated, and only as WRONG-PASS/GOLD/LEAK (a JavaScript row or a
 * control is never in it).
 */
const PENDING_PYTHON_SBX_PY: readonly string[] = [
  'P6_05_object_rsub_abs',
  'P6_07_contains_true',
  'P6_10_nan_weak_tolerance',
  'P8_01_sys_modules_fake_math',
  'P8_02_meta_path_finder_fake_math',
  'P8_04_builtin_named_entry_leaks_abs',
  'P8_06_prompt_module_attribute_patched',
  'P8_08_fixture_globals_patch_tests_builtins',
];

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
    const pending: string[] = [];
    for (const [id, expected, got, counts, , verdict, , error] of rows) {
      verdicts.set(verdict!, (verdicts.get(verdict!) ?? 0) + 1);
      if (verdict === 'ok' || verdict === 'WRONG-STATUS') continue;
      const line = `${id}: ${verdict} (expected ${expected}, got ${got} ${counts}) ${error ?? ''}`;
      const tolerated = PENDING_PYTHON_SBX_PY.includes(id!) && ['WRONG-PASS', 'GOLD', 'LEAK'].includes(verdict!);
      (tolerated ? pending : wrong).push(line);
    }
    console.info(`[redteam] ${[...verdicts].map(([v, n]) => `${v} ${n}`).join(', ')}`);
    if (pending.length) console.warn(`[redteam] pending on sbx-py's branch (Python):\n  ${pending.join('\n  ')}`);
    expect(wrong).toEqual([]);
  }, 600_000);
});
