/**
 * The arm registry and its rules, by behaviour: every registered arm resolves and its overlay is
 * a valid run config; inline arms inherit and override; the rules that keep an arm's parts
 * together come from the reward-source and updater registries.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARM_REGISTRY, resolveArms } from '../../src/train/arms.ts';
import { deepMerge } from '../../src/config/overrides.ts';
import { REWARD_SOURCES, REWARD_SOURCE_NAMES, type RewardSource } from '../../src/train/reward-sources.ts';
import { loadRunConfig, runConfigSchema } from '../../src/train/run-config.ts';
import { repoRoot } from '../helpers/paths.ts';

describe('arm registry', () => {
  it('every registered arm resolves under its own name, and its overlay is a valid run config', () => {
    const names = Object.keys(ARM_REGISTRY);
    const arms = resolveArms(names);
    expect(arms.map((a) => a.name)).toEqual(names);
    for (const arm of arms) {
      expect(arm.describe.length).toBeGreaterThan(0);
      expect(() => runConfigSchema.parse(deepMerge({}, arm.overlay))).not.toThrow();
    }
  });

  it('resolves inline arms that extend registry entries with overlays, inheriting the gate', () => {
    const arms = resolveArms([
      'frozen',
      { name: 'anchored-20', extends: 'anchored', overlay: { settlement: { rate: 0.2 } } },
      { name: 'gated-20', extends: 'gated', overlay: { settlement: { rate: 0.2 } } },
    ]);
    expect(arms[1]).toMatchObject({
      name: 'anchored-20',
      reward: 'rm',
      labels: 'execution',
      overlay: { settlement: { rate: 0.2 } },
    });
    expect(arms[2]!.gate).toBe(true);
    expect(arms[1]!.gate).toBeUndefined();
  });

  it('rejects unknown names, duplicates and definitions without a reward', () => {
    expect(() => resolveArms(['frozen', 'bogus'])).toThrow(/arms\[1\]: unknown arm "bogus"/);
    expect(() => resolveArms(['frozen', 'frozen'])).toThrow(/listed twice/);
    expect(() => resolveArms([{ name: 'x', overlay: {} }])).toThrow(/give `reward`/);
  });

  it.each(REWARD_SOURCE_NAMES.filter((n) => (REWARD_SOURCES[n] as RewardSource).needsLabels))(
    'a %s arm needs the labels its reward source declares',
    (reward) => {
      const needs = (REWARD_SOURCES[reward] as RewardSource).needsLabels!;
      expect(() => resolveArms([{ name: 'x', reward, labels: needs, overlay: {} }])).not.toThrow();
      expect(() => resolveArms([{ name: 'x', reward, labels: 'judge', overlay: {} }])).toThrow(
        new RegExp(`arms\\[0\\] \\(x\\): a ${reward} arm needs labels ${needs}`),
      );
    },
  );

  it('a gated arm needs what the gated updater declares: reward rm and execution labels', () => {
    expect(() => resolveArms([{ name: 'g', extends: 'gated', labels: 'judge', overlay: {} }])).toThrow(
      /a gated arm needs reward rm and labels execution/,
    );
    expect(() => resolveArms([{ name: 'g', extends: 'gated', reward: 'execution', overlay: {} }])).toThrow(/a gated arm/);
    expect(() => resolveArms([{ name: 'g', reward: 'rm', labels: 'execution', gate: true, overlay: {} }])).not.toThrow();
  });
});

describe('default arms', () => {
  it('are one list: the schema default, configs/default.yaml and the CLI help', async () => {
    const { DEFAULT_ARMS } = await import('../../src/train/default-arms.ts');
    expect(loadRunConfig(undefined).arms).toEqual([...DEFAULT_ARMS]);
    expect(loadRunConfig(resolve(repoRoot, 'configs/default.yaml')).arms).toEqual([...DEFAULT_ARMS]);
    const { commands } = await import('../../src/cli/commands/index.ts');
    const train = commands.find((c) => c.command.startsWith('train'))!;
    expect(train.describe).toContain(DEFAULT_ARMS.join(', '));
    for (const name of DEFAULT_ARMS) expect(ARM_REGISTRY[name]).toBeDefined();
  });
});
