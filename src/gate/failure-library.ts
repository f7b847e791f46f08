/**
 * Failure library: the only-growing set of failure modes reproduced by an independent oracle,
 * with the surprise count and missing-mass estimates.
 *
 * The sole way in is {@link FailureLibrary.submit}, which calls the `verify` callback given at
 * construction (the sandbox in training, ground truth in the simulation): a claim it does not
 * reproduce earns reward 0 and is not stored. There is no removal, so a mode that surprised the
 * loop once can never surprise it again and N modes allow at most N surprises.
 */
import type { Claim, Finding } from './types.ts';

/**
 * Independent reproduction of a claimed failure: true only if re-executing the claimed
 * completion confirms it (gold really below proxy by more than the margin). Must not trust the
 * claim's own gold.
 */
export type Verify<T> = (claim: Claim<T>, finding: Finding<T>) => boolean | Promise<boolean>;

/** A reproduced failure kept as an example of its mode (and as a hard example for RM refits). */
export interface Exemplar {
  readonly id: string;
  readonly round: number;
  readonly proxy: number;
  readonly gold: number;
  readonly gap: number;
}

/** One failure mode in the library. */
export interface LibraryEntry {
  readonly mode: string;
  readonly firstRound: number;
  /** Rounds in which the mode was observed (verified); one observation per (round, mode). */
  count: number;
  lastRound: number;
  maxSeverity: number;
  /** The first few reproduced failures of this mode (bounded). */
  exemplars: Exemplar[];
}

/** What a submitted claim earned. */
export interface SubmitResult {
  readonly reproduced: boolean;
  /** Stored (as a new mode or as a new observation of a known one). */
  readonly stored: boolean;
  /** The mode was not in the library before. */
  readonly novel: boolean;
  /** A committed action's outcome contradicted the prediction with a mode not in the library. */
  readonly surprise: boolean;
  readonly reward: number;
}

/** Running totals. */
export interface LibraryStats {
  claims: number;
  reproduced: number;
  rejected: number;
  rewardReproduced: number;
  /** What unreproduced claims earned: never incremented, so always 0. */
  rewardRejected: number;
  surprises: number;
  observations: number;
}

/** Serialised form (for checkpoints). */
export interface FailureLibraryJSON {
  readonly version: 1;
  readonly rewardPerClaim: number;
  readonly maxExemplars: number;
  readonly entries: readonly LibraryEntry[];
  readonly stats: LibraryStats;
}

/** Library options. */
export interface FailureLibraryOptions {
  /** Reward for a reproduced claim (default 1); an unreproduced claim always earns 0. */
  readonly rewardPerClaim?: number;
  /** Exemplars kept per mode (default 4). */
  readonly maxExemplars?: number;
}

/** The failure library. */
export class FailureLibrary<T = unknown> {
  private readonly entries = new Map<string, LibraryEntry>();
  private singletons = 0;
  readonly stats: LibraryStats = {
    claims: 0,
    reproduced: 0,
    rejected: 0,
    rewardReproduced: 0,
    rewardRejected: 0,
    surprises: 0,
    observations: 0,
  };
  readonly rewardPerClaim: number;
  readonly maxExemplars: number;

  constructor(
    private readonly verify: Verify<T>,
    options: FailureLibraryOptions = {},
  ) {
    this.rewardPerClaim = options.rewardPerClaim ?? 1;
    this.maxExemplars = options.maxExemplars ?? 4;
  }

  /** Number of modes held. */
  get size(): number {
    return this.entries.size;
  }

  has(mode: string): boolean {
    return this.entries.has(mode);
  }

  entry(mode: string): Readonly<LibraryEntry> | undefined {
    return this.entries.get(mode);
  }

  /** Modes in insertion order. */
  modes(): string[] {
    return [...this.entries.keys()];
  }

