/**
 * A bootstrap committee of reward models: M members of the RM's own kind, each fitted on a
 * bootstrap resample of the RM's current label set. Where the members disagree, the label set says
 * little — the `uncertainty` settlement strategy settles there, and a conservative ensemble reward
 * (`proxy.ensemble`) pays mean − λ·std (or the minimum) of the members.
 *
 * Ridge members are cheap: they share the RM's own Gram matrix and Cholesky factor and take one
 * Newton step under Poisson-bootstrap weights (ridge-math `bootstrapMembers`) — milliseconds per
 * member where a refit costs seconds. A model with members of its own (the transformer's bootstrap
 * heads) is its own committee. Other kinds refit each member on a resample.
 */
import type { Rng } from '../../util/rng.ts';
import type { RewardModelConfig } from './config.ts';
import { createRewardModel } from './kinds.ts';
import { predictLinear } from './ridge-math.ts';
import { RidgeRewardModel } from './ridge.ts';
import type { FeatureRows, RewardModel } from './types.ts';

/** Committee settings (`settlement.committee` in a run config). */
export interface CommitteeOptions {
  /** Members (≥ 2). */
  members: number;
}

/** Fitted committee members: per-member predictions on any rows. */
export interface Committee {
  readonly members: number;
  /** One prediction array per member. */
  predict(X: FeatureRows): Promise<Float64Array[]>;
  dispose(): void;
}

/**
 * Build a committee on the RM's current label set. Deterministic given `rng`. Ridge: one-step
 * bootstrap members on the RM's own factor (no refit). Other kinds: `members` fresh models fitted
 * on resamples (n draws with replacement), each with its own initialisation seed.
 */
export async function buildCommittee(
  rm: RewardModel,
  config: RewardModelConfig,
  rng: Rng,
  opts: CommitteeOptions,
): Promise<Committee> {
  if (rm instanceof RidgeRewardModel) {
    const fits = rm.bootstrap(opts.members, () => rng.next());
    return {
      members: fits.length,
      predict: async (X) => fits.map((f) => predictLinear(f, X)),
      dispose: () => {},
    };
  }
  // A model with its own members (the transformer's heads): they are the committee.
  if (rm.predictMembers && (rm.members ?? 0) >= 2) {
    const predictMembers = rm.predictMembers.bind(rm);
    return { members: rm.members!, predict: predictMembers, dispose: () => {} };
  }
  const { X: LX, y: Ly } = rm.labelSet();
  const n = Ly.length;
  const models: RewardModel[] = [];
  for (let m = 0; m < opts.members; m++) {
    const rows: Float32Array[] = new Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const j = rng.int(n);
      rows[i] = LX[j]!;
      ys[i] = Ly[j]!;
    }
    const member = createRewardModel({ ...config, seed: config.seed + 1 + m });
    await member.fit(rows, ys);
    models.push(member);
  }
  return {
    members: models.length,
    predict: async (X) => Promise.all(models.map(async (m) => Float64Array.from(await m.predict(X)))),
    dispose: () => models.forEach((m) => m.dispose?.()),
  };
}

/** Per-row mean and population standard deviation over members. */
function memberStats(preds: readonly Float64Array[]): { mean: Float64Array; std: Float64Array; min: Float64Array } {
  const n = preds[0]?.length ?? 0;
  const mean = new Float64Array(n);
  const std = new Float64Array(n);
  const min = new Float64Array(n).fill(Infinity);
  for (const p of preds) for (let i = 0; i < n; i++) (mean[i]! += p[i]! / preds.length), (min[i] = Math.min(min[i]!, p[i]!));
  for (const p of preds) for (let i = 0; i < n; i++) std[i]! += (p[i]! - mean[i]!) ** 2 / preds.length;
  for (let i = 0; i < n; i++) std[i] = Math.sqrt(std[i]!);
  return { mean, std, min };
}

/**
 * Per-row standard deviation of the committee's predictions on `X` (population std over members).
 * Deterministic given `rng`. Ridge: one shared factor, no refits; other kinds: `members` fits.
 */
export async function committeeDisagreement(
  rm: RewardModel,
  config: RewardModelConfig,
  X: FeatureRows,
  rng: Rng,
  opts: CommitteeOptions,
): Promise<Float64Array> {
  if (X.length === 0) return new Float64Array(0);
  const committee = await buildCommittee(rm, config, rng, opts);
  const { std } = memberStats(await committee.predict(X));
  committee.dispose();
  return std;
}
