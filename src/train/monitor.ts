/**
 * On-policy soundness monitor: every GRPO group is a best-of-G pool, so where gold is known for
 * the whole group the RM's within-group soundness is free — gold of the RM's favourite divided by
 * the best gold in the group (Snd@N of docs/design.md at N = G, measured on-policy). Groups whose best gold is 0
 * carry no information and are left out.
 */

/**
 * Mean within-group soundness over groups of `groupSize` consecutive completions, or null when no
 * group has a known, positive best gold. Ties in the proxy share the pick (mean gold of the tied).
 */
export function withinGroupSoundness(
  proxy: ArrayLike<number>,
  gold: readonly (number | null)[],
  groupSize: number,
): number | null {
  let sum = 0;
  let groups = 0;
  for (let g = 0; g + groupSize <= gold.length; g += groupSize) {
    const idx = Array.from({ length: groupSize }, (_, k) => g + k);
    if (idx.some((i) => gold[i] === null)) continue;
    const best = Math.max(...idx.map((i) => gold[i]!));
    if (!(best > 0)) continue;
    const top = Math.max(...idx.map((i) => proxy[i]!));
    const picks = idx.filter((i) => proxy[i] === top);
    sum += picks.reduce((a, i) => a + gold[i]!, 0) / picks.length / best;
    groups++;
  }
  return groups > 0 ? sum / groups : null;
}

/**
 * Trailing mean over the last `window` pushed values; nulls take a slot but no weight (a step
 * without a measurable group still ages the window). Its state is the recent values, so a
 * resumed trainer continues the same mean.
 */
export class RollingMean {
  private recent: (number | null)[] = [];

  constructor(readonly window: number) {}

  /** Add a value; returns the mean of the non-null values in the window, or null when none. */
  push(v: number | null): number | null {
    this.recent.push(v);
    if (this.recent.length > this.window) this.recent.shift();
    let s = 0;
    let n = 0;
    for (const x of this.recent) if (x !== null) (s += x), n++;
    return n > 0 ? s / n : null;
  }

  getState(): (number | null)[] {
    return [...this.recent];
  }

  setState(values: readonly (number | null)[]): void {
    this.recent = values.slice(-this.window);
  }
}
