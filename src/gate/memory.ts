/**
 * Memory: salience-gated episodic memory — keeps what surprised the loop, lets routine rounds
 * decay.
 *
 * salience = base + surprise_weight·[surprise] + severity_weight·severity. Every round (tick)
 * salience decays: episodes below `consolidate_at` by `decay` (fast), consolidated ones by
 * `consolidated_decay` (slow). Episodes below `floor` are forgotten, and when more than
 * `capacity` remain the least salient (oldest on ties) are evicted, so the memory stays bounded
 * and does not fill with uneventful rounds.
 */

/** One remembered round. */
export interface Episode {
  readonly round: number;
  readonly decision: string;
  /** A committed action contradicted the prediction with a mode not in the library. */
  readonly surprise: boolean;
  /** Largest verified failure severity in the round (0 for routine rounds). */
  readonly severity: number;
  /** Failure modes verified in the round. */
  readonly modes: readonly string[];
  /** The episode involved a verified failure (else it is routine). */
  readonly failure: boolean;
  salience: number;
}

/** Memory settings (the `memory:` block of the gate config). */
export interface MemoryOptions {
  readonly capacity: number;
  readonly base: number;
  readonly surprise_weight: number;
  readonly severity_weight: number;
  readonly consolidate_at: number;
  readonly decay: number;
  readonly consolidated_decay: number;
  readonly floor: number;
}

/** Serialised memory. */
export interface MemoryJSON {
  readonly version: 1;
  readonly options: MemoryOptions;
  readonly episodes: readonly Episode[];
  readonly offered: { failure: number; routine: number };
}

/** Salience-gated, bounded episodic memory. */
export class SalienceMemory {
  private episodes: Episode[] = [];
  /** Episodes ever offered, by kind (for retention statistics). */
  readonly offered = { failure: 0, routine: 0 };

  constructor(readonly options: MemoryOptions) {}

  /** Initial salience of an episode. */
  salienceOf(e: { surprise: boolean; severity: number }): number {
    const o = this.options;
    return o.base + (e.surprise ? o.surprise_weight : 0) + o.severity_weight * Math.max(0, e.severity);
  }

  /** Offer an episode; returns it with its salience (it may be evicted at once if least salient). */
  add(e: Omit<Episode, 'salience'>): Episode {
    const ep: Episode = { ...e, modes: [...e.modes], salience: this.salienceOf(e) };
    if (ep.failure) this.offered.failure++;
    else this.offered.routine++;
    if (ep.salience >= this.options.floor) this.episodes.push(ep);
    this.evict();
    return ep;
  }

  /** One round passes: decay salience, forget what fell below the floor. */
  tick(): void {
    const o = this.options;
    for (const ep of this.episodes) ep.salience *= ep.salience >= o.consolidate_at ? o.consolidated_decay : o.decay;
    if (this.episodes.some((ep) => ep.salience < o.floor)) this.episodes = this.episodes.filter((ep) => ep.salience >= o.floor);
  }

  /** Retained episodes, oldest first. */
  retained(): readonly Episode[] {
    return this.episodes;
  }

  get size(): number {
    return this.episodes.length;
  }

  /** Retained episodes by kind. */
  retention(): { failure: number; routine: number; failureShare: number } {
    let failure = 0;
    for (const ep of this.episodes) if (ep.failure) failure++;
    const routine = this.episodes.length - failure;
    return { failure, routine, failureShare: this.episodes.length === 0 ? 0 : failure / this.episodes.length };
  }

  toJSON(): MemoryJSON {
    return {
      version: 1,
      options: { ...this.options },
      episodes: this.episodes.map((e) => ({ ...e })),
      offered: { ...this.offered },
    };
  }

  static fromJSON(data: MemoryJSON): SalienceMemory {
    const m = new SalienceMemory({ ...data.options });
    m.episodes = data.episodes.map((e) => ({ ...e, modes: [...e.modes] }));
    Object.assign(m.offered, data.offered);
    return m;
  }

  private evict(): void {
    while (this.episodes.length > this.options.capacity) {
      let worst = 0;
      for (let i = 1; i < this.episodes.length; i++) {
        const a = this.episodes[i]!;
        const b = this.episodes[worst]!;
        // Least salient goes; on ties the oldest (earlier in the array) goes.
        if (a.salience < b.salience) worst = i;
      }
      this.episodes.splice(worst, 1);
    }
  }
}
