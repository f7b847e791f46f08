/** The run config's cross-section rules, checked where the config is loaded (before any work). */
import { describe, expect, it } from 'vitest';
import { loadRunConfig, runRewardModelConfig } from '../../src/train/run-config.ts';
import { planSweep } from '../../src/train/sweep.ts';

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
});