  /** All exemplars (hard examples for the next RM refit), oldest mode first. */
  exemplars(): Exemplar[] {
    return [...this.entries.values()].flatMap((e) => e.exemplars);
  }

  /**
   * Verify a claimed failure independently; store it only if reproduced. Reward: `rewardPerClaim`
   * if reproduced (0 when `bounty: false`), exactly 0 otherwise.
   *
   * `committed` says the failure is the settled outcome of a committed (AUTHORIZE) action, i.e.
   * the gate had predicted no failure: a reproduced failure of a mode not yet in the library is
   * then a surprise. Failures found before commit (by the simulator, or by settling an action
   * that was not committed) are stored but are not surprises.
   */
  async submit(finding: Finding<T>, round: number, committed = false, options: { bounty?: boolean } = {}): Promise<SubmitResult> {
    this.stats.claims++;
    const reproduced = (await this.verify(finding.claim, finding)) === true;
    if (!reproduced) {
      this.stats.rejected++;
      return { reproduced: false, stored: false, novel: false, surprise: false, reward: 0 };
    }
    this.stats.reproduced++;
    // Failures reality reported by itself (settlement) are stored but pay no bounty: nobody claimed them.
    const reward = options.bounty === false ? 0 : this.rewardPerClaim;
    this.stats.rewardReproduced += reward;
    const novel = this.store(finding, round);
    const surprise = committed && novel;
    if (surprise) this.stats.surprises++;
    return { reproduced: true, stored: true, novel, surprise, reward };
  }

  /**
   * Good–Turing estimate of the missing mass: the fraction of observations whose mode has been
   * observed exactly once (n1 / n). 1 before any observation (everything is missing).
   */
  goodTuring(): number {
    return this.stats.observations === 0 ? 1 : this.singletons / this.stats.observations;
  }

  /** Exact missing mass under a known mode distribution: total probability of modes not held. */
  missingMass(trueProbabilities: ReadonlyMap<string, number>): number {
    let m = 0;
    for (const [mode, p] of trueProbabilities) if (!this.entries.has(mode)) m += p;
    return m;
  }

  toJSON(): FailureLibraryJSON {
    return {
      version: 1,
      rewardPerClaim: this.rewardPerClaim,
      maxExemplars: this.maxExemplars,
      entries: [...this.entries.values()].map((e) => ({ ...e, exemplars: [...e.exemplars] })),
      stats: { ...this.stats },
    };
  }

  /** Restore a library; `verify` is not serialisable, so it is given again. */
  static fromJSON<T>(data: FailureLibraryJSON, verify: Verify<T>): FailureLibrary<T> {
    const lib = new FailureLibrary<T>(verify, { rewardPerClaim: data.rewardPerClaim, maxExemplars: data.maxExemplars });
    for (const e of data.entries) {
      lib.entries.set(e.mode, { ...e, exemplars: [...e.exemplars] });
      if (e.count === 1) lib.singletons++;
    }
    Object.assign(lib.stats, data.stats);
    return lib;
  }

  private store(finding: Finding<T>, round: number): boolean {
    const c = finding.claim;
    const ex: Exemplar = { id: c.item.id, round, proxy: c.item.proxy, gold: c.gold, gap: c.gap };
    const e = this.entries.get(finding.mode);
    if (!e) {
      this.entries.set(finding.mode, {
        mode: finding.mode,
        firstRound: round,
        count: 1,
        lastRound: round,
        maxSeverity: finding.severity,
        exemplars: [ex],
      });
      this.singletons++;
      this.stats.observations++;
      return true;
    }
    e.maxSeverity = Math.max(e.maxSeverity, finding.severity);
    if (e.exemplars.length < this.maxExemplars) e.exemplars.push(ex);
    // One observation per (round, mode): several failing completions of one action are one draw.
    if (round !== e.lastRound) {
      if (e.count === 1) this.singletons--;
      e.count++;
      e.lastRound = round;
      this.stats.observations++;
    }
    return false;
  }
}
