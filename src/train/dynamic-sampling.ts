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
  /**
   * Groups left out of the batch whose completions were settled as they were scored (instant
   * settlement): their labels are paid for, so settlement still refits on them.
   */
  offBatch: Batch[];
}

/** Scored rollouts with their training reward (`rewards.settled` indexes `scored`'s completions). */
type Batch = { scored: ScoredRollouts; rewards: Rewards };

/** The groups `groups` (indices into the round's prompts) of a round, completions in group order. */
function selectGroups(r: Batch, groups: readonly number[], groupSize: number): Batch {
  const rows = groups.flatMap((g) => Array.from({ length: groupSize }, (_, k) => g * groupSize + k));
  const s = r.scored;
  const pick = <T>(xs: ArrayLike<T>): T[] => rows.map((i) => xs[i]!);
  // Instantly settled completions follow their rows: an index into the round becomes one into the selection.
  const at = new Map(rows.map((row, j) => [row, j]));
  const settled = r.rewards.settled
    ?.filter((x) => at.has(x.index))
    .map((x) => ({ ...x, index: at.get(x.index)! }))
    .sort((a, b) => a.index - b.index);
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
      ...(settled ? { settled } : {}),
    },
  };
}

/** Concatenate batches of the same step (same advantage scale) in order. */
function concat(parts: readonly Batch[]): Batch {
  const first = parts[0]!;
  // Settled indices are offset by the completions of the parts before theirs.
  const offsets = parts.map((_, k) => parts.slice(0, k).reduce((a, p) => a + p.scored.texts.length, 0));
  const settled = parts.some((p) => p.rewards.settled)
    ? parts.flatMap((p, k) => (p.rewards.settled ?? []).map((x) => ({ ...x, index: x.index + offsets[k]! })))
    : undefined;
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
      ...(settled ? { settled } : {}),
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
  const kept: Batch[] = [];
  const spare: Batch[] = [];
  const offBatch: Batch[] = [];
  let have = 0;
  let dropped = 0;
  let extraRounds = 0;
  for (let round: SampledRound = first; ; round = await next()) {
    const flat = zeroStdGroups(round.shaped, opts.groupSize);
    const withSignal = flat.flatMap((z, g) => (z ? [] : [g]));
    const signal = withSignal.slice(0, opts.groups - have);
    const noSignal = flat.flatMap((z, g) => (z ? [g] : []));
    dropped += noSignal.length;
    if (signal.length) kept.push(selectGroups(round, signal, opts.groupSize));
    if (noSignal.length) spare.push(selectGroups(round, noSignal, opts.groupSize));
    // Surplus groups with signal are discarded from the batch, not from settlement.
    const surplus = withSignal.slice(signal.length);
    if (surplus.length) offBatch.push(selectGroups(round, surplus, opts.groupSize));
    have += signal.length;
    if (have >= opts.groups || extraRounds >= opts.maxRounds) break;
    extraRounds++;
  }
  let filled = 0;
  for (const s of spare) {
    const n = s.scored.promptIdx.length;
    const take = Math.max(0, Math.min(n, opts.groups - have));
    const all = [...Array(n).keys()];
    if (take) kept.push(selectGroups(s, all.slice(0, take), opts.groupSize));
    if (take < n) offBatch.push(selectGroups(s, all.slice(take), opts.groupSize));
    have += take;
    filled += take;
  }
  return { ...concat(kept), dropped, filled, extraRounds, offBatch: offBatch.filter((b) => b.rewards.settled?.length) };
}
