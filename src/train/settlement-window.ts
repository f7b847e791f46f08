/**
 * The settlement window: settlement as its own subsystem beside the GRPO step (docs/design.md,
 * "One settlement epoch"). The trainer `add`s each step's completions; at the window end `close`
 * runs one pipeline — choose → label → refit → thermostat — and writes the window's refits.jsonl
 * and samples.jsonl lines. What varies between arms is data: the strategy that chooses
 * (./settlement.ts), the label source (./label-sources.ts; `instant` for claims the reward
 * source already settled), the updater's settlement hooks. Its whole state is one checkpointed
 * object ({@link SettlementState}).
 *
 * Nothing here touches the policy: it is unit-tested with a fake reward model and executor
 * (test/train/settlement-window.test.ts).
 */
import type { Problem } from '../datasets/problem.ts';
import type { FeatureExtractor } from '../reward/features/types.ts';
import type { Judge } from '../reward/judges/types.ts';
import type { RewardModel } from '../reward/models/types.ts';
import type { ExecResult } from '../sandbox/types.ts';
import { rankingQuality } from '../reward/models/ranking-quality.ts';
import { spearmanOrNull } from '../util/correlation.ts';
import type { Rng, RngState } from '../util/rng.ts';
import type { SettlementConfig } from './config.ts';
import { type AlarmState, GaoWarning, type GaoWarningReading, type GaoWarningState, nextAlarm } from './early-warning.ts';
import { INSTANT_LABELS, type LabelSource, type Labels } from './label-sources.ts';
import type { ScoredRollouts } from './reward-sources.ts';
import type { RefitLine, SampleLine } from './run-format.ts';
import { SETTLEMENT_STRATEGIES, instantCount, settleCount, type Claim, type SelectionContext } from './settlement.ts';
import type { SettledClaim, Updater } from './update.ts';

/** The early warning's last reading as the step log reports it (`alarm/gao`, `alarm/gao_dstar`). */
export interface GaoReadingLog {
  fired: boolean | null;
  dStar: number | null;
}

/** The window's checkpointed state: one object, restored as a whole. */
export interface SettlementState {
  rng: RngState;
  /** Claims of the open window. */
  window: Claim[];
  /** The settlement rate σ in force (raised while adaptive settlement is alarmed). */
  rate: number;
  /** Multiplier on RM-reward advantages (< 1 while adaptive settlement is alarmed). */
  rmWeight: number;
  /** Windows refitted so far. */
  refits: number;
  /** Instant settlement's owed fraction of a completion. */
  instantCarry: number;
  /** Mean label of the initial base-policy label set (PAR's default centre, the early warning's base point). */
  baseMean: number;
  /** √KL of each step of the open window (for the window's point of the early warning). */
  windowD: number[];
  /** The settled-label early warning. */
  gao: GaoWarningState;
  /** Its last reading, logged on every step until the next window closes. */
  gaoReading: GaoReadingLog;
  /** Adaptive settlement's alarm: raised, and quiet refits since. */
  alarm: AlarmState;
  /**
   * The RM quality gate (`settlement.rm_gate`): closed when the last window with a scorable pair
   * was ranked below `min_pair_acc` (absent in checkpoints written before it: open).
   */
  rmGateClosed?: boolean;
}

