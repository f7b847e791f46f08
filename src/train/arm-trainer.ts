/**
 * One arm's training loop: the GRPO step (docs/design.md, "One settlement epoch"). Every arm runs
 * this same code; what differs is data — the arm's reward source (./reward-sources.ts), refit-label
 * source (./label-sources.ts), updater (./updaters.ts) and its config overlay. Settlement is its own
 * subsystem, the settlement window (./settlement-window.ts), which the step feeds.
 *
 * The step is a forward pipeline over one step record: rollout → score (RM proxy, gold where
 * executed, the reward source's training reward) → update → weight sync → add to the settlement
 * window (which closes at the window end) → metrics. Checkpoints are the caller's (./arm-runner.ts).
 */
import type { Problem } from '../datasets/problem.ts';
import { type RunConfig, runRewardModelConfig } from './run-config.ts';
import type { Completion } from '../policy/engine/types.ts';
import type { OnnxRolloutEngine } from '../policy/engine/rollout-engine.ts';
import type { PolicyModel } from '../policy/policy-model.ts';
import type { AdamOptimizer } from '../policy/optimizer.ts';
import type { Tokenizer } from '../policy/tokenizer/index.ts';
import type { FeatureExtractor } from '../reward/features/types.ts';
import type { Judge } from '../reward/judges/types.ts';
import { buildCommittee, committeeDisagreement, type Committee } from '../reward/models/committee.ts';
import type { RewardModel } from '../reward/models/types.ts';
import { problemProgram } from '../sandbox/programs.ts';
import { runVerdicts } from '../sandbox/rerun.ts';
import type { Executor, ExecResult } from '../sandbox/types.ts';
import { AnchorError } from '../util/errors.ts';
import { Rng, type RngState } from '../util/rng.ts';
import type { ArmSpec } from './arms.ts';
import { DataLoader } from './data.ts';
import { collectGroups, type DynamicBatch, type SampledRound } from './dynamic-sampling.ts';
import { zeroStdGroups } from './advantages.ts';
import { k3 } from './grpo.ts';
import { conservativeReward, parShape } from './proxy-reward.ts';
import type { GatedState } from './gated-step.ts';
import type { RollbackState } from './rollback.ts';
import { goldOf } from './gold.ts';
import { GoldWatch, type GoldWatchState, harnessHash, weightsHash } from './gold-watch.ts';
import { LABEL_SOURCES } from './label-sources.ts';
import { RollingMean, withinGroupSoundness } from './monitor.ts';
import type { KvLogger } from './logger.ts';
import {
  REWARD_SOURCES,
  type RewardContext,
  type Rewards,
  type RewardSource,
  type Rollouts,
  type ScoredRollouts,
} from './reward-sources.ts';
import { METRIC_KEYS as K, type RefitLine, type SampleLine } from './run-format.ts';
import type { Claim } from './settlement.ts';
import { SettlementWindow, stepClaims, type SettlementState } from './settlement-window.ts';
import type { UpdaterFactory } from './updaters.ts';
import { prepareUpdate, shapedRewards, type UpdateBatch, type UpdateOutcome, type UpdateParts, type Updater } from './update.ts';

/** Everything an arm trainer works with (built by ./arm-runner.ts). */
export interface ArmComponents {
  config: RunConfig;
  arm: ArmSpec;
  train: Problem[];
  evalProblems: Problem[];
  tokenizer: Tokenizer;
  policy: PolicyModel;
  /** The frozen reference (base) policy for the KL term. */
  reference: PolicyModel;
  optimizer: AdamOptimizer;
  engine: OnnxRolloutEngine;
  features: FeatureExtractor;
  rm: RewardModel;
  judge: Judge | undefined;
  executor: Executor;
  /** Executor of the other verdict mode, for the gold watch (absent: `gold_watch.both_verdicts: false`). */
  watchExecutor?: Executor;
  /** Builds the arm's updater (its registry entry's, ./updaters.ts). */
  updater: UpdaterFactory;
}

/** Sinks for the arm's logs. */
export interface ArmSinks {
  metrics: KvLogger;
  samples: (line: SampleLine) => void;
  refits: (line: RefitLine) => void;
  /** Lines of the updater's own log (its registry entry's `logFile`: `gate.jsonl` of gated arms). */
  updaterLog?: (line: string) => void;
}

