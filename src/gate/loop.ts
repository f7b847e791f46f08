/**
 * GateLoop: composes oracle, simulator, critic, uncertainty, gate, failure library and memory
 * into one round — `decide` before an action is applied, `settle` when reality reports back.
 *
 * The training driver and `validate-loop` both drive this class; only what they plug in differs
 * (the evidence type and oracle, the simulator's probe, the `verify` callback, the RM view).
 */
import type { GateConfig } from './config.ts';
import { Critic, type LinearRm } from './critic.ts';
import { FailureLibrary, type FailureLibraryJSON, type Verify } from './failure-library.ts';
import { gateDecision, gateRecordToJsonLine, type GateRecord, type UnresolvedFailure } from './gate.ts';
import { SalienceMemory, type MemoryJSON } from './memory.ts';
import type { Oracle, OracleVerdict } from './oracle.ts';
import type { Simulator } from './simulator.ts';
import { forEachNonzero, type Claim, type Decision, type FeatureVector, type Finding, type WindowItem } from './types.ts';
import { GapWindow, type GapBound } from './uncertainty.ts';

/** How hard the loop is looking right now (ESCALATE and surprises raise it). */
export interface EscalationState {
  readonly level: number;
  /** Fraction of the next window to settle. */
  readonly settlementRate: number;
  /** Simulator probe depth for the next window. */
  readonly depth: number;
  /** Training should pause (ESCALATE with `escalation.pause`). */
  readonly pause: boolean;
}

/** Input of one gate pass. */
export interface DecideInput<E, T> {
  /** Round (optimizer step / promotion index); episodes and observations are per round. */
  readonly round: number;
  /** Evidence for the oracle. */
  readonly evidence: E;
  /** The completions the action was computed from (gold null where unsettled). */
  readonly window: readonly WindowItem<T>[];
  /** Authorisation present (default true); false gives WAIT unless something outranks it. */
  readonly authorized?: boolean;
  /** Modes the caller has already resolved for this action (e.g. RM refit on them after MODIFY). */
  readonly resolvedModes?: ReadonlySet<string>;
}

/** Result of one gate pass: the gate record plus what the roles found. */
export interface DecideResult<T> {
  readonly record: GateRecord;
  readonly decision: Decision;
  readonly commit: boolean;
  readonly verdict: OracleVerdict;
  readonly bound: GapBound;
  /** Verified (reproduced) findings — the hard examples MODIFY refits the RM with. */
  readonly verified: readonly Finding<T>[];
  /** Claims the independent oracle did not reproduce (earned 0, not stored). */
  readonly rejected: readonly Finding<T>[];
  /** Every claim of this pass with what it earned (reward 0 unless reproduced). */
  readonly claims: readonly ClaimOutcome<T>[];
  /** Reward earned by the simulator's claims in this pass. */
  readonly reward: number;
  /** Escalation state to apply to the next window. */
  readonly escalation: EscalationState;
}

/** A claim after independent verification. */
export interface ClaimOutcome<T> {
  readonly finding: Finding<T>;
  readonly reproduced: boolean;
  readonly reward: number;
}

/** Input of one settlement report: executed completions from one round's action. */
export interface SettleInput<T> {
  readonly round: number;
  /** The round's action was committed (AUTHORIZE): a failure now contradicts the gate's prediction. */
  readonly committed: boolean;
  /**
   * Executed completions (gold set; items with null gold are ignored). `proxy` is the score under
   * the RM in force before this window's refit — the same numbers the drift measurement uses — so
   * u measures the gap the policy is currently being paid.
   */
  readonly items: readonly WindowItem<T>[];
}

/** What settlement revealed. */
export interface SettleResult<T> {
  /** Modes that surprised the loop (committed, reproduced, not in the library before). */
  readonly surprises: readonly string[];
  readonly verified: readonly Finding<T>[];
  readonly rejected: readonly Finding<T>[];
  readonly escalation: EscalationState;
}

/** Decision counts and totals. */
export interface LoopCounters {
  decisions: Record<Decision, number>;
  rounds: number;
  settledItems: number;
}

