/**
 * Test helpers for the policy parity tests: random weights for a config, and an independent
 * float64 pure-JS forward pass of the weight contract (src/policy/weights.ts,
 * src/policy/gpt-config.ts). Slow and simple on purpose: it is a second implementation that
 * shares no code with the ONNX exporter or the tfjs model.
 */
import { Rng } from '../../src/util/rng.ts';
import { expectedWeightShapes, type WeightMap } from '../../src/policy/weights.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';

/** Random weights: normal(0, scale) for matrices, ln weights around 1, biases small. */
export function randomWeights(c: GptConfig, seed: number, scale = 0.2): WeightMap {
  const rng = new Rng(seed);
  const w: WeightMap = new Map();
  for (const [name, shape] of expectedWeightShapes(c)) {
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    const isLnWeight = /ln_(1|2|f)\.weight$/.test(name);
    for (let i = 0; i < n; i++) data[i] = (isLnWeight ? 1 : 0) + scale * rng.normal();
    w.set(name, { shape, data });
  }
  return w;
}

/**
 * Reference logits [batch][seq][vocab] for a full (uncached) forward pass.
 * `mask[b][j]` is 1 for real tokens; `pos[b][j]` the explicit position ids.
 */
export function referenceLogits(c: GptConfig, w: WeightMap, ids: number[][], mask: number[][], pos: number[][]): number[][][] {
  const d = c.dModel;
  const H = c.heads;
  const hd = d / H;
  const get = (n: string): Float32Array => w.get(n)!.data;
  const matvec = (x: number[], W: Float32Array, inDim: number, outDim: number, b?: Float32Array): number[] => {
    const y = new Array<number>(outDim).fill(0);
    for (let i = 0; i < inDim; i++) {
      const xi = x[i]!;
      for (let o = 0; o < outDim; o++) y[o]! += xi * W[i * outDim + o]!;
    }
    if (b) for (let o = 0; o < outDim; o++) y[o]! += b[o]!;
    return y;
  };
  const ln = (x: number[], prefix: string): number[] => {
    const g = get(prefix + '.weight');
    const b = get(prefix + '.bias');
    const mean = x.reduce((a, v) => a + v, 0) / x.length;
    const v = x.reduce((a, t) => a + (t - mean) ** 2, 0) / x.length;
    return x.map((t, i) => ((t - mean) / Math.sqrt(v + 1e-5)) * g[i]! + b[i]!);
  };
  const gelu = (t: number): number => 0.5 * t * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (t + 0.044715 * t ** 3)));

  return ids.map((row, b) => {
    const S = row.length;
    let xs = row.map((tok, j) => {
      const e = new Array<number>(d);
      for (let k = 0; k < d; k++) e[k] = get('wte')[tok * d + k]! + get('wpe')[pos[b]![j]! * d + k]!;
      return e;
    });
    for (let l = 0; l < c.layers; l++) {
      const p = `h.${l}.`;
      const qkv = xs.map((x) => matvec(ln(x, p + 'ln_1'), get(p + 'attn.c_attn.weight'), d, 3 * d, get(p + 'attn.c_attn.bias')));
      const ctx = xs.map(() => new Array<number>(d).fill(0));
      for (let h = 0; h < H; h++) {
        for (let i = 0; i < S; i++) {
          const scores: number[] = [];
          for (let j = 0; j < S; j++) {
            if (j > i || mask[b]![j] === 0) {
              scores.push(-Infinity);
              continue;
            }
            let s = 0;
            for (let k = 0; k < hd; k++) s += qkv[i]![h * hd + k]! * qkv[j]![d + h * hd + k]!;
            scores.push(s / Math.sqrt(hd));
          }
          const m = Math.max(...scores);
          if (m === -Infinity) continue; // pad query with nothing visible: output unused
          const e = scores.map((s) => Math.exp(s - m));
          const z = e.reduce((a, v) => a + v, 0);
          for (let j = 0; j < S; j++) {
            const pj = e[j]! / z;
            if (pj === 0) continue;
            for (let k = 0; k < hd; k++) ctx[i]![h * hd + k]! += pj * qkv[j]![2 * d + h * hd + k]!;
          }
        }
      }
      xs = xs.map((x, i) => {
        const a = matvec(ctx[i]!, get(p + 'attn.c_proj.weight'), d, d, get(p + 'attn.c_proj.bias'));
        const x1 = x.map((t, k) => t + a[k]!);
        const f = matvec(ln(x1, p + 'ln_2'), get(p + 'mlp.c_fc.weight'), d, 4 * d, get(p + 'mlp.c_fc.bias')).map(gelu);
        const m = matvec(f, get(p + 'mlp.c_proj.weight'), 4 * d, d, get(p + 'mlp.c_proj.bias'));
        return x1.map((t, k) => t + m[k]!);
      });
    }
    return xs.map((x) => {
      const hf = ln(x, 'ln_f');
      if (c.tiedHead) {
        const wte = get('wte');
        const out = new Array<number>(c.vocabSize).fill(0);
        for (let v = 0; v < c.vocabSize; v++) for (let k = 0; k < d; k++) out[v]! += hf[k]! * wte[v * d + k]!;
        return out;
      }
      return matvec(hf, get('lm_head.weight'), d, c.vocabSize);
    });
  });
}

/** Position ids for a left-padded mask row: max(cumsum(mask) - 1, 0). */
export function positionsFromMask(mask: number[]): number[] {
  let s = 0;
  return mask.map((m) => {
    s += m;
    return Math.max(s - 1, 0);
  });
}