/**
 * Counters and state that go into checkpoints besides weights and the RM (version 2: the
 * settlement window's state is one object; version-1 checkpoints, flat, are read by
 * {@link migrateTrainerState}).
 */
export interface TrainerState {
  version: 2;
  step: number;
  data: ReturnType<DataLoader['getState']>;
  sampleRng: RngState;
  budget: number;
  goldBudget: number;
  /** Recent `monitor/snd_g` values for its rolling mean. */
  sndRecent: (number | null)[];
  /** The settlement window, thermostat and early warning. */
  settlement: SettlementState;
  /**
   * The updater's state, under the key `gate` of earlier checkpoints: gate loop, failure library
   * and memory (gated arms), or the best window's snapshot (rollback, ./rollback.ts).
   */
  gate?: GatedState | RollbackState;
  /** The gold watch's stamps of completions whose samples.jsonl line is not written yet (absent before it existed). */
  watch?: GoldWatchState;
}

/** A version-1 trainer state (checkpoints written before the settlement window was its own object). */
export interface TrainerStateV1 {
  step: number;
  data: ReturnType<DataLoader['getState']>;
  sampleRng: RngState;
  settleRng: RngState;
  window: Claim[];
  budget: number;
  goldBudget: number;
  settleRate: number;
  rmWeight: number;
  refits: number;
  sndRecent?: (number | null)[];
  gate?: GatedState;
  instantCarry?: number;
  baseMean?: number;
  windowD?: number[];
  gao?: SettlementState['gao'];
  gaoReading?: SettlementState['gaoReading'];
  alarm?: SettlementState['alarm'];
}

/**
 * A checkpoint's trainer state as the current version. Version 1 kept the settlement fields flat;
 * fields it predates take the values a fresh start has (`baseMean` and the early warning's base
 * point from the restored RM's label set, via `fresh`).
 */
export function migrateTrainerState(s: TrainerState | TrainerStateV1, fresh: SettlementState): TrainerState {
  if ('version' in s && s.version === 2) return s;
  const v1 = s as TrainerStateV1;
  const baseMean = v1.baseMean ?? fresh.baseMean;
  return {
    version: 2,
    step: v1.step,
    data: v1.data,
    sampleRng: v1.sampleRng,
    budget: v1.budget,
    goldBudget: v1.goldBudget,
    sndRecent: v1.sndRecent ?? [],
    settlement: {
      rng: v1.settleRng,
      window: v1.window,
      rate: v1.settleRate,
      rmWeight: v1.rmWeight,
      refits: v1.refits,
      instantCarry: v1.instantCarry ?? 0,
      baseMean,
      windowD: v1.windowD ?? [],
      gao: v1.gao ?? { base: baseMean, points: [] },
      gaoReading: v1.gaoReading ?? { fired: null, dStar: null },
      alarm: v1.alarm ?? { raised: false, quiet: 0 },
    },
    ...(v1.gate !== undefined ? { gate: v1.gate } : {}),
  };
}

/** One step as it moves through the pipeline (rollout → score → update → sync → settle → log). */
interface StepRecord {
  scored: ScoredRollouts;
  /** Sequence-level KL of the step's completions to the base policy (mean of Σ_t k3, nats). */
  klSeq: number;
  /** The update, with the rewards it was computed from (re-scored if the gate refitted the RM). */
  update: UpdateOutcome;
  settled: number;
  /** Phase end times (performance.now()), from the step's start. */
  t: number[];
  /** Share of the (first round's) groups whose training rewards are all equal. */
  fracZeroStd: number;
  /** What dynamic sampling did (arms with `grpo.dynamic_sampling.enabled`). */
  sampling?: DynamicBatch & { extraRounds: number };
}