/** What the window works with (the arm's components, as narrow as settlement needs them). */
export interface SettlementParts {
  settlement: SettlementConfig;
  /** The stream settlement's choices draw from (`settlement` fork of the run seed). */
  rng: Rng;
  /** The training split (claims name their problem by index). */
  train: readonly Problem[];
  rm: RewardModel;
  features: FeatureExtractor;
  /** Where the window's refit labels come from; undefined: the RM is never refitted (monitoring only). */
  labels: LabelSource | undefined;
  /**
   * The arm's reward source settles as it rolls out (its `settlesInstantly`): the window refits on
   * exactly the claims that arrived labelled and never chooses (or pays for) more.
   */
  instant: boolean;
  judge: Judge | undefined;
  /** Run programs in the sandbox. */
  execute(problems: readonly Problem[], texts: readonly string[]): Promise<ExecResult[]>;
  /** Charge programs executed for the training signal to the arm's budget. */
  charge(programs: number): void;
  /**
   * The updater's say in settlement (a gated arm raises the rate and learns from settled gaps; a
   * rollback updater silences the RM and hears each closed window).
   */
  updater: Pick<Updater, 'settlementRate' | 'needsEvidence' | 'settled' | 'rmWeight' | 'windowClosed'>;
  /** Disagreement of a bootstrap committee of RMs on each claim (the `uncertainty` strategy). */
  disagreement(claims: readonly Claim[], rng: Rng): Promise<Float64Array>;
  /** Called after each refit (the conservative ensemble rebuilds its members; its cost counts as settlement). */
  afterRefit?(): Promise<void>;
  refits(line: RefitLine): void;
  samples(line: SampleLine): void;
}

/** What a window's labelling came to, before the refit. */
interface Labelled {
  chosen: Claim[];
  problems: Problem[];
  labels: Labels;
  /** Strategy name in refits.jsonl (`instant` for claims settled as they were rolled out). */
  strategy: string;
}

/** One settlement window and the thermostat it drives. */
export class SettlementWindow {
  private s: SettlementState;

  constructor(private readonly p: SettlementParts) {
    // At a fresh start the RM holds only the base-policy labels (restored from the checkpoint on resume).
    const ys = p.rm.labelSet().y;
    const baseMean = ys.reduce((a, v) => a + v, 0) / Math.max(1, ys.length);
    const gao = new GaoWarning();
    gao.setBase(baseMean);
    this.s = {
      rng: p.rng.getState(),
      window: [],
      rate: p.labels ? p.settlement.rate : 0,
      rmWeight: 1,
      refits: 0,
      instantCarry: 0,
      baseMean,
      windowD: [],
      gao: gao.getState(),
      gaoReading: { fired: null, dStar: null },
      alarm: { raised: false, quiet: 0 },
    };
  }

  /** The arm refits its RM (it has a label source). */
  get refitsRm(): boolean {
    return this.p.labels !== undefined;
  }

  /** The settlement rate for the next window, as the updater sets it. */
  get rate(): number {
    return this.p.updater.settlementRate(this.s.rate);
  }

  /** Multiplier on RM-reward advantages: the thermostat's, zero while the quality gate is closed, as the updater sets it. */
  get rmWeight(): number {
    const w = this.s.rmGateClosed ? 0 : this.s.rmWeight;
    return this.p.updater.rmWeight ? this.p.updater.rmWeight(w) : w;
  }

  /** The RM quality gate is closed (null: no gate configured). */
  get rmGateClosed(): boolean | null {
    return this.p.settlement.rm_gate.min_pair_acc === null ? null : this.s.rmGateClosed === true;
  }

  get refits(): number {
    return this.s.refits;
  }

  get baseMean(): number {
    return this.s.baseMean;
  }

  get gaoReading(): GaoReadingLog {
    return this.s.gaoReading;
  }

  /**
   * Instant settlement (reward sources that settle as they roll out): which of `claims` — one
   * step's completions — to settle now: σ·n of them, the fraction carried over steps, chosen by
   * the arm's strategy.
   */
  async instantChoice(claims: readonly Claim[]): Promise<number[]> {
    const { k, carry } = instantCount(claims.length, this.rate, this.s.instantCarry);
    const chosen = k > 0 ? await this.select(claims, k) : [];
    // A strategy may settle more than k (`groups`: a whole group); the excess is owed back, so
    // the total stays σ of the rollouts to within one group.
    this.s.instantCarry = carry + k - chosen.length;
    return chosen;
  }

  /**
   * Add a step's claims and its √KL to the window; close the window at its end (or when the
   * updater needs evidence). A last partial window is never settled: its samples are written as
   * they are. Returns the number of claims settled.
   */
  async add(step: number, claims: readonly Claim[], sqrtKl: number, lastStep: boolean): Promise<number> {
    this.s.windowD.push(sqrtKl);
    this.s.window.push(...claims);
    if ((step + 1) % this.p.settlement.every === 0 || this.p.updater.needsEvidence()) return this.close(step);
    if (lastStep) {
      this.flushSamples(this.s.window, new Map());
      this.s.window = [];
    }
    return 0;
  }

