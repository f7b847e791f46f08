/**
 * Rollout engine on a tiny random native policy: reproducibility, KV cache vs recompute,
 * left padding, log-probs against the float64 reference, EOS / stop strings / length limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxRolloutEngine } from '../../src/policy/engine/rollout-engine.ts';
import { CharTokenizer } from '../../src/policy/tokenizer/char.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import { Rng } from '../../src/util/rng.ts';
import { positionsFromMask, randomWeights, referenceLogits } from './parity-reference.ts';

const tok = new CharTokenizer([...'abcdefghij =+()']);
const config: GptConfig = { vocabSize: tok.vocabSize, context: 24, layers: 2, dModel: 16, heads: 2, tiedHead: true };
const weights = randomWeights(config, 21, 0.5);
let engine: OnnxRolloutEngine;

beforeAll(async () => {
  engine = await OnnxRolloutEngine.fromWeights(config, weights, { tokenizer: tok, eosTokenId: tok.eosId, padTokenId: tok.padId });
});
afterAll(async () => {
  await engine.release();
});

const prompts = ['ab', 'c = d', 'a+b+c+d=', 'j'];

describe('OnnxRolloutEngine.generate', () => {
  it('same seed gives the same samples; another seed differs', async () => {
    const opts = { maxNewTokens: 12, temperature: 1.3, eosTokenId: null };
    const a = await engine.generate(prompts, { ...opts, seed: 5 });
    const b = await engine.generate(prompts, { ...opts, seed: 5 });
    const c = await engine.generate(prompts, { ...opts, seed: 6 });
    expect(b).toEqual(a);
    expect(c.map((x) => x.tokenIds)).not.toEqual(a.map((x) => x.tokenIds));
    // An explicit Rng in the same state is the same stream.
    const d = await engine.generate(prompts, { ...opts, rng: new Rng(5) });
    expect(d).toEqual(a);
  });

  it('KV-cache decoding and full recompute sample the same tokens', async () => {
    const opts = { maxNewTokens: 14, temperature: 0.9, topP: 0.95, seed: 2, eosTokenId: null };
    const cached = await engine.generate(prompts, opts);
    const full = await engine.generate(prompts, { ...opts, useCache: false });
    expect(full.map((x) => x.tokenIds)).toEqual(cached.map((x) => x.tokenIds));
    cached.forEach((c, i) => c.logprobs.forEach((lp, t) => expect(Math.abs(lp - full[i]!.logprobs[t]!)).toBeLessThan(1e-4)));
  });

  it('left padding: a prompt decodes the same alone and next to longer prompts', async () => {
    const opts = { maxNewTokens: 10, temperature: 0, eosTokenId: null };
    const batch = await engine.generate(prompts, opts);
    for (let i = 0; i < prompts.length; i++) {
      const [alone] = await engine.generate([prompts[i]!], opts);
      expect(batch[i]!.tokenIds).toEqual(alone!.tokenIds);
      batch[i]!.logprobs.forEach((lp, t) => expect(Math.abs(lp - alone!.logprobs[t]!)).toBeLessThan(1e-4));
    }
    const chunked = await engine.generate(prompts, { ...opts, maxBatch: 3 });
    expect(chunked.map((x) => x.tokenIds)).toEqual(batch.map((x) => x.tokenIds));
  });

  it('rows that finish early leave the batch without changing the other rows', async () => {
    // Sampling with an EOS id that fires often: rows end at different steps, the batch compacts.
    const many = Array.from({ length: 12 }, (_, i) => prompts[i % prompts.length]! + 'abc'.slice(0, i % 3));
    const opts = { maxNewTokens: 16, temperature: 1.5, seed: 13, eosTokenId: [tok.encode('a')[0]!, tok.encode('=')[0]!] };
    const cached = await engine.generate(many, opts);
    const reasons = new Set(cached.map((c) => c.finishReason));
    expect(reasons.has('eos')).toBe(true);
    expect(new Set(cached.map((c) => c.tokenIds.length)).size).toBeGreaterThan(2);
    // The recompute path never compacts; same draws, same tokens.
    const full = await engine.generate(many, { ...opts, useCache: false });
    expect(full.map((c) => c.tokenIds)).toEqual(cached.map((c) => c.tokenIds));
    expect(full.map((c) => c.finishReason)).toEqual(cached.map((c) => c.finishReason));
    cached.forEach((c, i) => c.logprobs.forEach((lp, t) => expect(Math.abs(lp - full[i]!.logprobs[t]!)).toBeLessThan(1e-4)));
  });

  it('log-probs are log softmax(logits / T) of the reference model; sampler log-probs renormalise top-k', async () => {
    const T = 0.8;
    const out = await engine.generate(prompts.slice(0, 2), {
      maxNewTokens: 6,
      temperature: T,
      topK: 3,
      seed: 9,
      eosTokenId: null,
    });
    for (const c of out) {
      const seq = [...c.promptIds, ...c.tokenIds];
      const mask = seq.map(() => 1);
      const ref = referenceLogits(config, weights, [seq], [mask], [positionsFromMask(mask)])[0]!;
      c.tokenIds.forEach((tokId, t) => {
        const row = ref[c.promptIds.length - 1 + t]!.map((x) => x / T);
        const m = Math.max(...row);
        const lse = m + Math.log(row.reduce((a, x) => a + Math.exp(x - m), 0));
        expect(Math.abs(c.logprobs[t]! - (row[tokId]! - lse))).toBeLessThan(1e-4);
        const top3 = [...row].sort((a, b) => b - a).slice(0, 3);
        expect(top3).toContain(row[tokId]);
        const lse3 = Math.log(top3.reduce((a, x) => a + Math.exp(x), 0));
        expect(Math.abs(c.samplerLogprobs[t]! - (row[tokId]! - lse3))).toBeLessThan(1e-4);
      });
    }
  });

  it('EOS ends a row with reason eos; the EOS id is kept in tokenIds but not in the text', async () => {
    const [greedy] = await engine.generate(['ab'], { maxNewTokens: 8, temperature: 0, eosTokenId: null });
    const ids = greedy!.tokenIds;
    // The last position whose token is new in the sequence: making it EOS stops exactly there.
    const k = ids.reduce((best, id, t) => (ids.indexOf(id) === t ? t : best), 0);
    const [c] = await engine.generate(['ab'], { maxNewTokens: 8, temperature: 0, eosTokenId: ids[k]! });
    expect(c!.finishReason).toBe('eos');
    expect(c!.tokenIds).toEqual(ids.slice(0, k + 1));
    expect(c!.text).toBe(tok.decode(ids.slice(0, k)));
  });

  it('a stop string cuts the text before it and ends the row', async () => {
    const [free] = await engine.generate(['c = d'], { maxNewTokens: 12, temperature: 0, eosTokenId: null });
    expect(free!.finishReason).toBe('length');
    expect(free!.text.length).toBe(12);
    const stop = free!.text.slice(5, 7);
    const at = free!.text.indexOf(stop);
    const [c] = await engine.generate(['c = d'], { maxNewTokens: 12, temperature: 0, eosTokenId: null, stop: [stop, 'zzz'] });
    expect(c!.finishReason).toBe('stop');
    expect(c!.text).toBe(free!.text.slice(0, at));
    expect(c!.tokenIds).toEqual(free!.tokenIds.slice(0, at + stop.length));
  });

  it('a decoder without attention mask gets equal-length batches, results in request order', async () => {
    const real = engine.currentDecoder;
    const seen: number[][] = [];
    const noPad = {
      supportsPadding: false,
      begin: (st: Parameters<typeof real.begin>[0]) => {
        seen.push([...st.padCounts]);
        return real.begin(st);
      },
      retain: () => real.retain(),
      dispose: () => real.dispose(),
    };
    const opts = { maxNewTokens: 5, temperature: 0, eosTokenId: null };
    const many = ['ab', 'c = d', 'ba', 'j', 'dc = c'];
    const expected = await Promise.all(many.map(async (p) => (await engine.generate([p], opts))[0]!));
    const holder = engine as unknown as { decoder: typeof real };
    holder.decoder = noPad as unknown as typeof real;
    try {
      const got = await engine.generate(many, opts);
      expect(got.map((c) => c.tokenIds)).toEqual(expected.map((c) => c.tokenIds));
      expect(got.map((c) => c.promptIndex)).toEqual([0, 1, 2, 3, 4]);
      // Lengths 2, 5, 2, 1, 6 -> batches {ab, ba}, {c = d}, {j}, {dc = c}, none padded.
      expect(seen).toEqual([[0, 0], [0], [0], [0]]);
    } finally {
      holder.decoder = real;
    }
  });

  it('takes EOS and pad ids from the tokenizer by default; an empty request is empty', async () => {
    const e = await OnnxRolloutEngine.fromWeights(config, weights, { tokenizer: tok });
    try {
      expect(e.info.eosTokenIds).toEqual([tok.eosId]);
      expect(e.info.padTokenId).toBe(tok.padId);
      expect(await e.generate([])).toEqual([]);
    } finally {
      await e.release();
    }
  });

  it('caps generation at the context and rejects bad requests', async () => {
    const long = 'abcdefghij'.repeat(2); // 20 tokens, context 24 -> at most 5 new tokens
    const [c] = await engine.generate([long], { maxNewTokens: 50, temperature: 0, eosTokenId: null });
    expect(c!.tokenIds.length).toBe(5);
    expect(c!.finishReason).toBe('length');
    await expect(engine.generate(['a'.repeat(25)], {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(engine.generate([''], {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(engine.generateIds([[config.vocabSize]], {})).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(engine.generate(['a'], { temperature: -1 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});