/** The arm trainer. Construct, optionally `restore`, then call `step()` until done. */
export class ArmTrainer {
  private readonly data: DataLoader;
  private readonly sampleRng: Rng;
  private budget = 0;
  private goldBudget = 0;
  private readonly sndRolling: RollingMean;
  /** Settlement: the window, its choice, labels and refit, the thermostat and the early warning. */
  readonly settlement: SettlementWindow;
  /** Milliseconds of the current step spent on RM features + predict, and on gold execution (parts of scoring). */
  private phases = { rm: 0, gold: 0 };
  /** Milliseconds the previous step's metrics record took to write (reported in this step's `perf/log_s`). */
  private lastDumpMs = 0;
  /** Process CPU microseconds at the step's start (less the previous record's write, which counts here as in `perf/step_s`). */
  private cpuAtStart = 0;
  private lastDumpCpu = 0;
  /** The conservative ensemble's members, refreshed after every refit (`proxy.ensemble`). */
  private ensemble: { committee: Committee; refits: number; labels: number } | undefined;
  private readonly rewardSource: RewardSource;
  /** How the arm's updates are applied: plain, or through the pre-action gate (gated arms). */
  readonly updater: Updater;
  /** Both verdicts, canaries and provenance stamps (./gold-watch.ts). */
  private readonly watch: GoldWatch;
  /** Milliseconds this step waited for the watch before settlement (moved from perf/settle_s to perf/log_s). */
  private watchWaitMs = 0;
  /** Hash of the policy weights that sample the next step (recomputed after an applied update). */
  private weights: string | undefined;
  /** Steps completed. */
  stepsDone = 0;

  constructor(
    private readonly c: ArmComponents,
    private readonly sinks: ArmSinks,
  ) {
    // All arms share the seed, hence data order and sampling streams at step 0.
    const seed = c.config.seed;
    this.data = new DataLoader(c.train.length, seed);
    this.sampleRng = new Rng(seed).fork('rollout');
    this.rewardSource = REWARD_SOURCES[c.arm.reward];
    this.sndRolling = new RollingMean(c.config.metrics.snd_window);
    // Weighted refits (ridge RMs): on-policy weight, recency half-life, pairwise objective.
    const st = c.config.settlement;
    const weighted = st.label_weight !== 1 || st.half_life !== null || st.objective === 'pairwise';
    if (weighted && !c.rm.setWeighting) {
      throw new AnchorError(
        'BAD_CONFIG',
        `settlement.label_weight/half_life/objective: weighted refits need a ridge reward model, got ${c.rm.kind}`,
      );
    }
    c.rm.setWeighting?.({
      onPolicy: st.label_weight,
      halfLife: st.half_life,
      pairwise: st.objective === 'pairwise' ? st.pairwise_weight : 0,
    });
    this.updater = c.updater({
      config: c.config,
      parts: this.updateParts(),
      rm: c.rm,
      features: c.features,
      executor: c.executor,
      writeLine: sinks.updaterLog ?? (() => {}),
      charge: (n) => (this.budget += n),
      reward: async (s) => this.rewardSource.reward(s, this.rewardContext()),
      // An updater that restores earlier weights (rollback) serves them to the next rollout.
      syncWeights: async () => {
        await c.engine.updateWeights(c.policy.getWeights());
        this.weights = undefined;
      },
    });
    this.settlement = new SettlementWindow({
      settlement: c.config.settlement,
      rng: new Rng(seed).fork('settlement'),
      train: c.train,
      rm: c.rm,
      features: c.features,
      labels: c.arm.labels ? LABEL_SOURCES[c.arm.labels] : undefined,
      instant: this.rewardSource.settlesInstantly,
      judge: c.judge,
      execute: (ps, ts) => this.execute(ps, ts),
      charge: (n) => (this.budget += n),
      updater: this.updater,
      disagreement: (claims, rng) =>
        committeeDisagreement(
          c.rm,
          runRewardModelConfig(c.config),
          claims.map((cl) => c.features.extract(cl.text, c.train[cl.problem]!.prompt)),
          rng,
          { members: c.config.settlement.committee.members },
        ),
      // The ensemble's members follow the refit; rebuilt here so their cost counts as settlement.
      afterRefit: async () => {
        if (c.config.proxy.ensemble.members > 0) await this.ensembleCommittee();
      },
      // The window's RM quality (measured before its refit) is also a metric of the step that closes it.
      refits: (line) => {
        sinks.metrics.record(K.rmPairAcc, line.pairAcc ?? null);
        sinks.metrics.record(K.rmAuc, line.auc ?? null);
        sinks.refits(line);
      },
      // Each line carries its provenance stamps and both verdicts.
      samples: (line) => sinks.samples({ ...line, ...this.watch.sampleFields(line.step, line.index) }),
    });
    this.watch = new GoldWatch({
      seed,
      groupSize: c.config.grpo.group_size,
      verdict: c.config.sandbox.verdict,
      canaries: c.config.canaries,
      executor: c.executor,
      other: c.watchExecutor,
      harness: harnessHash(),
    });
  }

