/**
 * CLI: `anchor-rl sandbox run` executes Python lines (`language: python`), HumanEval-style
 * completion records and JavaScript lines in one file, with the right statuses and summary.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

describe('python sandbox: CLI', () => {
  it('sandbox run handles python programs and completion records', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-py-cli-'));
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    const lines = [
      { id: 'ok', language: 'python', program: 'def f(x):\n    return x + 1\nassert f(1) == 2\n' },
      { id: 'bad', language: 'py', program: 'def f(x):\n    return x\nassert f(1) == 2\n' },
      { id: 'exit', language: 'python', program: 'import sys\nsys.exit(0)\nassert False\n' },
      {
        name: 'he',
        language: 'python',
        prompt: 'def add(a, b):\n',
        completion: '    return a + b\n\ndef junk():',
        tests: 'def check(candidate):\n    assert candidate(1, 2) == 3\n\ncheck(add)\n',
        stop_tokens: ['\ndef '],
      },
      { id: 'js', program: "const assert = require('node:assert'); assert.equal(1, 1);" },
    ];
    writeFileSync(input, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await runCli(['sandbox', 'run', input, '--out', out, '--workers', '1'], { timeoutMs: 170_000 });
    expect(r.code, r.stderr).toBe(0);
    const res = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; status: string });
    expect(Object.fromEntries(res.map((x) => [x.id, x.status]))).toEqual({
      ok: 'pass',
      bad: 'fail',
      exit: 'error',
      he: 'pass',
      js: 'pass',
    });
    expect(r.stderr).toMatch(/3 passed, 2 failed/);
  });
});
