/** The run config's cross-section rules, checked where the config is loaded (before any work). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunConfig, recordedArmConfig, recordedRunConfig, runRewardModelConfig } from '../../src/train/run-config.ts';
import { planSweep, sweepRun } from '../../src/train/sweep.ts';
import { SWEEP_FILE } from '../../src/train/sweep-format.ts';

/** A resolved config as a version before grpo.length_buckets recorded it. */
function recordedBeforeBuckets(): Record<string, unknown> {
  const c = structuredClone(loadRunConfig(undefined, [])) as unknown as { grpo: Record<string, unknown> };
  delete c.grpo.length_buckets;
  return c as unknown as Record<string, unknown>;
}

describe('run config', () => {
  it('grpo.overlong.buffer must be shorter than policy.sampling.max_new_tokens (error quotes the key path and value)', () => {
    const sets = ['policy.sampling.max_new_tokens=24'];
    expect(loadRunConfig(undefined, [...sets, 'grpo.overlong.buffer=23']).grpo.overlong.buffer).toBe(23);
    expect(() => loadRunConfig(undefined, [...sets, 'grpo.overlong.buffer=24'])).toThrow(
      /grpo\.overlong\.buffer: got 24, expected less than policy\.sampling\.max_new_tokens \(24\)/,
    );
  });

  it('an arm overlay is held to the same rules when the config is loaded', () => {
    const arms = 'arms=[frozen,{name: long, extends: execution, overlay: {grpo: {overlong: {buffer: 64}}}}]';
    expect(() => loadRunConfig(undefined, [arms])).toThrow(/arm long overlay[\s\S]*grpo\.overlong\.buffer: got 64/);
  });

  it('reward_model.seed: fixed at 0 whatever the run seed by default; `run` takes the run seed; a bad value quotes the key', () => {
    expect(runRewardModelConfig(loadRunConfig(undefined, ['seed=7'])).seed).toBe(0);
    expect(runRewardModelConfig(loadRunConfig(undefined, ['seed=7', 'reward_model.seed=3'])).seed).toBe(3);
    expect(runRewardModelConfig(loadRunConfig(undefined, ['seed=7', 'reward_model.seed=run'])).seed).toBe(7);
    expect(() => loadRunConfig(undefined, ['reward_model.seed=runs'])).toThrow(/reward_model\.seed[\s\S]*runs/);
  });

  it('in a sweep, reward_model.seed: run gives each seed run its own RM seed (the recorded config keeps `run`)', () => {
    const plan = planSweep({
      sets: ['reward_model.seed=run'],
      grids: [],
      seeds: '3,5',
      references: 'frozen',
      out: '/tmp/x-sweep',
    });
    expect(plan.runs.map((r) => [r.config.reward_model.seed, runRewardModelConfig(r.config).seed])).toEqual([
      ['run', 3],
      ['run', 5],
    ]);
  });

  it('a config recorded before grpo.length_buckets is read with 1 bucket (what it trained with); recorded values and new configs keep theirs', () => {
    expect(loadRunConfig(undefined, []).grpo.length_buckets).toBe(4);
    const old = recordedBeforeBuckets();
    const { config, filled } = recordedRunConfig(old);
    expect(config).toMatchObject({ grpo: { length_buckets: 1 } });
    expect(filled).toEqual(['grpo.length_buckets = 1']);
    expect('length_buckets' in (old.grpo as Record<string, unknown>)).toBe(false); // the record is not edited
    // Each arm of such a run trains with it; a run that recorded a value keeps that value.
    for (const arm of ['frozen', 'settled-gao-hold', 'execution', 'judge'])
      expect(recordedArmConfig(old, arm)?.config.grpo.length_buckets).toBe(1);
    const recorded = loadRunConfig(undefined, ['grpo.length_buckets=3']) as unknown as Record<string, unknown>;
    expect(recordedRunConfig(recorded).filled).toEqual([]);
    expect(recordedArmConfig(recorded, 'execution')?.config.grpo.length_buckets).toBe(3);
    expect(recordedArmConfig(old, 'no-such-arm')).toBeUndefined();
  });

  it('a sweep recorded before grpo.length_buckets is not continued with 4 buckets: the change is named', async () => {
    const out = mkdtempSync(join(tmpdir(), 'anchor-sweep-old-'));
    try {
      const opts = { grids: [], seeds: '1', references: 'frozen', out };
      const plan = planSweep(opts);
      const record = { ...plan.record, config: recordedBeforeBuckets(), startedAt: new Date().toISOString(), endedAt: null };
      writeFileSync(join(out, SWEEP_FILE), JSON.stringify(record));
      await expect(sweepRun({ ...opts, log: () => {} })).rejects.toThrow(
        /holds a different sweep[\s\S]*grpo\.length_buckets[\s\S]*1[\s\S]*4/,
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
