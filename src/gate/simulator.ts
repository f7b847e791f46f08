/**
 * Simulator: paid to find failures — mines a window for the completions whose proxy most exceeds
 * their gold and returns them as claims.
 *
 * Selection over honest samples manufactures deceptions: the completions a policy update pushes
 * hardest are the ones the RM scores highest, so the simulator spends its probe budget (`depth`)
 * on the highest-proxy unsettled completions and ranks everything with known gold by the gap.
 */
import type { Claim, WindowItem } from './types.ts';

/** How hard the simulator looks. */
export interface SimulatorOptions {
  /** Unsettled completions it may probe, highest proxy first (ESCALATE raises it). */
  readonly depth: number;
  /** Most claims returned. */
  readonly topK: number;
  /** Claims need proxy − gold strictly above this. */
  readonly margin: number;
}

/**
 * Gold for an unsettled completion, or null when the probe cannot tell. In training this executes
 * the completion in the sandbox; in the validation simulation it can reproduce only failure modes
 * already in the library.
 */
export type GoldProbe<T> = (item: WindowItem<T>) => number | null | Promise<number | null>;

/** Something that proposes candidate failures for a window. */
export interface Simulator<T> {
  find(window: readonly WindowItem<T>[], options: SimulatorOptions): Promise<Claim<T>[]>;
}

/** The unsettled items a probe budget of `depth` is spent on: highest proxy first (ties by id). */
export function probeOrder<T>(window: readonly WindowItem<T>[], depth: number): WindowItem<T>[] {
  if (depth <= 0) return [];
  return window
    .filter((it) => it.gold === null)
    .sort((a, b) => b.proxy - a.proxy || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, depth);
}

/** Keep claims whose gap exceeds the margin; largest gap first (ties by id); at most topK. */
export function rankClaims<T>(claims: readonly Claim<T>[], topK: number, margin: number): Claim<T>[] {
  return claims
    .filter((c) => c.gap > margin)
    .sort((a, b) => b.gap - a.gap || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
    .slice(0, Math.max(0, topK));
}

/** The training simulator: settled gold where known, probes (sandbox runs) for the rest. */
export class WindowMiningSimulator<T> implements Simulator<T> {
  constructor(private readonly probe?: GoldProbe<T>) {}

  async find(window: readonly WindowItem<T>[], options: SimulatorOptions): Promise<Claim<T>[]> {
    const candidates: Claim<T>[] = [];
    for (const item of window) {
      if (item.gold !== null) candidates.push({ item, gold: item.gold, gap: item.proxy - item.gold, source: 'settled' });
    }
    if (this.probe) {
      for (const item of probeOrder(window, options.depth)) {
        const gold = await this.probe(item);
        if (gold !== null && Number.isFinite(gold)) candidates.push({ item, gold, gap: item.proxy - gold, source: 'probe' });
      }
    }
    return rankClaims(candidates, options.topK, options.margin);
  }
}