  /** Total steps configured. */
  get totalSteps(): number {
    return this.c.config.grpo.steps;
  }

  /** One GRPO step; returns the metrics record it logged. */
  async step(): Promise<Record<string, unknown>> {
    const cfg = this.c.config;
    const G = cfg.grpo.group_size;
    this.phases = { rm: 0, gold: 0 };
    this.cpuAtStart = cpuMicros() - this.lastDumpCpu;
    const t = [performance.now()];
    this.weights ??= weightsHash(this.c.policy.getWeights());
    this.watch.beginStep(this.stepsDone, this.weights, this.c.rm, this.settlement.refits);
    const rollout = await this.rolloutStep();
    t.push(performance.now());
    const first = await this.scoreRound(rollout);
    const zeroStd = zeroStdGroups(first.shaped, G);
    // Dynamic sampling (DAPO): rounds of fresh prompts until every group of the batch has signal.
    const ds = cfg.grpo.dynamic_sampling;
    const sampling = ds.enabled
      ? await collectGroups(first, async () => this.scoreRound(await this.rolloutStep()), {
          groups: cfg.grpo.prompts_per_step,
          groupSize: G,
          maxRounds: ds.max_rounds,
        })
      : undefined;
    const { scored, rewards } = sampling ?? first;
    // The second verdict and the canaries run while the policy updates (awaited when logging).
    this.watch.observe(scored.step, scored.problems, scored.texts, scored.results);
    t.push(performance.now());
    const batch = prepareUpdate(this.updateParts(), scored);
    const update = await this.updater.update(batch, rewards);
    t.push(performance.now());
    // The engine serves the updated policy (unchanged if nothing was committed).
    if (update.applied) {
      await this.c.engine.updateWeights(this.c.policy.getWeights());
      this.weights = undefined;
    }
    t.push(performance.now());
    const klSeq = sequenceKl(batch);
    // The window's samples.jsonl lines carry both verdicts: the watch's executions finish first
    // (the wait is reported as perf/watch_s inside perf/log_s, not as settlement).
    this.watchWaitMs = await this.watch.drain();
    // Instantly settled completions of groups dynamic sampling left out still refit the RM.
    const offBatch = (sampling?.offBatch ?? []).flatMap((b) =>
      this.claimsOf(b.scored, b.rewards)
        .filter((c) => c.label !== undefined)
        .map(({ group: _g, ...c }) => ({ ...c, offBatch: true })),
    );
    const settled = await this.settlement.add(
      scored.step,
      [...this.claimsOf(scored, rewards), ...offBatch],
      Math.sqrt(klSeq),
      scored.step + 1 === this.totalSteps,
    );
    t.push(performance.now());
    const fracZeroStd = zeroStd.filter(Boolean).length / zeroStd.length;
    const record = await this.logStep({ scored, klSeq, update, settled, t, fracZeroStd, sampling });
    this.stepsDone = scored.step + 1;
    return record;
  }

  /** Rollout: P prompts, G completions each, from the current weights. */
  private async rolloutStep(): Promise<Rollouts> {
    const cfg = this.c.config;
    const G = cfg.grpo.group_size;
    const promptIdx = this.data.next(cfg.grpo.prompts_per_step);
    const problems = promptIdx.flatMap((i) => Array<Problem>(G).fill(this.c.train[i]!));
    const completions = await this.rollout(problems, this.sampleRng);
    return { step: this.stepsDone, promptIdx, problems, completions, texts: completions.map((c) => c.text) };
  }

