/**
 * armAnchoring reads what a key omitted from a manifest's config means from the components'
 * schemas, not from defaults of its own: a config that leaves every anchoring key out is described
 * with the schema's values, and a block an older version wrote (no longer valid) keeps its keys.
 */
import { describe, expect, it } from 'vitest';
import { rewardModelBlockSchema } from '../../src/reward/models/config.ts';
import { armAnchoring } from '../../src/report/anchoring.ts';
import type { RunData } from '../../src/report/read-run.ts';
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

  it('keeps the keys of a block that no longer validates, over the schema defaults', () => {
    const old = { settlement: { rollback: { enabled: true, z: 2 }, retired_option: 1 } };
    expect(armAnchoring(runWith(old), 'my-arm')).toBe(
      `RM ${rmDefaults.kind}; rollback z 2${settlementDefaults.rollback.on_alarm ? ', on alarm' : ''}; silenced ${proxyDefaults.silenced}`,
    );
  });

  it('is null without a config', () => {
    expect(armAnchoring({ manifest: {} } as unknown as RunData, 'my-arm')).toBeNull();
  });
});
