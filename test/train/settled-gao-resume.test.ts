/**
 * SIGKILL + resume through the CLI for the anchored arms whose state goes beyond the policy and the
 * RM: `settled-gao-mask` (silenced completions left out of the loss) and the RM quality gate
 * (`settlement.rm_gate` on settled-gao-hold), set high enough here that it closes during the run — asserted, so the
 * test cannot pass on a gate that never fired — and the rollback to the best settled window
 * (`settlement.rollback`), set to restore on any fall so that it fires after the kill, from the
 * snapshot the killed run saved. The resumed run must log exactly the metrics of an uninterrupted
 * one (test/helpers/kill-resume.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { METRIC_KEYS as K, ROLLBACK_METRIC_KEYS as ROLLBACK } from '../../src/train/run-format.ts';
import { killAndResumeRun, SHIPPED_BASE_AT_SMOKE } from '../helpers/kill-resume.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-sgao-resume-'));
const common = ['--config', 'configs/smoke.yaml', '--set', `policy.base=${join(work, 'base')}`];

// The shipped default base at the smoke budget: it passes some programs, so settled windows differ
// in mean gold (the smoke base passes nothing: no pair is scorable and no window falls).
const shippedBase = [...common, ...SHIPPED_BASE_AT_SMOKE, '--set', 'settlement.rate=0.5'];

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
    const gate = [...shippedBase, '--set', 'settlement.rm_gate.min_pair_acc=0.99'];
    const lines = await killAndResumeRun({ work, common: gate, arm: 'settled-gao-hold' });
    expect(lines).toHaveLength(6);
    expect(lines.some((l) => l[K.rmGate] === 1)).toBe(true);
  }, 900_000);

  it('a rollback to the best settled window after the kill resumes to the metrics of an uninterrupted run', async () => {
    // z = 0: any window whose mean settled gold is below the best one's restores the best
    // snapshot, which the killed run saved before the kill (windows close at steps 2, 4, 6).
    const rollback = [...shippedBase, '--set', 'settlement.rollback={enabled: true, z: 0, on_alarm: false}'];
    // Its own directory: the gate test above trains settled-gao-hold too, and a run directory is
    // named after its arm.
    const own = mkdtempSync(join(tmpdir(), 'anchor-sgao-rollback-'));
    const lines = await killAndResumeRun({ work: own, common: rollback, arm: 'settled-gao-hold' });
    expect(lines).toHaveLength(6);
    const count = (l: Record<string, unknown>) => Number(l[ROLLBACK.count] ?? 0);
    expect(count(lines[2] ?? {})).toBe(0);
    expect(Math.max(...lines.map(count))).toBeGreaterThan(0);
  }, 900_000);
});
