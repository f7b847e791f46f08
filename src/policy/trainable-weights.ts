/**
 * A policy model's weights and what of them trains, shared by the GPT-2 and Llama-family models:
 * every weight a tf.Variable (full fine-tuning), or the base as frozen tensors plus LoRA adapters
 * (./hf/lora.ts). Projections, adapter dropout, merging and the adapters-off reference are written
 * once here, so both architectures train, checkpoint and export adapters the same way.
 */
import { tf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { Rng } from '../util/rng.ts';
import { type LoraSpec, loraScale } from './hf/lora.ts';
import { validateContract } from './hf/validate.ts';
import { frozenMm, frozenMmT, linear, mm, mmT } from './ops.ts';
import type { ForwardOptions, LayerKv, PolicyModel, TokenBatch } from './policy-model.ts';
import type { WeightMap } from './weights.ts';

type T2 = tf.Tensor2D;

/** How a forward pass uses the adapters. */
export interface AdapterUse {
  /** Adapters on (the policy) or off (the frozen base: the KL reference). */
  on: boolean;
  /** The optimizer's forward pass: LoRA dropout with masks from this key (see ForwardOptions). */
  dropoutKey?: number | string | undefined;
}

/** LoRA settings: the spec and the adapter tensors' names and shapes. */
export interface LoraSetup {
  spec: LoraSpec;
  adapters: Map<string, number[]>;
}

/** Base weights plus the trainable parameters (all base weights, or LoRA adapters). */
export class TrainableWeights {
  /** Trainable parameters: every weight (full fine-tuning) or only the adapters (LoRA). */
  readonly params = new Map<string, tf.Variable>();
  readonly lora: LoraSpec | undefined;
  /** The base weights by contract name (the same tensors as `params` when fully fine-tuned). */
  private readonly base = new Map<string, tf.Tensor>();
  private readonly seed: number;

  /**
   * Copy `weights` (already validated against the model's contract; `names` gives their order).
   * With `lora`, the base is frozen and fresh adapters are drawn from `seed`: PEFT's default,
   * kaiming-uniform A (bound 1/sqrt(in)) from a per-tensor stream, zero B.
   */
  constructor(names: Iterable<string>, weights: WeightMap, opts: { lora?: LoraSetup; seed?: number } = {}) {
    this.lora = opts.lora?.spec;
    this.seed = opts.seed ?? 0;
    for (const name of names) {
      const w = weights.get(name)!;
      // Unnamed variables: tfjs variable names are process-global and several models coexist.
      const t = tf.tensor(w.data, w.shape, 'float32');
      if (this.lora) {
        this.base.set(name, t);
        continue;
      }
      const v = tf.variable(t, true);
      t.dispose(); // the variable holds its own reference to the data
      this.params.set(name, v);
      this.base.set(name, v);
    }
    if (!opts.lora) return;
    const root = new Rng(this.seed);
    for (const [name, shape] of opts.lora.adapters) {
      const size = shape[0]! * shape[1]!;
      const data = new Float32Array(size);
      if (name.endsWith('.lora_A')) {
        const rng = root.fork(name);
        const bound = 1 / Math.sqrt(shape[0]!);
        for (let i = 0; i < size; i++) data[i] = (rng.next() * 2 - 1) * bound;
      }
      const t = tf.tensor(data, shape, 'float32');
      this.params.set(name, tf.variable(t, true));
      t.dispose();
    }
  }

  /** Whether the base weights are frozen (LoRA). */
  get frozen(): boolean {
    return this.lora !== undefined;
  }

  /** A base tensor by contract name. */
  w(name: string): tf.Tensor {
    const t = this.base.get(name);
    if (!t) throw new AnchorError('INTERNAL', `missing parameter ${name}`);
    return t;
  }

  /** Whether the base has tensor `name`. */
  has(name: string): boolean {
    return this.base.has(name);
  }

  /** A copy of the trainable parameters. */
  getWeights(): WeightMap {
    return copyOut(this.params);
  }

  /** Overwrite the trainable parameters (validated: every tensor present with its shape). */
  setWeights(weights: WeightMap, validate?: (w: WeightMap) => void): void {
    if (validate) validate(weights);
    else
      validateContract(new Map([...this.params].map(([k, v]) => [k, [...v.shape]])), weights, this.lora ? 'adapters' : 'weights');
    for (const [name, v] of this.params) {
      const w = weights.get(name)!;
      tf.tidy(() => v.assign(tf.tensor(w.data, w.shape, 'float32')));
    }
  }

  /** The base weights, contract layout (without adapters). */
  baseWeights(): WeightMap {
    return copyOut(this.base);
  }

  /** Full weights with the adapters merged in (W + scale·A·B); the base weights without LoRA. */
  mergedWeights(): WeightMap {
    const out = this.baseWeights();
    if (!this.lora) return out;
    const scale = loraScale(this.lora);
    for (const [name, a] of this.params) {
      if (!name.endsWith('.lora_A')) continue;
      const mod = name.slice(0, -'.lora_A'.length);
      const b = this.params.get(`${mod}.lora_B`)!;
      const w = out.get(`${mod}.weight`)!;
      const delta = tf.tidy(() => tf.mul(tf.matMul(a, b), scale).dataSync() as Float32Array);
      for (let i = 0; i < w.data.length; i++) w.data[i]! += delta[i]!;
    }
    return out;
  }

  /**
   * The projection `module`: x · W (+ b), plus scale · (dropout(x) · A) · B when an adapter
   * targets it and adapters are on. Dropout (PEFT's lora_dropout, on the adapter path only) runs
   * in the optimizer's pass, each module with its own mask drawn from (seed, key, module).
   */
  proj(x: T2, module: string, use: AdapterUse): T2 {
    const w = this.w(`${module}.weight`) as T2;
    const b = this.base.get(`${module}.bias`);
    let y: T2;
    if (this.lora) {
      y = frozenMm(x, w);
      if (b) y = tf.add(y, b);
    } else {
      y = b ? linear(x, w, b as tf.Tensor1D) : mm(x, w);
    }
    const a = use.on ? this.params.get(`${module}.lora_A`) : undefined;
    if (!a) return y;
    const rate = this.lora!.dropout;
    const xin =
      rate > 0 && use.dropoutKey !== undefined
        ? tf.dropout(x, rate, undefined, new Rng(this.seed).fork(`lora-dropout/${use.dropoutKey}/${module}`).nextU32())
        : x;
    const low = mm(mm(xin as T2, a as T2), this.params.get(`${module}.lora_B`)! as T2);
    return tf.add(y, tf.mul(low, loraScale(this.lora!)));
  }

  /** Logits x · E for the head weight `name` [d, V], or x · Eᵀ (`tied`: the embedding [V, d]). */
  head(x: T2, name: string, tied: boolean): T2 {
    const e = this.w(name) as T2;
    if (this.lora) return tied ? frozenMmT(x, e) : frozenMm(x, e);
    return tied ? mmT(x, e) : mm(x, e);
  }

  dispose(): void {
    for (const v of this.params.values()) v.dispose();
    if (this.lora) for (const t of this.base.values()) t.dispose();
  }
}

function copyOut(m: Map<string, tf.Tensor>): WeightMap {
  const out: WeightMap = new Map();
  for (const [name, t] of m) out.set(name, { shape: [...t.shape], data: new Float32Array(t.dataSync() as Float32Array) });
  return out;
}

/**
 * The frozen base of a LoRA model as a policy (adapters off), sharing the model's tensors: the
 * KL reference under LoRA, no second copy of the weights. Disposing it is a no-op.
 */
export function adaptersOffView(
  model: { config: PolicyModel['config']; head(h: T2): T2 },
  run: (x: TokenBatch, opts: ForwardOptions) => { hidden: T2; present?: LayerKv[] },
): PolicyModel {
  return {
    config: model.config,
    params: new Map(),
    forward: (x, opts) => run(x, opts ?? {}),
    head: (h) => model.head(h),
    getWeights: () => new Map(),
    setWeights: () => {},
    dispose: () => {},
  };
}
