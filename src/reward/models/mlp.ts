/**
 * A small MLP reward model in TensorFlow.js: standardised inputs → ReLU hidden layers → linear
 * output, mean squared error + L2 on weights, Adam, fixed epochs, minibatches in a seeded order.
 *
 * Determinism: initial weights come from the project's seeded Rng (Glorot uniform), not tfjs's
 * initialisers, and batch order from a fork of the same Rng, so a given seed and label set give
 * the same model. `refit` re-initialises from the seed and trains on the whole label set, so the
 * model is a function of its labels alone (no dependence on refit history).
 */
import { tf } from '../../tf/backend.ts';
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { columnStats } from './ridge-math.ts';
import { LabelStore, toMatrix } from './label-store.ts';
import { saveModelFiles } from './persist.ts';
import type { FeatureRows, RewardModel } from './types.ts';

/** MLP settings (mirrors `reward_model.mlp` in the config). */
export interface MlpModelOptions {
  hidden: number[];
  epochs: number;
  lr: number;
  batchSize: number;
  weightDecay: number;
  seed: number;
}

interface Layer {
  w: tf.Variable;
  b: tf.Variable;
}

/** The MLP reward model. */
export class MlpRewardModel implements RewardModel {
  readonly kind = 'mlp' as const;
  private readonly labels = new LabelStore();
  private layers: Layer[] = [];
  private mean: Float32Array | undefined;
  private scale: Float32Array | undefined;

  constructor(readonly options: MlpModelOptions) {}

  get dim(): number | undefined {
    return this.mean?.length ?? this.labels.dim;
  }

  get labelCount(): number {
    return this.labels.size;
  }

  labelSet(): { X: readonly Float32Array[]; y: readonly number[] } {
    const { X, y } = this.labels.view();
    return { X, y };
  }

  async fit(X: FeatureRows, y: ArrayLike<number>): Promise<void> {
    this.labels.replace(X, y);
    this.train();
  }

  async refit(appendX: FeatureRows, appendY: ArrayLike<number>): Promise<void> {
    this.labels.append(appendX, appendY);
    this.train();
  }

  async predict(X: FeatureRows): Promise<Float32Array> {
    if (this.layers.length === 0 || !this.mean || !this.scale) throw new AnchorError('RUN_FAILED', 'MLP model used before fit');
    if (X.length === 0) return new Float32Array(0);
    const d = this.mean.length;
    const out = tf.tidy(() => this.forward(this.standardized(toMatrix(X, d), X.length)).reshape([X.length]));
    const data = Float32Array.from(out.dataSync() as Float32Array);
    out.dispose();
    return data;
  }

  /** Release the model's variables. */
  dispose(): void {
    for (const l of this.layers) {
      l.w.dispose();
      l.b.dispose();
    }
    this.layers = [];
  }

  private standardized(flat: Float32Array, n: number): tf.Tensor2D {
    const d = this.mean!.length;
    return tf.div(tf.sub(tf.tensor2d(flat, [n, d]), tf.tensor1d(this.mean!)), tf.tensor1d(this.scale!)) as tf.Tensor2D;
  }

  private forward(x: tf.Tensor2D): tf.Tensor2D {
    let h: tf.Tensor2D = x;
    this.layers.forEach((l, i) => {
      h = tf.add(tf.matMul(h, l.w), l.b) as tf.Tensor2D;
      if (i < this.layers.length - 1) h = tf.relu(h);
    });
    return h;
  }

  private init(d: number): void {
    this.dispose();
    const rng = new Rng(this.options.seed).fork('mlp-init');
    const sizes = [d, ...this.options.hidden, 1];
    for (let i = 0; i + 1 < sizes.length; i++) {
      const fanIn = sizes[i]!;
      const fanOut = sizes[i + 1]!;
      const limit = Math.sqrt(6 / (fanIn + fanOut));
      const w = new Float32Array(fanIn * fanOut);
      for (let k = 0; k < w.length; k++) w[k] = (rng.next() * 2 - 1) * limit;
      this.layers.push(makeLayer(tf.tensor2d(w, [fanIn, fanOut]), tf.zeros([fanOut])));
    }
  }

