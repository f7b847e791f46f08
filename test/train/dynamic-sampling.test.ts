import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/datasets/problem.ts';
import type { Completion } from '../../src/policy/engine/types.ts';
import { collectGroups, type SampledRound } from '../../src/train/dynamic-sampling.ts';

const G = 2;

/** A round of prompts `ids` whose completions carry `rewards` (G per prompt); texts name prompt and row. */
function round(ids: number[], rewards: (number | null)[]): SampledRound {
  const n = ids.length * G;
  const texts = Array.from({ length: n }, (_, i) => `p${ids[Math.floor(i / G)]}-${i % G}`);
  return {
    scored: {
      step: 0,
      promptIdx: ids,
      problems: texts.map((t) => ({ id: t }) as unknown as Problem),
      completions: texts.map((text) => ({ text, tokenIds: [1] }) as unknown as Completion),
      texts,
      features: texts.map(() => new Float32Array(1)),
      proxy: Float32Array.from(rewards.map((r) => r ?? 0)),
      results: undefined,
      gold: rewards,
    },
    rewards: { values: rewards, advantageScale: 0.5 },
    shaped: rewards,
  };
}

describe('dynamic sampling', () => {
  it('drops zero-std groups and samples more rounds until the batch is full; surplus is discarded', async () => {
    const rounds = [round([3, 4], [0, 1, 0, 0]), round([5, 6], [1, 1, 1, 0])];
    let calls = 0;
    const out = await collectGroups(round([1, 2], [1, 1, 0.5, 0]), async () => rounds[calls++]!, {
      groups: 2,
      groupSize: G,
      maxRounds: 3,
    });
    // round 0 keeps prompt 2 (drops 1), round 1 keeps 3 (drops 4): full after one extra round
    expect(calls).toBe(1);
    expect(out.extraRounds).toBe(1);
    expect(out.dropped).toBe(2);
    expect(out.filled).toBe(0);
    expect(out.scored.promptIdx).toEqual([2, 3]);
    expect(out.scored.texts).toEqual(['p2-0', 'p2-1', 'p3-0', 'p3-1']);
    expect(out.rewards.values).toEqual([0.5, 0, 0, 1]);
    expect([...out.scored.proxy]).toEqual([0.5, 0, 0, 1]);
    expect(out.rewards.advantageScale).toBe(0.5);

    // a round with more signal than needed: only the first groups are taken
    const surplus = await collectGroups(round([1, 2], [1, 0, 0, 1]), async () => round([9], [0, 1]), {
      groups: 1,
      groupSize: G,
      maxRounds: 3,
    });
    expect(surplus.scored.promptIdx).toEqual([1]);
    expect(surplus.extraRounds).toBe(0);
  });

  it('at the round cap, dropped groups fill the batch in the order sampled; null rewards count as no signal', async () => {
    const out = await collectGroups(round([1, 2], [1, 1, 0, null]), async () => round([3, 4], [0, 0.5, 2, 2]), {
      groups: 2,
      groupSize: G,
      maxRounds: 1,
    });
    expect(out.extraRounds).toBe(1);
    expect(out.dropped).toBe(3); // prompts 1, 2 (one valid reward), 4
    expect(out.filled).toBe(1);
    expect(out.scored.promptIdx).toEqual([3, 1]);
    expect(out.rewards.values).toEqual([0, 0.5, 1, 1]);
    expect(out.scored.gold).toEqual([0, 0.5, 1, 1]);
  });
});

describe('dynamic sampling with instant settlement (hybrid, settled, settled-rm arms)', () => {
  /** A round whose completions `settled` were executed as they were scored (label = their reward). */
  function settledRound(ids: number[], rewards: number[], settled: number[]): SampledRound {
    const r = round(ids, rewards);
    return { ...r, rewards: { ...r.rewards, settled: settled.map((index) => ({ index, label: rewards[index]! })) } };
  }

  it('settled labels follow their completions through group selection and later rounds; dropped ones are kept off the batch', async () => {
    // Round 1: prompt 1 has no signal (dropped; its completion 1 was settled), prompt 2 kept
    // (completion 3 settled). Round 2: prompt 3 kept (completion 0 settled), prompt 4 surplus.
    const first = settledRound([1, 2], [1, 1, 0, 0.5], [1, 3]);
    const out = await collectGroups(first, async () => settledRound([3, 4], [0.25, 0, 1, 0], [0, 2]), {
      groups: 2,
      groupSize: G,
      maxRounds: 2,
    });
    expect(out.scored.texts).toEqual(['p2-0', 'p2-1', 'p3-0', 'p3-1']);
    // Each settled index names the completion that was executed, with its own label.
    const settled = out.rewards.settled!.map(({ index, label }) => [out.scored.texts[index], label]);
    expect(settled).toEqual([
      ['p2-1', 0.5],
      ['p3-0', 0.25],
    ]);
    // Paid-for labels of groups left out of the batch are reported, indexed into their own part.
    const off = out.offBatch.flatMap((b) => b.rewards.settled!.map(({ index, label }) => [b.scored.texts[index], label])).sort();
    expect(off).toEqual([
      ['p1-1', 1],
      ['p4-0', 1],
    ]);
  });

  it('a dropped settled group put back to fill the batch keeps its labels at its new place', async () => {
    const out = await collectGroups(settledRound([1, 2], [0, 0, 1, 1], [0, 3]), async () => round([3], [0, 0]), {
      groups: 2,
      groupSize: G,
      maxRounds: 1,
    });
    expect(out.filled).toBe(2);
    expect(out.scored.texts).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1']);
    expect(out.rewards.settled).toEqual([
      { index: 0, label: 0 },
      { index: 3, label: 1 },
    ]);
    expect(out.offBatch).toEqual([]);
  });
});
