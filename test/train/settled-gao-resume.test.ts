/**
 * SIGKILL + resume through the CLI for the anchored arms whose state goes beyond the policy and the
 * RM: `settled-gao-mask` (silenced completions left out of the loss) and the RM quality gate
 * (`settlement.rm_gate` on settled-gao-hold), set high enough here that it closes during the run — asserted, so the
 * test cannot pass on a gate that never fired. The resumed run must log exactly the metrics of an
 * uninterrupted one (test/helpers/kill-resume.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRIC_KEYS as K } from '../../src/train/run-format.ts';
import { killAndResumeRun } from '../helpers/kill-resume.ts';
import { repoRoot } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-sgao-resume-'));
const common = ['--config', 'configs/smoke.yaml', '--set', `policy.base=${join(work, 'base')}`];

describe('settled-gao arms: SIGKILL + resume through the CLI', () => {
  it('settled-gao-mask resumes to the metrics of an uninterrupted run', async () => {
    const lines = await killAndResumeRun({ work, common, arm: 'settled-gao-mask' });
    expect(lines).toHaveLength(6);
  }, 900_000);

  it('settled-gao-hold with an RM quality gate that closes resumes to the metrics of an uninterrupted run', async () => {
    // settled-gao-hold under the run's own gate (the registry's settled-gao-rmgate pins 0.5 in its
    // overlay). A scorable pair needs a group whose programs both pass and fail, which the smoke
    // base never does (it passes nothing): the shipped default base (models/base-synthetic-js)
    // passes some, and half of each window's groups are settled. 0.99 pairwise accuracy is more
    // than the RM reaches, so the gate closes.
    const gate = [
      ...common,
      '--set',
      `policy.base=${join(repoRoot, 'models/base-synthetic-js')}`,
      '--set',
      'policy.model={layers: 2, d_model: 128, heads: 4, context: 256}',
      '--set',
      'policy.sampling.max_new_tokens=48',
      '--set',
      'settlement.rate=0.5',
      '--set',
      'settlement.rm_gate.min_pair_acc=0.99',
    ];
    const lines = await killAndResumeRun({ work, common: gate, arm: 'settled-gao-hold' });
    expect(lines).toHaveLength(6);
    expect(lines.some((l) => l[K.rmGate] === 1)).toBe(true);
  }, 900_000);
});
