/**
 * The gated arm's {@link Updater}: every GRPO update is an action that passes the pre-action
 * gate (src/gate, "Verified before acting" in docs/design.md) before it is committed.
 *
 * Per step: the update is applied tentatively (snapshot of all policy weights and the whole
 * optimizer state first), its evidence is collected from the updated policy, the gate decides,
 * and everything but a commit restores the snapshot bit for bit (`gatedUpdate`). The simulator
 * probes by executing the step's highest-proxy completions in the sandbox; a claimed failure is
 * verified by executing it again. MODIFY refits the RM on the verified failures (hard examples),
 * re-scores the step's completions and recomputes the update, which is gated again (capped).
 *
 * What commits (docs/gate.md): AUTHORIZE, and ESCALATE unless
 * `gate.escalation.pause` — with u = +Infinity until `gate.min_settled` gaps are settled, a
 * strict reading would never let the arm train before its first few windows; instead ESCALATE
 * raises settlement and probe depth, and (`gate.training.settle_until_evidence`) the arm settles
 * every step until the gate has its evidence. DENY, MODIFY (after its retries) and WAIT never commit.
 */
import type { Problem } from '../datasets/problem.ts';
import {
  countNonFinite,
  createUpdateOracle,
  gatedUpdate,
  GateLoop,
  probeOrder,
  WindowMiningSimulator,
  type Decision,
  type DecideResult,
  type GateConfig,
  type GateLoopJSON,
  type GateLoopParts,
  type GateRecord,
  type LinearRm,
  type ProposedUpdate,
  type Restorable,
  type SparseVector,
  type WindowItem,
} from '../gate/index.ts';
import { sequenceLogProbs } from '../policy/logprobs.ts';
import type { PolicyModel } from '../policy/policy-model.ts';
import type { AdamOptimizer, OptimizerState, StepResult } from '../policy/optimizer.ts';
import type { WeightMap } from '../policy/weights.ts';
import type { FeatureExtractor } from '../reward/features/types.ts';
import type { RewardModel } from '../reward/models/types.ts';
import { problemProgram } from '../sandbox/programs.ts';
import { runVerdicts } from '../sandbox/rerun.ts';
import type { ExecResult, Executor } from '../sandbox/types.ts';
import type { RunGateConfig } from './config.ts';
import { goldOf } from './gold.ts';
import type { MetricValue } from './logger.ts';
import type { Rewards, ScoredRollouts } from './reward-sources.ts';
import { GATE_METRIC_KEYS as GK } from './run-format.ts';
import {
  applyGrpoUpdate,
  type GrpoUpdate,
  type SettledClaim,
  type UpdateBatch,
  type UpdateOutcome,
  type UpdateParts,
  type Updater,
} from './update.ts';

export type { SettledClaim } from './update.ts';

/** What a window item carries for probes, verification and hard examples. */
export interface GatePayload {
  problem: Problem;
  text: string;
  /** RM features (dense, the RM's input). */
  x: Float32Array;
}

/** The parts a gated step works with (the arm's own components and config sections). */
export interface GatedStepParts extends Pick<UpdateParts, 'grpo' | 'sampling'> {
  /** The gate's config with its base settlement rate resolved ({@link resolveGateConfig}). */
  gate: GateConfig;
  policy: PolicyModel;
  optimizer: AdamOptimizer;
  rm: RewardModel;
  features: FeatureExtractor;
  executor: Executor;
  padId: number;
  /** Sink for `gate.jsonl` (one line per gate pass). */
  writeLine: (line: string) => void;
  /** Programs executed by the gate (probes, verifications): the arm's training-signal budget. */
  onExecuted: (n: number) => void;
  /**
   * The arm's training reward for the step's rollouts re-scored after a MODIFY refit: its reward
   * source again (PAR shaping, the conservative ensemble), never the raw RM score.
   */
  reward: (scored: ScoredRollouts) => Promise<Rewards>;
}

/** What the step's gating came to. */
interface GateOutcome {
  decision: Decision;
  /** The update is in the weights (committed). */
  applied: boolean;
  /** Gate passes (1 + re-gates after MODIFY). */
  passes: number;
}

/** Checkpointed gate state of an arm. */
export interface GatedState {
  loop: GateLoopJSON;
  /** Steps of the current settlement window and whether their update was committed. */
  applied: Record<string, boolean>;
  /** Integrity signals among programs settled since the last gate round. */
  pendingSignals: number;
  hardExamples: number;
}

