/**
 * One arm's training loop: the GRPO step with settlement windows (docs/design.md, "One settlement
 * epoch"). Every arm runs this same code; what differs is data — the arm's reward source
 * (./reward-sources.ts), refit-label source (./label-sources.ts) and updater (./update.ts, or the
 * gate of ./gated-step.ts), and its config overlay.
 *
 * The step is a forward pipeline over one step record: rollout → score (RM proxy, gold where
 * executed, the reward source's training reward) → update → weight sync → settlement at the
 * window end → metrics and samples. Checkpoints are the caller's (./arm-runner.ts).
 */
import type { Problem } from '../datasets/problem.ts';
import type { RunConfig } from '../config/run-config.ts';
import type { Completion } from '../policy/engine/types.ts';
import type { OnnxRolloutEngine } from '../policy/engine/rollout-engine.ts';
import type { PolicyModel } from '../policy/policy-model.ts';
import type { AdamOptimizer } from '../policy/optimizer.ts';
import type { Tokenizer } from '../policy/tokenizer/index.ts';
import type { FeatureExtractor } from '../reward/features/types.ts';
import type { Judge } from '../reward/judges/types.ts';
import { buildCommittee, committeeDisagreement, type Committee } from '../reward/models/committee.ts';
import type { RewardModel } from '../reward/models/types.ts';
import { rankingQuality } from '../reward/models/ranking-quality.ts';
import { problemProgram } from '../sandbox/programs.ts';
import type { Executor, ExecResult } from '../sandbox/types.ts';
import { spearmanOrNull } from '../util/correlation.ts';
import { AnchorError } from '../util/errors.ts';
import { Rng, type RngState } from '../util/rng.ts';
import type { ArmSpec } from './arms.ts';
import { DataLoader } from './data.ts';
import { collectGroups, type DynamicBatch, type SampledRound } from './dynamic-sampling.ts';
import { type AlarmState, GaoWarning, type GaoWarningState, nextAlarm } from './early-warning.ts';
import { k3 } from './grpo.ts';
import { conservativeReward, parShape } from './proxy-reward.ts';
import { GatedStep, resolveGateConfig, type GatedState } from './gated-step.ts';
import { goldOf } from './gold.ts';
import { LABEL_SOURCES, type LabelSource } from './label-sources.ts';
import { RollingMean, withinGroupSoundness } from './monitor.ts';
import { zeroStdGroups } from './grpo.ts';
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
import { SETTLEMENT_STRATEGIES, instantCount, settleCount, type Claim, type SelectionContext } from './settlement.ts';
import {
  PlainUpdater,
  prepareUpdate,
  shapedRewards,
  type UpdateBatch,
  type UpdateOutcome,
  type UpdateParts,
  type Updater,
} from './update.ts';

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
}

/** Sinks for the arm's logs. */
export interface ArmSinks {
  metrics: KvLogger;
  samples: (line: SampleLine) => void;
  refits: (line: RefitLine) => void;
  /** `gate.jsonl` lines (gated arms). */
  gate?: (line: string) => void;
}

/** Counters and state that go into checkpoints besides weights and the RM. */
export interface TrainerState {
  step: number;
  data: ReturnType<DataLoader['getState']>;
  sampleRng: RngState;
  settleRng: RngState;
  window: Claim[];
  budget: number;
  goldBudget: number;
  settleRate: number;
  /** Multiplier on RM-reward advantages (< 1 while adaptive settlement is alarmed). */
  rmWeight: number;
  refits: number;
  /** Recent `monitor/snd_g` values for its rolling mean (absent in checkpoints before it existed). */
  sndRecent?: (number | null)[];
  /** Gate loop, failure library and memory (gated arms). */
  gate?: GatedState;
  /** Instant settlement's owed fraction of a completion (absent before it existed: 0). */
  instantCarry?: number;
  /** Mean label of the initial base-policy label set (PAR's default centre, the early warning's base point). */
  baseMean?: number;
  /** √KL of each step of the open window (for the window's point of the early warning). */
  windowD?: number[];
  /** The settled-label early warning. */
  gao?: GaoWarningState;
  /**
   * Its last reading, logged on every step until the next window closes (absent before it was
   * checkpointed: null, as at a fresh start).
   */
  gaoReading?: GaoReadingLog;
  /** Adaptive settlement's alarm: raised, and quiet refits since (absent before it was checkpointed: not raised). */
  alarm?: AlarmState;
}