  private train(): void {
    const { X, y, n, d } = this.labels.view();
    const stats = columnStats(X, d, true);
    this.mean = Float32Array.from(stats.mean);
    this.scale = Float32Array.from(stats.scale);
    this.init(d);
    const { epochs, lr, batchSize, weightDecay } = this.options;
    const order = new Rng(this.options.seed).fork('mlp-batches');
    const xs = tf.tidy(() => this.standardized(toMatrix(X, d), n));
    const ys = tf.tensor2d(Float32Array.from(y), [n, 1]);
    const optimizer = tf.train.adam(lr);
    const vars = this.layers.flatMap((l) => [l.w, l.b]);
    try {
      for (let e = 0; e < epochs; e++) {
        const perm = order.shuffle(Array.from({ length: n }, (_, i) => i));
        for (let s = 0; s < n; s += batchSize) {
          const idx = tf.tensor1d(Int32Array.from(perm.slice(s, s + batchSize)), 'int32');
          const cost = optimizer.minimize(
            () => {
              const xb = tf.gather(xs, idx) as tf.Tensor2D;
              const yb = tf.gather(ys, idx);
              const mse = tf.mean(tf.square(tf.sub(this.forward(xb), yb)));
              if (weightDecay === 0) return mse as tf.Scalar;
              const l2 = this.layers.map((l) => tf.sum(tf.square(l.w)));
              return tf.add(mse, tf.mul(weightDecay, tf.addN(l2))) as tf.Scalar;
            },
            false,
            vars,
          );
          cost?.dispose();
          idx.dispose();
        }
      }
    } finally {
      optimizer.dispose();
      xs.dispose();
      ys.dispose();
    }
  }

  /** Tensors to save (layers, standardisation and the label set). */
  exportState(): { tensors: Map<string, { shape: number[]; data: Float32Array }>; meta: Record<string, unknown> } {
    if (!this.mean || !this.scale) throw new AnchorError('RUN_FAILED', 'MLP model saved before fit');
    const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
    tensors.set('input.mean', { shape: [this.mean.length], data: this.mean });
    tensors.set('input.scale', { shape: [this.scale.length], data: this.scale });
    this.layers.forEach((l, i) => {
      tensors.set(`layers.${i}.weight`, { shape: l.w.shape.slice(), data: Float32Array.from(l.w.dataSync() as Float32Array) });
      tensors.set(`layers.${i}.bias`, { shape: l.b.shape.slice(), data: Float32Array.from(l.b.dataSync() as Float32Array) });
    });
    for (const [k, v] of this.labels.exportTensors()) tensors.set(k, v);
    return { tensors, meta: { layers: this.layers.length, labels_y: this.labels.exportLabels() } };
  }

  /** Restore from {@link exportState} output. */
  importState(tensors: Map<string, { shape: number[]; data: Float32Array }>, meta: Record<string, unknown>): void {
    this.labels.importTensors(tensors, meta.labels_y);
    const mean = tensors.get('input.mean');
    const scale = tensors.get('input.scale');
    const count = meta.layers;
    if (!mean || !scale || typeof count !== 'number') throw new AnchorError('BAD_MODEL', 'MLP model file is incomplete');
    this.mean = mean.data;
    this.scale = scale.data;
    this.dispose();
    for (let i = 0; i < count; i++) {
      const w = tensors.get(`layers.${i}.weight`);
      const b = tensors.get(`layers.${i}.bias`);
      if (!w || !b) throw new AnchorError('BAD_MODEL', `MLP model file lacks layer ${i}`);
      this.layers.push(makeLayer(tf.tensor2d(w.data, w.shape as [number, number]), tf.tensor1d(b.data)));
    }
  }

  async save(dir: string): Promise<void> {
    await saveModelFiles(dir, this);
  }
}

// tfjs variable names must be unique per process.
let uid = 0;

/** Variables from initial tensors; the initial tensors are disposed (tf.variable copies them). */
function makeLayer(w: tf.Tensor, b: tf.Tensor): Layer {
  const id = uid++;
  const layer = { w: tf.variable(w, true, `mlp_w_${id}`), b: tf.variable(b, true, `mlp_b_${id}`) };
  w.dispose();
  b.dispose();
  return layer;
}