/**
 * Harness-tamper signals in an execution result, by the sandbox's error code: tests that never
 * ran although the program finished (the completion pre-empted the harness). The sandbox reports
 * no other such signal today.
 */
export function integritySignal(r: ExecResult): boolean {
  return r.code === 'tests_not_run';
}

/** The `gate:` config with `escalation.base_settlement_rate` resolved (unset: the arm's `settlement.rate`, else 0.1). */
export function resolveGateConfig(gate: RunGateConfig, settlementRate: number): GateConfig {
  const esc = gate.escalation;
  const base = esc.base_settlement_rate ?? (settlementRate > 0 ? settlementRate : 0.1);
  return { ...gate, escalation: { ...esc, base_settlement_rate: base } };
}

/** A dense feature row as a sparse vector (js-surface rows are mostly zeros; checkpoints stay small). */
function toSparse(x: ArrayLike<number>): SparseVector {
  const indices: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < x.length; i++) if (x[i] !== 0) indices.push(i), values.push(x[i]!);
  return { indices, values };
}

/** Feature names for the critic's attribution: the extractor's own, else `name[i]`. */
export function featureNamesOf(fx: FeatureExtractor): string[] {
  return fx.featureNames ? [...fx.featureNames] : Array.from({ length: fx.dim }, (_, i) => `${fx.name}[${i}]`);
}

/** The RM's linear view for the critic (a non-linear RM attributes nothing: mode `unattributed`). */
function linearView(rm: RewardModel, names: string[]): LinearRm {
  const lin = rm.linear;
  const weights = lin ? Array.from(lin.weights) : new Array<number>(names.length).fill(0);
  return { weights, featureNames: names };
}

/** The gate around one arm's GRPO updates. */
export class GatedStep implements Updater {
  readonly gateConfig: GateConfig;
  loop: GateLoop<ProposedUpdate, GatePayload>;
  private applied = new Map<number, boolean>();
  private pendingSignals = 0;
  private hardExamples = 0;
  private probeCache = new Map<string, number>();
  /** The step being gated: its draw of the problems' random sources (ProgramSpec.draw), as scoring's. */
  private draw = 0;
  private readonly names: string[];
  private readonly target: Restorable<{ w: WeightMap; o: OptimizerState }>;

  constructor(private readonly p: GatedStepParts) {
    this.gateConfig = p.gate;
    this.names = featureNamesOf(p.features);
    this.loop = new GateLoop(this.parts());
    this.target = {
      snapshot: () => ({ w: p.policy.getWeights(), o: p.optimizer.getState() }),
      restore: (s) => {
        p.policy.setWeights(s.w);
        p.optimizer.setState(s.o);
      },
    };
  }

  private parts(): GateLoopParts<ProposedUpdate, GatePayload> {
    const g = this.gateConfig;
    return {
      config: g,
      oracle: createUpdateOracle(g.invariants),
      // Probes: the step's highest-proxy completions, executed (prefetched in one batch per step).
      simulator: new WindowMiningSimulator<GatePayload>(
        async (item) => this.probeCache.get(item.id) ?? (await this.execGold([item.payload!]))[0]!,
      ),
      // Independent reproduction: execute again, never trust the claim's own gold.
      verify: async (claim) => claim.item.proxy - (await this.execGold([claim.item.payload!]))[0]! > g.simulator.margin,
      rm: linearView(this.p.rm, this.names),
    };
  }

  /** Settlement rate for the next window: the gate's (escalated) rate, or the trainer's if higher. */
  settlementRate(trainerRate: number): number {
    return Math.max(trainerRate, this.loop.escalation().settlementRate);
  }

  /** Too few settled gaps for a finite u: settle this step rather than wait for the window end. */
  needsEvidence(): boolean {
    return this.gateConfig.training.settle_until_evidence && this.loop.bound().n < this.gateConfig.min_settled;
  }

