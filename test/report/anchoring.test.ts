/**
 * armAnchoring reads what a key omitted from a manifest's config means from the components'
 * schemas, not from defaults of its own: a config that leaves every anchoring key out is described
 * with the schema's values, and a block an older version wrote (no longer valid) keeps its keys.
 */
import { describe, expect, it } from 'vitest';
import { rewardModelBlockSchema } from '../../src/reward/models/config.ts';
import { armAnchoring } from '../../src/report/anchoring.ts';
import { pairRunsBySeed } from '../../src/report/pair-by-seed.ts';
import type { ArmData, RunData } from '../../src/report/read-run.ts';
import { proxyConfigSchema, settlementConfigSchema } from '../../src/train/config.ts';

/** Only the manifest's config is read. */
const runWith = (config: Record<string, unknown>): RunData => ({ manifest: { config } }) as unknown as RunData;

const settlementDefaults = settlementConfigSchema.parse({});
const proxyDefaults = proxyConfigSchema.parse({});
const rmDefaults = rewardModelBlockSchema.parse({});

describe('armAnchoring: defaults come from the schemas', () => {
  it('describes an inline arm whose config names only the switches with the schema defaults of the rest', () => {
    const d = armAnchoring(runWith({ settlement: { rollback: { enabled: true } } }), 'my-arm');
    expect(d).toBe(
      `RM ${rmDefaults.kind}; rollback z ${settlementDefaults.rollback.z}${settlementDefaults.rollback.on_alarm ? ', on alarm' : ''}; silenced ${proxyDefaults.silenced}`,
    );
  });

  it("names a transformer RM's default heads, which the manifest left out", () => {
    const heads = rewardModelBlockSchema.parse({ kind: 'transformer' }).transformer.heads;
    expect(armAnchoring(runWith({ reward_model: { kind: 'transformer' } }), 'my-arm')).toContain(
      `RM transformer (heads ${heads}`,
    );
  });

  it("names a transformer RM's full forward: fast off, or a resolved block written before the option", () => {
    const tf = (transformer?: Record<string, unknown>) =>
      armAnchoring(runWith({ reward_model: { kind: 'transformer', ...(transformer ? { transformer } : {}) } }), 'my-arm');
    expect(tf({ heads: 4, fast: false })).toContain('full forward');
    // The block as the manifests of runs before the option recorded it (fccffd2).
    const before = { heads: 4, train_layers: 1, pool: 'last', epochs: 2, refit_epochs: 2, lr: 3e-4, batch_size: 32 };
    expect(tf({ ...before, pairwise: 0, replay: 64, max_tokens: null })).toContain('full forward');
    expect(tf({ heads: 4, train_layers: 1 })).not.toContain('full forward');
    expect(tf({ heads: 4, fast: true })).not.toContain('full forward');
    expect(tf()).not.toContain('full forward');
  });

  it('keeps the keys of a block that no longer validates, over the schema defaults', () => {
    const old = { settlement: { rollback: { enabled: true, z: 2 }, retired_option: 1 } };
    expect(armAnchoring(runWith(old), 'my-arm')).toBe(
      `RM ${rmDefaults.kind}; rollback z 2${settlementDefaults.rollback.on_alarm ? ', on alarm' : ''}; silenced ${proxyDefaults.silenced}`,
    );
  });

  it('is null without a config', () => {
    expect(armAnchoring({ manifest: {} } as unknown as RunData, 'my-arm')).toBeNull();
  });

  it('describes each arm of runs merged by seed with its own run config and registry name', () => {
    // The execution arm in one sweep, the same registry arm under a ridge and a transformer RM in
    // two others (compare --pair-by-seed): the merged run's manifest is the first one's, so the
    // arms must not be described from it.
    const arm = (name: string) => ({ name, metrics: [], refits: [], warnings: [] }) as unknown as ArmData;
    const run = (config: Record<string, unknown>, arms: string[]): RunData =>
      ({ dir: 'x', name: 'x', manifest: { seed: 100, config }, arms: arms.map(arm), warnings: [] }) as unknown as RunData;
    const [merged] = pairRunsBySeed([
      { run: run({}, ['execution']), source: 'exec' },
      { run: run({ reward_model: { kind: 'ridge' } }, ['settled-gao-rollback']), source: 'ridge' },
      { run: run({ reward_model: { kind: 'transformer' } }, ['settled-gao-rollback']), source: 'tf' },
    ]);
    expect(merged!.arms.map((a) => a.name)).toEqual(['execution', 'settled-gao-rollback@ridge', 'settled-gao-rollback@tf']);
    const ridge = armAnchoring(merged!, 'settled-gao-rollback@ridge');
    const tf = armAnchoring(merged!, 'settled-gao-rollback@tf');
    expect(ridge).toMatch(/^RM ridge; rollback z /);
    expect(tf).toMatch(/^RM transformer \(heads \d+\); rollback z /);
  });

  it("describes a sweep's inline arm with the overlay of the arm it extends", () => {
    const arms = [
      'execution',
      { name: 'beta-0.2', extends: 'settled-gao-rollback', describe: 'x', overlay: { grpo: { beta: 0.2 } } },
    ];
    expect(armAnchoring(runWith({ arms }), 'beta-0.2')).toMatch(/^RM ridge; rollback z /);
  });
});
