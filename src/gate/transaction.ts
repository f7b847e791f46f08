/**
 * Transaction: applies a proposed update tentatively and rolls it back unless the gate commits.
 *
 * The oracle's invariants concern the *updated* policy (finite weights, KL of the new policy to
 * the reference), so the update has to be applied before it can be judged; everything other
 * than AUTHORIZE (DENY, ESCALATE, MODIFY, WAIT) then restores the exact pre-update state —
 * weights and optimizer state alike.
 */

/** Something whose full state can be captured and put back (policy weights + optimizer state). */
export interface Restorable<S> {
  snapshot(): S | Promise<S>;
  restore(state: S): void | Promise<void>;
}

/** Outcome of a gated update. */
export interface GatedOutcome<R> {
  readonly result: R;
  /** The pre-update state was restored (the update was not committed). */
  readonly restored: boolean;
}

/**
 * Snapshot, apply, gate, and restore unless `decide` commits. If `apply` or `decide` throws, the
 * snapshot is restored before the error propagates, so a failed step never leaves a half-applied
 * update behind.
 */
export async function gatedUpdate<S, R extends { readonly commit: boolean }>(
  target: Restorable<S>,
  apply: () => void | Promise<void>,
  decide: () => R | Promise<R>,
): Promise<GatedOutcome<R>> {
  const before = await target.snapshot();
  let result: R;
  try {
    await apply();
    result = await decide();
  } catch (err) {
    await target.restore(before);
    throw err;
  }
  if (result.commit) return { result, restored: false };
  await target.restore(before);
  return { result, restored: true };
}