/** Serialised loop state (checkpoints). */
export interface GateLoopJSON {
  readonly version: 1;
  readonly library: FailureLibraryJSON;
  readonly memory: MemoryJSON;
  readonly escalation: { level: number; calm: number; escalatedLast: boolean };
  readonly settled: { gaps: number[]; features: (FeatureVector | null)[] };
  readonly counters: LoopCounters;
  readonly lastRound: number | null;
}

/** Roles plugged into a loop. */
export interface GateLoopParts<E, T> {
  readonly config: GateConfig;
  readonly oracle: Oracle<E>;
  readonly simulator: Simulator<T>;
  /** Independent reproduction of claimed failures (the sandbox in training). */
  readonly verify: Verify<T>;
  /** The RM's linear view for the critic; update with {@link GateLoop.setRewardModel} after refits. */
  readonly rm: LinearRm;
}

/** The gate loop for actions with evidence E and completions carrying payload T. */
export class GateLoop<E, T = unknown> {
  readonly config: GateConfig;
  readonly oracle: Oracle<E>;
  readonly critic: Critic;
  library: FailureLibrary<T>;
  memory: SalienceMemory;
  readonly counters: LoopCounters = {
    decisions: { DENY: 0, ESCALATE: 0, MODIFY: 0, WAIT: 0, AUTHORIZE: 0 },
    rounds: 0,
    settledItems: 0,
  };
  private readonly simulator: Simulator<T>;
  private readonly verify: Verify<T>;
  private rm: LinearRm;
  private level = 0;
  private calm = 0;
  private escalatedLast = false;
  private lastRound: number | null = null;
  /** Verdicts on completions already judged this round: a re-gate after MODIFY does not pay twice. */
  private judged = new Map<string, boolean>();
  private readonly settled: SettledSample;

  constructor(parts: GateLoopParts<E, T>) {
    this.config = parts.config;
    this.oracle = parts.oracle;
    this.simulator = parts.simulator;
    this.verify = parts.verify;
    this.rm = parts.rm;
    this.critic = new Critic({ keyFeatures: parts.config.critic.key_features, highSeverity: parts.config.critic.high_severity });
    this.library = new FailureLibrary<T>(parts.verify);
    this.memory = new SalienceMemory(parts.config.memory);
    this.settled = new SettledSample(parts.config.settled_window, parts.rm.weights.length);
  }

  /** Point the critic at a refitted RM (same or new feature list). */
  setRewardModel(rm: LinearRm): void {
    this.rm = rm;
    this.settled.resize(rm.weights.length);
  }

  /** Current escalation state (what to use for the next window). */
  escalation(): EscalationState {
    const e = this.config.escalation;
    const mult = e.factor ** this.level;
    return {
      level: this.level,
      settlementRate: Math.min(e.max_settlement_rate, e.base_settlement_rate * mult),
      depth: Math.min(e.max_depth, Math.round(this.config.simulator.depth * mult)),
      pause: e.pause && this.escalatedLast,
    };
  }

  /** The UCB on the hacking gap from the current settled sample. */
  bound(): GapBound {
    return this.settled.gaps.bound(this.config.z, this.config.min_settled);
  }

