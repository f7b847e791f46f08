/**
 * A run recorded by a version before an option whose default changes what is trained
 * (src/train/run-config.ts RECORDED_BEFORE) resumes with what it trained with. Simulated with
 * grpo.length_buckets: a run trained with one bucket, killed, its manifest rewritten as a version
 * before the option wrote it (no key, hash of that config), resumed with today's default of 4
 * buckets in the schema; it must log exactly the metrics of an uninterrupted one-bucket run.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configHash } from '../../src/train/run-dir.ts';
import { killAndResumeRun, SHIPPED_BASE_AT_SMOKE } from '../helpers/kill-resume.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-recorded-before-'));
// The shipped base: its completions end at different lengths, so one bucket and four lay the rows
// out differently (the smoke base fills every completion to the limit, where the layouts compute
// the same numbers: with it this test passes even when the fix is undone).
const common = ['--config', 'configs/smoke.yaml', ...SHIPPED_BASE_AT_SMOKE, '--set', 'grpo.length_buckets=1'];

/** Rewrite the run's config record as a version without grpo.length_buckets wrote it. */
function recordBeforeBuckets(runDir: string): void {
  const mp = join(runDir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(mp, 'utf8')) as { config: { grpo: Record<string, unknown> }; configHash: string };
  expect(manifest.config.grpo.length_buckets).toBe(1);
  delete manifest.config.grpo.length_buckets;
  manifest.configHash = configHash(manifest.config);
  writeFileSync(join(runDir, 'config.resolved.json'), JSON.stringify(manifest.config));
  writeFileSync(mp, JSON.stringify(manifest));
}

describe('a run recorded before grpo.length_buckets', () => {
  it('resumes with one bucket: the metrics and samples of an uninterrupted one-bucket run', async () => {
    const lines = await killAndResumeRun({ work, common, arm: 'execution', beforeResume: recordBeforeBuckets });
    expect(lines).toHaveLength(6);
  }, 900_000);
});