/** The early warning's last reading as the step log reports it (`alarm/gao`, `alarm/gao_dstar`). */
interface GaoReadingLog {
  fired: boolean | null;
  dStar: number | null;
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
  private readonly settleRng: Rng;
  private window: Claim[] = [];
  private budget = 0;
  private goldBudget = 0;
  private settleRate: number;
  private rmWeight = 1;
  private refits = 0;
  private readonly sndRolling: RollingMean;
  private instantCarry = 0;
  private readonly baseMean: { value: number };
  private windowD: number[] = [];
  private readonly gao = new GaoWarning();
  private gaoReading: GaoReadingLog = { fired: null, dStar: null };
  private alarm: AlarmState = { raised: false, quiet: 0 };
  /** Milliseconds of the current step spent on RM features + predict, and on gold execution (parts of scoring). */
  private phases = { rm: 0, gold: 0 };
  /** Milliseconds the previous step's metrics record took to write (reported in this step's `perf/log_s`). */
  private lastDumpMs = 0;
  /** The conservative ensemble's members, refreshed after every refit (`proxy.ensemble`). */
  private ensemble: { committee: Committee; refits: number } | undefined;
  private readonly rewardSource: RewardSource;
  private readonly labelSource: LabelSource | undefined;
  /** How the arm's updates are applied: plain, or through the pre-action gate (gated arms). */
  readonly updater: Updater;
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
    this.settleRng = new Rng(seed).fork('settlement');
    this.rewardSource = REWARD_SOURCES[c.arm.reward];
    this.labelSource = c.arm.labels ? LABEL_SOURCES[c.arm.labels] : undefined;
    this.settleRate = this.labelSource ? c.config.settlement.rate : 0;
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
    // At a fresh start the RM holds only the base-policy labels (restored from the checkpoint on resume).
    const ys = c.rm.labelSet().y;
    this.baseMean = { value: ys.reduce((a, v) => a + v, 0) / Math.max(1, ys.length) };
    this.gao.setBase(this.baseMean.value);
    this.updater = c.arm.gate
      ? new GatedStep({
          ...this.updateParts(),
          gate: resolveGateConfig(c.config.gate, c.config.settlement.rate),
          rm: c.rm,
          features: c.features,
          executor: c.executor,
          writeLine: sinks.gate ?? (() => {}),
          onExecuted: (n) => (this.budget += n),
        })
      : new PlainUpdater(this.updateParts());
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
    const t = [performance.now()];
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
    t.push(performance.now());
    const batch = prepareUpdate(this.updateParts(), scored);
    const update = await this.updater.update(batch, rewards);
    t.push(performance.now());
    // The engine serves the updated policy (unchanged if nothing was committed).
    if (update.applied) await this.c.engine.updateWeights(this.c.policy.getWeights());
    t.push(performance.now());
    const klSeq = sequenceKl(batch);
    this.windowD.push(Math.sqrt(klSeq));
    const settled = await this.settleStep(scored, rewards);
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
    const centre = par.centre ?? this.baseMean.value;
    const shape = (r: ArrayLike<number>): number[] => Array.from(par.enabled ? parShape(r, centre, par.scale) : r);
    return {
      rmWeight: this.rmWeight,
      rmShare: cfg.proxy.weight,
      rmReward: async (s) => {
        const e = cfg.proxy.ensemble;
        if (e.members === 0) return shape(s.proxy);
        const committee = await this.ensembleCommittee();
        return shape(conservativeReward(await committee.predict(s.features), e.mode, e.lambda));
      },
      shapeGold: (g) => shape([g])[0]!,
      instantChoice: async (s) => {
        const { k, carry } = instantCount(s.texts.length, this.updater.settlementRate(this.settleRate), this.instantCarry);
        const chosen =
          k > 0
            ? await SETTLEMENT_STRATEGIES[cfg.settlement.strategy].select(
                this.claimsOf(s),
                k,
                this.settleRng,
                this.selectionContext(),
              )
            : [];
        // A strategy may settle more than k (`groups`: a whole group); the excess is owed back, so
        // the total stays σ of the rollouts to within one group.
        this.instantCarry = carry + k - chosen.length;
        return chosen;
      },
      execute: async (problems, texts) => (await this.execute(problems, texts)).map((r, i) => goldOf(r, problems[i]!)),
      charge: (n) => (this.budget += n),
    };
  }

  /**
   * The conservative ensemble (`proxy.ensemble`): bootstrap members of the RM, rebuilt after each
   * refit from a stream forked by the refit count (so a resumed run rebuilds the same members).
   */
  private async ensembleCommittee(): Promise<Committee> {
    if (this.ensemble?.refits !== this.refits) {
      this.ensemble?.committee.dispose();
      const rng = new Rng(this.c.config.seed).fork(`ensemble-${this.refits}`);
      const committee = await buildCommittee(this.c.rm, this.c.config.reward_model, rng, {
        members: this.c.config.proxy.ensemble.members,
      });
      this.ensemble = { committee, refits: this.refits };
    }
    return this.ensemble.committee;
  }

  /** The step's completions as settlement claims. */
  private claimsOf(s: ScoredRollouts): Claim[] {
    const cfg = this.c.config;
    const G = cfg.grpo.group_size;
    return s.completions.map((c, i) => ({
      step: s.step,
      index: i,
      problem: s.promptIdx[Math.floor(i / G)]!,
      text: s.texts[i]!,
      proxy: s.proxy[i]!,
      gold: s.gold[i] ?? null,
      tokens: c.tokenIds.length,
      group: s.step * cfg.grpo.prompts_per_step + Math.floor(i / G),
      ...(s.results?.[i]?.status !== undefined ? { status: s.results[i]!.status } : {}),
    }));
  }

  /** Add the step to the settlement window; settle at the window end (or when the updater needs evidence). */
  private async settleStep(s: ScoredRollouts, rewards: Rewards): Promise<number> {
    const cfg = this.c.config;
    const claims = this.claimsOf(s);
    for (const { index, label } of rewards.settled ?? []) claims[index]!.label = label;
    this.window.push(...claims);
    // A gated arm without enough settled evidence for its gate settles every step.
    if ((s.step + 1) % cfg.settlement.every === 0 || this.updater.needsEvidence()) return this.settle(s.step);
    if (s.step + 1 === this.totalSteps) {
      this.flushSamples(this.window, new Map()); // a last partial window is never settled
      this.window = [];
    }
    return 0;
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
    if (this.labelSource) {
      log.record(K.alarmGao, this.gaoReading.fired === null ? null : Number(this.gaoReading.fired));
      log.record(K.alarmGaoPeak, this.gaoReading.dStar);
    }
    log.record(K.entropy, entN ? entSum / entN : 0);
    log.record(K.length, mean(completions.map((c) => c.tokenIds.length)));
    log.record(K.loss, last.loss);
    log.record(K.clipFraction, r.update.clipFraction);
    log.record(K.gradNorm, last.gradNorm);
    log.record(K.lr, last.lr);
    log.record(K.settled, r.settled);
    log.record(K.settleRate, this.updater.settlementRate(this.settleRate));
    if (cfg.settlement.adaptive.enabled) log.record(K.rmWeight, this.rmWeight);
    log.recordAll(r.update.metrics());
    log.record(K.budget, this.budget);
    log.record(K.goldBudget, this.goldBudget);
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
    log.record(K.settleSeconds, (t5 - t4) / 1000);
    log.record(K.logSeconds, (now - t5 - evalMs + this.lastDumpMs) / 1000);
    log.record(K.evalSeconds, evalMs / 1000);
    log.record(K.stepSeconds, (now - t0 + this.lastDumpMs) / 1000);
    const d0 = performance.now();
    const record = log.dump(step);
    this.lastDumpMs = performance.now() - d0;
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
    return this.c.executor.run(texts.map((t, i) => problemProgram(problems[i]!, t, `${problems[i]!.id}#${i}`)));
  }

  /**
   * Settle σ of the window: execute (or judge) the claims the arm's strategy chooses, measure
   * drift and rank agreement with the RM as it stands, append the labels and refit. Arms without
   * a label source only record the monitoring drift against gold (when gold is known) and never
   * refit. The window's samples.jsonl lines are written here, when their settled flag and judge
   * score are final. Returns the number of claims settled.
   */
  private async settle(step: number): Promise<number> {
    const cfg = this.c.config;
    const claims = this.window;
    this.window = [];
    const windowD = this.windowD.reduce((a, v) => a + v, 0) / Math.max(1, this.windowD.length);
    this.windowD = [];
    const golds = claims.filter((c) => c.gold !== null);
    const windowGap = golds.length ? golds.reduce((a, c) => a + c.proxy - c.gold!, 0) / golds.length : null;
    const rate = this.updater.settlementRate(this.settleRate);
    if (!this.labelSource || rate <= 0) {
      // Monitoring only: how far the (frozen) RM is from reality on this window.
      const driftGold = golds.length ? golds.reduce((a, c) => a + Math.abs(c.proxy - c.gold!), 0) / golds.length : null;
      const rank = spearmanOrNull(
        golds.map((c) => c.proxy),
        golds.map((c) => c.gold!),
      );
      const quality = this.recordRmQuality(
        golds.map((c) => c.proxy),
        golds.map((c) => c.gold!),
        golds.map((c) => c.group ?? -1),
      );
      this.sinks.refits({
        step,
        labels: this.c.rm.labelCount,
        newLabels: 0,
        drift: driftGold ?? 0,
        driftGold,
        judgeLabelError: null,
        gap: windowGap,
        rank,
        ...quality,
        strategy: null,
        fit: {},
        refit: false,
      });
      this.flushSamples(claims, new Map());
      return 0;
    }
    // Instant settlement (hybrid reward) settled its claims as they were rolled out: refit on
    // exactly those; otherwise the strategy chooses σ of the window now.
    const instant = claims.filter((c) => c.label !== undefined);
    const chosen = instant.length
      ? instant
      : (
          await SETTLEMENT_STRATEGIES[cfg.settlement.strategy].select(
            claims,
            settleCount(claims.length, rate),
            this.settleRng,
            this.selectionContext(),
          )
        ).map((i) => claims[i]!);
    const problems = chosen.map((c) => this.c.train[c.problem]!);
    const texts = chosen.map((c) => c.text);

    // Labels from the arm's label source (executed for anchored arms, judged for the judge arm).
    const {
      labels,
      gold: goldOfChosen,
      results,
      judged,
    } = instant.length
      ? { labels: instant.map((c) => c.label!), gold: instant.map((c) => c.label!), results: undefined, judged: false }
      : await this.labelSource.label(chosen, problems, {
          execute: (ps, ts) => this.execute(ps, ts),
          charge: (n) => (this.budget += n),
          judge: this.c.judge,
        });
    const keep = chosen.map((_, i) => i).filter((i) => labels[i] !== null);
    const X = keep.map((i) => this.c.features.extract(texts[i]!, problems[i]!.prompt));
    const y = keep.map((i) => labels[i]!);
    // Drift before the refit: the RM as it stands, on the new claims.
    const before = X.length ? await this.c.rm.predict(X) : new Float32Array();
    const drift = y.length ? y.reduce((a, v, j) => a + Math.abs(before[j]! - v), 0) / y.length : 0;
    const rank = spearmanOrNull(before, y);
    const quality = this.recordRmQuality(
      before,
      y,
      keep.map((i) => chosen[i]!.group ?? -1),
    );
    const goldKnown = keep.filter((i) => goldOfChosen[i] !== null);
    const driftGold = goldKnown.length
      ? goldKnown.reduce((a, i) => a + Math.abs(before[keep.indexOf(i)]! - goldOfChosen[i]!), 0) / goldKnown.length
      : null;
    const judgeLabelError =
      judged && goldKnown.length
        ? goldKnown.reduce((a, i) => a + Math.abs(labels[i]! - goldOfChosen[i]!), 0) / goldKnown.length
        : null;
    // The updater (the gate) learns from the settled gaps under the RM that priced them (before the refit).
    await this.updater.settled(
      keep.map((i, j) => ({
        ...chosen[i]!,
        problem: problems[i]!,
        x: X[j]!,
        gold: y[j]!,
        proxy: before[j]!,
        result: results?.[i],
      })),
    );
    // The refit: labels carry their window (recency weights) and group (pairwise objective).
    const r0 = performance.now();
    if (X.length) await this.c.rm.refit(X, y, { window: this.refits, groups: keep.map((i) => chosen[i]!.group ?? -1) });
    // The refit's own wall time (its share of the arm's time is the RM's cost; docs/reward.md).
    const refitSeconds = (performance.now() - r0) / 1000;
    this.refits++;
    // The ensemble's members follow the refit; rebuilt here so their cost counts as settlement.
    if (cfg.proxy.ensemble.members > 0) await this.ensembleCommittee();
    // The settled-label early warning: this window's point (√KL, mean settled label).
    const reading =
      !judged && y.length ? this.gao.push(windowD, y.reduce((a, v) => a + v, 0) / y.length) : { fired: null, fit: null };
    this.gaoReading = { fired: reading.fired, dStar: reading.fit?.dStar ?? null };
    const after = X.length ? await this.c.rm.predict(X) : new Float32Array();
    const fitMse = y.length ? y.reduce((a, v, j) => a + (after[j]! - v) ** 2, 0) / y.length : 0;
    // The window's √KL and, once fitted, the early warning's curve (gao_dstar only when it turns over).
    const gao: Record<string, number> = { d: windowD };
    if (reading.fit)
      Object.assign(
        gao,
        { gao_alpha: reading.fit.alpha, gao_beta: reading.fit.beta, gao_fired: Number(reading.fired) },
        reading.fit.dStar !== null ? { gao_dstar: reading.fit.dStar } : {},
      );
    this.sinks.refits({
      step,
      labels: this.c.rm.labelCount,
      newLabels: X.length,
      drift,
      driftGold,
      judgeLabelError,
      gap: windowGap,
      rank,
      ...quality,
      strategy: instant.length ? 'instant' : cfg.settlement.strategy,
      fit: { new_mse: fitMse, refit_seconds: refitSeconds, ...gao },
      refit: true,
    });

    // Adaptive settlement: an alarm (drift above τ, or the settled-label early warning) raises σ
    // and damps the RM reward for the next window; it is released after `release` quiet refits in
    // a row (never when null), so one noisy reading does not hand the policy back to the RM.
    const a = cfg.settlement.adaptive;
    if (a.enabled) {
      const fired = a.signal === 'gao' ? reading.fired === true : drift > a.tau;
      this.alarm = nextAlarm(this.alarm, fired, a.release);
      if (this.alarm.raised) {
        this.settleRate = Math.min(a.max_rate, this.settleRate * a.growth);
        this.rmWeight = a.rm_weight;
      } else {
        this.settleRate = cfg.settlement.rate;
        this.rmWeight = 1;
      }
    }
    // samples.jsonl: the judge's score is what the judge arm labelled its settled claims with.
    this.flushSamples(claims, new Map(chosen.map((c, i) => [c, judged ? labels[i]! : null])));
    return chosen.length;
  }

  /**
   * The RM's ranking quality on a window's labels it has not been fitted on; logged as metrics
   * on the step that closes the window (`rm/pair_acc`, `rm/auc`) and returned for its refits line.
   */
  private recordRmQuality(
    scores: ArrayLike<number>,
    labels: readonly number[],
    groups: readonly number[],
  ): { pairAcc: number | null; auc: number | null } {
    const q = rankingQuality(scores, labels, groups);
    this.sinks.metrics.record(K.rmPairAcc, q.pairAccuracy);
    this.sinks.metrics.record(K.rmAuc, q.auc);
    return { pairAcc: q.pairAccuracy, auc: q.auc };
  }

  /** What settlement strategies may ask about a window (computed only when asked). */
  private selectionContext(): SelectionContext {
    const { config: cfg, rm, features, train } = this.c;
    return {
      disagreement: (claims) =>
        committeeDisagreement(
          rm,
          cfg.reward_model,
          claims.map((c) => features.extract(c.text, train[c.problem]!.prompt)),
          this.settleRng,
          { members: cfg.settlement.committee.members },
        ),
    };
  }

  /** Write the samples.jsonl lines of a closed window; `settled` maps chosen claims to their judge score. */
  private flushSamples(claims: readonly Claim[], settled: ReadonlyMap<Claim, number | null>): void {
    for (const c of claims) {
      this.sinks.samples({
        step: c.step,
        problem: this.c.train[c.problem]!.id,
        index: c.index,
        text: c.text,
        tokens: c.tokens ?? 0,
        proxy: c.proxy,
        gold: c.gold,
        judge: settled.get(c) ?? null,
        settled: settled.has(c),
        ...(c.status !== undefined ? { status: c.status } : {}),
      });
    }
  }

  /** Held-out pass rates: greedy (one completion) and sampled (eval.samples per problem). */
  private async evaluate(): Promise<Record<string, number>> {
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
    return { [K.evalGreedy]: passRate(gRes), [K.evalSampled]: passRate(sRes) };
  }

  /** State for a checkpoint (weights, optimizer and RM are saved by the caller). */
  getState(): TrainerState {
    const gate = this.updater.getState();
    return {
      step: this.stepsDone,
      data: this.data.getState(),
      sampleRng: this.sampleRng.getState(),
      settleRng: this.settleRng.getState(),
      window: structuredClone(this.window),
      budget: this.budget,
      goldBudget: this.goldBudget,
      settleRate: this.settleRate,
      rmWeight: this.rmWeight,
      refits: this.refits,
      sndRecent: this.sndRolling.getState(),
      instantCarry: this.instantCarry,
      baseMean: this.baseMean.value,
      windowD: [...this.windowD],
      gao: this.gao.getState(),
      gaoReading: { ...this.gaoReading },
      alarm: { ...this.alarm },
      ...(gate !== undefined ? { gate: gate as GatedState } : {}),
    };
  }

  /** Restore a state from {@link getState}. */
  setState(s: TrainerState): void {
    this.stepsDone = s.step;
    this.data.setState(s.data);
    this.sampleRng.setState(s.sampleRng);
    this.settleRng.setState(s.settleRng);
    this.window = structuredClone(s.window);
    this.budget = s.budget;
    this.goldBudget = s.goldBudget;
    this.settleRate = s.settleRate;
    this.rmWeight = s.rmWeight;
    this.refits = s.refits;
    this.sndRolling.setState(s.sndRecent ?? []);
    this.instantCarry = s.instantCarry ?? 0;
    if (s.baseMean !== undefined) this.baseMean.value = s.baseMean;
    this.windowD = [...(s.windowD ?? [])];
    this.gao.setState(s.gao);
    if (s.gao === undefined) this.gao.setBase(this.baseMean.value);
    this.gaoReading = { ...(s.gaoReading ?? { fired: null, dStar: null }) };
    this.alarm = { ...(s.alarm ?? { raised: false, quiet: 0 }) };
    this.updater.setState(s.gate);
  }
}

/** Sequence-level KL(π_old‖π_base) of a step: the mean over completions of Σ_t k3 (nats). */
function sequenceKl(b: Pick<UpdateBatch, 'ref' | 'oldLogp'>): number {
  const { batch: B, completionLength: C, logProbs: ref, mask } = b.ref;
  if (B === 0) return 0;
  let total = 0;
  for (let r = 0; r < B; r++)
    for (let j = 0; j < C; j++) if (mask[r * C + j]) total += k3(b.oldLogp[r * C + j]!, ref[r * C + j]!);
  return total / B;
}