  /**
   * One gate pass on a proposed action. Side effects: claims are verified and reproduced ones
   * stored in the library; escalation rises on ESCALATE (and relaxes after `relax_after` calm
   * passes); the round's episode goes to memory (first pass of a round only).
   */
  async decide(input: DecideInput<E, T>): Promise<DecideResult<T>> {
    const newRound = input.round !== this.lastRound;
    if (newRound) {
      this.memory.tick();
      this.judged.clear();
      this.lastRound = input.round;
      this.counters.rounds++;
    }
    // The oracle sees only the evidence: nothing below can influence its verdict.
    const verdict = this.oracle.check(input.evidence);
    const bound = this.bound();
    const before = this.escalation();
    const claims = await this.simulator.find(input.window, {
      depth: before.depth,
      topK: this.config.simulator.top_k,
      margin: this.config.simulator.margin,
    });
    const { verified, rejected, reward, outcomes } = await this.judge(claims, input.round, false, 'decide');
    const resolved = input.resolvedModes ?? new Set<string>();
    const unresolvedHigh: UnresolvedFailure[] = verified
      .filter((f) => f.high && !resolved.has(f.mode))
      .map((f) => ({ mode: f.mode, severity: f.severity, itemId: f.claim.item.id }));
    const record = gateDecision(
      {
        violations: verdict.violations,
        u: bound.u,
        epsilon: this.config.epsilon,
        unresolvedHigh,
        authorized: input.authorized ?? true,
      },
      {
        round: input.round,
        settled: { n: bound.n, mean: bound.mean, stderr: bound.stderr, z: bound.z },
        claims: { verified: verified.length, rejected: rejected.length, reward },
        findings: verified.map((f) => ({ mode: f.mode, severity: f.severity, item: f.claim.item.id, source: f.claim.source })),
        escalation: before,
        library_size: this.library.size,
      },
    );
    this.counters.decisions[record.decision]++;
    this.escalatedLast = record.decision === 'ESCALATE';
    if (this.escalatedLast) this.raise();
    else this.relax();
    if (newRound) {
      const severity = verified.reduce((m, f) => Math.max(m, f.severity), 0);
      this.memory.add({
        round: input.round,
        decision: record.decision,
        surprise: false,
        severity,
        modes: [...new Set(verified.map((f) => f.mode))],
        failure: verified.length > 0,
      });
    }
    return {
      record,
      decision: record.decision,
      commit: record.commit,
      verdict,
      bound,
      verified,
      rejected,
      claims: outcomes,
      reward,
      escalation: this.escalation(),
    };
  }

  /**
   * Reality reports executed completions of one round's action. Their gaps feed u; failures
   * (gap above the simulator margin) are explained, verified and stored; a reproduced failure of
   * a committed action whose mode was not in the library is a surprise, which also raises
   * escalation (deeper simulation, more settlement next window).
   */
  async settle(input: SettleInput<T>): Promise<SettleResult<T>> {
    const claims: Claim<T>[] = [];
    for (const item of input.items) {
      if (item.gold === null) continue;
      this.settled.push(item.proxy - item.gold, item.features ?? null);
      this.counters.settledItems++;
      const gap = item.proxy - item.gold;
      if (gap > this.config.simulator.margin)
        claims.push({ item, gold: item.gold, gap, source: input.committed ? 'outcome' : 'settled' });
    }
    const { verified, rejected, surprises } = await this.judge(claims, input.round, input.committed, 'settle');
    if (surprises.length > 0) this.raise();
    if (verified.length > 0) {
      this.memory.add({
        round: input.round,
        decision: input.committed ? 'AUTHORIZE' : 'settled',
        surprise: surprises.length > 0,
        severity: verified.reduce((m, f) => Math.max(m, f.severity), 0),
        modes: [...new Set(verified.map((f) => f.mode))],
        failure: true,
      });
    }
    return { surprises, verified, rejected, escalation: this.escalation() };
  }

  /** A decision as a `gate.jsonl` line. */
  static jsonLine(record: GateRecord): string {
    return gateRecordToJsonLine(record);
  }

  toJSON(): GateLoopJSON {
    return {
      version: 1,
      library: this.library.toJSON(),
      memory: this.memory.toJSON(),
      escalation: { level: this.level, calm: this.calm, escalatedLast: this.escalatedLast },
      settled: this.settled.toJSON(),
      counters: structuredClone(this.counters),
      lastRound: this.lastRound,
    };
  }

  /** Restore a loop from a checkpoint; the parts (callbacks, RM view) are given again. */
  static fromJSON<E, T>(data: GateLoopJSON, parts: GateLoopParts<E, T>): GateLoop<E, T> {
    const loop = new GateLoop<E, T>(parts);
    loop.library = FailureLibrary.fromJSON(data.library, parts.verify);
    loop.memory = SalienceMemory.fromJSON(data.memory);
    loop.level = data.escalation.level;
    loop.calm = data.escalation.calm;
    loop.escalatedLast = data.escalation.escalatedLast;
    for (let i = 0; i < data.settled.gaps.length; i++) loop.settled.push(data.settled.gaps[i]!, data.settled.features[i] ?? null);
    Object.assign(loop.counters, structuredClone(data.counters));
    loop.lastRound = data.lastRound;
    return loop;
  }

