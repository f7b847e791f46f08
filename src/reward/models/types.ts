/**
 * The reward-model interface. A reward model maps feature vectors (from a
 * {@link FeatureExtractor}) to a predicted gold score, keeps its full label set, and can be
 * refitted on that set plus newly settled labels.
 */

/** Feature rows, one Float32Array per example, all of the model's dimension. */
export type FeatureRows = readonly Float32Array[];

/** A trainable reward model (tfjs-backed). All methods are deterministic for a given config. */
export interface RewardModel {
  readonly kind: 'ridge' | 'mlp';
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
  fit(X: FeatureRows, y: ArrayLike<number>): Promise<void>;
  /** Append (X, y) to the stored label set and refit on all of it. */
  refit(appendX: FeatureRows, appendY: ArrayLike<number>): Promise<void>;
  /** The label set the model was last fitted on (rows are shared, not copied: do not mutate). */
  labelSet(): { X: readonly Float32Array[]; y: readonly number[] };
  /** Free tfjs memory held by the model (models that hold tensors). */
  dispose?(): void;
  /** Predicted scores, one per row. */
  predict(X: FeatureRows): Promise<Float32Array>;
  /** Write `model.safetensors` + `model.json` (config, weights and the label set) into `dir`. */
  save(dir: string): Promise<void>;
}
