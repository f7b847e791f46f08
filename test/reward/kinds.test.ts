/**
 * The reward-model kind registry: every kind the config accepts is created and reloaded through
 * one entry, and an unknown kind on disk is a BAD_MODEL error naming the known ones.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REWARD_MODEL_KIND_NAMES, rewardModelSchema } from '../../src/reward/models/config.ts';
import { createRewardModel, loadRewardModel, REWARD_MODEL_KINDS } from '../../src/reward/models/kinds.ts';
import { validateGptConfig } from '../../src/policy/gpt-config.ts';
import { initWeights } from '../../src/policy/model.ts';
import { initTf } from '../../src/tf/backend.ts';

const root = mkdtempSync(join(tmpdir(), 'anchor-kinds-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('reward-model kinds', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('the registry has exactly the kinds the config accepts', () => {
    expect(Object.keys(REWARD_MODEL_KINDS).sort()).toEqual([...REWARD_MODEL_KIND_NAMES].sort());
  });

  it.each(REWARD_MODEL_KIND_NAMES)('%s: created from config, saved and loaded back with the same predictions', async (kind) => {
    const cfg = rewardModelSchema.parse({ kind, mlp: { epochs: 5, hidden: [4] }, transformer: { epochs: 1, heads: 2 } });
    // The transformer starts from a policy trunk and reads token ids (−1: padding).
    const trunkConfig = validateGptConfig({ vocabSize: 12, context: 8, layers: 1, dModel: 8, heads: 2, tiedHead: true });
    const m = createRewardModel(cfg, { trunk: { config: trunkConfig, weights: initWeights(trunkConfig, 1) } });
    expect(m.kind).toBe(kind);
    const X = [0, 1, 2, 3].map((a) =>
      kind === 'transformer' ? Float32Array.from([a + 1, 3, 5, -1]) : Float32Array.from([a, 1 - a]),
    );
    await m.fit(X, [0, 0.3, 0.6, 0.9]);
    const dir = join(root, kind);
    await m.save(dir);
    const back = await loadRewardModel(dir);
    expect(back.kind).toBe(kind);
    expect(Array.from(await back.predict(X))).toEqual(Array.from(await m.predict(X)));
    m.dispose?.();
    back.dispose?.();
  });

  it('an unknown kind on disk is BAD_MODEL', async () => {
    const dir = join(root, 'ridge');
    const json = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'model.json'), JSON.stringify({ ...json, kind: 'svm' }));
    await expect(loadRewardModel(dir)).rejects.toMatchObject({
      code: 'BAD_MODEL',
      message: expect.stringMatching(/unknown reward model kind "svm"; expected one of ridge, mlp, transformer/),
    });
  });
});