  /**
   * Close the window: choose σ of its claims, label them, refit the RM, feed the early warning
   * and the thermostat, and write the window's log lines. Arms without a label source (or at σ =
   * 0) only record the frozen RM's drift against gold where it is known. Returns the number of
   * claims settled.
   */
  async close(step: number): Promise<number> {
    const claims = this.s.window;
    this.s.window = [];
    const windowD = this.s.windowD.reduce((a, v) => a + v, 0) / Math.max(1, this.s.windowD.length);
    this.s.windowD = [];
    const rate = this.rate;
    if (!this.p.labels || rate <= 0) {
      this.monitor(step, claims);
      return 0;
    }
    const labelled = await this.label(claims, rate, this.p.labels);
    const fit = await this.refit(step, claims, labelled, windowD);
    this.thermostat(fit.drift);
    this.gate(fit.pairAcc);
    // The updater hears the window's executed labels once the thermostat has spoken (a judge's are not gold).
    if (!labelled.labels.judged && this.p.updater.windowClosed) {
      const keep = labelled.chosen.map((_, i) => i).filter((i) => labelled.labels.labels[i] !== null);
      await this.p.updater.windowClosed({
        step,
        labels: keep.map((i) => labelled.labels.labels[i]!),
        groups: keep.map((i) => labelled.chosen[i]!.group ?? -1),
        alarm: this.s.alarm.raised,
      });
    }
    // samples.jsonl: the judge's score is what the judge arm labelled its settled claims with.
    const { chosen, labels } = labelled;
    this.flushSamples(claims, new Map(chosen.map((c, i) => [c, labels.judged ? labels.labels[i]! : null])));
    return chosen.length;
  }

  /** Monitoring only: how far the (frozen) RM is from reality on this window. */
  private monitor(step: number, claims: readonly Claim[]): void {
    const golds = claims.filter((c) => c.gold !== null && !c.offBatch);
    const driftGold = golds.length ? golds.reduce((a, c) => a + Math.abs(c.proxy - c.gold!), 0) / golds.length : null;
    this.p.refits({
      step,
      labels: this.p.rm.labelCount,
      newLabels: 0,
      drift: driftGold ?? 0,
      driftGold,
      judgeLabelError: null,
      gap: windowGap(claims),
      rank: spearmanOrNull(
        golds.map((c) => c.proxy),
        golds.map((c) => c.gold!),
      ),
      ...rmQualityOf(
        golds.map((c) => c.proxy),
        golds.map((c) => c.gold!),
        golds.map((c) => c.group ?? -1),
      ),
      strategy: null,
      fit: {},
      refit: false,
    });
    this.flushSamples(claims, new Map());
  }

  /**
   * Choose and label: under instant settlement the claims that arrived labelled (the `instant`
   * label source); otherwise the strategy chooses σ of the window and the arm's source labels them.
   */
  private async label(claims: readonly Claim[], rate: number, source: LabelSource): Promise<Labelled> {
    const { instant } = this.p;
    const chosen = instant
      ? claims.filter((c) => c.label !== undefined)
      : (await this.select(claims, settleCount(claims.length, rate))).map((i) => claims[i]!);
    const problems = chosen.map((c) => this.p.train[c.problem]!);
    const labels = await (instant ? INSTANT_LABELS : source).label(chosen, problems, {
      execute: (ps, ts) => this.p.execute(ps, ts),
      charge: (n) => this.p.charge(n),
      judge: this.p.judge,
    });
    return { chosen, problems, labels, strategy: instant ? 'instant' : this.p.settlement.strategy };
  }

