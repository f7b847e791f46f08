/** Weight sync: the engine serves new weights, in-flight generations finish, old sessions are released. */
import { describe, expect, it } from 'vitest';
import { OnnxRolloutEngine } from '../../src/policy/engine/rollout-engine.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import { randomWeights } from './parity-reference.ts';

const config: GptConfig = { vocabSize: 19, context: 32, layers: 1, dModel: 16, heads: 2, tiedHead: false };
const prompts = [[1, 2, 3], [4, 5], [6]];
const greedy = { maxNewTokens: 16, temperature: 0, eosTokenId: null };

describe('OnnxRolloutEngine.updateWeights', () => {
  it('serves the new weights exactly as a fresh engine would', async () => {
    const wA = randomWeights(config, 1, 0.6);
    const wB = randomWeights(config, 2, 0.6);
    const engine = await OnnxRolloutEngine.fromWeights(config, wA);
    const fresh = await OnnxRolloutEngine.fromWeights(config, wB);
    const beforeSync = await engine.generateIds(prompts, greedy);
    await engine.updateWeights(wB);
    const afterSync = await engine.generateIds(prompts, greedy);
    const expected = await fresh.generateIds(prompts, greedy);
    expect(afterSync).toEqual(expected);
    expect(afterSync.map((c) => c.tokenIds)).not.toEqual(beforeSync.map((c) => c.tokenIds));
    await engine.release();
    await fresh.release();
  });

  it('releases the old session, but only after a generation using it finishes', async () => {
    const wA = randomWeights(config, 3, 0.6);
    const wB = randomWeights(config, 4, 0.6);
    const engine = await OnnxRolloutEngine.fromWeights(config, wA);
    const refA = await OnnxRolloutEngine.fromWeights(config, wA);
    const expectedA = await refA.generateIds(prompts, greedy);
    const old = engine.currentDecoder;
    const inFlight = engine.generateIds(prompts, greedy); // holds the old session
    await engine.updateWeights(wB);
    expect(await inFlight).toEqual(expectedA); // finished on the old weights
    const start = {
      batch: 1,
      promptLen: 1,
      ids: Int32Array.of(1),
      positions: Int32Array.of(0),
      padCounts: Int32Array.of(0),
      capacity: 2,
      useCache: true,
    };
    await expect(old.begin(start)).rejects.toThrow(/after release/);
    await expect(engine.currentDecoder.begin(start)).resolves.toBeDefined();
    await engine.release();
    await refA.release();
    await expect(engine.generateIds(prompts, greedy)).rejects.toThrow(/after release/);
  });

  it('many syncs in a row keep working (memory growth is measured by npm run bench:policy)', async () => {
    const engine = await OnnxRolloutEngine.fromWeights(config, randomWeights(config, 5));
    const w = randomWeights(config, 6);
    for (let i = 0; i < 50; i++) await engine.updateWeights(w);
    const fresh = await OnnxRolloutEngine.fromWeights(config, w);
    expect(await engine.generateIds(prompts, greedy)).toEqual(await fresh.generateIds(prompts, greedy));
    await engine.release();
    await fresh.release();
  });
});
