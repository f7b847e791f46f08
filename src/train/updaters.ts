/**
 * The updater registry: how an arm applies its step's update. `plain` commits every update;
 * `gated` passes each through the pre-action gate (./gated-step.ts). An entry declares what the
 * arm must be for it (checked when arms are resolved, ./arms.ts), the log file it writes, and
 * how it is built; the trainer and the arm runner read only this registry. The implementations
 * are loaded when an arm is built, so resolving a config loads no tensor backend.
 */
import type { FeatureExtractor } from '../reward/features/types.ts';
import { AnchorError } from '../util/errors.ts';
import type { RewardModel } from '../reward/models/types.ts';
import type { Executor } from '../sandbox/types.ts';
import type { LabelSourceName } from './label-sources.ts';
import type { RewardSourceName, Rewards, ScoredRollouts } from './reward-sources.ts';
import type { RunGateConfig, SettlementConfig } from './config.ts';
import type { UpdateParts, Updater } from './update.ts';

/** What an updater is built from (the arm's components and hooks into the trainer). */
interface UpdaterContext {
  /** The arm's `gate:` and `settlement:` sections. */
  config: { gate: RunGateConfig; settlement: SettlementConfig };
  parts: UpdateParts;
  rm: RewardModel;
  features: FeatureExtractor;
  executor: Executor;
  /** A line of the updater's own log (its `logFile`). */
  writeLine(line: string): void;
  /** Charge programs the updater executed to the arm's training-signal budget. */
  charge(programs: number): void;
  /** The arm's training reward for rollouts re-scored by the RM (after the updater refitted it). */
  reward(scored: ScoredRollouts): Promise<Rewards>;
  /** Push the policy's weights to the rollout engine (after an updater restored earlier weights). */
  syncWeights(): Promise<void>;
}

/** Builds an arm's updater. */
export type UpdaterFactory = (ctx: UpdaterContext) => Updater;

/** A registered updater. */
export interface UpdaterKind {
  name: string;
  describe: string;
  /** What an arm with this updater must have: its reward among `rewards`, its labels `labels`. */
  requires?: { rewards: readonly RewardSourceName[]; labels: LabelSourceName; why: string };
  /** The updater's own log in the arm directory (lines through {@link UpdaterContext.writeLine}). */
  logFile?: string;
  /** Load the implementation. */
  load(): Promise<UpdaterFactory>;
}

/** The built-in updaters. */
const UPDATERS = {
  plain: {
    name: 'plain',
    describe:
      'every update is committed; with `settlement.rollback.enabled`, the policy is restored to the best settled window when a later one falls below it (./rollback.ts)',
    load: async () => {
      const { PlainUpdater } = await import('./update.ts');
      const { RollbackUpdater } = await import('./rollback.ts');
      return (ctx) => {
        const rb = ctx.config.settlement.rollback;
        return rb.enabled ? new RollbackUpdater(ctx.parts, rb, () => ctx.syncWeights()) : new PlainUpdater(ctx.parts);
      };
    },
  },
  gated: {
    name: 'gated',
    describe:
      'every update passes the pre-action gate (oracle, simulator, critic) before it is committed; failure library and memory',
    requires: {
      rewards: ['rm'],
      labels: 'execution',
      why: 'the gate settles and verifies by execution',
    },
    logFile: 'gate.jsonl',
    load: async () => {
      const { GatedStep, resolveGateConfig } = await import('./gated-step.ts');
      return (ctx) => {
        if (ctx.config.settlement.rollback.enabled)
          throw new AnchorError(
            'BAD_CONFIG',
            'settlement.rollback.enabled: true: a gated arm decides its own commits; rollback needs the plain updater',
          );
        return new GatedStep({
          ...ctx.parts,
          gate: resolveGateConfig(ctx.config.gate, ctx.config.settlement.rate),
          rm: ctx.rm,
          features: ctx.features,
          executor: ctx.executor,
          writeLine: (l) => ctx.writeLine(l),
          onExecuted: (n) => ctx.charge(n),
          reward: (s) => ctx.reward(s),
        });
      };
    },
  },
} satisfies Record<string, UpdaterKind>;

/** The updater of an arm (`gate: true` in its spec: the gated one). */
export function updaterOf(arm: { gate?: boolean }): UpdaterKind {
  return UPDATERS[arm.gate ? 'gated' : 'plain'];
}