  /**
   * Refit: drift and rank agreement of the RM as it stands on the labelled claims, the updater's
   * lesson from the settled gaps, the refit itself, the early warning's window point, the refit line.
   */
  private async refit(
    step: number,
    claims: readonly Claim[],
    l: Labelled,
    windowD: number,
  ): Promise<{ drift: number; pairAcc: number | null }> {
    const { chosen, problems } = l;
    const { labels, gold, results, judged } = l.labels;
    const keep = chosen.map((_, i) => i).filter((i) => labels[i] !== null);
    const X = keep.map((i) => this.p.features.extract(chosen[i]!.text, problems[i]!.prompt));
    const y = keep.map((i) => labels[i]!);
    // Drift before the refit: the RM as it stands, on the new claims.
    const before = X.length ? await this.p.rm.predict(X) : new Float32Array();
    const drift = y.length ? y.reduce((a, v, j) => a + Math.abs(before[j]! - v), 0) / y.length : 0;
    const rank = spearmanOrNull(before, y);
    // Ranking quality out of sample: the RM has not been fitted on these labels yet.
    const quality = rmQualityOf(
      before,
      y,
      keep.map((i) => chosen[i]!.group ?? -1),
    );
    const goldKnown = keep.filter((i) => gold[i] !== null);
    const driftGold = goldKnown.length
      ? goldKnown.reduce((a, i) => a + Math.abs(before[keep.indexOf(i)]! - gold[i]!), 0) / goldKnown.length
      : null;
    const judgeLabelError =
      judged && goldKnown.length ? goldKnown.reduce((a, i) => a + Math.abs(labels[i]! - gold[i]!), 0) / goldKnown.length : null;
    // The updater (the gate) learns from the settled gaps under the RM that priced them (before the refit).
    await this.p.updater.settled(
      keep.map(
        (i, j): SettledClaim => ({
          ...chosen[i]!,
          problem: problems[i]!,
          x: X[j]!,
          gold: y[j]!,
          proxy: before[j]!,
          result: results?.[i],
        }),
      ),
    );
    // The refit: labels carry their window (recency weights) and group (pairwise objective).
    const r0 = performance.now();
    if (X.length) await this.p.rm.refit(X, y, { window: this.s.refits, groups: keep.map((i) => chosen[i]!.group ?? -1) });
    // The refit's own wall time (its share of the arm's time is the RM's cost; docs/reward.md).
    const refitSeconds = (performance.now() - r0) / 1000;
    this.s.refits++;
    await this.p.afterRefit?.();
    // The settled-label early warning: this window's point (√KL, mean settled label). A judge's
    // labels are not gold, so they never feed it.
    const reading: GaoWarningReading =
      !judged && y.length ? this.gaoPush(windowD, y.reduce((a, v) => a + v, 0) / y.length) : { fired: null, fit: null };
    this.s.gaoReading = { fired: reading.fired, dStar: reading.fit?.dStar ?? null };
    const after = X.length ? await this.p.rm.predict(X) : new Float32Array();
    const fitMse = y.length ? y.reduce((a, v, j) => a + (after[j]! - v) ** 2, 0) / y.length : 0;
    // The window's √KL and, once fitted, the early warning's curve (gao_dstar only when it turns over).
    const gao: Record<string, number> = { d: windowD };
    if (reading.fit)
      Object.assign(
        gao,
        { gao_alpha: reading.fit.alpha, gao_beta: reading.fit.beta, gao_fired: Number(reading.fired) },
        reading.fit.dStar !== null ? { gao_dstar: reading.fit.dStar } : {},
      );
    this.p.refits({
      step,
      labels: this.p.rm.labelCount,
      newLabels: X.length,
      drift,
      driftGold,
      judgeLabelError,
      gap: windowGap(claims),
      rank,
      ...quality,
      strategy: l.strategy,
      fit: { new_mse: fitMse, ...gao },
      perf: { refit_s: refitSeconds },
      refit: true,
    });
    return { drift, pairAcc: quality.pairAcc };
  }

