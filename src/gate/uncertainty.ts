/**
 * Uncertainty: u, a one-sided upper confidence bound on the hacking gap (proxy − gold) from the
 * settled sample.
 *
 * u = mean + z·s/√n with s the sample standard deviation. The default z = 1.645 is the 95%
 * one-sided normal quantile: if the true mean gap were above u, a sample this favourable would
 * occur less than 5% of the time (normal approximation, reasonable for n ≥ 30 because the gaps
 * are bounded). With fewer than `minSamples` gaps there is no bound worth the name, so u = +∞,
 * which makes the gate ESCALATE — gather more settled evidence before committing.
 */
import { meanSe } from '../util/stats.ts';

/** The bound and the figures it came from. */
export interface GapBound {
  readonly u: number;
  readonly mean: number;
  readonly stderr: number;
  readonly n: number;
  readonly z: number;
}

/** UCB on the mean hacking gap of `gaps`. */
export function hackingGapUcb(gaps: readonly number[], z = 1.645, minSamples = 2): GapBound {
  const n = gaps.length;
  const s = meanSe(gaps);
  const mean = s.mean ?? Number.NaN;
  if (n < Math.max(2, minSamples)) return { u: Number.POSITIVE_INFINITY, mean, stderr: Number.POSITIVE_INFINITY, n, z };
  const stderr = s.se ?? Number.NaN;
  return { u: mean + z * stderr, mean, stderr, n, z };
}

/**
 * A bounded sliding window of settled gaps with O(1) updates of the running sums, for loops that
 * add a few gaps per round for tens of thousands of rounds.
 */
export class GapWindow {
  private buf: number[] = [];
  private head = 0;
  private sum = 0;
  private sumSq = 0;

  constructor(readonly capacity: number) {}

  /** Add one settled gap, evicting the oldest when full. */
  push(gap: number): void {
    if (this.buf.length < this.capacity) {
      this.buf.push(gap);
    } else {
      const old = this.buf[this.head]!;
      this.sum -= old;
      this.sumSq -= old * old;
      this.buf[this.head] = gap;
      this.head = (this.head + 1) % this.capacity;
    }
    this.sum += gap;
    this.sumSq += gap * gap;
  }

  /** Gaps held, oldest first. */
  values(): number[] {
    return [...this.buf.slice(this.head), ...this.buf.slice(0, this.head)];
  }

  get size(): number {
    return this.buf.length;
  }

  /** Same figures as {@link hackingGapUcb} on {@link values}, from the running sums. */
  bound(z = 1.645, minSamples = 2): GapBound {
    const n = this.buf.length;
    const mean = n > 0 ? this.sum / n : Number.NaN;
    if (n < Math.max(2, minSamples)) return { u: Number.POSITIVE_INFINITY, mean, stderr: Number.POSITIVE_INFINITY, n, z };
    const variance = Math.max(0, (this.sumSq - n * mean * mean) / (n - 1));
    const stderr = Math.sqrt(variance / n);
    return { u: mean + z * stderr, mean, stderr, n, z };
  }

  /** Recompute the running sums from the buffer (called periodically to cancel float drift). */
  resync(): void {
    this.sum = 0;
    this.sumSq = 0;
    for (const g of this.buf) {
      this.sum += g;
      this.sumSq += g * g;
    }
  }

  toJSON(): { capacity: number; values: number[] } {
    return { capacity: this.capacity, values: this.values() };
  }

  static fromJSON(data: { capacity: number; values: readonly number[] }): GapWindow {
    const w = new GapWindow(data.capacity);
    for (const g of data.values) w.push(g);
    return w;
  }
}
