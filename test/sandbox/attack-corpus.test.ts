/**
 * CLI smoke run of the project's own attack corpus (test/sandbox/fixtures/attack-corpus.jsonl:
 * MultiPL-E completion records, each marked `pass` or `not-pass`) through `anchor-rl sandbox run`,
 * which runs completion records as training does. No wrong answer may be judged `pass`, and the
 * legitimate records must pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.join(repoRoot, 'test/sandbox/fixtures/attack-corpus.jsonl');
const tmp = mkdtempSync(path.join(tmpdir(), 'anchor-rl-attack-corpus-'));

describe('attack corpus through anchor-rl sandbox run', () => {
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('judges no wrong answer pass and every legitimate one pass', () => {
    const out = path.join(tmp, 'results.jsonl');
    const r = spawnSync(
      process.execPath,
      [path.join(repoRoot, 'bin/anchor-rl.js'), 'sandbox', 'run', corpus, '--out', out, '--timeout-ms', '3000'],
      {
        encoding: 'utf8',
        timeout: 300_000,
        cwd: tmp,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const expected = new Map(
      readFileSync(corpus, 'utf8')
        .trim()
        .split('\n')
        .map((l) => {
          const rec = JSON.parse(l) as { name: string; expect: string };
          return [rec.name, rec.expect] as const;
        }),
    );
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; status: string });
    expect(rows).toHaveLength(expected.size);
    for (const row of rows) {
      if (expected.get(row.id) === 'pass') expect(row.status, JSON.stringify(row)).toBe('pass');
      else expect(row.status, JSON.stringify(row)).not.toBe('pass');
    }
  }, 300_000);
});