  /**
   * The RM quality gate (`settlement.rm_gate`): closed for the next window when the RM ranked this
   * window's settled labels below `min_pair_acc` out of sample; a window with no scorable pair
   * (null) leaves it as it was.
   */
  private gate(pairAcc: number | null): void {
    const min = this.p.settlement.rm_gate.min_pair_acc;
    if (min === null || pairAcc === null || !Number.isFinite(pairAcc)) return;
    this.s.rmGateClosed = pairAcc < min;
  }

  /**
   * Adaptive settlement: an alarm (drift above τ, or the settled-label early warning) raises σ
   * and damps the RM reward for the next window; it is released after `release` quiet refits in
   * a row (never when null), so one noisy reading does not hand the policy back to the RM.
   */
  private thermostat(drift: number): void {
    const cfg = this.p.settlement;
    const a = cfg.adaptive;
    if (!a.enabled) return;
    const fired = a.signal === 'gao' ? this.s.gaoReading.fired === true : drift > a.tau;
    this.s.alarm = nextAlarm(this.s.alarm, fired, a.release);
    if (this.s.alarm.raised) {
      this.s.rate = Math.min(a.max_rate, this.s.rate * a.growth);
      this.s.rmWeight = a.rm_weight;
    } else {
      this.s.rate = cfg.rate;
      this.s.rmWeight = 1;
    }
  }

  private gaoPush(d: number, settledMean: number): GaoWarningReading {
    const gao = new GaoWarning();
    gao.setState(this.s.gao);
    const reading = gao.push(d, settledMean);
    this.s.gao = gao.getState();
    return reading;
  }

  /** The arm's strategy's choice of `k` of `claims` (indices, ascending). */
  private async select(claims: readonly Claim[], k: number): Promise<number[]> {
    const rng = this.p.rng;
    const ctx: SelectionContext = { disagreement: (cs) => this.p.disagreement(cs, rng) };
    return SETTLEMENT_STRATEGIES[this.p.settlement.strategy].select(claims, k, rng, ctx);
  }

  /** Write the samples.jsonl lines of a closed window; `settled` maps chosen claims to their judge score. */
  private flushSamples(claims: readonly Claim[], settled: ReadonlyMap<Claim, number | null>): void {
    for (const c of claims) {
      if (c.offBatch) continue;
      this.p.samples({
        step: c.step,
        problem: this.p.train[c.problem]!.id,
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

  /** The state for a checkpoint. */
  getState(): SettlementState {
    return structuredClone({ ...this.s, rng: this.p.rng.getState() });
  }

  /** Restore a state from {@link getState}. */
  setState(s: SettlementState): void {
    this.s = structuredClone(s);
    this.p.rng.setState(s.rng);
  }
}

/**
 * A step's completions as settlement claims: `groupSize` completions per prompt, groups numbered
 * uniquely within the run (step × prompts per step + prompt slot).
 */
export function stepClaims(s: ScoredRollouts, groupSize: number, promptsPerStep: number): Claim[] {
  return s.completions.map((c, i) => ({
    step: s.step,
    index: i,
    problem: s.promptIdx[Math.floor(i / groupSize)]!,
    text: s.texts[i]!,
    proxy: s.proxy[i]!,
    gold: s.gold[i] ?? null,
    tokens: c.tokenIds.length,
    group: s.step * promptsPerStep + Math.floor(i / groupSize),
    ...(s.results?.[i]?.status !== undefined ? { status: s.results[i]!.status } : {}),
  }));
}

/** Mean proxy − gold over the window's claims whose gold is known (null: none). */
function windowGap(claims: readonly Claim[]): number | null {
  const golds = claims.filter((c) => c.gold !== null && !c.offBatch);
  return golds.length ? golds.reduce((a, c) => a + c.proxy - c.gold!, 0) / golds.length : null;
}

/** The RM's within-group pairwise accuracy and AUC on labels it was not fitted on (refits.jsonl `pairAcc`, `auc`). */
function rmQualityOf(
  scores: ArrayLike<number>,
  labels: readonly number[],
  groups: readonly number[],
): { pairAcc: number | null; auc: number | null } {
  const q = rankingQuality(scores, labels, groups);
  return { pairAcc: q.pairAccuracy, auc: q.auc };
}
