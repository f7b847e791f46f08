/**
 * The transformer reward model on small data: a tiny policy trunk, programs whose label is
 * decided by one token, deterministic fits and refits, and an exact resume from its files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyTokensExtractor } from '../../src/reward/features/policy-tokens.ts';
import { buildCommittee } from '../../src/reward/models/committee.ts';
import { rewardModelSchema } from '../../src/reward/models/config.ts';
import { createRewardModel, loadRewardModel } from '../../src/reward/models/kinds.ts';
import { rankingQuality } from '../../src/reward/models/ranking-quality.ts';
import type { RewardModel } from '../../src/reward/models/types.ts';
import { validateGptConfig } from '../../src/policy/gpt-config.ts';
import { initWeights } from '../../src/policy/model.ts';
import { ASCII_CHARS, CharTokenizer } from '../../src/policy/tokenizer/index.ts';
import { initTf, tf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';

beforeAll(async () => {
  await initTf(() => {});
});
const root = mkdtempSync(join(tmpdir(), 'anchor-trm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tokenizer = new CharTokenizer(ASCII_CHARS);
const trunkConfig = validateGptConfig({
  vocabSize: tokenizer.vocabSize,
  context: 48,
  layers: 1,
  dModel: 16,
  heads: 2,
  tiedHead: true,
});
const trunk = { config: trunkConfig, weights: initWeights(trunkConfig, 11) };
const fx = policyTokensExtractor(tokenizer, 40);

/** `return x + y;` passes, `return x - y;` fails; names and spacing vary. */
function toy(seed: number, n: number): { X: Float32Array[]; y: number[]; groups: number[] } {
  const rng = new Rng(seed);
  const names = ['a', 'b', 'x', 'y', 'n', 'm', 'p', 'q'];
  const X: Float32Array[] = [];
  const y: number[] = [];
  const groups: number[] = [];
  for (let i = 0; i < n; i++) {
    const plus = rng.next() < 0.5;
    const sp = rng.pick(['', ' ', '  ']);
    const text = `return ${rng.pick(names)}${sp}${plus ? '+' : '-'}${sp}${rng.pick(names)};`;
    X.push(fx.extract(text, 'function f(a, b) {\n  '));
    y.push(plus ? 1 : 0);
    groups.push(Math.floor(i / 4));
  }
  return { X, y, groups };
}

const config = (t: Record<string, unknown> = {}) =>
  rewardModelSchema.parse({
    kind: 'transformer',
    seed: 5,
    transformer: { heads: 3, train_layers: 1, epochs: 8, refit_epochs: 2, lr: 0.01, batch_size: 16, replay: 8, ...t },
  });
const create = (t: Record<string, unknown> = {}): RewardModel => createRewardModel(config(t), { trunk });

describe('TransformerRewardModel', () => {
  const train = toy(1, 96);
  const test = toy(2, 64);

  it('learns a separable toy: the deciding token ranks held-out programs', async () => {
    const m = create({ epochs: 20 });
    await m.fit(train.X, train.y);
    const q = rankingQuality(await m.predict(test.X), test.y, test.groups);
    expect(q.auc).toBeGreaterThan(0.95);
    expect(q.pairAccuracy).toBeGreaterThan(0.95);
    m.dispose?.();
  }, 120_000);

  it('fits and refits deterministically per seed (pairwise term on), and the seed matters', async () => {
    const run = async (seed: number) => {
      const m = createRewardModel({ ...config({ pairwise: 0.5, epochs: 2 }), seed }, { trunk });
      await m.fit(train.X.slice(0, 48), train.y.slice(0, 48));
      const newer = toy(3, 16);
      await m.refit(newer.X, newer.y, { window: 0, groups: newer.groups });
      const p = await m.predict(test.X);
      m.dispose?.();
      return p;
    };
    const a = await run(5);
    expect(await run(5)).toEqual(a);
    expect(await run(6)).not.toEqual(a);
  }, 120_000);

  it('resumes exactly from its files: a loaded copy refits to the same model', async () => {
    const m = create({ epochs: 2 });
    await m.fit(train.X.slice(0, 48), train.y.slice(0, 48));
    const w1 = toy(4, 16);
    await m.refit(w1.X, w1.y, { window: 0, groups: w1.groups });
    const dir = join(root, 'rm');
    await m.save(dir);
    const copy = await loadRewardModel(dir);
    expect(copy.kind).toBe('transformer');
    expect(copy.labelCount).toBe(64);
    expect(await copy.predict(test.X)).toEqual(await m.predict(test.X));
    // The next refit (replay drawn from the same stream, same warm start) gives the same model.
    const w2 = toy(5, 16);
    await m.refit(w2.X, w2.y, { window: 1, groups: w2.groups });
    await copy.refit(w2.X, w2.y, { window: 1, groups: w2.groups });
    expect(await copy.predict(test.X)).toEqual(await m.predict(test.X));
    m.dispose?.();
    copy.dispose?.();
  }, 120_000);

  it('its heads are the committee: K members whose mean is the prediction; no tensor leaks', async () => {
    const m = create({ epochs: 1 });
    await m.fit(train.X.slice(0, 32), train.y.slice(0, 32));
    const before = tf.memory().numTensors;
    const committee = await buildCommittee(m, config(), new Rng(0), { members: 8 });
    expect(committee.members).toBe(3);
    const members = await committee.predict(test.X);
    const mean = await m.predict(test.X);
    for (let i = 0; i < test.X.length; i++)
      expect(mean[i]).toBeCloseTo((members[0]![i]! + members[1]![i]! + members[2]![i]!) / 3, 5);
    // Heads differ (own init and bootstrap weights): a spread to be uncertain with.
    expect(members[0]).not.toEqual(members[1]);
    const w = toy(6, 8);
    await m.refit(w.X, w.y, { window: 0 });
    expect(tf.memory().numTensors).toBe(before);
    m.dispose?.();
  }, 120_000);

  it('fast (frozen lower blocks kept, last block at the last token) is the full model up to rounding', async () => {
    // Two blocks, the top one trained: the fast path keeps the lower block's output per label.
    const deep = validateGptConfig({ ...trunkConfig, layers: 2 });
    const deepTrunk = { config: deep, weights: initWeights(deep, 12) };
    for (const pool of ['last', 'mean'] as const) {
      const run = async (fast: boolean) => {
        const m = createRewardModel(config({ fast, pool, epochs: 2 }), { trunk: deepTrunk });
        await m.fit(train.X.slice(0, 48), train.y.slice(0, 48));
        const w = toy(7, 16);
        await m.refit(w.X, w.y, { window: 0, groups: w.groups });
        const p = await m.predict(test.X);
        m.dispose?.();
        return p;
      };
      const [full, fast] = [await run(false), await run(true)];
      let diff = 0;
      for (let i = 0; i < full.length; i++) diff = Math.max(diff, Math.abs(full[i]! - fast[i]!));
      expect(diff, pool).toBeLessThan(1e-4);
      // …and the model did move off its initial scores (the comparison is not between constants).
      expect(new Set(fast).size).toBeGreaterThan(10);
    }
  }, 120_000);

  it('is a config error without a policy trunk, or with more trained blocks than it has', () => {
    expect(() => createRewardModel(config())).toThrow(/built-in GPT policy provides/);
    expect(() => create({ train_layers: 2 })).toThrow(/train_layers is 2 but the policy trunk has 1 blocks/);
  });
});
