/**
 * A transformer reward model initialised from the base policy's own trunk, as RLHF reward models
 * are initialised from the pretrained language model (Ouyang et al. 2022; Gao et al. 2022): the
 * policy's GPT (src/policy/model.ts, same weights, same tokenizer through the `policy-tokens`
 * features) runs the program, its final hidden states are pooled (mean over the tokens, or the
 * last token) and K linear heads map the pooled state to scalar scores. The prediction is the mean
 * of the heads; their spread is the model's uncertainty (the committee of conservative rewards and
 * uncertainty settlement).
 *
 * Training: mean squared error against the executed label (pass fraction) per head, each head with
 * its own Poisson(1) bootstrap weights per label (K > 1), plus an optional within-group pairwise
 * term μ·mean −log σ(s_better − s_worse) over pairs of the same GRPO group with different labels.
 * Only the top `train_layers` blocks, the final LayerNorm and the heads are trained (the
 * embeddings and lower blocks stay the base's), with the project's Adam.
 *
 * `fit` trains from the trunk on the whole label set; `refit` warm-starts from the current weights
 * and trains on the appended labels plus a replay of `replay` base labels (drawn afresh per refit),
 * so the model does not forget the base distribution. Every random draw (head init, bootstrap
 * weights, replay, batch order) comes from the seeded Rng forked by the refit count, so a model
 * and its saved copy refit identically.
 */
