/**
 * The reward-source registry: where an arm's training reward comes from. Each source is one
 * object with one method; the trainer scores every step's rollouts with the RM (and executes them
 * when the metrics or the source need gold) and hands the scored batch to the arm's source. A new
 * reward source is a new entry here — the trainer, compare and the report read only this registry.
 */
import type { Problem } from '../datasets/problem.ts';
import type { Completion } from '../policy/engine/types.ts';
import type { ExecResult } from '../sandbox/types.ts';
import type { LabelSourceName } from './label-sources.ts';

/** A step's rollouts. */
export interface Rollouts {
  step: number;
  /** Training-split index of each prompt (P of them; completions come in groups of G per prompt). */
  promptIdx: number[];
  /** Problem of each completion. */
  problems: Problem[];
  completions: Completion[];
  texts: string[];
}

/** A step's rollouts, scored: the RM's proxy for all, gold where they were executed. */
export interface ScoredRollouts extends Rollouts {
  /** RM features of each completion. */
  features: Float32Array[];
  /** RM score of each completion (the proxy reward). */
  proxy: Float32Array;
  /** Sandbox results of the gold execution (absent when the step was not executed). */
  results: ExecResult[] | undefined;
  /** Executed gold per completion (null where not executed). */
  gold: (number | null)[];
}

/** What a reward source may use besides the scored rollouts. */
export interface RewardContext {
  /** Multiplier on RM-reward advantages (< 1 while adaptive settlement is alarmed). */
  rmWeight: number;
  /**
   * `proxy.weight`: multiplier on the advantages of the completions a `settled-rm` arm trains on
   * the RM's reward (its executed completions weigh 1).
   */
  rmShare: number;
  /**
   * `proxy.silenced`: while the RM's completions weigh 0, `weight` keeps them in the loss with a
   * zero advantage, `mask` leaves them out (null reward), so the loss is normalised over the
   * executed completions alone.
   */
  silenced: 'weight' | 'mask';
  /**
   * The RM's training reward for the rollouts: its score, or — per the run's `proxy:` config —
   * a conservative ensemble reward and/or PAR shaping of it (./proxy-reward.ts).
   */
  rmReward(scored: ScoredRollouts): Promise<number[]>;
  /** Map an executed gold value into the same units as {@link rmReward} (PAR shaping applies to it too). */
  shapeGold(gold: number): number;
  /**
   * Instant settlement: the completions of this step to settle now (σ·n of them, the fraction
   * carried over steps; chosen by the arm's `settlement.strategy`).
   */
  instantChoice(scored: ScoredRollouts): Promise<number[]>;
  /** Execute completions in the sandbox (gold per completion); the caller charges them with `charge`. */
  execute(problems: readonly Problem[], texts: readonly string[]): Promise<number[]>;
  /** Charge programs executed for the training signal to the arm's budget. */
  charge(programs: number): void;
}

/** The training reward of a step: one value per completion (null = masked out) and the advantage weight. */
export interface Rewards {
  values: (number | null)[];
  /** Multiplier on the group-relative advantages computed from `values`. */
  advantageScale: number;
  /**
   * Per-completion multiplier on the advantages, applied after `advantageScale` (absent: 1 for
   * every completion). Lets executed gold and the RM's score train side by side at different weights.
   */
  weights?: number[];
  /**
   * Completions settled while scoring (instant settlement): their executed label, already charged
   * to the budget. The window-end refit uses exactly these labels.
   */
  settled?: { index: number; label: number | null }[];
}

/** A training reward source. */
export interface RewardSource {
  /**
   * The reward is the executed gold of every rollout: the trainer executes each step in full and
   * charges it to the arm's budget, and reports take this arm's budget as the cost of execution.
   */
  readonly executesRollouts: boolean;
  /**
   * Settles σ of each step's rollouts as it scores them (instant settlement, `ctx.instantChoice`):
   * the settlement window then refits on exactly those labels and chooses nothing itself.
   */
  readonly settlesInstantly: boolean;
  /** The refit labels an arm with this reward must have (its instantly settled labels are executed). */
  readonly needsLabels?: LabelSourceName;
  /** The step's training reward. */
  reward(scored: ScoredRollouts, ctx: RewardContext): Rewards | Promise<Rewards>;
}

