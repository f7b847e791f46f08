/**
 * Settlement: which of a window's completions are executed (or judged) to produce RM labels.
 * Strategies are data in a registry, like the arms.
 */
import type { Rng } from '../util/rng.ts';

/** A completion waiting in the settlement window. */
export interface Claim {
  step: number;
  /** Index within its step's batch. */
  index: number;
  problem: number;
  text: string;
  /** RM score when it was rolled out. */
  proxy: number;
  /** Executed gold if it was measured for metrics (never used to choose). */
  gold: number | null;
}

/** Picks `k` claims of a window to settle. Must be deterministic given the RNG. */
export interface SettlementStrategy {
  name: string;
  describe: string;
  select(claims: readonly Claim[], k: number, rng: Rng): number[];
}

/** Registered strategies. */
export const SETTLEMENT_STRATEGIES: Record<string, SettlementStrategy> = {
  random: {
    name: 'random',
    describe: 'uniform sample of the window (the reference study)',
    select: (claims, k, rng) => rng.sampleIndices(claims.length, k).sort((a, b) => a - b),
  },
  'top-proxy': {
    name: 'top-proxy',
    describe: 'the completions the RM rates highest — where selection pressure concentrates',
    select: (claims, k) =>
      claims
        .map((c, i) => [c.proxy, i] as const)
        .sort((a, b) => b[0] - a[0] || a[1] - b[1])
        .slice(0, k)
        .map(([, i]) => i)
        .sort((a, b) => a - b),
  },
  mixed: {
    name: 'mixed',
    describe: 'half top-proxy, half uniform from the rest',
    select: (claims, k, rng) => {
      const top = SETTLEMENT_STRATEGIES['top-proxy']!.select(claims, Math.ceil(k / 2), rng);
      const taken = new Set(top);
      const rest = claims.map((_, i) => i).filter((i) => !taken.has(i));
      const extra = rng.sampleIndices(rest.length, k - top.length).map((j) => rest[j]!);
      return [...top, ...extra].sort((a, b) => a - b);
    },
  },
};

/** How many of `n` claims to settle at rate σ (rounded, at least 1 when σ > 0 and n > 0). */
export function settleCount(n: number, rate: number): number {
  if (rate <= 0 || n === 0) return 0;
  return Math.min(n, Math.max(1, Math.round(n * rate)));
}