import { tf } from '../../tf/backend.ts';
import { AnchorError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import type { GptConfig } from '../../policy/gpt-config.ts';
import { GptModel, positionsFromMask, type TokenBatch } from '../../policy/model.ts';
import { AdamOptimizer } from '../../policy/optimizer.ts';
import type { WeightMap } from '../../policy/weights.ts';
import { LabelStore } from './label-store.ts';
import { saveModelFiles, type TensorMap } from './persist.ts';
import type { FeatureRows, LabelMeta, RewardModel } from './types.ts';

/** Transformer RM settings (mirrors `reward_model.transformer`, plus the trunk's shape). */
export interface TransformerModelOptions {
  /** The policy trunk's shape (its weights come with `create` or from the saved file). */
  trunk: GptConfig;
  /** Scalar heads K (≥ 1); with K ≥ 2 each head trains on its own bootstrap weights. */
  heads: number;
  /** Top transformer blocks trained (0: only the final LayerNorm and the heads). */
  trainLayers: number;
  /** Pooling of the final hidden states: mean over the tokens, or the last token. */
  pool: 'mean' | 'last';
  /** Epochs of the initial fit (over the base labels). */
  epochs: number;
  /** Epochs of each refit (over the new labels and the replay). */
  refitEpochs: number;
  lr: number;
  batchSize: number;
  /** Weight μ of the within-group pairwise term (0: none). */
  pairwise: number;
  /** Base labels replayed in each refit. */
  replay: number;
  seed: number;
  /**
   * Compute only what the score needs (`reward_model.transformer.fast`): each labelled program's
   * frozen lower part is computed once, alone, and kept; with `pool: last` the last block runs at
   * the last token only. Absent in models saved before the option: those keep the full forward.
   */
  fast?: boolean;
}

/** Marks an unused position of a `policy-tokens` feature row. */
export const TOKEN_PAD = -1;

// tfjs variable names must be unique per process.
let uid = 0;

/** The transformer reward model. */
export class TransformerRewardModel implements RewardModel {
  readonly kind = 'transformer' as const;
  private readonly labels = new LabelStore();
  private readonly trunk: GptModel;
  private headW: tf.Variable;
  private headB: tf.Variable;
  /** Refits done (forks the random streams of the next one). */
  private refits = 0;
  private fitted = false;
  /** Blocks below the trained ones (their output never changes). */
  private readonly split: number;
  /**
   * With `fast`: per label row, the frozen lower part's output [tokens × d], computed for the
   * program alone so it is a function of the program only (batched with others it would differ in
   * the last bits with the batch's padded length) — recomputed identically after a load.
   */
  private readonly lower = new Map<number, Float32Array>();

  constructor(
    readonly options: TransformerModelOptions,
    trunkWeights: WeightMap,
  ) {
    if (!(options.heads >= 1))
      throw new AnchorError('BAD_CONFIG', `reward_model.transformer.heads must be ≥ 1, got ${options.heads}`);
    if (options.trainLayers > options.trunk.layers)
      throw new AnchorError(
        'BAD_CONFIG',
        `reward_model.transformer.train_layers is ${options.trainLayers} but the policy trunk has ${options.trunk.layers} blocks`,
      );
    this.trunk = GptModel.fromWeights(options.trunk, trunkWeights);
    this.split = options.trunk.layers - options.trainLayers;
    const id = uid++;
    this.headW = tf.variable(tf.zeros([options.trunk.dModel, options.heads]), true, `trm_w_${id}`);
    this.headB = tf.variable(tf.zeros([options.heads]), true, `trm_b_${id}`);
  }

  get dim(): number | undefined {
    return this.labels.dim;
  }

  get labelCount(): number {
    return this.labels.size;
  }

  /** Heads whose spread is the model's uncertainty. */
  get members(): number {
    return this.options.heads;
  }

  labelSet(): { X: readonly Float32Array[]; y: readonly number[] } {
    const { X, y } = this.labels.view();
    return { X, y };
  }

  async fit(X: FeatureRows, y: ArrayLike<number>, meta?: LabelMeta): Promise<void> {
    this.labels.replace(X, y, meta);
    this.lower.clear();
    this.initHeads(Array.from(y));
    const { n } = this.labels.view();
    this.train(
      Array.from({ length: n }, (_, i) => i),
      this.options.epochs,
      new Rng(this.options.seed).fork('fit'),
    );
    this.fitted = true;
  }

  async refit(appendX: FeatureRows, appendY: ArrayLike<number>, meta?: LabelMeta): Promise<void> {
    if (!this.fitted) throw new AnchorError('RUN_FAILED', 'transformer reward model refitted before fit');
    const before = this.labels.size;
    this.labels.append(appendX, appendY, meta);
    const rng = new Rng(this.options.seed).fork(`refit-${this.refits}`);
    const { windows } = this.labels.view();
    const base = windows.flatMap((w, i) => (w === -1 && i < before ? [i] : []));
    const replay = rng.sampleIndices(base.length, this.options.replay).map((k) => base[k]!);
    const fresh = Array.from({ length: this.labels.size - before }, (_, i) => before + i);
    this.train([...fresh, ...replay], this.options.refitEpochs, rng);
    this.refits++;
  }

  async predict(X: FeatureRows): Promise<Float32Array> {
    const members = await this.predictMembers(X);
    const out = new Float32Array(X.length);
    for (const m of members) for (let i = 0; i < X.length; i++) out[i]! += m[i]! / members.length;
    return out;
  }

  /** Per head, its scores of `X` (the committee's members). */
  async predictMembers(X: FeatureRows): Promise<Float64Array[]> {
    if (!this.fitted) throw new AnchorError('RUN_FAILED', 'transformer reward model used before fit');
    const K = this.options.heads;
    const out = Array.from({ length: K }, () => new Float64Array(X.length));
    for (let s = 0; s < X.length; s += this.options.batchSize) {
      const rows = X.slice(s, s + this.options.batchSize);
      const lower = this.options.fast ? rows.map((r) => this.lowerAlone(r)) : undefined;
      const scores = tf.tidy(() => this.scores(tokenBatch(rows), lower));
      const data = scores.dataSync() as Float32Array;
      scores.dispose();
      for (let i = 0; i < rows.length; i++) for (let k = 0; k < K; k++) out[k]![s + i] = data[i * K + k]!;
    }
    return out;
  }

  /** Release the trunk and heads. */
  dispose(): void {
    this.lower.clear();
    this.trunk.dispose();
    this.headW.dispose();
    this.headB.dispose();
  }

  /**
   * Scores [B, K] of a batch (call inside tidy or a gradient scope). With `lower` (the fast path:
   * each row's frozen lower-part output, {@link lowerAlone}) the trunk runs from the split only.
   */
  private scores(x: TokenBatch, lower?: readonly Float32Array[]): tf.Tensor2D {
    const d = this.options.trunk.dModel;
    const last = this.options.pool === 'last';
    let pooled: tf.Tensor2D;
    if (lower) {
      const h = padStates(lower, x, d);
      pooled = last
        ? this.trunk.forwardAt(h, x, this.split, lastPositions(x))
        : meanPool(this.trunk.forwardFrom(h, x, this.split), x, d);
    } else {
      const { hidden } = this.trunk.forward(x);
      pooled = last
        ? selectRows(
            hidden,
            lastPositions(x).map((t, b) => b * x.length + t),
          )
        : meanPool(hidden, x, d);
    }
    return tf.add(tf.matMul(pooled, this.headW), this.headB) as tf.Tensor2D;
  }

  /** Heads: small random weights (a stream per head, so heads differ), bias at the labels' mean. */
  private initHeads(y: number[]): void {
    const { dModel: d } = this.options.trunk;
    const K = this.options.heads;
    const w = new Float32Array(d * K);
    const root = new Rng(this.options.seed).fork('heads');
    for (let k = 0; k < K; k++) {
      const rng = root.fork(k);
      for (let j = 0; j < d; j++) w[j * K + k] = rng.normal() * 0.02;
    }
    const mean = y.reduce((a, b) => a + b, 0) / Math.max(1, y.length);
    tf.tidy(() => {
      this.headW.assign(tf.tensor2d(w, [d, K]));
      this.headB.assign(tf.fill([K], mean));
    });
  }

  /** The variables a fit trains: the top blocks, the final LayerNorm, the heads. */
  private trainable(): Map<string, tf.Variable> {
    const top = this.options.trunk.layers - this.options.trainLayers;
    const vars = new Map<string, tf.Variable>();
    for (const [name, v] of this.trunk.params) {
      const block = /^h\.(\d+)\./.exec(name);
      if (name.startsWith('ln_f.') || (block && Number(block[1]) >= top)) vars.set(name, v);
    }
    vars.set('head.weight', this.headW);
    vars.set('head.bias', this.headB);
    return vars;
  }

  /** Train on the label rows `idx` for `epochs` from the current weights (fresh Adam). */
  private train(idx: readonly number[], epochs: number, rng: Rng): void {
    const { X, y, groups } = this.labels.view();
    const K = this.options.heads;
    // Bootstrap weights per (row, head): Poisson(1) counts (all 1 with one head).
    const boot = new Map<number, Float32Array>();
    const brng = rng.fork('bootstrap');
    for (const i of idx)
      boot.set(
        i,
        Float32Array.from({ length: K }, () => (K > 1 ? poisson1(brng) : 1)),
      );
    // Shuffled in units of a group, so the pairwise term sees whole groups in a batch.
    const units = new Map<string, number[]>();
    for (const i of idx) {
      const key = groups[i]! >= 0 ? `g${groups[i]}` : `r${i}`;
      const u = units.get(key);
      if (u) u.push(i);
      else units.set(key, [i]);
    }
    const unitList = [...units.values()];
    const order = rng.fork('batches');
    const optimizer = new AdamOptimizer(this.trainable(), { lr: this.options.lr, grad_clip: 1 });
    try {
      for (let e = 0; e < epochs; e++) {
        const rows = order.shuffle([...unitList]).flat();
        for (let s = 0; s < rows.length; s += this.options.batchSize) {
          const b = rows.slice(s, s + this.options.batchSize);
          const x = tokenBatch(b.map((i) => X[i]!));
          const lower = this.options.fast ? b.map((i) => this.lowerOfLabel(i, X[i]!)) : undefined;
          const yb = Float32Array.from(b, (i) => y[i]!);
          const wb = new Float32Array(b.length * K);
          b.forEach((i, r) => wb.set(boot.get(i)!, r * K));
          const pairs = this.options.pairwise > 0 ? groupPairs(b, y, groups) : [];
          optimizer.trainStep(() => this.loss(x, lower, yb, wb, pairs));
        }
      }
    } finally {
      optimizer.dispose();
    }
  }

  /** The frozen lower part's output for one program, computed alone ([tokens × d]). */
  private lowerAlone(row: Float32Array): Float32Array {
    const x = tokenBatch([row]);
    const h = tf.tidy(() => this.trunk.lowerHidden(x, this.split));
    const data = Float32Array.from(h.dataSync() as Float32Array);
    h.dispose();
    return data;
  }

  /** {@link lowerAlone} of label row `i` (features `row`), kept: the label set only grows between fits. */
  private lowerOfLabel(i: number, row: Float32Array): Float32Array {
    let h = this.lower.get(i);
    if (!h) {
      h = this.lowerAlone(row);
      this.lower.set(i, h);
    }
    return h;
  }

  private loss(
    x: TokenBatch,
    lower: readonly Float32Array[] | undefined,
    y: Float32Array,
    w: Float32Array,
    pairs: [number, number][],
  ): tf.Scalar {
    const K = this.options.heads;
    const s = this.scores(x, lower);
    const err = tf.square(tf.sub(s, tf.tensor2d(y, [x.batch, 1])));
    const wt = tf.tensor2d(w, [x.batch, K]);
    // Per head a weighted mean, then the mean over heads (a head with all-zero weights adds 0).
    const mse = tf.mean(tf.div(tf.sum(tf.mul(err, wt), 0), tf.maximum(tf.sum(wt, 0), 1e-6)));
    if (pairs.length === 0) return mse as tf.Scalar;
    const hi = selectRows(
      s,
      Int32Array.from(pairs, (p) => p[0]),
    );
    const lo = selectRows(
      s,
      Int32Array.from(pairs, (p) => p[1]),
    );
    // −log σ(hi − lo) = softplus(lo − hi).
    const rank = tf.mean(tf.softplus(tf.sub(lo, hi)));
    return tf.add(mse, tf.mul(rank, this.options.pairwise)) as tf.Scalar;
  }

  /** Tensors and scalars to save: the trunk, the heads, the label set, the refit count. */
  exportState(): { tensors: TensorMap; meta: Record<string, unknown> } {
    if (!this.fitted) throw new AnchorError('RUN_FAILED', 'transformer reward model saved before fit');
    const tensors: TensorMap = new Map();
    for (const [name, t] of this.trunk.getWeights()) tensors.set(`trunk.${name}`, t);
    for (const [name, v] of [
      ['head.weight', this.headW],
      ['head.bias', this.headB],
    ] as const)
      tensors.set(name, { shape: v.shape.slice(), data: Float32Array.from(v.dataSync() as Float32Array) });
    for (const [k, v] of this.labels.exportTensors()) tensors.set(k, v);
    return {
      tensors,
      meta: { refits: this.refits, labels_y: this.labels.exportLabels(), labels_meta: this.labels.exportMeta() },
    };
  }

  /** A saved model from its options and {@link exportState}'s tensors and scalars. */
  static load(options: TransformerModelOptions, tensors: TensorMap, meta: Record<string, unknown>): TransformerRewardModel {
    const trunk: WeightMap = new Map();
    for (const [k, v] of tensors) if (k.startsWith('trunk.')) trunk.set(k.slice('trunk.'.length), v);
    const m = new TransformerRewardModel(options, trunk);
    const w = tensors.get('head.weight');
    const b = tensors.get('head.bias');
    if (!w || !b || typeof meta.refits !== 'number')
      throw new AnchorError('BAD_MODEL', 'transformer reward model file lacks its heads or refit count');
    tf.tidy(() => {
      m.headW.assign(tf.tensor(w.data, w.shape));
      m.headB.assign(tf.tensor(b.data, b.shape));
    });
    m.labels.importTensors(tensors, meta.labels_y, meta.labels_meta);
    m.refits = meta.refits;
    m.fitted = true;
    return m;
  }

  async save(dir: string): Promise<void> {
    await saveModelFiles(dir, this);
  }
}

/**
 * Rows `idx` of `t` [N, C] as a product with a one-hot matrix: differentiable on every backend
 * (the wasm backend has no gradient kernel for gather).
 */
function selectRows(t: tf.Tensor2D, idx: Int32Array): tf.Tensor2D {
  const n = t.shape[0];
  const onehot = new Float32Array(idx.length * n);
  idx.forEach((j, r) => {
    onehot[r * n + j] = 1;
  });
  return tf.matMul(tf.tensor2d(onehot, [idx.length, n]), t);
}

/** Per row of a right-padded batch, the position of its last real token (0 for an empty row). */
function lastPositions(x: TokenBatch): Int32Array {
  const last = new Int32Array(x.batch);
  for (let b = 0; b < x.batch; b++) {
    let len = 0;
    for (let t = 0; t < x.length; t++) if (x.mask[b * x.length + t]! > 0) len = t + 1;
    last[b] = Math.max(0, len - 1);
  }
  return last;
}

/** The mean of the hidden states [B*T, d] over each row's real tokens: [B, d]. */
function meanPool(hidden: tf.Tensor2D, x: TokenBatch, d: number): tf.Tensor2D {
  const mask = tf.tensor3d(x.mask, [x.batch, x.length, 1]);
  const sum = tf.sum(tf.mul(tf.reshape(hidden, [x.batch, x.length, d]), mask), 1);
  return tf.div(sum, tf.maximum(tf.sum(mask, 1), 1)) as tf.Tensor2D;
}

/** Per-program states [tokens × d] laid into the batch's padded [B*T, d] (zeros at padding). */
function padStates(states: readonly Float32Array[], x: TokenBatch, d: number): tf.Tensor2D {
  const out = new Float32Array(x.batch * x.length * d);
  // A row's states cover its own length (at least 1), never more than the batch's.
  states.forEach((h, b) => out.set(h, b * x.length * d));
  return tf.tensor2d(out, [x.batch * x.length, d]);
}

/** A Poisson(1) draw (Knuth; small mean, so a handful of uniforms). */
function poisson1(rng: Rng): number {
  const limit = Math.exp(-1);
  let k = 0;
  let p = rng.next();
  while (p > limit) {
    k++;
    p *= rng.next();
  }
  return k;
}

/** Pairs (better, worse) of batch positions in the same group (≥ 0) with different labels. */
function groupPairs(batch: readonly number[], y: readonly number[], groups: readonly number[]): [number, number][] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < batch.length; a++) {
    for (let b = a + 1; b < batch.length; b++) {
      const i = batch[a]!;
      const j = batch[b]!;
      if (groups[i]! < 0 || groups[i] !== groups[j] || y[i] === y[j]) continue;
      pairs.push(y[i]! > y[j]! ? [a, b] : [b, a]);
    }
  }
  return pairs;
}

/** A right-padded batch from `policy-tokens` rows (ids, {@link TOKEN_PAD} after the last token). */
function tokenBatch(rows: readonly Float32Array[]): TokenBatch {
  const lens = rows.map((r) => {
    let n = 0;
    while (n < r.length && r[n] !== TOKEN_PAD) n++;
    return n;
  });
  const length = Math.max(1, ...lens);
  const batch = rows.length;
  const ids = new Int32Array(batch * length);
  const mask = new Float32Array(batch * length);
  rows.forEach((r, b) => {
    for (let t = 0; t < lens[b]!; t++) {
      ids[b * length + t] = r[t]!;
      mask[b * length + t] = 1;
    }
  });
  return { batch, length, ids, mask, positions: positionsFromMask(mask, batch, length) };
}