/**
 * Instant settlement of a step: the completions the arm's strategy picks, executed now and
 * charged to the budget. Returns their indices and executed gold.
 */
async function settleNow(s: ScoredRollouts, ctx: RewardContext): Promise<{ index: number; label: number }[]> {
  const chosen = await ctx.instantChoice(s);
  const gold = await ctx.execute(
    chosen.map((i) => s.problems[i]!),
    chosen.map((i) => s.texts[i]!),
  );
  ctx.charge(chosen.length);
  return chosen.map((index, j) => ({ index, label: gold[j]! }));
}

/** The built-in reward sources. */
export const REWARD_SOURCES = {
  /** The reward model's score (conservative and/or PAR-shaped per `proxy:`). */
  rm: {
    executesRollouts: false,
    settlesInstantly: false,
    reward: async (s, ctx) => ({ values: await ctx.rmReward(s), advantageScale: ctx.rmWeight }),
  },
  /**
   * Hybrid (instant settlement): σ of the step's completions are executed before the update and
   * their gold replaces the RM's reward; the rest keep the RM's. The settled labels refit the RM at
   * the window end (labels `execution`), so the budget is the anchored arm's.
   */
  hybrid: {
    executesRollouts: false,
    settlesInstantly: true,
    needsLabels: 'execution',
    reward: async (s, ctx) => {
      const values: (number | null)[] = await ctx.rmReward(s);
      const settled = await settleNow(s, ctx);
      for (const { index, label } of settled) values[index] = ctx.shapeGold(label);
      return { values, advantageScale: ctx.rmWeight, settled };
    },
  },
  /**
   * Settled groups plus the RM: σ of the groups are executed as they are rolled out (with
   * `settlement.strategy: groups`) and train on their gold at full weight, as in `settled`; every
   * other group trains on the RM's reward with its advantages weighted `proxy.weight` × the
   * adaptive RM weight — so a Gao thermostat (`settlement.adaptive: {signal: gao, rm_weight: 0}`)
   * silences the RM while the settled-label warning fires and leaves the executed groups training.
   * Same budget as `settled`; the RM refits on the settled labels at each window end. With
   * `proxy.silenced: mask`, silenced RM completions get a null reward (out of the loss).
   */
  'settled-rm': {
    executesRollouts: false,
    settlesInstantly: true,
    needsLabels: 'execution',
    reward: async (s, ctx) => {
      const rmWeight = ctx.rmWeight * ctx.rmShare;
      // Silenced and masked: the RM's completions leave the loss (and its denominator) entirely.
      const values: (number | null)[] =
        rmWeight === 0 && ctx.silenced === 'mask' ? s.texts.map(() => null) : await ctx.rmReward(s);
      const weights = values.map(() => rmWeight);
      const settled = await settleNow(s, ctx);
      for (const { index, label } of settled) {
        values[index] = ctx.shapeGold(label);
        weights[index] = 1;
      }
      return { values, advantageScale: 1, weights, settled };
    },
  },
  /** The executed test pass fraction (the sound ceiling). */
  execution: {
    executesRollouts: true,
    settlesInstantly: false,
    reward: (s) => ({ values: s.gold, advantageScale: 1 }),
  },
  /**
   * Settled only: the executed gold of the instantly settled completions and nothing else — the
   * RM's score never enters the update (its groups are masked out). With `settlement.strategy:
   * groups` it is GRPO on execution over σ of the groups: the control that says what the budget
   * alone buys, with no reward model at all. The RM still refits on the labels (for monitoring).
   */
  settled: {
    executesRollouts: false,
    settlesInstantly: true,
    needsLabels: 'execution',
    reward: async (s, ctx) => {
      const values: (number | null)[] = s.texts.map(() => null);
      const settled = await settleNow(s, ctx);
      for (const { index, label } of settled) values[index] = label;
      return { values, advantageScale: 1, settled };
    },
  },
} satisfies Record<string, RewardSource>;

/** A reward-source name. */
export type RewardSourceName = keyof typeof REWARD_SOURCES;

/** Reward-source names, for config schemas. */
export const REWARD_SOURCE_NAMES = Object.keys(REWARD_SOURCES) as [RewardSourceName, ...RewardSourceName[]];
