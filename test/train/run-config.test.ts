/** The run config's cross-section rules, checked where the config is loaded (before any work). */
import { describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../src/train/run-config.ts';

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
});
