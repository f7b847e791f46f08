/**
 * Rollback to the best settled window (`settlement.rollback`, the plain updater's option): the
 * RM arms' gold peaks well before the end of a run and falls after it (docs/results.md), while
 * each settlement window already pays for an executed sample of the policy's own completions. The
 * updater keeps one snapshot — the policy and its Adam state at the end of the window whose mean
 * settled gold is the best so far — and restores it when a later window's settled gold falls below
 * the best by more than `z` standard errors of the difference, or when the adaptive alarm is newly
 * raised (`on_alarm`). From the first such trigger on, the RM's completions train with weight 0
 * (their reward source's silenced mode), so the policy continues from its best point on the
 * executed groups alone. Every update is committed, as by the plain updater.
 *
 * It reads no gold beyond what settlement executed, and executes nothing itself.
 */
import type { OptimizerState } from '../policy/optimizer.ts';
import type { WeightMap } from '../policy/weights.ts';
import type { SettlementConfig } from './config.ts';
import type { MetricValue } from './logger.ts';
import type { Rewards } from './reward-sources.ts';
import { ROLLBACK_METRIC_KEYS as RK } from './run-format.ts';
import { type ClosedWindow, PlainUpdater, type UpdateBatch, type UpdateOutcome, type UpdateParts } from './update.ts';

/** A weight map as JSON: shape and base64 float32 data per tensor (checkpoint state). */
type EncodedWeights = Record<string, { shape: number[]; data: string }>;

/** The best window's snapshot. */
interface Snapshot {
  /** The window's last step. */
  step: number;
  /** Mean settled gold of the window and its standard error over the window's groups. */
  mean: number;
  se: number;
  weights: WeightMap;
  optimizer: OptimizerState;
}

/** The checkpointed state: the snapshot encoded, the latch, the counters. */
export interface RollbackState {
  kind: 'rollback';
  best: {
    step: number;
    mean: number;
    se: number;
    weights: EncodedWeights;
    optimizer: { step: number; m: EncodedWeights; v: EncodedWeights };
  } | null;
  silenced: boolean;
  rollbacks: number;
  /** The adaptive alarm after the previous window (a restore fires on its rise). */
  alarm: boolean;
}

/** Mean of the labels and its standard error, clustered by group (labels of one group are not independent). */
export function clusteredMean(labels: readonly number[], groups: readonly number[]): { mean: number; se: number } {
  const n = labels.length;
  const mean = labels.reduce((a, v) => a + v, 0) / n;
  const byGroup = new Map<number, number[]>();
  labels.forEach((v, i) => {
    // An ungrouped label (−1) is its own cluster.
    const g = groups[i] ?? -1;
    const key = g < 0 ? -(i + 1) : g;
    byGroup.set(key, [...(byGroup.get(key) ?? []), v]);
  });
  const means = [...byGroup.values()].map((vs) => vs.reduce((a, v) => a + v, 0) / vs.length);
  const k = means.length;
  if (k < 2) return { mean, se: 0 };
  const m = means.reduce((a, v) => a + v, 0) / k;
  const variance = means.reduce((a, v) => a + (v - m) ** 2, 0) / (k - 1);
  return { mean, se: Math.sqrt(variance / k) };
}

/** The plain updater with a rollback to the best settled window. */
export class RollbackUpdater extends PlainUpdater {
  private best: Snapshot | null = null;
  private silenced = false;
  private rollbacks = 0;
  private alarm = false;

  constructor(
    private readonly parts: UpdateParts,
    private readonly cfg: SettlementConfig['rollback'],
    /** Push the policy's (restored) weights to the rollout engine. */
    private readonly syncWeights: () => Promise<void>,
  ) {
    super(parts);
  }

  override async update(batch: UpdateBatch, rewards: Rewards): Promise<UpdateOutcome> {
    return { ...(await super.update(batch, rewards)), metrics: () => this.metrics() };
  }

  /** Zero once the policy has been rolled back (or the alarm fired): the RM's groups stay silenced. */
  rmWeight(settlementWeight: number): number {
    return this.silenced ? 0 : settlementWeight;
  }

  /** Keep the best window's snapshot; restore it when the window falls below it or the alarm rises. */
  async windowClosed(w: ClosedWindow): Promise<void> {
    if (w.labels.length === 0) return;
    const { mean, se } = clusteredMean(w.labels, w.groups);
    const prev = this.best;
    const dropped = prev !== null && prev.mean - mean > this.cfg.z * Math.sqrt(prev.se ** 2 + se ** 2);
    const alarmRose = this.cfg.on_alarm && w.alarm && !this.alarm;
    this.alarm = w.alarm;
    if (prev === null || mean > prev.mean) {
      this.best = {
        step: w.step,
        mean,
        se,
        weights: copyWeights(this.parts.policy.getWeights()),
        optimizer: this.parts.optimizer.getState(),
      };
    }
    if (!(dropped || alarmRose)) return;
    this.silenced = true;
    const best = this.best!;
    if (best.step === w.step) return;
    this.parts.policy.setWeights(copyWeights(best.weights));
    this.parts.optimizer.setState(best.optimizer);
    await this.syncWeights();
    this.rollbacks++;
  }

  private metrics(): Record<string, MetricValue> {
    return {
      [RK.count]: this.rollbacks,
      [RK.silenced]: Number(this.silenced),
      [RK.bestGold]: this.best?.mean ?? null,
    };
  }

  override getState(): RollbackState {
    const b = this.best;
    return {
      kind: 'rollback',
      best: b
        ? {
            step: b.step,
            mean: b.mean,
            se: b.se,
            weights: encodeWeights(b.weights),
            optimizer: { step: b.optimizer.step, m: encodeWeights(b.optimizer.m), v: encodeWeights(b.optimizer.v) },
          }
        : null,
      silenced: this.silenced,
      rollbacks: this.rollbacks,
      alarm: this.alarm,
    };
  }

  override setState(s: unknown): void {
    const st = s as RollbackState | undefined;
    if (!st) return;
    const b = st.best;
    this.best = b
      ? {
          step: b.step,
          mean: b.mean,
          se: b.se,
          weights: decodeWeights(b.weights),
          optimizer: { step: b.optimizer.step, m: decodeWeights(b.optimizer.m), v: decodeWeights(b.optimizer.v) },
        }
      : null;
    this.silenced = st.silenced;
    this.rollbacks = st.rollbacks;
    this.alarm = st.alarm;
  }
}

function copyWeights(w: WeightMap): WeightMap {
  return new Map([...w].map(([k, t]) => [k, { shape: [...t.shape], data: new Float32Array(t.data) }]));
}

function encodeWeights(w: WeightMap): EncodedWeights {
  return Object.fromEntries(
    [...w].map(([k, t]) => [
      k,
      { shape: [...t.shape], data: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64') },
    ]),
  );
}

function decodeWeights(e: EncodedWeights): WeightMap {
  return new Map(
    Object.entries(e).map(([k, t]) => {
      const buf = Buffer.from(t.data, 'base64');
      // A copy into its own (aligned) buffer: a Buffer's offset into its pool need not be 4-aligned.
      const data = new Float32Array(buf.byteLength / 4);
      new Uint8Array(data.buffer).set(buf);
      return [k, { shape: [...t.shape], data }];
    }),
  );
}
