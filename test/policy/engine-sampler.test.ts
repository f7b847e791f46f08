/** Pure tests of token sampling: greedy, temperature, top-k, top-p, log-prob conventions. */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/util/rng.ts';
import { checkSamplerParams, sampleToken } from '../../src/policy/engine/sampler.ts';

const logits = Float32Array.from([1.0, 3.0, 0.5, 2.5, -1.0]);
const V = logits.length;
const logSoftmax = (l: ArrayLike<number>, T: number): number[] => {
  const z = Array.from(l, (x) => x / T);
  const m = Math.max(...z);
  const lse = m + Math.log(z.reduce((a, x) => a + Math.exp(x - m), 0));
  return z.map((x) => x - lse);
};

describe('sampleToken', () => {
  it('greedy picks the argmax, draws nothing, log-prob under temperature 1', () => {
    const rng = new Rng(1);
    const before = rng.getState();
    const s = sampleToken(logits, 0, V, { temperature: 0, topK: 0, topP: 1 }, rng);
    expect(s.token).toBe(1);
    expect(s.logprob).toBeCloseTo(logSoftmax(logits, 1)[1]!, 10);
    expect(s.samplerLogprob).toBe(0);
    expect(rng.getState()).toEqual(before);
  });

  it('reads the row at the given offset', () => {
    const two = Float32Array.from([...logits, 0, 0, 0, 9, 0]);
    expect(sampleToken(two, V, V, { temperature: 0, topK: 0, topP: 1 }, new Rng(0)).token).toBe(3);
  });

  it('samples with frequencies of softmax(logits / T) and reports its log-prob', () => {
    const T = 1.7;
    const rng = new Rng(5);
    const n = 40000;
    const counts = new Array<number>(V).fill(0);
    const lp = logSoftmax(logits, T);
    for (let i = 0; i < n; i++) {
      const s = sampleToken(logits, 0, V, { temperature: T, topK: 0, topP: 1 }, rng);
      counts[s.token]!++;
      expect(s.logprob).toBeCloseTo(lp[s.token]!, 10);
      expect(s.samplerLogprob).toBeCloseTo(lp[s.token]!, 10);
    }
    for (let v = 0; v < V; v++) {
      const p = Math.exp(lp[v]!);
      // 5 standard errors.
      expect(Math.abs(counts[v]! / n - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / n) + 1e-3);
    }
  });

  it('top-k keeps only the k best and renormalises the sampler log-prob', () => {
    const rng = new Rng(9);
    const seen = new Set<number>();
    const lp = logSoftmax(logits, 1);
    const z = Math.log(Math.exp(lp[1]!) + Math.exp(lp[3]!));
    for (let i = 0; i < 2000; i++) {
      const s = sampleToken(logits, 0, V, { temperature: 1, topK: 2, topP: 1 }, rng);
      seen.add(s.token);
      expect(s.logprob).toBeCloseTo(lp[s.token]!, 10); // full tempered distribution
      expect(s.samplerLogprob).toBeCloseTo(lp[s.token]! - z, 10); // truncated distribution
    }
    expect([...seen].sort()).toEqual([1, 3]);
  });

  it('top-p keeps the smallest set reaching p', () => {
    const rng = new Rng(3);
    const p = Array.from(logSoftmax(logits, 1), Math.exp); // sorted: 1 (~.52), 3 (~.32), 0, 2, 4
    const seenSmall = new Set<number>();
    const seenMid = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      seenSmall.add(sampleToken(logits, 0, V, { temperature: 1, topK: 0, topP: p[1]! - 0.01 }, rng).token);
      seenMid.add(sampleToken(logits, 0, V, { temperature: 1, topK: 0, topP: p[1]! + 0.01 }, rng).token);
    }
    expect([...seenSmall]).toEqual([1]);
    expect([...seenMid].sort()).toEqual([1, 3]);
  });

  it('same seed, same draws; different seed, different draws', () => {
    const draw = (seed: number): number[] => {
      const rng = new Rng(seed);
      return Array.from({ length: 50 }, () => sampleToken(logits, 0, V, { temperature: 2, topK: 0, topP: 1 }, rng).token);
    };
    expect(draw(4)).toEqual(draw(4));
    expect(draw(4)).not.toEqual(draw(5));
  });

  it('rejects bad parameters', () => {
    expect(() => checkSamplerParams({ temperature: -1, topK: 0, topP: 1 })).toThrow(/temperature/);
    expect(() => checkSamplerParams({ temperature: 1, topK: 1.5, topP: 1 })).toThrow(/top-k/);
    expect(() => checkSamplerParams({ temperature: 1, topK: 0, topP: 0 })).toThrow(/top-p/);
  });
});