  /** Score a round of rollouts and take the arm's training reward (and its shaped form, which advantages see). */
  private async scoreRound(r: Rollouts): Promise<SampledRound> {
    const scored = await this.score(r);
    const rewards = await this.rewardSource.reward(scored, this.rewardContext());
    return {
      scored,
      rewards,
      shaped: shapedRewards(this.c.config.grpo, this.c.config.policy.sampling, rewards.values, scored.completions),
    };
  }

  /** Score: the RM's proxy for every completion, and gold where executed. */
  private async score(r: Rollouts): Promise<ScoredRollouts> {
    const { problems, texts } = r;
    const cfg = this.c.config;
    const t0 = performance.now();
    const features = texts.map((t, i) => this.c.features.extract(t, problems[i]!.prompt));
    const proxy = await this.c.rm.predict(features);
    const t1 = performance.now();
    // Gold: executed for the metrics, or because the reward is execution (then it is budget).
    const executes = this.rewardSource.executesRollouts;
    const results = cfg.metrics.gold === 'all' || executes ? await this.execute(problems, texts) : undefined;
    this.phases.rm += t1 - t0;
    this.phases.gold += performance.now() - t1;
    const gold = results ? results.map((r, i) => goldOf(r, problems[i]!)) : texts.map(() => null);
    if (executes) this.budget += texts.length;
    else if (results) this.goldBudget += texts.length;
    return { ...r, features, proxy, results, gold };
  }

  private updateParts(): UpdateParts {
    const c = this.c;
    return {
      grpo: c.config.grpo,
      sampling: c.config.policy.sampling,
      policy: c.policy,
      reference: c.reference,
      optimizer: c.optimizer,
      padId: c.tokenizer.padId,
    };
  }

  private rewardContext(): RewardContext {
    const cfg = this.c.config;
    const par = cfg.proxy.par;
    const centre = par.centre ?? this.settlement.baseMean;
    const shape = (r: ArrayLike<number>): number[] => Array.from(par.enabled ? parShape(r, centre, par.scale) : r);
    return {
      rmWeight: this.settlement.rmWeight,
      rmShare: cfg.proxy.weight,
      silenced: cfg.proxy.silenced,
      rmReward: async (s) => {
        const e = cfg.proxy.ensemble;
        if (e.members === 0) return shape(s.proxy);
        const committee = await this.ensembleCommittee();
        return shape(conservativeReward(await committee.predict(s.features), e.mode, e.lambda));
      },
      shapeGold: (g) => shape([g])[0]!,
      instantChoice: (s) => this.settlement.instantChoice(this.claimsOf(s)),
      execute: async (problems, texts) => (await this.execute(problems, texts)).map((r, i) => goldOf(r, problems[i]!)),
      charge: (n) => (this.budget += n),
    };
  }

  /**
   * The conservative ensemble (`proxy.ensemble`): bootstrap members of the RM, rebuilt after each
   * refit — the window's, or an updater's (a gate's MODIFY) — from a stream forked by the window's
   * refit count (so a resumed run rebuilds the same members).
   */
  private async ensembleCommittee(): Promise<Committee> {
    const refits = this.settlement.refits;
    const labels = this.c.rm.labelCount;
    if (this.ensemble?.refits !== refits || this.ensemble.labels !== labels) {
      this.ensemble?.committee.dispose();
      const rng = new Rng(this.c.config.seed).fork(`ensemble-${refits}`);
      const committee = await buildCommittee(this.c.rm, runRewardModelConfig(this.c.config), rng, {
        members: this.c.config.proxy.ensemble.members,
      });
      this.ensemble = { committee, refits, labels };
    }
    return this.ensemble.committee;
  }

  /** The step's completions as settlement claims (with the labels of those its reward source settled). */
  private claimsOf(s: ScoredRollouts, rewards?: Rewards): Claim[] {
    const { group_size: G, prompts_per_step: P } = this.c.config.grpo;
    const claims = stepClaims(s, G, P);
    for (const { index, label } of rewards?.settled ?? []) claims[index]!.label = label;
    return claims;
  }