  /** Gate the step's update; on return the policy and optimizer hold the committed state. */
  async update(batch: UpdateBatch, rewards: Rewards): Promise<UpdateOutcome> {
    const { step, completions } = batch;
    this.draw = step;
    const g = this.gateConfig;
    this.loop.setRewardModel(linearView(this.p.rm, this.names));
    let proxy = batch.proxy;
    let current = rewards;
    const items = (): WindowItem<GatePayload>[] =>
      completions.map((c, i) => ({
        id: `${step}:${i}`,
        proxy: proxy[i]!,
        // Monitoring gold is never the gate's evidence: nothing of this step is settled yet.
        gold: null,
        features: toSparse(batch.features[i]!),
        payload: { problem: batch.problems[i]!, text: c.text, x: batch.features[i]! },
      }));
    const signals = this.pendingSignals;
    this.pendingSignals = 0;
    let out: (GateOutcome & GrpoUpdate & { rewards: Rewards }) | undefined;
    for (let pass = 0; !out; pass++) {
      const window = items();
      await this.prefetchProbes(window);
      let applied!: GrpoUpdate;
      let evidence: ProposedUpdate | undefined;
      const { result, restored } = await gatedUpdate(
        this.target,
        () => {
          applied = applyGrpoUpdate(this.p, batch, current);
        },
        async () => {
          evidence = this.evidence(batch, applied.results, signals);
          const res = await this.loop.decide({ round: step, evidence, window });
          // ESCALATE commits unless the run pauses on it (see the module comment).
          return { res, commit: res.commit || (res.decision === 'ESCALATE' && !g.escalation.pause) };
        },
      );
      const res = result.res;
      let refit: { hard_examples: number; labels: number } | undefined;
      const retry = res.decision === 'MODIFY' && pass < g.training.modify_retries && res.verified.length > 0;
      if (retry) {
        // MODIFY: the verified failures become RM labels (hard examples); re-score and recompute.
        const X = res.verified.map((f) => f.claim.item.payload!.x);
        await this.p.rm.refit(
          X,
          res.verified.map((f) => f.claim.gold),
        );
        this.hardExamples += X.length;
        this.loop.setRewardModel(linearView(this.p.rm, this.names));
        proxy = await this.p.rm.predict(batch.features);
        current = await this.p.reward({ ...batch, proxy });
        refit = { hard_examples: X.length, labels: this.p.rm.labelCount };
      }
      this.writeRecord(res, { step, pass, applied: !restored, evidence: evidence!, ...(refit ? { refit } : {}) });
      if (!retry) out = { decision: res.decision, applied: !restored, passes: pass + 1, ...applied, rewards: current };
    }
    this.applied.set(step, out.applied);
    this.probeCache.clear();
    const { decision: _d, passes: _p, ...outcome } = out;
    return { ...outcome, metrics: () => this.metrics(out) };
  }

  /**
   * Settled completions of this window, with their executed gold and the RM's score before the
   * refit: their gaps feed u, their failures are verified and stored (surprises when the step's
   * update was committed), and their integrity signals go to the next gate pass.
   */
  async settled(claims: readonly SettledClaim[]): Promise<void> {
    const byStep = new Map<number, SettledClaim[]>();
    for (const c of claims) byStep.set(c.step, [...(byStep.get(c.step) ?? []), c]);
    for (const [round, cs] of [...byStep].sort((a, b) => a[0] - b[0])) {
      await this.loop.settle({
        round,
        committed: this.applied.get(round) ?? false,
        items: cs.map((c) => ({
          id: `${c.step}:${c.index}`,
          proxy: c.proxy,
          gold: c.gold,
          features: toSparse(c.x),
          payload: { problem: c.problem, text: c.text, x: c.x },
        })),
      });
    }
    this.pendingSignals += claims.filter((c) => c.result && integritySignal(c.result)).length;
    const last = Math.max(-1, ...claims.map((c) => c.step));
    for (const s of [...this.applied.keys()]) if (s <= last) this.applied.delete(s);
  }

  /** Per-step metrics (cumulative counts). */
  private metrics(out: GateOutcome): Record<string, MetricValue> {
    const d = this.loop.counters.decisions;
    const b = this.loop.bound();
    return {
      [GK.decision]: out.decision,
      [GK.applied]: out.applied,
      [GK.passes]: out.passes,
      [GK.deny]: d.DENY,
      [GK.escalate]: d.ESCALATE,
      [GK.modify]: d.MODIFY,
      [GK.wait]: d.WAIT,
      [GK.authorize]: d.AUTHORIZE,
      [GK.surprises]: this.loop.library.stats.surprises,
      [GK.librarySize]: this.loop.library.size,
      [GK.u]: Number.isFinite(b.u) ? b.u : null,
      [GK.settledGaps]: b.n,
      [GK.hardExamples]: this.hardExamples,
    };
  }

