/**
 * Test reference for src/research/verifiers/gbt.ts: the straightforward dense version (per-node
 * histograms over every row and feature) with the same split rule and tie tolerance. The fast
 * sparse level-wise implementation must build the same trees.
 */
import type { Rows } from '../../../src/reward/models/ridge-math.ts';

/** Booster settings. */
export interface GbtOptions {
  trees?: number;
  learningRate?: number;
  maxDepth?: number;
  minSamplesLeaf?: number;
  maxBins?: number;
}

/** A node of a fitted tree: internal (feature, threshold, children) or a leaf (value). */
type TreeNode = { f: number; t: number; l: TreeNode; r: TreeNode } | { v: number };

/** A fitted booster. */
export interface GbtModel {
  base: number;
  learningRate: number;
  trees: TreeNode[];
}

/** Fit a booster on rows X and labels y. */
export function fitGbtReference(X: Rows, y: ArrayLike<number>, opts: GbtOptions = {}): GbtModel {
  const trees = opts.trees ?? 100;
  const lr = opts.learningRate ?? 0.1;
  const maxDepth = opts.maxDepth ?? 3;
  const minLeaf = opts.minSamplesLeaf ?? 1;
  const maxBins = opts.maxBins ?? 64;
  const n = X.length;
  if (n === 0) throw new RangeError('GBT fit needs at least one row');
  if (y.length !== n) throw new RangeError(`X has ${n} rows but y has ${y.length}`);
  const d = X[0]!.length;

  // Bin every feature: values[f] = sorted bin values; bins[f*n+i] = bin of row i (column-major:
  // the histogram loops walk one feature's column).
  const values: Float64Array[] = [];
  const bins = new Uint16Array(n * d);
  for (let f = 0; f < d; f++) {
    const uniq = [...new Set(Array.from({ length: n }, (_, i) => X[i]![f]!))].sort((a, b) => a - b);
    let edges = uniq;
    if (uniq.length > maxBins) {
      const col = Array.from({ length: n }, (_, i) => X[i]![f]!).sort((a, b) => a - b);
      edges = [
        ...new Set(Array.from({ length: maxBins }, (_, k) => col[Math.min(n - 1, Math.floor(((k + 1) * n) / maxBins) - 1)]!)),
      ];
    }
    values.push(Float64Array.from(edges));
    for (let i = 0; i < n; i++) {
      // First edge >= value (binary search): bin b covers (edges[b-1], edges[b]].
      const v = X[i]![f]!;
      let lo = 0;
      let hi = edges.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (edges[mid]! >= v) hi = mid;
        else lo = mid + 1;
      }
      bins[f * n + i] = lo;
    }
  }

  let base = 0;
  for (let i = 0; i < n; i++) base += y[i]!;
  base /= n;
  const pred = new Float64Array(n).fill(base);
  const resid = new Float64Array(n);
  const maxB = Math.max(...values.map((v) => v.length));
  const hs = new Float64Array(maxB);
  const hc = new Float64Array(maxB);
  const out: TreeNode[] = [];

  const build = (idx: Int32Array, depth: number): TreeNode => {
    const m = idx.length;
    let sum = 0;
    for (let k = 0; k < m; k++) sum += resid[idx[k]!]!;
    if (depth >= maxDepth || m < 2 * minLeaf) return { v: sum / m };
    const parent = (sum * sum) / m;
    let bestGain = 1e-12;
    let bestF = -1;
    let bestB = -1;
    for (let f = 0; f < d; f++) {
      const nb = values[f]!.length;
      if (nb < 2) continue;
      hs.fill(0, 0, nb);
      hc.fill(0, 0, nb);
      const off = f * n;
      for (let k = 0; k < m; k++) {
        const i = idx[k]!;
        const b = bins[off + i]!;
        hs[b] = hs[b]! + resid[i]!;
        hc[b] = hc[b]! + 1;
      }
      let sl = 0;
      let cl = 0;
      for (let b = 0; b + 1 < nb; b++) {
        sl += hs[b]!;
        cl += hc[b]!;
        const cr = m - cl;
        if (cl < minLeaf) continue;
        if (cr < minLeaf) break;
        const sr = sum - sl;
        const gain = (sl * sl) / cl + (sr * sr) / cr - parent;
        if (gain > bestGain + 1e-9 * (1 + parent)) {
          bestGain = gain;
          bestF = f;
          bestB = b;
        }
      }
    }
    if (bestF < 0) return { v: sum / m };
    const left: number[] = [];
    const right: number[] = [];
    for (let k = 0; k < m; k++) {
      const i = idx[k]!;
      (bins[bestF * n + i]! <= bestB ? left : right).push(i);
    }
    const edges = values[bestF]!;
    return {
      f: bestF,
      t: (edges[bestB]! + edges[bestB + 1]!) / 2,
      l: build(Int32Array.from(left), depth + 1),
      r: build(Int32Array.from(right), depth + 1),
    };
  };

  const all = Int32Array.from({ length: n }, (_, i) => i);
  for (let t = 0; t < trees; t++) {
    for (let i = 0; i < n; i++) resid[i] = y[i]! - pred[i]!;
    const tree = build(all, 0);
    out.push(tree);
    for (let i = 0; i < n; i++) pred[i]! += lr * leafValue(tree, X[i]!);
  }
  return { base, learningRate: lr, trees: out };
}

function leafValue(node: TreeNode, x: ArrayLike<number>): number {
  let cur = node;
  while (!('v' in cur)) cur = x[cur.f]! <= cur.t ? cur.l : cur.r;
  return cur.v;
}

/** Predictions of a fitted booster. */
export function predictGbtReference(model: GbtModel, X: Rows): Float64Array {
  const out = new Float64Array(X.length);
  for (let i = 0; i < X.length; i++) {
    let s = model.base;
    for (const t of model.trees) s += model.learningRate * leafValue(t, X[i]!);
    out[i] = s;
  }
  return out;
}
