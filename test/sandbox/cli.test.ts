/**
 * CLI smoke test: `anchor-rl sandbox run` on a small fixture (programs, MultiPL-E completion
 * records, malformed lines), through the real entry point.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'bin/anchor-rl.js');
const fixture = path.join(repoRoot, 'test/sandbox/fixtures/sandbox-run.jsonl');
const tmp = mkdtempSync(path.join(tmpdir(), 'anchor-rl-sandbox-cli-'));

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, cwd: tmp });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('anchor-rl sandbox run', () => {
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes one result per input line, reports malformed lines, prints the summary, exits 0', () => {
    const out = path.join(tmp, 'results.jsonl');
    const r = cli(['sandbox', 'run', fixture, '--out', out, '--timeout-ms', '500', '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((x) => [x.line, x.id, x.status])).toEqual([
      [1, 'ok', 'pass'],
      [2, 'wrong', 'fail'],
      [3, 'mbpp_1_double', 'pass'],
      [4, 'mbpp_2_double', 'fail'],
      [5, 'line-5', 'error'],
      [7, 'py', 'pass'],
      [8, 'line-8', 'error'],
      [9, 'syntax', 'syntax_error'],
      [10, 'loop', 'timeout'],
    ]);
    expect(rows[0]).toMatchObject({ passed: 1, total: 1, stdout: 'done\n' });
    expect(rows[2]).toMatchObject({ passed: 2, total: 2 });
    expect(String(rows[4]!.error)).toMatch(/^line 5: invalid JSON/);
    expect(rows[5]).toMatchObject({ passed: 1, total: 1 }); // Python runs in the Pyodide backend
    for (const row of rows) for (const k of ['id', 'status', 'passed', 'total', 'ms', 'stdout']) expect(row).toHaveProperty(k);
    expect(r.stderr).toContain('line 5: invalid JSON');
    expect(r.stderr).toContain('line 8: expected a JSON object');
    const last = r.stderr.trim().split('\n').at(-1);
    expect(last).toBe('3 passed, 6 failed (pass 3, fail 2, error 2, syntax_error 1, timeout 1)');
    expect(r.stdout).toBe('');
  });

  it('runs {program, tests} records with the tests apart: only their checks count', () => {
    const input = path.join(tmp, 'separate.jsonl');
    const tests = "const assert = require('node:assert');\nassert.deepEqual(double(2), 4);\nassert.deepEqual(double(5), 10);\n";
    const padded = "const assert = require('node:assert');\nfor (let i = 0; i < 5; i++) assert.ok(true);\n";
    const records = [
      { id: 'right', program: 'function double(x) { return 2 * x; }', tests },
      { id: 'padded-wrong', program: `${padded}function double(x) { return x + 2; }`, tests },
      { id: 'bad-tests', program: 'function double(x) { return 2 * x; }', tests: 42 },
    ];
    writeFileSync(input, `${records.map((x) => JSON.stringify(x)).join('\n')}\n`);
    const r = cli(['sandbox', 'run', input, '--timeout-ms', '1000', '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((x) => [x.id, x.status, x.passed, x.total])).toEqual([
      ['right', 'pass', 2, 2],
      // padded-wrong passes its first check (4 = 2 + 2) and fails the second; its own five
      // assert.ok calls score nothing.
      ['padded-wrong', 'fail', 1, 2],
      ['bad-tests', 'error', 0, 0],
    ]);
    expect(String(rows[2]!.error)).toMatch(/"tests" must be a string/);
  });

  it('writes results to stdout without --out', () => {
    const r = cli(['sandbox', 'run', fixture, '--timeout-ms', '500', '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(9);
  });

  it('exits 2 on bad arguments or an unreadable input', () => {
    const missing = cli(['sandbox', 'run', path.join(tmp, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.jsonl: no such file/);
    const badWorkers = cli(['sandbox', 'run', fixture, '--workers', '0', '--timeout-ms', '500']);
    expect(badWorkers.code).toBe(2);
    expect(badWorkers.stderr).toMatch(/--workers/);
  });
});
