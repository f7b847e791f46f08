/**
 * The tfjs policy model: contract semantics (checked against a plain-JS GPT-2 forward pass),
 * deterministic init, custom gradients equal stock gradients, padding/log-prob masking,
 * KV-cache decoding, training reduces loss, and no tensor leaks across steps.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';
import { Rng } from '../../src/util/rng.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import { type WeightMap, expectedWeightShapes, parameterCount } from '../../src/policy/weights.ts';
import { GptModel, denseBatch, initWeights, positionsFromMask } from '../../src/policy/model.ts';
import { bmm, embed, gelu, layerNorm, linear, mm, mmT } from '../../src/policy/ops.ts';
import { buildCompletionBatch, completionLogProbs, completionNll, sequenceLogProbs } from '../../src/policy/logprobs.ts';
import { AdamOptimizer, learningRateAt, optimizerConfigSchema } from '../../src/policy/optimizer.ts';
import { generate } from '../../src/policy/generate.ts';
import { referenceLogits } from './model-reference.ts';

const tiny = (over: Partial<GptConfig> = {}): GptConfig => ({
  vocabSize: 13,
  context: 24,
  layers: 2,
  dModel: 16,
  heads: 2,
  tiedHead: true,
  ...over,
});

/** Weights with large random values everywhere (so a wrong formula cannot hide in tiny numbers). */
function randomWeights(c: GptConfig, seed: number): WeightMap {
  const rng = new Rng(seed);
  const w: WeightMap = new Map();
  for (const [name, shape] of expectedWeightShapes(c)) {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++) data[i] = rng.normal() * 0.4 + (/ln_|ln_f/.test(name) && name.endsWith('weight') ? 1 : 0);
    w.set(name, { shape, data });
  }
  return w;
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

beforeAll(async () => {
  await initTf(() => {});
});

