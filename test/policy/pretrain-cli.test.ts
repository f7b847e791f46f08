/**
 * CLI smoke run of `anchor-rl pretrain` on a tiny budget through the real sandbox: exit code 0,
 * a printed pass rate, a checkpoint; and bad config is exit code 2.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'anchor-pretrain-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    const code = await main(args);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('anchor-rl pretrain', () => {
  it('runs a tiny budget end to end and prints the executed pass rate as JSON', async () => {
    const output = join(dir, 'base');
    const r = await run([
      'pretrain',
      '--config',
      'configs/pretrain.yaml',
      '--json',
      '--no-progress',
      '--set',
      'train.steps=2',
      '--set',
      'train.batch_size=4',
      '--set',
      'task.train=20',
      '--set',
      'task.eval=4',
      '--set',
      'eval.problems=4',
      '--set',
      'eval.max_new_tokens=8',
      '--set',
      'model.layers=1',
      '--set',
      'model.d_model=16',
      '--set',
      'model.heads=2',
      '--set',
      `output=${output}`,
    ]);
    expect(r.err).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out);
    expect(summary.evaluated).toBe(4);
    expect(summary.pass_rate).toBeGreaterThanOrEqual(0);
    expect(Object.values(summary.status_counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(4);
    expect(existsSync(join(output, 'model.safetensors'))).toBe(true);
  });

  it('exits 2 on a bad config value', async () => {
    const r = await run(['pretrain', '--set', 'train.steps=-1', '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/steps/);
  });
});