  /** The gate loop, failure library and memory for a checkpoint. */
  getState(): GatedState {
    return {
      loop: structuredClone(this.loop.toJSON()),
      applied: Object.fromEntries([...this.applied].map(([k, v]) => [String(k), v])),
      pendingSignals: this.pendingSignals,
      hardExamples: this.hardExamples,
    };
  }

  /** Restore a state from {@link getState}. */
  setState(s: unknown): void {
    if (!s) return;
    const st = s as GatedState;
    this.loop = GateLoop.fromJSON(st.loop, this.parts());
    this.applied = new Map(Object.entries(st.applied).map(([k, v]) => [Number(k), v]));
    this.pendingSignals = st.pendingSignals;
    this.hardExamples = st.hardExamples;
  }

  /** Evidence of the applied (not yet committed) update, read from the updated policy. */
  private evidence(input: UpdateBatch, results: readonly StepResult[], signals: number): ProposedUpdate {
    const { policy, padId } = this.p;
    const last = results.at(-1) ?? { loss: NaN, gradNorm: NaN, lr: 0, step: 0 };
    let weightsNonFinite = 0;
    for (const w of policy.getWeights().values()) weightsNonFinite += countNonFinite(w.data);
    // k3 KL of the updated policy to the reference on the step's completions.
    const ref = input.ref;
    const now = sequenceLogProbs(
      policy,
      input.completions.map((c) => c.promptIds),
      input.completions.map((c) => c.tokenIds),
      {
        padId,
        temperature: this.p.sampling.temperature,
        entropy: false,
        sharePrompts: true,
        lengthBuckets: this.p.grpo.length_buckets,
      },
    );
    let kl = 0;
    let n = 0;
    for (let i = 0; i < ref.mask.length; i++) {
      if (!ref.mask[i]) continue;
      const d = ref.logProbs[i]! - now.logProbs[i]!;
      kl += Math.exp(d) - d - 1;
      n++;
    }
    const lens = input.completions.map((c) => c.tokenIds.length);
    return {
      kind: 'policy_update',
      step: this.p.optimizer.step,
      loss: last.loss,
      gradNorm: Math.max(...results.map((r) => r.gradNorm)),
      nonFinite: {
        loss: countNonFinite(results.map((r) => r.loss)),
        // The optimizer reports the global norm, not the gradients: a non-finite norm means at
        // least one non-finite gradient value (a lower bound on the count; the invariant is > 0).
        grads: results.filter((r) => !Number.isFinite(r.gradNorm)).length,
        weights: weightsNonFinite,
      },
      klToRef: n ? kl / n : 0,
      completionLength: {
        mean: lens.reduce((a, b) => a + b, 0) / Math.max(1, lens.length),
        min: Math.min(...lens),
        max: Math.max(...lens),
      },
      sandboxIntegritySignals: signals,
    };
  }

  /** Execute the completions the simulator will probe, in one sandbox batch. */
  private async prefetchProbes(window: readonly WindowItem<GatePayload>[]): Promise<void> {
    const todo = probeOrder(window, this.loop.escalation().depth).filter((it) => !this.probeCache.has(it.id));
    if (todo.length === 0) return;
    const golds = await this.execGold(todo.map((it) => it.payload!));
    todo.forEach((it, i) => this.probeCache.set(it.id, golds[i]!));
  }

  private async execGold(payloads: readonly GatePayload[]): Promise<number[]> {
    const results = await runVerdicts(
      this.p.executor,
      payloads.map((q, i) => problemProgram(q.problem, q.text, `${q.problem.id}#gate${i}`, this.draw)),
    );
    this.p.onExecuted(payloads.length);
    return results.map((r, i) => goldOf(r, payloads[i]!.problem));
  }

  private writeRecord(
    res: DecideResult<GatePayload>,
    extra: {
      step: number;
      pass: number;
      applied: boolean;
      evidence: ProposedUpdate;
      refit?: { hard_examples: number; labels: number };
    },
  ): void {
    const { evidence, ...rest } = extra;
    const record = { ...rest, ...res.record, evidence: { ...res.record.evidence, update: evidence } } as GateRecord;
    this.p.writeLine(GateLoop.jsonLine(record));
  }
}