describe('weight contract and forward semantics', () => {
  it('has the GPT-2 names and shapes, and lm_head only when untied', () => {
    const c = tiny();
    const m = GptModel.init(c, 1);
    const w = m.getWeights();
    expect([...w.keys()]).toEqual([...expectedWeightShapes(c).keys()]);
    expect(w.get('h.1.attn.c_attn.weight')!.shape).toEqual([16, 48]);
    expect(w.get('h.0.mlp.c_proj.weight')!.shape).toEqual([64, 16]);
    expect(w.has('lm_head.weight')).toBe(false);
    expect(expectedWeightShapes(tiny({ tiedHead: false })).get('lm_head.weight')).toEqual([16, 13]);
    let n = 0;
    for (const t of w.values()) n += t.data.length;
    expect(n).toBe(parameterCount(c));
    m.dispose();
  });

  for (const tiedHead of [true, false]) {
    it(`matches a plain-JS GPT-2 forward pass (tiedHead=${tiedHead}), with left padding`, () => {
      const c = tiny({ tiedHead });
      const w = randomWeights(c, 7);
      const m = GptModel.fromWeights(c, w);
      const rows = [
        [0, 0, 5, 3, 9, 1, 12],
        [4, 4, 2, 8, 6, 10, 11],
      ];
      const mask = new Float32Array([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
      const ids = new Int32Array(rows.flat());
      const positions = positionsFromMask(mask, 2, 7);
      expect([...positions.slice(0, 7)]).toEqual([0, 0, 0, 1, 2, 3, 4]);
      const got = tf.tidy(() => m.logits({ batch: 2, length: 7, ids, mask, positions }).arraySync());
      for (let b = 0; b < 2; b++) {
        const ref = referenceLogits(c, w, rows[b]!, [...mask.slice(b * 7, b * 7 + 7)], [...positions.slice(b * 7, b * 7 + 7)]);
        for (let t = 0; t < 7; t++) {
          if (mask[b * 7 + t] === 0) continue; // pad positions' outputs are unspecified
          expect(maxAbsDiff(got[b]![t]!, ref[t]!)).toBeLessThan(2e-4);
        }
      }
      m.dispose();
    });
  }

  it('is causal: changing a later token leaves earlier logits unchanged', () => {
    const m = GptModel.fromWeights(tiny(), randomWeights(tiny(), 3));
    const a = tf.tidy(() => m.logits(denseBatch([[1, 2, 3, 4, 5]])).arraySync()[0]!);
    const b = tf.tidy(() => m.logits(denseBatch([[1, 2, 3, 9, 5]])).arraySync()[0]!);
    expect(maxAbsDiff(a[2]!, b[2]!)).toBe(0);
    expect(maxAbsDiff(a[3]!, b[3]!)).toBeGreaterThan(1e-3);
    m.dispose();
  });

  it('rejects positions outside the context', () => {
    const m = GptModel.init(tiny({ context: 4 }), 0);
    expect(() => tf.tidy(() => m.logits(denseBatch([[1, 2, 3, 4, 5]])))).toThrow(/outside the model context/);
    m.dispose();
  });
});

describe('split forward (the transformer reward model trains only the top blocks)', () => {
  // Two right-padded rows of lengths 7 and 4, random weights.
  const c = tiny({ layers: 3 });
  const m = GptModel.fromWeights(c, randomWeights(c, 21));
  const mask = new Float32Array([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0]);
  const x = {
    batch: 2,
    length: 7,
    ids: new Int32Array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 0, 0, 0]),
    mask,
    positions: positionsFromMask(mask, 2, 7),
  };
  // Computed in the tests: the backend is chosen in beforeAll, after this block is collected.
  const forward = () => tf.tidy(() => m.forward(x).hidden.dataSync() as Float32Array);

  it('lowerHidden then forwardFrom is forward, bit for bit, at every split', () => {
    const full = forward();
    for (let k = 0; k <= c.layers; k++) {
      const split = tf.tidy(() => m.forwardFrom(m.lowerHidden(x, k), x, k).dataSync() as Float32Array);
      expect(split).toEqual(full);
    }
  });

  it("forwardAt gives forward's hidden state at the selected positions (up to rounding), at every split", () => {
    const full = forward();
    const at = new Int32Array([6, 3]);
    const want = [...full.slice(6 * 16, 7 * 16), ...full.slice((7 + 3) * 16, (7 + 4) * 16)];
    for (let k = 0; k <= c.layers; k++) {
      const got = tf.tidy(() => m.forwardAt(m.lowerHidden(x, k), x, k, at).dataSync() as Float32Array);
      expect(maxAbsDiff(got, want)).toBeLessThan(1e-5);
    }
    // A position that is not the last real token attends only to what precedes it.
    const mid = tf.tidy(() => m.forwardAt(m.lowerHidden(x, 1), x, 1, new Int32Array([2, 0])).dataSync() as Float32Array);
    expect(maxAbsDiff(mid, [...full.slice(2 * 16, 3 * 16), ...full.slice(7 * 16, 8 * 16)])).toBeLessThan(1e-5);
  });
});

