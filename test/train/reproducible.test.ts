/**
 * Reproducibility per seed: two `train` runs of the same config and seed log bit-identical
 * per-step metrics (wall- and CPU-time `perf/*` keys aside) and samples — with the GRPO update's
 * shared-prompt layout in force (configs/smoke.yaml samples 4 completions per prompt).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { metrics } from '../helpers/kill-resume.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-repro-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const withoutTiming = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('perf/'))));

describe('reproducibility per seed', () => {
  it('two runs of the same seed log identical metrics and samples; another seed does not', () => {
    const arms = 'arms=[anchored]';
    const common = ['--config', 'configs/smoke.yaml', '--set', `policy.base=${join(work, 'base')}`, '--set', arms];
    const run = (name: string, seed: number) => {
      const out = join(work, name);
      const r = runCli(['train', ...common, '--set', `seed=${seed}`, '--out', out], { timeoutMs: 600_000 });
      expect(r.code, r.stderr.slice(-4000)).toBe(0);
      return out;
    };
    const a = run('a', 0);
    const b = run('b', 0);
    const c = run('c', 1);
    for (const arm of ['anchored']) {
      const rows = metrics(a, arm);
      expect(rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
      expect(typeof rows[0]!['perf/cpu_s']).toBe('number');
      expect(withoutTiming(metrics(b, arm)), arm).toEqual(withoutTiming(rows));
      expect(withoutTiming(metrics(c, arm)), arm).not.toEqual(withoutTiming(rows));
      const samples = (d: string) => readFileSync(join(d, arm, 'samples.jsonl'), 'utf8');
      expect(samples(b), arm).toBe(samples(a));
    }
  }, 900_000);
});
