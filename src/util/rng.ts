/**
 * Seeded, serialisable pseudo-random numbers (xoshiro128**, seeded through splitmix32).
 *
 * Why not Math.random or a library: runs must be reproducible from a seed, and the RNG state
 * must go into checkpoints so a resumed run continues the exact same stream.
 */
import { AnchorError } from './errors.ts';

/** Serialisable RNG state: four uint32 words. */
export type RngState = [number, number, number, number];

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A seeded xoshiro128** generator with helpers for the draws the project needs. */
export class Rng {
  private s: Uint32Array;

  constructor(seed: number | RngState) {
    this.s = new Uint32Array(4);
    if (Array.isArray(seed)) {
      this.s.set(seed);
    } else {
      // Hash seeds so nearby integers (0, 1, 2, ...) give unrelated streams.
      const sm = splitmix32(Math.floor(seed) ^ 0x5bd1e995);
      for (let i = 0; i < 4; i++) this.s[i] = sm();
    }
    if ((this.s[0]! | this.s[1]! | this.s[2]! | this.s[3]!) === 0) this.s[0] = 1;
  }

  /** A generator for a named sub-stream, independent of draws made on this one. */
  fork(label: string | number): Rng {
    let h = 2166136261;
    const text = String(label);
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    const sm = splitmix32((h ^ this.s[0]! ^ Math.imul(this.s[1]!, 31)) >>> 0);
    return new Rng([sm(), sm(), sm(), sm()]);
  }

  /** Next uint32. */
  nextU32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1]! << 9) >>> 0;
    s[2] = s[2]! ^ s[0]!;
    s[3] = s[3]! ^ s[1]!;
    s[1] = s[1]! ^ s[2]!;
    s[0] = s[0]! ^ s[3]!;
    s[2] = s[2]! ^ t;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** Uniform float in [0, 1) with 53 bits of precision. */
  next(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!(n > 0)) throw new AnchorError('INTERNAL', `Rng.int needs n > 0, got ${n}`);
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Standard normal draw (Box–Muller). */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** In-place Fisher–Yates shuffle; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }

  /** k distinct indices from [0, n), in draw order (sampling without replacement). */
  sampleIndices(n: number, k: number): number[] {
    const idx = Array.from({ length: n }, (_, i) => i);
    const m = Math.min(k, n);
    for (let i = 0; i < m; i++) {
      const j = i + this.int(n - i);
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    return idx.slice(0, m);
  }

  /** The state, for checkpoints. */
  getState(): RngState {
    return [this.s[0]!, this.s[1]!, this.s[2]!, this.s[3]!];
  }

  /** Restore a state taken with {@link getState}. */
  setState(state: RngState): void {
    this.s.set(state);
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