describe('deterministic initialisation', () => {
  it('same seed gives identical weights and logits; another seed differs', () => {
    const c = tiny();
    const a = GptModel.init(c, 42);
    const b = GptModel.init(c, 42);
    const d = GptModel.init(c, 43);
    const wa = a.getWeights();
    const wb = b.getWeights();
    for (const [k, t] of wa) expect(maxAbsDiff(t.data, wb.get(k)!.data)).toBe(0);
    const x = denseBatch([[1, 2, 3, 4]]);
    const la = tf.tidy(() => a.logits(x).dataSync());
    const lb = tf.tidy(() => b.logits(x).dataSync());
    const ld = tf.tidy(() => d.logits(x).dataSync());
    expect(maxAbsDiff(la, lb)).toBe(0);
    expect(maxAbsDiff(la, ld)).toBeGreaterThan(0);
    for (const m of [a, b, d]) m.dispose();
  });

  it('uses GPT-2 init statistics (std 0.02, residual projections scaled, LN = 1/0)', () => {
    const c: GptConfig = { vocabSize: 50, context: 64, layers: 4, dModel: 64, heads: 4, tiedHead: true };
    const w = initWeights(c, 5);
    const std = (x: Float32Array): number => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    expect(std(w.get('wte')!.data)).toBeCloseTo(0.02, 2);
    expect(std(w.get('h.0.mlp.c_fc.weight')!.data)).toBeCloseTo(0.02, 2);
    expect(std(w.get('h.0.mlp.c_proj.weight')!.data)).toBeCloseTo(0.02 / Math.sqrt(8), 3);
    expect([...w.get('h.2.ln_1.weight')!.data].every((v) => v === 1)).toBe(true);
    expect([...w.get('h.2.attn.c_attn.bias')!.data].every((v) => v === 0)).toBe(true);
  });

  it('setWeights validates shapes and round-trips getWeights', () => {
    const m = GptModel.init(tiny(), 1);
    const w = randomWeights(tiny(), 2);
    m.setWeights(w);
    const back = m.getWeights();
    for (const [k, t] of w) expect(maxAbsDiff(t.data, back.get(k)!.data)).toBe(0);
    const bad = new Map(w);
    bad.set('wpe', { shape: [3, 16], data: new Float32Array(48) });
    expect(() => m.setWeights(bad)).toThrow(/wpe/);
    m.dispose();
  });
});

describe('custom-gradient ops equal stock tfjs gradients', () => {
  const rng = new Rng(11);
  const rand = (shape: number[]): tf.Tensor =>
    tf.tensor(
      Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.normal()),
      shape,
    );

  function compare(
    custom: (...xs: tf.Tensor[]) => tf.Tensor,
    stock: (...xs: tf.Tensor[]) => tf.Tensor,
    inputs: tf.Tensor[],
  ): void {
    // Weight the output by a random tensor so every output element contributes a distinct gradient.
    const probe = tf.tidy(() => rand(stock(...inputs).shape));
    const gc = tf.grads((...xs: tf.Tensor[]) => tf.sum(tf.mul(custom(...xs), probe)))(inputs);
    const gs = tf.grads((...xs: tf.Tensor[]) => tf.sum(tf.mul(stock(...xs), probe)))(inputs);
    const vc = tf.tidy(() => custom(...inputs).dataSync());
    const vs = tf.tidy(() => stock(...inputs).dataSync());
    expect(maxAbsDiff(vc, vs)).toBeLessThan(1e-4);
    gc.forEach((g, i) => {
      const a = g.dataSync();
      const b = gs[i]!.dataSync();
      const scale = Math.max(1, ...Array.from(b, Math.abs));
      expect(maxAbsDiff(a, b) / scale).toBeLessThan(1e-5);
      // A gradient that is identically zero would make the comparison vacuous.
      expect(Math.max(...Array.from(a, Math.abs))).toBeGreaterThan(0);
    });
    tf.dispose([...gc, ...gs, probe]);
  }

  it('linear (x·W + b)', () => {
    const [x, w, b] = [rand([7, 5]), rand([5, 6]), rand([6])];
    compare(
      (x, w, b) => linear(x as tf.Tensor2D, w as tf.Tensor2D, b as tf.Tensor1D),
      (x, w, b) => tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b!),
      [x!, w!, b!],
    );
  });
  it('linear with a wide input (the transposed-dy branch of dW)', () => {
    const [x, w, b] = [rand([7, 9]), rand([9, 3]), rand([3])];
    compare(
      (x, w, b) => linear(x as tf.Tensor2D, w as tf.Tensor2D, b as tf.Tensor1D),
      (x, w, b) => tf.add(tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D), b!),
      [x!, w!, b!],
    );
  });
  it('layerNorm', () => {
    const [x, g, b] = [rand([5, 6]), rand([6]), rand([6])];
    const stock = (x: tf.Tensor, g: tf.Tensor, b: tf.Tensor): tf.Tensor => {
      const { mean, variance } = tf.moments(x, -1, true);
      return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), g), b);
    };
    compare(
      (x, g, b) => layerNorm(x as tf.Tensor2D, g as tf.Tensor1D, b as tf.Tensor1D, 1e-5),
      (x, g, b) => stock(x!, g!, b!),
      [x!, g!, b!],
    );
  });
  it('mm and mmT (tied head)', () => {
    const [a, b, c] = [rand([4, 3]), rand([3, 5]), rand([6, 3])];
    compare(
      (a, b) => mm(a as tf.Tensor2D, b as tf.Tensor2D),
      (a, b) => tf.matMul(a as tf.Tensor2D, b as tf.Tensor2D),
      [a!, b!],
    );
    compare(
      (a, c) => mmT(a as tf.Tensor2D, c as tf.Tensor2D),
      (a, c) => tf.matMul(a as tf.Tensor2D, c as tf.Tensor2D, false, true),
      [a!, c!],
    );
  });
  it('bmm (attention products)', () => {
    const [a, b] = [rand([3, 4, 2]), rand([3, 2, 5])];
    compare(
      (a, b) => bmm(a as tf.Tensor3D, b as tf.Tensor3D),
      (a, b) => tf.matMul(a as tf.Tensor3D, b as tf.Tensor3D),
      [a!, b!],
    );
  });
  it('embedding (one-hot × table) against gather on the value', () => {
    const table = rand([9, 4]);
    const ids = tf.tensor1d([3, 0, 8, 3], 'int32');
    const stock = (t: tf.Tensor): tf.Tensor => tf.matMul(tf.oneHot(ids, 9).toFloat() as tf.Tensor2D, t as tf.Tensor2D);
    compare((t) => embed(ids, t as tf.Tensor2D), stock, [table]);
    expect(
      maxAbsDiff(
        tf.tidy(() => embed(ids, table as tf.Tensor2D).dataSync()),
        tf.tidy(() => tf.gather(table, ids).dataSync()),
      ),
    ).toBe(0);
  });
  it('gelu equals the tanh formula, value and gradient', () => {
    const x = tf.tensor1d([-4, -2.5, -1, -0.3, 0, 0.2, 0.7, 1.5, 3, 6]);
    const c = Math.sqrt(2 / Math.PI);
    const stock = (x: tf.Tensor): tf.Tensor =>
      tf.mul(tf.mul(x, 0.5), tf.add(1, tf.tanh(tf.mul(c, tf.add(x, tf.mul(0.044715, tf.pow(x, 3)))))));
    compare((x) => gelu(x!), stock, [x]);
  });
});

