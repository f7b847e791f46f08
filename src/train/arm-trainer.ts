/**
 * One arm's training loop: the GRPO step with settlement windows (DESIGN.md, "One settlement
 * epoch"). Every arm runs this same code; what differs is data — the arm's reward source and
 * refit-label source from the arm registry, and its config overlay.
 *
 * The step, in order: rollout → reward (+ gold for metrics) → GRPO update (through the gate for
 * gated arms, ./gated-step.ts) → weight sync → settlement at window end → metrics, samples,
 * checkpoint.
 */
import type { Problem } from '../datasets/problem.ts';
import type { RunConfig } from '../config/run-config.ts';
import type { Completion } from '../policy/engine/types.ts';
import type { OnnxRolloutEngine } from '../policy/engine/rollout-engine.ts';
import { buildCompletionBatch, completionLogProbs, sequenceLogProbs } from '../policy/logprobs.ts';
import type { PolicyModel } from '../policy/policy-model.ts';
import type { AdamOptimizer, StepResult } from '../policy/optimizer.ts';
import type { Tokenizer } from '../policy/tokenizer/index.ts';
import type { FeatureExtractor } from '../reward/features/types.ts';
import type { Judge } from '../reward/judges/types.ts';
import { committeeDisagreement } from '../reward/models/committee.ts';
import type { RewardModel } from '../reward/models/types.ts';
import { problemProgram } from '../sandbox/programs.ts';
import type { Executor, ExecResult } from '../sandbox/types.ts';
import { spearmanOrNull } from '../verifiers/correlation.ts';
import { Rng, type RngState } from '../util/rng.ts';
import type { ArmSpec } from './arms.ts';
import { DataLoader } from './data.ts';
import { GatedStep, type GatedState, type GatedStepOutput } from './gated-step.ts';
import { goldOf } from './gold.ts';
import { RollingMean, withinGroupSoundness } from './monitor.ts';
import { computeAdvantages, grpoLoss, grpoLossReference, type GrpoTokens } from './grpo.ts';
import type { KvLogger } from './logger.ts';
import { METRIC_KEYS as K, type RefitLine, type SampleLine } from './run-format.ts';
import { SETTLEMENT_STRATEGIES, settleCount, type Claim, type SelectionContext } from './settlement.ts';

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
  /** The pre-action gate around every update (gated arms only). */
  readonly gated: GatedStep | undefined;
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
    this.settleRate = c.arm.labels ? c.config.settlement.rate : 0;
    this.sndRolling = new RollingMean(c.config.metrics.snd_window);
    this.gated = c.arm.gate
      ? new GatedStep({
          config: c.config,
          policy: c.policy,
          optimizer: c.optimizer,
          rm: c.rm,
          features: c.features,
          executor: c.executor,
          padId: c.tokenizer.padId,
          writeLine: sinks.gate ?? (() => {}),
          onExecuted: (n) => (this.budget += n),
        })
      : undefined;
  }

  /** Total steps configured. */
  get totalSteps(): number {
    return this.c.config.grpo.steps;
  }

  /** One GRPO step; returns the metrics record it logged. */
  async step(): Promise<Record<string, unknown>> {
    const { config: cfg, arm, policy, optimizer, engine, tokenizer } = this.c;
    const G = cfg.grpo.group_size;
    const step = this.stepsDone;
    const log = this.sinks.metrics;
    const t0 = performance.now();

    // --- 1. Rollout: P prompts, G completions each, from the current weights ---------------
    const promptIdx = this.data.next(cfg.grpo.prompts_per_step);
    const problems = promptIdx.flatMap((i) => Array<Problem>(G).fill(this.c.train[i]!));
    const completions = await this.rollout(problems, this.sampleRng);
    const texts = completions.map((c) => c.text);
    const t1 = performance.now();

    // --- 2. Rewards: proxy from the RM, gold from execution (metrics; reward for `execution`)
    const features = texts.map((t, i) => this.c.features.extract(t, problems[i]!.prompt));
    const proxy = await this.c.rm.predict(features);
    const needGold = cfg.metrics.gold === 'all' || arm.reward === 'execution';
    const results = needGold ? await this.execute(problems, texts) : undefined;
    const gold = results ? results.map((r, i) => goldOf(r, problems[i]!)) : texts.map(() => null);
    if (arm.reward === 'execution') this.budget += texts.length;
    else if (results) this.goldBudget += texts.length;
    let reward: (number | null)[] = arm.reward === 'execution' ? gold : Array.from(proxy);
    const t2 = performance.now();

    // --- 3. GRPO update (gated arms: proposed, gated, committed or rolled back) ------------------
    const promptIds = completions.map((c) => c.promptIds);
    const completionIds = completions.map((c) => c.tokenIds);
    const padId = tokenizer.padId;
    const ref = sequenceLogProbs(this.c.reference, promptIds, completionIds, { padId });
    const C = ref.completionLength;
    // π_old: the policy that sampled. With one inner iteration and plain sampling (temperature 1,
    // no truncation) it is the current policy and the engine's per-token log-probs are exactly
    // that distribution (ORT vs tfjs agree to ~1e-6), which saves a forward pass; otherwise
    // recompute with the trainer's numerics.
    const s = cfg.policy.sampling;
    const plain = cfg.grpo.inner_iterations === 1 && s.temperature === 1 && s.top_k === 0 && s.top_p === 1;
    let oldLogp: Float32Array;
    if (plain) {
      oldLogp = new Float32Array(ref.batch * C);
      completions.forEach((c, b) => oldLogp.set(c.logprobs, b * C));
    } else {
      oldLogp = sequenceLogProbs(policy, promptIds, completionIds, { padId }).logProbs;
    }
    const lossOpts = {
      clipLow: cfg.grpo.clip.low,
      clipHigh: cfg.grpo.clip.high,
      beta: cfg.grpo.beta,
      aggregation: cfg.grpo.loss,
      maxLength: cfg.policy.sampling.max_new_tokens,
    };
    const batch = buildCompletionBatch(promptIds, completionIds, padId, { completionLength: C });
    let tokens!: GrpoTokens;
    const update = (r: readonly (number | null)[]): StepResult[] => {
      const { advantages, valid } = computeAdvantages(r, G, cfg.grpo.scale_rewards, cfg.grpo.eps);
      if (arm.reward === 'rm' && this.rmWeight !== 1) for (let i = 0; i < advantages.length; i++) advantages[i]! *= this.rmWeight;
      const mask = ref.mask.slice();
      for (let b = 0; b < ref.batch; b++) if (!valid[b]) mask.fill(0, b * C, (b + 1) * C);
      tokens = { batch: ref.batch, length: C, oldLogp, refLogp: ref.logProbs, mask, advantages };
      const lossFn = () => grpoLoss(completionLogProbs(policy, batch, { entropy: false }).logProbs, tokens, lossOpts);
      return Array.from({ length: cfg.grpo.inner_iterations }, () => optimizer.trainStep(lossFn));
    };
    let gate: GatedStepOutput | undefined;
    let stepResult: StepResult;
    if (this.gated) {
      gate = await this.gated.step({ step, problems, completions, features, proxy, ref, update });
      stepResult = gate.stepResults.at(-1)!;
      reward = gate.reward;
    } else {
      stepResult = update(reward).at(-1)!;
    }
    const diag = grpoLossReference(oldLogp, tokens, lossOpts); // KL/clip at the sampling policy
    const t3 = performance.now();

    // --- 4. Weight sync: the engine serves the updated policy (unchanged if nothing committed) --
    if (!gate || gate.applied) await engine.updateWeights(policy.getWeights());
    const t4 = performance.now();

    // --- 5. Settlement at the window end -------------------------------------------------------
    completions.forEach((_, i) =>
      this.window.push({
        step,
        index: i,
        problem: promptIdx[Math.floor(i / G)]!,
        text: texts[i]!,
        proxy: proxy[i]!,
        gold: gold[i] ?? null,
        tokens: completionIds[i]!.length,
        ...(results?.[i]?.status !== undefined ? { status: results[i]!.status } : {}),
      }),
    );
    let settledCount = 0;
    // A gated arm without enough settled evidence for its gate settles every step.
    if ((step + 1) % cfg.settlement.every === 0 || this.gated?.needsEvidence()) {
      settledCount = await this.settle(step);
    } else if (step + 1 === this.totalSteps) {
      this.flushSamples(this.window, new Map()); // a last partial window is never settled
      this.window = [];
    }
    const t5 = performance.now();

    // --- 6. Metrics and samples ----------------------------------------------------------------
    const mean = (xs: ArrayLike<number>) => (xs.length ? Array.from(xs).reduce((a, b) => a + b, 0) / xs.length : 0);
    const goldVals = gold.filter((g): g is number => g !== null);
    const proxyMean = mean(proxy);
    const goldMean = goldVals.length ? mean(goldVals) : null;
    // Entropy estimate: mean −log π of the sampled tokens (unbiased for the sampling policy).
    let entSum = 0;
    let entN = 0;
    for (const c of completions) for (const lp of c.logprobs) (entSum -= lp, entN++);
    log.record(K.proxy, proxyMean);
    log.record(K.gold, goldMean);
    log.record(K.gap, goldMean === null ? null : proxyMean - goldMean);
    const snd = withinGroupSoundness(proxy, gold, G);
    log.record(K.sndG, snd);
    log.record(K.sndGRolling, this.sndRolling.push(snd));
    log.record(K.train, mean(reward.filter((r): r is number => r !== null)));
    log.record(K.kl, diag.kl);
    log.record(K.entropy, entN ? entSum / entN : 0);
    log.record(K.length, mean(completionIds.map((t) => t.length)));
    log.record(K.loss, stepResult.loss);
    log.record(K.clipFraction, diag.clipFraction);
    log.record(K.gradNorm, stepResult.gradNorm);
    log.record(K.lr, stepResult.lr);
    log.record(K.settled, settledCount);
    log.record(K.settleRate, this.gated ? this.gated.settlementRate(this.settleRate) : this.settleRate);
    if (gate) log.recordAll(this.gated!.metrics(gate));
    log.record(K.budget, this.budget);
    log.record(K.goldBudget, this.goldBudget);
    if (cfg.eval.every > 0 && ((step + 1) % cfg.eval.every === 0 || step + 1 === this.totalSteps)) {
      log.recordAll(await this.evaluate());
    }
    log.record(K.rolloutSeconds, (t1 - t0) / 1000);
    log.record(K.rewardSeconds, (t2 - t1) / 1000);
    log.record(K.trainSeconds, (t3 - t2) / 1000);
    log.record(K.syncSeconds, (t4 - t3) / 1000);
    log.record(K.settleSeconds, (t5 - t4) / 1000);
    log.record(K.stepSeconds, (performance.now() - t0) / 1000);
    this.stepsDone = step + 1;
    return log.dump(step);
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
    return this.c.executor.run(
      texts.map((t, i) => problemProgram(problems[i]!, t, `${problems[i]!.id}#${i}`)),
    );
  }

  /**
   * Settle σ of the window: execute (or judge) the claims the arm's strategy chooses, measure
   * drift and rank agreement with the RM as it stands, append the labels and refit. Arms without
   * a label source only record the monitoring drift against gold (when gold is known) and never
   * refit. The window's samples.jsonl lines are written here, when their settled flag and judge
   * score are final. Returns the number of claims settled.
   */
  private async settle(step: number): Promise<number> {
    const { arm, config: cfg } = this.c;
    const claims = this.window;
    this.window = [];
    const golds = claims.filter((c) => c.gold !== null);
    const windowGap = golds.length ? golds.reduce((a, c) => a + c.proxy - c.gold!, 0) / golds.length : null;
    const rate = this.gated ? this.gated.settlementRate(this.settleRate) : this.settleRate;
    if (!arm.labels || rate <= 0) {
      // Monitoring only: how far the (frozen) RM is from reality on this window.
      const driftGold = golds.length ? golds.reduce((a, c) => a + Math.abs(c.proxy - c.gold!), 0) / golds.length : null;
      const rank = spearmanOrNull(golds.map((c) => c.proxy), golds.map((c) => c.gold!));
      this.sinks.refits({ step, labels: this.c.rm.labelCount, newLabels: 0, drift: driftGold ?? 0, driftGold, judgeLabelError: null, gap: windowGap, rank, strategy: null, fit: {}, refit: false });
      this.flushSamples(claims, new Map());
      return 0;
    }
    const k = settleCount(claims.length, rate);
    const chosen = (await SETTLEMENT_STRATEGIES[cfg.settlement.strategy].select(claims, k, this.settleRng, this.selectionContext())).map((i) => claims[i]!);
    const problems = chosen.map((c) => this.c.train[c.problem]!);
    const texts = chosen.map((c) => c.text);

    // Labels: executed (anchored) or judged without execution (judge).
    let labels: (number | null)[];
    let goldOfChosen: (number | null)[] = chosen.map((c) => c.gold);
    let results: ExecResult[] | undefined;
    if (arm.labels === 'execution') {
      results = await this.execute(problems, texts);
      labels = results.map((r, i) => goldOf(r, problems[i]!));
      goldOfChosen = labels;
      this.budget += chosen.length;
    } else {
      labels = [];
      for (let i = 0; i < chosen.length; i++) labels.push(...(await this.c.judge!.score(problems[i]!, [texts[i]!])));
    }
    const keep = chosen.map((_, i) => i).filter((i) => labels[i] !== null);
    const X = keep.map((i) => this.c.features.extract(texts[i]!, problems[i]!.prompt));
    const y = keep.map((i) => labels[i]!);
    // Drift before the refit: the RM as it stands, on the new claims.
    const before = X.length ? await this.c.rm.predict(X) : new Float32Array();
    const drift = y.length ? y.reduce((a, v, j) => a + Math.abs(before[j]! - v), 0) / y.length : 0;
    const rank = spearmanOrNull(before, y);
    const goldKnown = keep.filter((i) => goldOfChosen[i] !== null);
    const driftGold = goldKnown.length ? goldKnown.reduce((a, i) => a + Math.abs(before[keep.indexOf(i)]! - goldOfChosen[i]!), 0) / goldKnown.length : null;
    const judgeLabelError =
      arm.labels === 'judge' && goldKnown.length ? goldKnown.reduce((a, i) => a + Math.abs(labels[i]! - goldOfChosen[i]!), 0) / goldKnown.length : null;
    // The gate learns from the settled gaps under the RM that priced them (before the refit).
    await this.gated?.settled(keep.map((i, j) => ({ ...chosen[i]!, problem: problems[i]!, x: X[j]!, gold: y[j]!, proxy: before[j]!, result: results?.[i] })));
    const w = cfg.settlement.label_weight;
    const copies = <T,>(xs: T[]): T[] => (w === 1 ? xs : xs.flatMap((v) => Array<T>(w).fill(v)));
    if (X.length) await this.c.rm.refit(copies(X), copies(y));
    this.refits++;
    const after = X.length ? await this.c.rm.predict(X) : new Float32Array();
    const fitMse = y.length ? y.reduce((a, v, j) => a + (after[j]! - v) ** 2, 0) / y.length : 0;
    this.sinks.refits({ step, labels: this.c.rm.labelCount, newLabels: X.length, drift, driftGold, judgeLabelError, gap: windowGap, rank, strategy: cfg.settlement.strategy, fit: { new_mse: fitMse }, refit: true });

    // Adaptive settlement: a drift alarm raises σ and damps the RM reward for the next window.
    const a = cfg.settlement.adaptive;
    if (a.enabled) {
      if (drift > a.tau) {
        this.settleRate = Math.min(a.max_rate, this.settleRate * a.growth);
        this.rmWeight = a.rm_weight;
      } else {
        this.settleRate = cfg.settlement.rate;
        this.rmWeight = 1;
      }
    }
    // samples.jsonl: the judge's score is what the judge arm labelled its settled claims with.
    const judged = new Map<Claim, number | null>(chosen.map((c, i) => [c, arm.labels === 'judge' ? labels[i]! : null]));
    this.flushSamples(claims, judged);
    return chosen.length;
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
    const gRes = await this.execute(probs, greedy.map((c) => c.text));
    const sProbs = probs.flatMap((p) => Array<Problem>(cfg.eval.samples).fill(p));
    const sampled = await this.rollout(sProbs, rng);
    const sRes = await this.execute(sProbs, sampled.map((c) => c.text));
    const passRate = (rs: ExecResult[]) => rs.filter((r) => r.status === 'pass').length / rs.length;
    return { [K.evalGreedy]: passRate(gRes), [K.evalSampled]: passRate(sRes) };
  }

  /** State for a checkpoint (weights, optimizer and RM are saved by the caller). */
  getState(): TrainerState {
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
      ...(this.gated ? { gate: this.gated.getState() } : {}),
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
    if (this.gated && s.gate) this.gated.setState(s.gate);
  }
}