  /** Metrics of the step (and the held-out evaluation when due); returns the logged record. */
  private async logStep(r: StepRecord): Promise<Record<string, unknown>> {
    const cfg = this.c.config;
    const log = this.sinks.metrics;
    const { proxy, gold, completions, step } = r.scored;
    const mean = (xs: ArrayLike<number>) => (xs.length ? Array.from(xs).reduce((a, b) => a + b, 0) / xs.length : 0);
    const goldVals = gold.filter((g): g is number => g !== null);
    const proxyMean = mean(proxy);
    const goldMean = goldVals.length ? mean(goldVals) : null;
    // Entropy estimate: mean −log π of the sampled tokens (unbiased for the sampling policy).
    let entSum = 0;
    let entN = 0;
    for (const c of completions) for (const lp of c.logprobs) (entSum -= lp), entN++;
    const last = r.update.results.at(-1)!;
    log.record(K.proxy, proxyMean);
    log.record(K.gold, goldMean);
    log.record(K.gap, goldMean === null ? null : proxyMean - goldMean);
    const snd = withinGroupSoundness(proxy, gold, cfg.grpo.group_size);
    log.record(K.sndG, snd);
    log.record(K.sndGRolling, this.sndRolling.push(snd));
    log.record(K.train, mean(r.update.rewards.values.filter((v): v is number => v !== null)));
    log.record(K.fracZeroStd, r.fracZeroStd);
    log.record(K.kl, r.update.kl);
    log.recordAll(r.update.grpoMetrics);
    if (r.sampling) {
      log.record(K.extraRounds, r.sampling.extraRounds);
      log.record(K.droppedGroups, r.sampling.dropped);
      log.record(K.filledGroups, r.sampling.filled);
    }
    log.record(K.klSeq, r.klSeq);
    log.record(K.klSqrt, Math.sqrt(r.klSeq));
    if (this.settlement.refitsRm) {
      const reading = this.settlement.gaoReading;
      log.record(K.alarmGao, reading.fired === null ? null : Number(reading.fired));
      log.record(K.alarmGaoPeak, reading.dStar);
    }
    log.record(K.entropy, entN ? entSum / entN : 0);
    log.record(K.length, mean(completions.map((c) => c.tokenIds.length)));
    log.record(K.loss, last.loss);
    log.record(K.clipFraction, r.update.clipFraction);
    log.record(K.gradNorm, last.gradNorm);
    log.record(K.lr, last.lr);
    log.record(K.settled, r.settled);
    log.record(K.settleRate, this.settlement.rate);
    const gate = this.settlement.rmGateClosed;
    if (cfg.settlement.adaptive.enabled || gate !== null || cfg.settlement.rollback.enabled)
      log.record(K.rmWeight, this.settlement.rmWeight);
    if (gate !== null) log.record(K.rmGate, Number(gate));
    log.recordAll(r.update.metrics());
    log.record(K.budget, this.budget);
    log.record(K.goldBudget, this.goldBudget);
    log.recordAll(await this.watch.stepMetrics());
    let evalMs = 0;
    if (cfg.eval.every > 0 && ((step + 1) % cfg.eval.every === 0 || step + 1 === this.totalSteps)) {
      const e0 = performance.now();
      log.recordAll(await this.evaluate());
      evalMs = performance.now() - e0;
    }
    // --- the step's phase times (seconds) ---
    const [t0, t1, t2, t3, t4, t5] = r.t as [number, number, number, number, number, number];
    const now = performance.now();
    log.record(K.rolloutSeconds, (t1 - t0) / 1000);
    log.record(K.rewardSeconds, (t2 - t1) / 1000);
    log.record(K.rewardRmSeconds, this.phases.rm / 1000);
    log.record(K.rewardGoldSeconds, this.phases.gold / 1000);
    log.record(K.trainSeconds, (t3 - t2) / 1000);
    log.record(K.syncSeconds, (t4 - t3) / 1000);
    log.record(K.settleSeconds, (t5 - t4 - this.watchWaitMs) / 1000);
    log.record(K.logSeconds, (now - t5 - evalMs + this.lastDumpMs + this.watchWaitMs) / 1000);
    log.record(K.evalSeconds, evalMs / 1000);
    log.record(K.stepSeconds, (now - t0 + this.lastDumpMs) / 1000);
    const c0 = cpuMicros();
    log.record(K.cpuSeconds, (c0 - this.cpuAtStart) / 1e6);
    const d0 = performance.now();
    const record = log.dump(step);
    this.lastDumpMs = performance.now() - d0;
    this.lastDumpCpu = cpuMicros() - c0;
    return record;
  }