describe('log-probs, masking and entropy', () => {
  it("padding does not change real tokens' log-probs (left-padded prompts, right-padded completions)", () => {
    const m = GptModel.fromWeights(tiny(), randomWeights(tiny(), 5));
    const prompts = [[3, 4, 5, 6], [7]];
    const comps = [
      [8, 9],
      [10, 11, 12, 2],
    ];
    const together = sequenceLogProbs(m, prompts, comps, { padId: 0 });
    expect(together.completionLength).toBe(4);
    for (let b = 0; b < 2; b++) {
      const alone = sequenceLogProbs(m, [prompts[b]!], [comps[b]!], { padId: 0 });
      const n = comps[b]!.length;
      expect(maxAbsDiff(together.logProbs.slice(b * 4, b * 4 + n), alone.logProbs.slice(0, n))).toBeLessThan(1e-5);
      expect(maxAbsDiff(together.entropy.slice(b * 4, b * 4 + n), alone.entropy.slice(0, n))).toBeLessThan(1e-5);
      // Padding positions are exactly zero.
      for (let j = n; j < 4; j++) {
        expect(Math.abs(together.logProbs[b * 4 + j]!)).toBe(0);
        expect(together.mask[b * 4 + j]).toBe(0);
      }
    }
    // Chunked computation (1 row per chunk) gives the same numbers.
    const chunked = sequenceLogProbs(m, prompts, comps, { padId: 0, chunkSize: 1 });
    expect(maxAbsDiff(chunked.logProbs, together.logProbs)).toBeLessThan(1e-5);
    m.dispose();
  });

  it('log-probs equal log-softmax of the full-sequence logits; entropy matches its definition', () => {
    const m = GptModel.fromWeights(tiny(), randomWeights(tiny(), 8));
    const prompt = [1, 5, 7];
    const comp = [4, 3, 2];
    const s = sequenceLogProbs(m, [prompt], [comp], { padId: 0 });
    const logits = tf.tidy(() => m.logits(denseBatch([[...prompt, ...comp]])).arraySync()[0]!);
    for (let j = 0; j < comp.length; j++) {
      const row = logits[prompt.length - 1 + j]!;
      const mx = Math.max(...row);
      const lse = mx + Math.log(row.reduce((a, v) => a + Math.exp(v - mx), 0));
      expect(s.logProbs[j]).toBeCloseTo(row[comp[j]!]! - lse, 4);
      const ent = -row.reduce((a, v) => a + Math.exp(v - lse) * (v - lse), 0);
      expect(s.entropy[j]).toBeCloseTo(ent, 4);
    }
    m.dispose();
  });

  it('completionLogProbs is differentiable (a gradient reaches every parameter)', () => {
    const m = GptModel.fromWeights(tiny(), randomWeights(tiny(), 9));
    const batch = buildCompletionBatch([[1, 2], [3]], [[4, 5], [6]], 0);
    const { grads, value } = tf.variableGrads(
      () => tf.neg(tf.sum(completionLogProbs(m, batch).logProbs)) as tf.Scalar,
      m.variables(),
    );
    expect(value.dataSync()[0]).toBeGreaterThan(0);
    for (const v of m.variables()) expect(tf.tidy(() => tf.max(tf.abs(grads[v.name]!)).dataSync()[0]!)).toBeGreaterThan(0);
    tf.dispose([value, ...Object.values(grads)]);
    m.dispose();
  });
});

