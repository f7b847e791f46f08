/**
 * The reward-model interface. A reward model maps feature vectors (from a
 * {@link FeatureExtractor}) to a predicted gold score, keeps its full label set, and can be
 * refitted on that set plus newly settled labels.
 */

/**
 * How a refit weights its labels (`settlement.weighting` in a run config): base labels weigh 1,
 * a settled label `onPolicy` × 2^(−age/halfLife) (age in windows; halfLife null = no decay), and
 * `pairwise` μ > 0 adds a within-group ranking term (ridge-math `WeightedRidgeOptions`).
 */
export interface LabelWeighting {
  onPolicy: number;
  halfLife: number | null;
  pairwise: number;
}

/** Feature rows, one Float32Array per example, all of the model's dimension. */
export type FeatureRows = readonly Float32Array[];

/** A trainable reward model (tfjs-backed). All methods are deterministic for a given config. */
export interface RewardModel {
  readonly kind: 'ridge' | 'mlp' | 'transformer';
  /** Feature dimension, fixed at the first fit (or load). */
  readonly dim: number | undefined;
  /** Number of labels the model was last fitted on. */
  readonly labelCount: number;
  /**
   * The model as weights on raw features, for models that are linear (ridge); absent for the
   * others. The gate's critic attributes reward to features through it.
   */
  readonly linear?: { readonly weights: ArrayLike<number> };
  /** Replace the label set with (X, y) and fit. */
  fit(X: FeatureRows, y: ArrayLike<number>, meta?: LabelMeta): Promise<void>;
  /** Append (X, y) to the stored label set (with its provenance) and refit on all of it. */
  refit(appendX: FeatureRows, appendY: ArrayLike<number>, meta?: LabelMeta): Promise<void>;
  /** Label weighting for refits (ridge only; models without it train unweighted). */
  setWeighting?(w: LabelWeighting): void;
  /** The label set the model was last fitted on (rows are shared, not copied: do not mutate). */
  labelSet(): { X: readonly Float32Array[]; y: readonly number[] };
  /** Free tfjs memory held by the model (models that hold tensors). */
  dispose?(): void;
  /** Predicted scores, one per row. */
  predict(X: FeatureRows): Promise<Float32Array>;
  /**
   * Models that carry their own committee (the transformer's K heads): how many members, and each
   * member's scores. The committee (conservative rewards, uncertainty settlement) uses them instead
   * of refitting bootstrap copies.
   */
  readonly members?: number;
  predictMembers?(X: FeatureRows): Promise<Float64Array[]>;
  /** Write `model.safetensors` + `model.json` (config, weights and the label set) into `dir`. */
  save(dir: string): Promise<void>;
}

/**
 * Where a batch of labels came from, for weighted refits: the settlement window that produced it
 * (absent: the initial base-policy labels) and, per row, its GRPO group (for within-group
 * ranking terms; absent or negative: none).
 */
export interface LabelMeta {
  window?: number;
  groups?: readonly number[];
}
