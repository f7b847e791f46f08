/**
 * DAPO's dynamic sampling over a step's scored rollouts: groups whose training rewards are all
 * equal carry no gradient under group-relative advantages, so they are dropped and more prompts
 * are sampled until the batch holds `prompts_per_step` groups with signal (or the round cap is
 * reached; then dropped groups fill the batch so its shape never changes). The trainer owns the
 * sampling rounds; this module owns which groups make up the batch.
 */
import type { Rewards, ScoredRollouts } from './reward-sources.ts';
import { zeroStdGroups } from './advantages.ts';

/** A round's scored rollouts with their training reward, and the reward the zero-std test reads. */
export interface SampledRound {
  scored: ScoredRollouts;
  rewards: Rewards;
  /** The training reward after shaping (what the advantages will see), one per completion. */
  shaped: readonly (number | null)[];
}

/** The step's batch and what dynamic sampling did to build it. */
export interface DynamicBatch {
  scored: ScoredRollouts;
  rewards: Rewards;
  /** Groups dropped for zero reward variance (over all rounds). */
  dropped: number;
  /** Dropped groups put back to fill the batch after the round cap. */
  filled: number;
}

/** The groups `groups` (indices into the round's prompts) of a round, completions in group order. */
function selectGroups(
  r: SampledRound,
  groups: readonly number[],
  groupSize: number,
): { scored: ScoredRollouts; rewards: Rewards } {
  const rows = groups.flatMap((g) => Array.from({ length: groupSize }, (_, k) => g * groupSize + k));
  const s = r.scored;
  const pick = <T>(xs: ArrayLike<T>): T[] => rows.map((i) => xs[i]!);
  return {
    scored: {
      ...s,
      promptIdx: groups.map((g) => s.promptIdx[g]!),
      problems: pick(s.problems),
      completions: pick(s.completions),
      texts: pick(s.texts),
      features: pick(s.features),
      proxy: Float32Array.from(pick(s.proxy)),
      results: s.results ? pick(s.results) : undefined,
      gold: pick(s.gold),
    },
    rewards: {
      ...r.rewards,
      values: pick(r.rewards.values),
      ...(r.rewards.weights ? { weights: pick(r.rewards.weights) } : {}),
    },
  };
}

/** Concatenate batches of the same step (same advantage scale) in order. */
function concat(parts: readonly { scored: ScoredRollouts; rewards: Rewards }[]): { scored: ScoredRollouts; rewards: Rewards } {
  const first = parts[0]!;
  const cat = <K extends 'promptIdx' | 'problems' | 'completions' | 'texts' | 'features' | 'gold'>(k: K) =>
    parts.flatMap((p) => p.scored[k] as unknown[]) as ScoredRollouts[K];
  const results = parts.every((p) => p.scored.results) ? parts.flatMap((p) => p.scored.results!) : undefined;
  return {
    scored: {
      ...first.scored,
      promptIdx: cat('promptIdx'),
      problems: cat('problems'),
      completions: cat('completions'),
      texts: cat('texts'),
      features: cat('features'),
      proxy: Float32Array.from(parts.flatMap((p) => Array.from(p.scored.proxy))),
      results,
      gold: cat('gold'),
    },
    rewards: {
      ...first.rewards,
      values: parts.flatMap((p) => p.rewards.values),
      ...(parts.every((p) => p.rewards.weights) ? { weights: parts.flatMap((p) => p.rewards.weights!) } : {}),
    },
  };
}

/**
 * Sample rounds until `groups` groups with reward signal are collected: `next()` samples one more
 * round (called at most `maxRounds` times after `first`). Groups with signal are kept in the
 * order sampled, surplus ones of the last round discarded; when the cap is reached short, the
 * dropped groups fill the batch in the order sampled.
 */
export async function collectGroups(
  first: SampledRound,
  next: () => Promise<SampledRound>,
  opts: { groups: number; groupSize: number; maxRounds: number },
): Promise<DynamicBatch & { extraRounds: number }> {
  const kept: { scored: ScoredRollouts; rewards: Rewards }[] = [];
  const spare: { scored: ScoredRollouts; rewards: Rewards }[] = [];
  let have = 0;
  let dropped = 0;
  let extraRounds = 0;
  for (let round: SampledRound = first; ; round = await next()) {
    const flat = zeroStdGroups(round.shaped, opts.groupSize);
    const signal = flat.flatMap((z, g) => (z ? [] : [g])).slice(0, opts.groups - have);
    const noSignal = flat.flatMap((z, g) => (z ? [g] : []));
    dropped += noSignal.length;
    if (signal.length) kept.push(selectGroups(round, signal, opts.groupSize));
    if (noSignal.length) spare.push(selectGroups(round, noSignal, opts.groupSize));
    have += signal.length;
    if (have >= opts.groups || extraRounds >= opts.maxRounds) break;
    extraRounds++;
  }
  let filled = 0;
  for (const s of spare) {
    if (have >= opts.groups) break;
    const take = Math.min(s.scored.promptIdx.length, opts.groups - have);
    kept.push(selectGroups({ ...s, shaped: [] }, [...Array(take).keys()], opts.groupSize));
    have += take;
    filled += take;
  }
  return { ...concat(kept), dropped, filled, extraRounds };
}
