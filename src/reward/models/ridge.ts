/**
 * Ridge-regression reward model in TensorFlow.js. tfjs does the O(n·d²) work (centring and the
 * Gram matrix, prediction); the small SPD solve and the intercept are the shared float64 math of
 * ridge-math.ts, the same code the pure-JS DSL sweeps use.
 */
import { tf } from '../../tf/backend.ts';
import { AnchorError } from '../../util/errors.ts';
import { bootstrapMembers, ridgeDesign, ridgeForm, solveDesign, type LinearFit, type RidgeSolution } from './ridge-math.ts';
import type { FeatureRows, LabelWeighting, RewardModel, LabelMeta } from './types.ts';
import { LabelStore, toMatrix } from './label-store.ts';
import { saveModelFiles } from './persist.ts';

/** Ridge settings. */
export interface RidgeModelOptions {
  alpha: number;
  standardize: boolean;
}

/** Ridge regression (intercept unpenalised), closed form via the normal equations. */
export class RidgeRewardModel implements RewardModel {
  readonly kind = 'ridge' as const;
  private readonly labels = new LabelStore();
  private fitted: LinearFit | undefined;
  /** The last solve (design and Cholesky factor), kept for cheap bootstrap members. */
  private solution: RidgeSolution | undefined;
  private weighting: LabelWeighting = { onPolicy: 1, halfLife: null, pairwise: 0 };

  constructor(readonly options: RidgeModelOptions) {
    if (!(options.alpha >= 0)) throw new AnchorError('BAD_CONFIG', `ridge alpha must be >= 0, got ${options.alpha}`);
  }

  get dim(): number | undefined {
    return this.fitted?.weights.length ?? this.labels.dim;
  }

  get labelCount(): number {
    return this.labels.size;
  }

  labelSet(): { X: readonly Float32Array[]; y: readonly number[] } {
    const { X, y } = this.labels.view();
    return { X, y };
  }

  /** The fitted weights and intercept (raw-feature space). */
  get linear(): LinearFit {
    if (!this.fitted) throw new AnchorError('RUN_FAILED', 'ridge model used before fit');
    return this.fitted;
  }

  async fit(X: FeatureRows, y: ArrayLike<number>, meta?: LabelMeta): Promise<void> {
    this.labels.replace(X, y, meta);
    this.solve();
  }

  async refit(appendX: FeatureRows, appendY: ArrayLike<number>, meta?: LabelMeta): Promise<void> {
    this.labels.append(appendX, appendY, meta);
    this.solve();
  }

  /** How refits weight their labels (takes effect at the next fit or refit). */
  setWeighting(w: LabelWeighting): void {
    this.weighting = { ...w };
  }

  /**
   * Per-label weights of the current label set: 1 for base labels (window < 0); settled labels
   * `onPolicy` × 2^(−age / halfLife), age in windows behind the newest settled window.
   */
  labelWeights(): Float64Array {
    const { windows } = this.labels.view();
    const newest = windows.reduce((a, w) => Math.max(a, w), -1);
    const { onPolicy, halfLife } = this.weighting;
    return Float64Array.from(windows, (w) => (w < 0 ? 1 : onPolicy * (halfLife === null ? 1 : 2 ** (-(newest - w) / halfLife))));
  }

  /**
   * `members` bootstrap refits of the current label set, without refitting: Poisson-bootstrap
   * weights and one Newton step from the fit on the shared factor (ridge-math `bootstrapMembers`).
   */
  bootstrap(members: number, uniform: () => number): LinearFit[] {
    this.solution ??= this.solveOnce();
    return bootstrapMembers(this.solution, members, uniform);
  }

  async predict(X: FeatureRows): Promise<Float32Array> {
    const fit = this.linear;
    const d = fit.weights.length;
    if (X.length === 0) return new Float32Array(0);
    const out = tf.tidy(() => {
      const x = tf.tensor2d(toMatrix(X, d), [X.length, d]);
      const w = tf.tensor2d(Float32Array.from(fit.weights), [d, 1]);
      return tf.add(tf.matMul(x, w), fit.intercept).reshape([X.length]);
    });
    const data = out.dataSync() as Float32Array;
    out.dispose();
    return Float32Array.from(data);
  }

  private solve(): void {
    this.solution = this.solveOnce();
    this.fitted = this.solution.fit;
  }

  /**
   * Weighted (and, with `pairwise` > 0, within-group ranking) ridge on the label set: the design
   * rows are built in float64 (ridge-math `ridgeDesign`), tfjs computes the Gram matrix (the
   * O(m·d²) part), the shared float64 code solves it.
   */
  private solveOnce(): RidgeSolution {
    const { X, y, groups } = this.labels.view();
    const design = ridgeDesign(X, y, {
      alpha: this.options.alpha,
      standardize: this.options.standardize,
      weights: this.labelWeights(),
      groups,
      pairwise: this.weighting.pairwise,
    });
    const { A, m, d } = design;
    // AᵀA (primal) or AAᵀ (dual) with the transpose materialised first: on the wasm backend a
    // matMul with a transposed operand leaves XNNPACK for a naive loop, ~20x slower — seconds per
    // refit at the default's 1,600+ labels × 1,030 features.
    const gram = tf.tidy(() => {
      const a = tf.tensor2d(Float32Array.from(A), [m, d]);
      const at = tf.transpose(a);
      return ridgeForm(m, d) === 'primal' ? tf.matMul(at, a) : tf.matMul(a, at);
    });
    const G = gram.dataSync();
    gram.dispose();
    return solveDesign(design, G, this.options.alpha);
  }

  /** Tensors to save (weights + label set). */
  exportState(): { tensors: Map<string, { shape: number[]; data: Float32Array }>; meta: Record<string, unknown> } {
    const fit = this.linear;
    const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
    tensors.set('weights', { shape: [fit.weights.length], data: Float32Array.from(fit.weights) });
    for (const [k, v] of this.labels.exportTensors()) tensors.set(k, v);
    // The intercept goes in JSON as a float64 number: it is the one value float32 rounding hurts.
    return {
      tensors,
      meta: {
        intercept: fit.intercept,
        weightsF64: Array.from(fit.weights),
        labels_y: this.labels.exportLabels(),
        labels_meta: this.labels.exportMeta(),
      },
    };
  }

  /** Restore from {@link exportState} output. */
  importState(tensors: Map<string, { shape: number[]; data: Float32Array }>, meta: Record<string, unknown>): void {
    this.labels.importTensors(tensors, meta.labels_y, meta.labels_meta);
    const w64 = meta.weightsF64 as number[] | undefined;
    const w = tensors.get('weights');
    if (!w || typeof meta.intercept !== 'number')
      throw new AnchorError('BAD_MODEL', 'ridge model file lacks weights or intercept');
    this.fitted = { weights: Float64Array.from(w64 ?? w.data), intercept: meta.intercept };
  }

  async save(dir: string): Promise<void> {
    await saveModelFiles(dir, this);
  }
}
