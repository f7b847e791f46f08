/**
 * Settlement: which of a window's completions are executed (or judged) to produce RM labels.
 * Strategies are data in a registry, like the arms; a run config names one per arm
 * (`settlement.strategy`).
 */
import type { Rng } from '../util/rng.ts';

/** A completion waiting in the settlement window. */
export interface Claim {
  step: number;
  /** Index within its step's batch. */
  index: number;
  /** Index of its problem in the training split. */
  problem: number;
  text: string;
  /** RM score when it was rolled out. */
  proxy: number;
  /** Executed gold if it was measured for metrics (never used to choose). */
  gold: number | null;
  /** Completion length in tokens (for its samples.jsonl line, written when the window settles). */
  tokens?: number;
  /** Sandbox status of the gold execution, if any. */
  status?: string;
  /** GRPO group (unique within the run: step × prompts per step + prompt slot). */
  group?: number;
  /**
   * The executed label when the claim was settled as it was rolled out (instant settlement, the
   * `hybrid` reward source): its gold already replaced the RM's score in that step's update, and the
   * window-end refit uses it without executing again.
   */
  label?: number | null;
  /**
   * Rolled out and instantly settled, but left out of the step's batch (dynamic sampling dropped
   * its group): its paid-for label refits the RM; it has no samples.jsonl line and no gap.
   */
  offBatch?: boolean;
}

/** The group of a claim (claims written before groups existed: step and problem). */
function claimGroup(c: Claim): string {
  return c.group !== undefined ? `g${c.group}` : `${c.step}:${c.problem}`;
}

/**
 * What a strategy may ask about the window besides the claims themselves. Lazy: the plain
 * `random` run never pays for a committee.
 */
export interface SelectionContext {
  /**
   * Disagreement of a bootstrap committee of reward models on each claim (standard deviation of
   * the members' predictions), refitted on the RM's current label set.
   */
  disagreement(claims: readonly Claim[]): Promise<Float64Array>;
}

/** Picks `k` claims of a window to settle. Must be deterministic given the RNG and context. */
export interface SettlementStrategy {
  name: string;
  describe: string;
  /**
   * Indices into `claims`, ascending: min(k, claims.length) of them (`groups`: whole groups, k
   * rounded to a multiple of the group size).
   */
  select(claims: readonly Claim[], k: number, rng: Rng, ctx: SelectionContext): number[] | Promise<number[]>;
}

/** The indices of the `k` largest scores (ties: lower index first), ascending. */
export function topK(scores: ArrayLike<number>, k: number): number[] {
  return Array.from(scores, (s, i) => [s, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, k)
    .map(([, i]) => i)
    .sort((a, b) => a - b);
}

const STRATEGIES = {
  random: {
    name: 'random',
    describe: 'uniform sample of the window (the reference study)',
    select: (claims, k, rng) => rng.sampleIndices(claims.length, k).sort((a, b) => a - b),
  },
  'top-proxy': {
    name: 'top-proxy',
    describe: 'the completions the RM rates highest — where selection pressure concentrates',
    select: (claims, k) =>
      topK(
        claims.map((c) => c.proxy),
        k,
      ),
  },
  uncertainty: {
    name: 'uncertainty',
    describe: 'the completions a bootstrap committee of RMs disagrees on most',
    select: async (claims, k, _rng, ctx) => topK(await ctx.disagreement(claims), k),
  },
  groups: {
    name: 'groups',
    describe: 'whole GRPO groups chosen uniformly — each refit sees within-group contrasts (same budget)',
    select: (claims, k, rng) => {
      // The window's groups in order of appearance; settle round(k / mean group size) of them, so
      // the count is k whenever k is a multiple of the group size (σ·steps·P·G / G groups).
      const groups = new Map<string, number[]>();
      claims.forEach((c, i) => (groups.get(claimGroup(c)) ?? groups.set(claimGroup(c), []).get(claimGroup(c))!).push(i));
      const all = [...groups.values()];
      if (all.length === 0 || k <= 0) return [];
      const g = Math.min(all.length, Math.max(1, Math.round((k * all.length) / claims.length)));
      return rng
        .sampleIndices(all.length, g)
        .flatMap((j) => all[j]!)
        .sort((a, b) => a - b);
    },
  },
  mixed: {
    name: 'mixed',
    describe: 'half top-proxy, half uniform from the rest',
    select: (claims, k, rng) => {
      const top = topK(
        claims.map((c) => c.proxy),
        Math.ceil(k / 2),
      );
      const taken = new Set(top);
      const rest = claims.map((_, i) => i).filter((i) => !taken.has(i));
      const extra = rng.sampleIndices(rest.length, k - top.length).map((j) => rest[j]!);
      return [...top, ...extra].sort((a, b) => a - b);
    },
  },
} satisfies Record<string, SettlementStrategy>;

/** A registered strategy name. */
export type SettlementStrategyName = keyof typeof STRATEGIES;

/** Registered strategies. A new strategy is a new entry here (and a name for `settlement.strategy`). */
export const SETTLEMENT_STRATEGIES: Record<SettlementStrategyName, SettlementStrategy> = STRATEGIES;

/** Strategy names, for the config schema. */
export const STRATEGY_NAMES = Object.keys(STRATEGIES) as [SettlementStrategyName, ...SettlementStrategyName[]];

/**
 * Instant settlement's per-step count: σ·n owed each step, carried as a fraction, so over a window
 * it settles the same number as a window-end settlement of the same rate. Returns the count and
 * the new carry.
 */
export function instantCount(n: number, rate: number, carry: number): { k: number; carry: number } {
  const owed = carry + n * rate;
  const k = Math.min(n, Math.floor(owed + 1e-9));
  return { k, carry: owed - k };
}

/** How many of `n` claims to settle at rate σ (rounded, at least 1 when σ > 0 and n > 0). */
export function settleCount(n: number, rate: number): number {
  if (rate <= 0 || n === 0) return 0;
  return Math.min(n, Math.max(1, Math.round(n * rate)));
}
