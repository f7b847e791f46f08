/**
 * Exit codes and messages of `compare`/`report` on bad input, through the CLI's real entry point
 * (`main`) in-process: the same parsing and error mapping as bin/anchor-rl.js without paying a
 * process start per case (cli.test.ts covers the child-process path).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { FAKE_ARMS, writeFakeRun } from '../helpers/fake-run.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-report-cli-err-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((stdout += String(c)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += String(c)), true));
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

const full = writeFakeRun(join(root, 'full'), { steps: 30 });
const notRun = join(root, 'not-a-run');
mkdirSync(join(notRun, 'sub'), { recursive: true });
const empty = writeFakeRun(join(root, 'empty'), { steps: 10, noSteps: [...FAKE_ARMS] });

describe('compare/report exit codes', () => {
  const cases: [string, string[], number, RegExp][] = [
    ['not a run', ['compare', notRun], 2, /anchor-rl: not a run directory: .*no manifest.json and no arm directories/],
    ['missing dir', ['compare', join(root, 'missing')], 2, /run directory not found/],
    ['a file', ['compare', join(full.dir, 'manifest.json')], 2, /not a run directory \(a file\)/],
    ['no arm has steps', ['compare', empty.dir], 2, /nothing to compare: no arm has logged a step yet/],
    ['bad window', ['compare', full.dir, '--window', '0'], 2, /--window must be a positive integer/],
    ['fractional window', ['compare', full.dir, '--window', '2.5'], 2, /--window must be a positive integer/],
    ['json and csv', ['compare', full.dir, '--json', '--csv'], 2, /mutually exclusive/],
    ['no run given', ['compare'], 2, /Not enough non-option arguments/],
    ['report: not a run', ['report', notRun, '--out', join(root, 'x.html')], 2, /not a run directory/],
    [
      'report: bad window',
      ['report', full.dir, '--window', '-3', '--out', join(root, 'y.html')],
      2,
      /--window must be a positive integer/,
    ],
    [
      'report: bad samples',
      ['report', full.dir, '--samples', '1.5', '--out', join(root, 'z.html')],
      2,
      /--samples must be a non-negative integer/,
    ],
  ];
  for (const [name, args, code, msg] of cases) {
    it(`${name} → exit ${code}`, async () => {
      const r = await run(args);
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    });
  }

  it('writes nothing when the report fails', () => {
    for (const f of ['x.html', 'y.html', 'z.html']) expect(existsSync(join(root, f))).toBe(false);
  });

  it('exits 0 with --csv on a good run', async () => {
    const r = await run(['compare', full.dir, '--csv']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1 + FAKE_ARMS.length);
  });
});