describe('training', () => {
  it('a few Adam steps reduce the loss on a fixed batch, without leaking tensors', () => {
    const m = GptModel.init(tiny({ vocabSize: 20, context: 32, dModel: 32, heads: 4 }), 3);
    const opt = new AdamOptimizer(m.params, { lr: 3e-3 });
    const rng = new Rng(4);
    const prompts = Array.from({ length: 8 }, () => [rng.range(2, 19), rng.range(2, 19)]);
    const comps = Array.from({ length: 8 }, (_, i) => Array.from({ length: 3 + (i % 4) }, () => rng.range(2, 19)));
    const batch = buildCompletionBatch(prompts, comps, 0);
    const first = opt.trainStep(() => completionNll(m, batch));
    const baseline = tf.memory().numTensors;
    let last = first;
    for (let i = 0; i < 30; i++) last = opt.trainStep(() => completionNll(m, batch));
    expect(tf.memory().numTensors).toBe(baseline);
    expect(last.loss).toBeLessThan(first.loss * 0.7);
    expect(last.step).toBe(31);
    expect(first.gradNorm).toBeGreaterThan(0);
    opt.dispose();
    m.dispose();
  });

  it('inference paths do not leak tensors either', () => {
    const m = GptModel.init(tiny(), 1);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 5; i++) {
      sequenceLogProbs(m, [[1, 2, 3]], [[4, 5]], { padId: 0 });
      generate(m, [[1, 2], [3]], { maxNewTokens: 4, temperature: 1, eosId: 1, padId: 0, rng: new Rng(i) });
    }
    expect(tf.memory().numTensors).toBe(before);
    m.dispose();
  });

  it('clips gradients to the configured global norm', () => {
    const m = GptModel.init(tiny(), 2);
    const batch = buildCompletionBatch([[1, 2]], [[3, 4]], 0);
    const before = m.getWeights();
    const opt = new AdamOptimizer(m.params, { lr: 1e-3, grad_clip: 1e-6, beta1: 0, beta2: 0 });
    // With beta1 = beta2 = 0 Adam's step is lr·g/(|g|+eps), so clipping only rescales g; the
    // reported norm is the pre-clip norm.
    const r = opt.trainStep(() => completionNll(m, batch));
    expect(r.gradNorm).toBeGreaterThan(1e-6);
    const after = m.getWeights();
    let moved = 0;
    for (const [k, t] of before) moved = Math.max(moved, maxAbsDiff(t.data, after.get(k)!.data));
    expect(moved).toBeGreaterThan(0);
    opt.dispose();
    m.dispose();
  });

  it('learning-rate schedule: linear warmup, then cosine down to the floor', () => {
    const c = optimizerConfigSchema.parse({ lr: 1, warmup_steps: 4, schedule: 'cosine', total_steps: 14, min_lr_ratio: 0.1 });
    expect(learningRateAt(c, 0)).toBeCloseTo(0.25);
    expect(learningRateAt(c, 3)).toBeCloseTo(1);
    expect(learningRateAt(c, 4)).toBeCloseTo(1);
    expect(learningRateAt(c, 9)).toBeCloseTo(0.55);
    expect(learningRateAt(c, 14)).toBeCloseTo(0.1);
    expect(learningRateAt(c, 100)).toBeCloseTo(0.1);
    expect(learningRateAt(optimizerConfigSchema.parse({ lr: 0.5 }), 77)).toBe(0.5);
  });

  it('learning-rate schedule: linear warmup, then linear down to the floor', () => {
    const c = optimizerConfigSchema.parse({ lr: 1, warmup_steps: 4, schedule: 'linear', total_steps: 14, min_lr_ratio: 0.1 });
    expect(learningRateAt(c, 3)).toBeCloseTo(1);
    expect(learningRateAt(c, 4)).toBeCloseTo(1);
    expect(learningRateAt(c, 6)).toBeCloseTo(1 - 0.9 * 0.2);
    expect(learningRateAt(c, 9)).toBeCloseTo(0.55);
    expect(learningRateAt(c, 14)).toBeCloseTo(0.1);
    expect(learningRateAt(c, 100)).toBeCloseTo(0.1);
  });
});