  /** Sample G completions per problem through the ORT engine. */
  private rollout(problems: Problem[], rng: Rng, temperature?: number): Promise<Completion[]> {
    const s = this.c.config.policy.sampling;
    return this.c.engine.generate(
      problems.map((p) => p.prompt),
      {
        temperature: temperature ?? s.temperature,
        topP: s.top_p,
        topK: s.top_k,
        maxNewTokens: s.max_new_tokens,
        stop: problems[0]?.stopTokens ?? [],
        rng,
      },
    );
  }

  private execute(problems: readonly Problem[], texts: readonly string[]): Promise<ExecResult[]> {
    // Results that are not verdicts (the host gave up) are run again rather than read as gold 0.
    // Each step is its own draw of the problems' random sources and clocks (ProgramSpec.draw).
    return runVerdicts(
      this.c.executor,
      texts.map((t, i) => problemProgram(problems[i]!, t, `${problems[i]!.id}#${i}`, this.stepsDone)),
    );
  }

  /** Held-out pass rates: greedy (one completion) and sampled (eval.samples per problem). */
  private async evaluate(): Promise<Record<string, number | null>> {
    const cfg = this.c.config;
    const probs = this.c.evalProblems.slice(0, cfg.eval.problems);
    if (probs.length === 0) return {};
    const rng = new Rng(cfg.seed).fork(`eval-${this.stepsDone}`);
    const greedy = await this.rollout(probs, rng, 0);
    const gRes = await this.execute(
      probs,
      greedy.map((c) => c.text),
    );
    const sProbs = probs.flatMap((p) => Array<Problem>(cfg.eval.samples).fill(p));
    const sampled = await this.rollout(sProbs, rng);
    const sRes = await this.execute(
      sProbs,
      sampled.map((c) => c.text),
    );
    const passRate = (rs: ExecResult[]) => rs.filter((r) => r.status === 'pass').length / rs.length;
    const watched = await this.watch.evalMetrics(
      this.stepsDone,
      probs,
      greedy.map((c) => c.text),
      gRes,
    );
    return { [K.evalGreedy]: passRate(gRes), [K.evalSampled]: passRate(sRes), ...watched };
  }

  /** State for a checkpoint (weights, optimizer and RM are saved by the caller). */
  getState(): TrainerState {
    const gate = this.updater.getState();
    return {
      version: 2,
      step: this.stepsDone,
      data: this.data.getState(),
      sampleRng: this.sampleRng.getState(),
      budget: this.budget,
      goldBudget: this.goldBudget,
      sndRecent: this.sndRolling.getState(),
      settlement: this.settlement.getState(),
      watch: this.watch.getState(),
      ...(gate !== undefined ? { gate: gate as GatedState | RollbackState } : {}),
    };
  }

  /** Restore a state from {@link getState} (or a version-1 checkpoint's). */
  setState(state: TrainerState | TrainerStateV1): void {
    const s = migrateTrainerState(state, this.settlement.getState());
    this.stepsDone = s.step;
    this.data.setState(s.data);
    this.sampleRng.setState(s.sampleRng);
    this.budget = s.budget;
    this.goldBudget = s.goldBudget;
    this.sndRolling.setState(s.sndRecent);
    this.settlement.setState(s.settlement);
    this.watch.setState(s.watch);
    this.updater.setState(s.gate);
  }
}

/** Sequence-level KL(π_old‖π_base) of a step: the mean over completions of Σ_t k3 (nats). */
/** CPU time of this process so far (user + system, all threads), µs. */
function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function sequenceKl(b: Pick<UpdateBatch, 'ref' | 'oldLogp'>): number {
  const { batch: B, completionLength: C, logProbs: ref, mask } = b.ref;
  if (B === 0) return 0;
  let total = 0;
  for (let r = 0; r < B; r++)
    for (let j = 0; j < C; j++) if (mask[r * C + j]) total += k3(b.oldLogp[r * C + j]!, ref[r * C + j]!);
  return total / B;
}
