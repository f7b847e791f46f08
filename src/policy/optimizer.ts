/**
 * Adam(W) with global-norm gradient clipping and a warmup + constant/cosine/linear learning-rate
 * schedule, written out explicitly (rather than tf.train.adam) so its whole state — step count
 * and both moment estimates per parameter — can be saved and restored for exact resume.
 */
import { tf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { learningRateAt, optimizerConfigSchema, type OptimizerConfig } from './optimizer-config.ts';
import type { WeightMap } from './weights.ts';

export { LR_SCHEDULES, learningRateAt, optimizerConfigSchema, type OptimizerConfig } from './optimizer-config.ts';

/** What one optimizer step reports. */
export interface StepResult {
  /** Loss value (sum over micro-batches when several loss functions were given). */
  loss: number;
  /** Global gradient L2 norm before clipping. */
  gradNorm: number;
  /** Learning rate used. */
  lr: number;
  /** Step count after this step. */
  step: number;
}

/** Serialisable optimizer state: moments by parameter name, plus the step count. */
export interface OptimizerState {
  step: number;
  m: WeightMap;
  v: WeightMap;
}

/** Adam(W) over a named set of variables. */
export class AdamOptimizer {
  readonly config: OptimizerConfig;
  private readonly params: Map<string, tf.Variable>;
  private readonly m = new Map<string, tf.Variable>();
  private readonly v = new Map<string, tf.Variable>();
  private stepCount = 0;

  constructor(params: Map<string, tf.Variable>, config: Partial<OptimizerConfig> = {}) {
    this.config = optimizerConfigSchema.parse(config);
    this.params = params;
    for (const [name, p] of params) {
      for (const store of [this.m, this.v]) {
        const z = tf.zerosLike(p);
        store.set(name, tf.variable(z, false));
        z.dispose();
      }
    }
  }

  /** Steps taken so far. */
  get step(): number {
    return this.stepCount;
  }

  /**
   * One update. `lossFn` builds a scalar loss from the parameters (it runs inside
   * tf.variableGrads, so build the whole loss there). With an array of loss functions the
   * gradients are summed (micro-batching: scale each loss yourself). Tensor-neutral: all
   * intermediates are disposed.
   */
  trainStep(lossFn: (() => tf.Scalar) | (() => tf.Scalar)[]): StepResult {
    const fns = Array.isArray(lossFn) ? lossFn : [lossFn];
    if (fns.length === 0) throw new AnchorError('BAD_ARGUMENT', 'trainStep needs at least one loss function');
    const names = [...this.params.keys()];
    const vars = names.map((n) => this.params.get(n)!);
    const lr = learningRateAt(this.config, this.stepCount);
    const t = this.stepCount + 1;
    const c = this.config;
    const out = tf.tidy(() => {
      let total: tf.Tensor | undefined;
      let grads: tf.Tensor[] | undefined;
      for (const fn of fns) {
        const r = tf.variableGrads(fn, vars);
        const g = vars.map((v) => r.grads[v.name]!);
        // Summed as they come, the addends freed at once: micro-batches exist to bound memory,
        // so no more than two gradient sets may be alive.
        const prev = grads;
        grads = prev ? prev.map((a, i) => tf.add(a, g[i]!)) : g;
        if (prev) tf.dispose([...prev, ...g]);
        const t0 = total;
        total = t0 ? tf.add(t0, r.value) : r.value;
        if (t0) tf.dispose([t0, r.value]);
      }
      const gs = grads!;
      const norm = tf.sqrt(tf.addN(gs.map((g) => tf.sum(tf.square(g)))));
      const scale = c.grad_clip > 0 ? tf.minimum(1, tf.div(c.grad_clip, tf.add(norm, 1e-6))) : tf.scalar(1);
      const bc1 = 1 - c.beta1 ** t;
      const bc2 = 1 - c.beta2 ** t;
      // One tidy per parameter, and each gradient released once applied: the update's ~12
      // temporaries per element exist for one tensor at a time, not as ~12 copies of the whole
      // model held until the step ends (the wasm heap is capped at 4 GiB; see hf/train-memory.ts).
      names.forEach((name, i) => {
        tf.tidy(() => {
          const p = vars[i]!;
          const g = tf.mul(gs[i]!, scale);
          const m = this.m.get(name)!;
          const v = this.v.get(name)!;
          const m2 = tf.add(tf.mul(m, c.beta1), tf.mul(g, 1 - c.beta1));
          const v2 = tf.add(tf.mul(v, c.beta2), tf.mul(tf.square(g), 1 - c.beta2));
          m.assign(m2);
          v.assign(v2);
          let update = tf.div(tf.div(m2, bc1), tf.add(tf.sqrt(tf.div(v2, bc2)), c.eps));
          if (c.weight_decay > 0 && p.rank >= 2) update = tf.add(update, tf.mul(p, c.weight_decay));
          p.assign(tf.sub(p, tf.mul(update, lr)));
        });
        gs[i]!.dispose();
      });
      return tf.stack([tf.reshape(total!, []), norm]);
    });
    const [loss, gradNorm] = out.dataSync() as Float32Array;
    out.dispose();
    this.stepCount = t;
    return { loss: loss!, gradNorm: gradNorm!, lr, step: t };
  }

  /** A copy of the optimizer state. */
  getState(): OptimizerState {
    const dump = (src: Map<string, tf.Variable>): WeightMap => {
      const w: WeightMap = new Map();
      for (const [k, v] of src) w.set(k, { shape: [...v.shape], data: new Float32Array(v.dataSync() as Float32Array) });
      return w;
    };
    return { step: this.stepCount, m: dump(this.m), v: dump(this.v) };
  }

  /** Restore a state from {@link getState} (shapes must match the parameters). */
  setState(state: OptimizerState): void {
    for (const [label, src, dst] of [
      ['m', state.m, this.m],
      ['v', state.v, this.v],
    ] as const) {
      for (const [name, variable] of dst) {
        const w = src.get(name);
        if (!w) throw new AnchorError('BAD_MODEL', `optimizer state: missing ${label}.${name}`);
        if (w.shape.join(',') !== variable.shape.join(',')) {
          throw new AnchorError(
            'BAD_MODEL',
            `optimizer state: ${label}.${name} has shape [${w.shape}], expected [${variable.shape}]`,
          );
        }
        tf.tidy(() => variable.assign(tf.tensor(w.data, w.shape, 'float32')));
      }
    }
    if (!Number.isInteger(state.step) || state.step < 0)
      throw new AnchorError('BAD_MODEL', `optimizer state: bad step ${state.step}`);
    this.stepCount = state.step;
  }

  /** Release the moment variables. */
  dispose(): void {
    for (const v of [...this.m.values(), ...this.v.values()]) v.dispose();
    this.m.clear();
    this.v.clear();
  }
}