describe('generation with the KV cache', () => {
  it('greedy cached decoding equals full recomputation, with mixed prompt lengths', () => {
    const m = GptModel.fromWeights(tiny(), randomWeights(tiny(), 12));
    const prompts = [[3, 4, 5], [7], [2, 2, 2, 9, 9]];
    const gens = generate(m, prompts, { maxNewTokens: 6, temperature: 0, eosId: -1, padId: 0 });
    for (let r = 0; r < prompts.length; r++) {
      const seq = [...prompts[r]!];
      for (let k = 0; k < 6; k++) {
        const last = tf.tidy(() => m.logits(denseBatch([seq])).arraySync()[0]![seq.length - 1]!);
        seq.push(last.indexOf(Math.max(...last)));
      }
      expect(gens[r]!.tokens).toEqual(seq.slice(prompts[r]!.length));
      expect(gens[r]!.finish).toBe('length');
    }
    m.dispose();
  });

  it('seeded sampling repeats; eos and stop callbacks end rows', () => {
    const m = GptModel.fromWeights(tiny(), randomWeights(tiny(), 13));
    const opts = { maxNewTokens: 8, temperature: 1, topP: 0.9, eosId: 1, padId: 0 };
    const a = generate(m, [[3, 4], [5]], { ...opts, rng: new Rng(1) });
    const b = generate(m, [[3, 4], [5]], { ...opts, rng: new Rng(1) });
    expect(a).toEqual(b);
    const stopped = generate(m, [[3, 4], [5]], { ...opts, rng: new Rng(1), shouldStop: (_r, t) => t.length >= 2 });
    for (const g of stopped) expect(g.tokens.length).toBeLessThanOrEqual(2);
    for (const g of a) for (const lp of g.logProbs) expect(lp).toBeLessThanOrEqual(0);
    m.dispose();
  });
});
