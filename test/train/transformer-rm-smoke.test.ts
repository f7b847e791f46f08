/**
 * The transformer reward model in a training run (configs/smoke.yaml, tiny policy): selected from
 * config, initialised from the run's base policy, its heads the conservative ensemble's committee,
 * and a run SIGKILLed mid-way resumes to exactly the metrics of an uninterrupted one (the RM is
 * checkpointed and refits identically).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { killAndResumeRun } from '../helpers/kill-resume.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-trm-run-'));
const common = [
  '--config',
  'configs/smoke.yaml',
  '--set',
  `policy.base=${join(work, 'base')}`,
  '--set',
  'reward_model.kind=transformer',
  '--set',
  'reward_model.transformer={heads: 3, epochs: 1, refit_epochs: 1, replay: 8}',
];

describe('reward_model.kind transformer (smoke)', () => {
  it('trains the ensemble arm on the heads, and SIGKILL + resume gives the metrics of an uninterrupted run', async () => {
    const lines = await killAndResumeRun({ work, common, arm: 'ensemble' });
    expect(lines).toHaveLength(6);
    const rm = JSON.parse(readFileSync(join(work, 'killed-ensemble', 'shared', 'initial-rm', 'model.json'), 'utf8'));
    expect(rm).toMatchObject({ kind: 'transformer', options: { heads: 3, pool: 'last' } });
    const refits = readFileSync(join(work, 'killed-ensemble', 'ensemble', 'refits.jsonl'), 'utf8')
      .trim()
      .split('\n');
    for (const l of refits) expect(JSON.parse(l)).toMatchObject({ refit: true, perf: { refit_s: expect.any(Number) } });
  }, 900_000);
});
