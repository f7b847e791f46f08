/**
 * Ridge-regression reward model in TensorFlow.js. tfjs does the O(n·d²) work (centring and the
 * Gram matrix, prediction); the small SPD solve and the intercept are the shared float64 math of
 * ridge-math.ts, the same code the pure-JS DSL sweeps use.
 */
import { tf } from '../../tf/backend.ts';
import { AnchorError } from '../../util/errors.ts';
import { columnStats, finishLinear, ridgeForm, solveShifted, type LinearFit } from './ridge-math.ts';
import type { FeatureRows, RewardModel } from './types.ts';
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

  async fit(X: FeatureRows, y: ArrayLike<number>): Promise<void> {
    this.labels.replace(X, y);
    this.solve();
  }

  async refit(appendX: FeatureRows, appendY: ArrayLike<number>): Promise<void> {
    this.labels.append(appendX, appendY);
    this.solve();
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
    const { X, y, n, d } = this.labels.view();
    const { mean, scale } = columnStats(X, d, this.options.standardize);
    let yMean = 0;
    for (let i = 0; i < n; i++) yMean += y[i]!;
    yMean /= n;
    const form = ridgeForm(n, d);
    // tfjs: Z = (X − x̄)/s; Gram = ZᵀZ (primal) or ZZᵀ (dual); rhs = Zᵀyc (primal).
    const [gram, rhs] = tf.tidy(() => {
      const Z = tf.div(tf.sub(tf.tensor2d(toMatrix(X, d), [n, d]), tf.tensor1d(Float32Array.from(mean))), tf.tensor1d(Float32Array.from(scale)));
      const yc = tf.sub(tf.tensor2d(Float32Array.from(y), [n, 1]), yMean);
      if (form === 'primal') return [tf.matMul(Z, Z, true, false), tf.matMul(Z, yc, true, false)];
      return [tf.matMul(Z, Z, false, true), yc];
    });
    const G = gram.dataSync();
    const b = rhs.dataSync();
    gram.dispose();
    rhs.dispose();
    let w: ArrayLike<number>;
    if (form === 'primal') {
      w = solveShifted(G, b, d, this.options.alpha);
    } else {
      const a = solveShifted(G, b, n, this.options.alpha);
      const wt = tf.tidy(() => {
        const Z = tf.div(tf.sub(tf.tensor2d(toMatrix(X, d), [n, d]), tf.tensor1d(Float32Array.from(mean))), tf.tensor1d(Float32Array.from(scale)));
        return tf.matMul(Z, tf.tensor2d(Float32Array.from(a), [n, 1]), true, false).reshape([d]);
      });
      w = Float64Array.from(wt.dataSync());
      wt.dispose();
    }
    this.fitted = finishLinear(w, mean, scale, yMean);
  }

  /** Tensors to save (weights + label set). */
  exportState(): { tensors: Map<string, { shape: number[]; data: Float32Array }>; meta: Record<string, unknown> } {
    const fit = this.linear;
    const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
    tensors.set('weights', { shape: [fit.weights.length], data: Float32Array.from(fit.weights) });
    for (const [k, v] of this.labels.exportTensors()) tensors.set(k, v);
    // The intercept goes in JSON as a float64 number: it is the one value float32 rounding hurts.
    return { tensors, meta: { intercept: fit.intercept, weightsF64: Array.from(fit.weights), labels_y: this.labels.exportLabels() } };
  }

  /** Restore from {@link exportState} output. */
  importState(tensors: Map<string, { shape: number[]; data: Float32Array }>, meta: Record<string, unknown>): void {
    this.labels.importTensors(tensors, meta.labels_y);
    const w64 = meta.weightsF64 as number[] | undefined;
    const w = tensors.get('weights');
    if (!w || typeof meta.intercept !== 'number') throw new AnchorError('BAD_MODEL', 'ridge model file lacks weights or intercept');
    this.fitted = { weights: Float64Array.from(w64 ?? w.data), intercept: meta.intercept };
  }

  async save(dir: string): Promise<void> {
    await saveModelFiles(dir, this);
  }
}