  private async judge(
    claims: readonly Claim<T>[],
    round: number,
    committed: boolean,
    phase: 'decide' | 'settle',
  ): Promise<{
    verified: Finding<T>[];
    rejected: Finding<T>[];
    reward: number;
    surprises: string[];
    outcomes: ClaimOutcome<T>[];
  }> {
    const verified: Finding<T>[] = [];
    const rejected: Finding<T>[] = [];
    const surprises: string[] = [];
    const outcomes: ClaimOutcome<T>[] = [];
    let reward = 0;
    if (claims.length === 0) return { verified, rejected, reward, surprises, outcomes };
    const mean = this.settled.meanFeatures();
    const fromSimulator = phase === 'decide';
    for (const claim of claims) {
      const finding = this.critic.explain(claim, this.rm, mean);
      // Keyed by the whole claim, not the completion id: a different claim about the same
      // completion (another proxy, gold or mode) must be verified on its own.
      const key = `${claim.item.id}|${claim.item.proxy}|${claim.gold}|${finding.mode}`;
      const seen = fromSimulator && round === this.lastRound ? this.judged.get(key) : undefined;
      if (seen !== undefined) {
        // Already verified (and paid) in an earlier pass of this round.
        outcomes.push({ finding, reproduced: seen, reward: 0 });
        (seen ? verified : rejected).push(finding);
        continue;
      }
      const res = await this.library.submit(finding, round, committed, { bounty: fromSimulator });
      if (fromSimulator) this.judged.set(key, res.reproduced);
      reward += res.reward;
      outcomes.push({ finding, reproduced: res.reproduced, reward: res.reward });
      if (res.reproduced) verified.push(finding);
      else rejected.push(finding);
      if (res.surprise) surprises.push(finding.mode);
    }
    return { verified, rejected, reward, surprises, outcomes };
  }

  private raise(): void {
    const e = this.config.escalation;
    const maxMult = Math.max(
      e.max_settlement_rate / e.base_settlement_rate,
      e.max_depth / Math.max(1, this.config.simulator.depth),
    );
    const maxLevel = e.factor > 1 ? Math.max(0, Math.ceil(Math.log(maxMult) / Math.log(e.factor))) : 0;
    this.level = Math.min(this.level + 1, maxLevel);
    this.calm = 0;
  }

  private relax(): void {
    this.calm++;
    if (this.calm >= this.config.escalation.relax_after && this.level > 0) {
      this.level--;
      this.calm = 0;
    }
  }
}

/** The settled sample: bounded window of gaps (for u) and feature vectors (for the critic's x̄). */
class SettledSample {
  readonly gaps: GapWindow;
  private feats: (FeatureVector | null)[] = [];
  private head = 0;
  private sum: Float64Array;
  private withFeatures = 0;
  private pushes = 0;

  constructor(
    readonly capacity: number,
    dim: number,
  ) {
    this.gaps = new GapWindow(capacity);
    this.sum = new Float64Array(dim);
  }

  push(gap: number, features: FeatureVector | null): void {
    this.gaps.push(gap);
    if (this.feats.length < this.capacity) {
      this.feats.push(features);
    } else {
      const old = this.feats[this.head]!;
      if (old) this.addTo(old, -1);
      this.feats[this.head] = features;
      this.head = (this.head + 1) % this.capacity;
    }
    if (features) this.addTo(features, 1);
    // Running sums drift in floating point over tens of thousands of updates; resync now and then.
    if (++this.pushes % (this.capacity * 8) === 0) this.resync();
  }

  meanFeatures(): number[] {
    const n = this.withFeatures;
    return Array.from(this.sum, (s) => (n > 0 ? s / n : 0));
  }

  resize(dim: number): void {
    if (dim === this.sum.length) return;
    this.sum = new Float64Array(dim);
    this.resync();
  }

  toJSON(): { gaps: number[]; features: (FeatureVector | null)[] } {
    return { gaps: this.gaps.values(), features: [...this.feats.slice(this.head), ...this.feats.slice(0, this.head)] };
  }

  private addTo(x: FeatureVector, sign: 1 | -1): void {
    this.withFeatures += sign;
    forEachNonzero(x, (i, v) => {
      if (i < this.sum.length) this.sum[i] = this.sum[i]! + sign * v;
    });
  }

  private resync(): void {
    this.sum.fill(0);
    this.withFeatures = 0;
    for (const f of this.feats) if (f) this.addTo(f, 1);
    this.gaps.resync();
  }
}
