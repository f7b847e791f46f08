/**
 * Shared vocabulary of the pre-action gate ("Verified before acting", docs/design.md). The roles are
 * generic over what an action carries, so the training loop (a proposed policy update) and the
 * `validate-loop` simulation drive the very same modules.
 */

/** A sparse feature vector (indices into the RM's feature list, with their values). */
export interface SparseVector {
  readonly indices: readonly number[];
  readonly values: readonly number[];
}

/**
 * An RM feature vector, dense or sparse. Sparse exists because the simulation has one feature per
 * failure mode (300) and allocating dense vectors per completion would dominate its run time.
 */
export type FeatureVector = readonly number[] | SparseVector;

/** Call `fn(index, value)` for every non-zero entry of a feature vector. */
export function forEachNonzero(x: FeatureVector, fn: (index: number, value: number) => void): void {
  if (isSparse(x)) {
    for (let k = 0; k < x.indices.length; k++) {
      const v = x.values[k]!;
      if (v !== 0) fn(x.indices[k]!, v);
    }
  } else {
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      if (v !== 0) fn(i, v);
    }
  }
}

/** True for the sparse representation. */
function isSparse(x: FeatureVector): x is SparseVector {
  return !Array.isArray(x) && typeof (x as SparseVector).indices === 'object';
}

/**
 * One completion of the window an action was computed from.
 * `gold` is the executed test pass fraction, or null while the completion is unsettled.
 */
export interface WindowItem<T = unknown> {
  /** Caller's identifier (unique within the run, e.g. `step:prompt:sample`). */
  readonly id: string;
  /** RM score (the proxy reward the update was priced with). */
  readonly proxy: number;
  /** Executed gold, or null when not executed. */
  readonly gold: number | null;
  /** The RM's feature vector of the completion, for the critic's attribution. */
  readonly features?: FeatureVector;
  /** Anything the caller wants carried along (the program text in training). */
  readonly payload?: T;
}

/** A candidate failure put forward by the simulator: a completion the RM overpays. */
export interface Claim<T = unknown> {
  readonly item: WindowItem<T>;
  /** The gold the claim rests on (executed, or obtained by probing). */
  readonly gold: number;
  /** proxy − gold. */
  readonly gap: number;
  /** Where the gold came from. */
  readonly source: 'settled' | 'probe' | 'outcome';
}

/** A claim explained by the critic. */
export interface Finding<T = unknown> {
  readonly claim: Claim<T>;
  /** Failure-mode key (e.g. the names of the most overpaid RM features joined by `+`). */
  readonly mode: string;
  /** Severity: the size of the hacking gap. */
  readonly severity: number;
  /** Severity at or above the critic's high-severity threshold. */
  readonly high: boolean;
  /** Per-feature overpayment, largest first (only positive contributions). */
  readonly attribution: readonly { feature: string; contribution: number }[];
}

/** The gate's five outcomes, in precedence order. */
const DECISIONS = ['DENY', 'ESCALATE', 'MODIFY', 'WAIT', 'AUTHORIZE'] as const;
/** A gate decision. Only AUTHORIZE commits. */
export type Decision = (typeof DECISIONS)[number];
