/**
 * A plain-JavaScript (float64) forward pass of the weight contract, written straight from the
 * GPT-2 definition in src/policy/gpt-config.ts, used by the model tests to check the tfjs model.
 */
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import type { WeightMap } from '../../src/policy/weights.ts';

function W(w: WeightMap, name: string): Float32Array {
  const t = w.get(name);
  if (!t) throw new Error(`missing ${name}`);
  return t.data;
}

function layerNorm(x: number[], g: Float32Array, b: Float32Array): number[] {
  const n = x.length;
  const mean = x.reduce((a, v) => a + v, 0) / n;
  const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / n;
  return x.map((v, i) => ((v - mean) / Math.sqrt(variance + 1e-5)) * g[i]! + b[i]!);
}

/** y = x · M + bias for M stored [in, out] row-major. */
function affine(x: number[], m: Float32Array, bias: Float32Array | undefined, out: number): number[] {
  const y = new Array<number>(out).fill(0);
  for (let i = 0; i < x.length; i++) for (let o = 0; o < out; o++) y[o]! += x[i]! * m[i * out + o]!;
  if (bias) for (let o = 0; o < out; o++) y[o]! += bias[o]!;
  return y;
}

const gelu = (x: number): number => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));

/**
 * Logits [T][V] for one row. `mask` (1 real / 0 pad) and `positions` as in the contract.
 */
export function referenceLogits(c: GptConfig, w: WeightMap, ids: number[], mask: number[], positions: number[]): number[][] {
  const d = c.dModel;
  const H = c.heads;
  const hd = d / H;
  const T = ids.length;
  const wte = W(w, 'wte');
  const wpe = W(w, 'wpe');
  let h = ids.map((id, t) => Array.from({ length: d }, (_, j) => wte[id * d + j]! + wpe[positions[t]! * d + j]!));
  for (let l = 0; l < c.layers; l++) {
    const p = `h.${l}.`;
    const a = h.map((x) => layerNorm(x, W(w, p + 'ln_1.weight'), W(w, p + 'ln_1.bias')));
    const qkv = a.map((x) => affine(x, W(w, p + 'attn.c_attn.weight'), W(w, p + 'attn.c_attn.bias'), 3 * d));
    const ctx = Array.from({ length: T }, () => new Array<number>(d).fill(0));
    for (let hh = 0; hh < H; hh++) {
      for (let i = 0; i < T; i++) {
        const scores: number[] = [];
        for (let j = 0; j < T; j++) {
          let s = 0;
          for (let e = 0; e < hd; e++) s += qkv[i]![hh * hd + e]! * qkv[j]![d + hh * hd + e]!;
          s /= Math.sqrt(hd);
          scores.push(j <= i && mask[j] === 1 ? s : -1e9);
        }
        const mx = Math.max(...scores);
        const ex = scores.map((s) => Math.exp(s - mx));
        const z = ex.reduce((x, y) => x + y, 0);
        for (let j = 0; j < T; j++)
          for (let e = 0; e < hd; e++) ctx[i]![hh * hd + e]! += (ex[j]! / z) * qkv[j]![2 * d + hh * hd + e]!;
      }
    }
    const attnOut = ctx.map((x) => affine(x, W(w, p + 'attn.c_proj.weight'), W(w, p + 'attn.c_proj.bias'), d));
    h = h.map((x, t) => x.map((v, j) => v + attnOut[t]![j]!));
    const m = h.map((x) => layerNorm(x, W(w, p + 'ln_2.weight'), W(w, p + 'ln_2.bias')));
    const f = m.map((x) => affine(x, W(w, p + 'mlp.c_fc.weight'), W(w, p + 'mlp.c_fc.bias'), 4 * d).map(gelu));
    const mo = f.map((x) => affine(x, W(w, p + 'mlp.c_proj.weight'), W(w, p + 'mlp.c_proj.bias'), d));
    h = h.map((x, t) => x.map((v, j) => v + mo[t]![j]!));
  }
  const hf = h.map((x) => layerNorm(x, W(w, 'ln_f.weight'), W(w, 'ln_f.bias')));
  const V = c.vocabSize;
  if (c.tiedHead) {
    return hf.map((x) => Array.from({ length: V }, (_, v) => x.reduce((s, xi, j) => s + xi * wte[v * d + j]!, 0)));
  }
  return hf.map((x) => affine(x, W(w, 'lm_head.weight'), undefined, V));
}
