/**
 * Gradient-boosted regression trees (squared error), in float64 JavaScript — the RichDSL
 * "strong" verifier of the reference study. Defaults follow scikit-learn's
 * GradientBoostingRegressor (100 trees, learning rate 0.1, depth 3, min 1 sample per leaf,
 * initial prediction = mean label), which is the configuration the study's text implies; it
 * names no hyperparameters.
 *
 * Split search is exact over each feature's distinct values when there are at most `maxBins`
 * of them (the DSL features are small counts and indicators) and over quantile bins otherwise.
 * Thresholds sit half-way between adjacent bin values, as in scikit-learn. Ties between equally
 * good splits go to the lowest feature index, then the lowest threshold: deterministic.
 * Not a tfjs model: trees gain nothing from tensors, so this stays out of the tfjs path.
 */
import type { Rows } from '../../reward/models/ridge-math.ts';
import { AnchorError } from '../../util/errors.ts';

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
export function fitGbt(X: Rows, y: ArrayLike<number>, opts: GbtOptions = {}): GbtModel {
  const trees = opts.trees ?? 100;
  const lr = opts.learningRate ?? 0.1;
  const maxDepth = opts.maxDepth ?? 3;
  const minLeaf = opts.minSamplesLeaf ?? 1;
  const maxBins = opts.maxBins ?? 64;
  const n = X.length;
  if (n === 0) throw new AnchorError('BAD_ARGUMENT', 'GBT fit needs at least one row');
  if (y.length !== n) throw new AnchorError('BAD_ARGUMENT', `X has ${n} rows but y has ${y.length}`);
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

  // Sparse view per feature: rows whose bin differs from the feature's most common bin. DSL
  // features are mostly zero, so histograms over these lists cost ~nnz instead of n·d; the
  // common bin's totals come from the node totals by subtraction.
  const commonBin = new Uint16Array(d);
  const rowsNZ: Int32Array[] = [];
  const binsNZ: Uint16Array[] = [];
  for (let f = 0; f < d; f++) {
    const nb = values[f]!.length;
    const cnt = new Int32Array(nb);
    for (let i = 0; i < n; i++) cnt[bins[f * n + i]!]!++;
    let cb = 0;
    for (let b = 1; b < nb; b++) if (cnt[b]! > cnt[cb]!) cb = b;
    commonBin[f] = cb;
    const r: number[] = [];
    for (let i = 0; i < n; i++) if (bins[f * n + i] !== cb) r.push(i);
    rowsNZ.push(Int32Array.from(r));
    binsNZ.push(Uint16Array.from(r, (i) => bins[f * n + i]!));
  }

  let base = 0;
  for (let i = 0; i < n; i++) base += y[i]!;
  base /= n;
  const pred = new Float64Array(n).fill(base);
  const resid = new Float64Array(n);
  const maxB = Math.max(...values.map((v) => v.length));
  const out: TreeNode[] = [];
  // nodeOf[i]: index of row i's open node in the current level, or -1 once its leaf is final.
  const nodeOf = new Int32Array(n);

  type Open = { sum: number; count: number; set: (t: TreeNode) => void; rows: number[] };

  const buildTree = (): TreeNode => {
    let root: TreeNode = { v: 0 };
    let level: Open[] = [{ sum: 0, count: n, set: (t) => (root = t), rows: Array.from({ length: n }, (_, i) => i) }];
    for (let i = 0; i < n; i++) {
      nodeOf[i] = 0;
      level[0]!.sum += resid[i]!;
    }
    for (let depth = 0; level.length > 0; depth++) {
      const K = level.length;
      const bestGain = new Float64Array(K).fill(1e-12);
      const bestF = new Int32Array(K).fill(-1);
      const bestB = new Int32Array(K).fill(-1);
      if (depth < maxDepth) {
        const hs = new Float64Array(K * maxB);
        const hc = new Float64Array(K * maxB);
        for (let f = 0; f < d; f++) {
          const nb = values[f]!.length;
          if (nb < 2) continue;
          hs.fill(0);
          hc.fill(0);
          const rows = rowsNZ[f]!;
          const rb = binsNZ[f]!;
          for (let k = 0; k < rows.length; k++) {
            const i = rows[k]!;
            const node = nodeOf[i]!;
            if (node < 0) continue;
            const at = node * maxB + rb[k]!;
            hs[at] = hs[at]! + resid[i]!;
            hc[at] = hc[at]! + 1;
          }
          const cb = commonBin[f]!;
          for (let q = 0; q < K; q++) {
            const o = level[q]!;
            if (o.count < 2 * minLeaf) continue;
            const off = q * maxB;
            let ss = 0;
            let cc = 0;
            for (let b = 0; b < nb; b++) {
              ss += hs[off + b]!;
              cc += hc[off + b]!;
            }
            hs[off + cb] = o.sum - ss;
            hc[off + cb] = o.count - cc;
            const parent = (o.sum * o.sum) / o.count;
            let sl = 0;
            let cl = 0;
            for (let b = 0; b + 1 < nb; b++) {
              sl += hs[off + b]!;
              cl += hc[off + b]!;
              const cr = o.count - cl;
              if (cl < minLeaf) continue;
              if (cr < minLeaf) break;
              const sr = o.sum - sl;
              const gain = (sl * sl) / cl + (sr * sr) / cr - parent;
              // Gains equal up to rounding (duplicate columns are common in the DSL features)
              // keep the earlier feature/threshold, so the choice does not hinge on summation order.
              if (gain > bestGain[q]! + 1e-9 * (1 + parent)) {
                bestGain[q] = gain;
                bestF[q] = f;
                bestB[q] = b;
              }
            }
          }
        }
      }
      const next: Open[] = [];
      for (let q = 0; q < K; q++) {
        const o = level[q]!;
        const f = bestF[q]!;
        if (f < 0) {
          o.set({ v: o.sum / o.count });
          for (const i of o.rows) nodeOf[i] = -1;
          continue;
        }
        const b = bestB[q]!;
        const edges = values[f]!;
        const node = { f, t: (edges[b]! + edges[b + 1]!) / 2, l: { v: 0 } as TreeNode, r: { v: 0 } as TreeNode };
        o.set(node);
        const left: Open = { sum: 0, count: 0, set: (t) => (node.l = t), rows: [] };
        const right: Open = { sum: 0, count: 0, set: (t) => (node.r = t), rows: [] };
        for (const i of o.rows) {
          const side = bins[f * n + i]! <= b ? left : right;
          side.rows.push(i);
          side.sum += resid[i]!;
          side.count++;
        }
        next.push(left, right);
      }
      next.forEach((o, q) => {
        for (const i of o.rows) nodeOf[i] = q;
      });
      level = next;
    }
    return root;
  };

  for (let t = 0; t < trees; t++) {
    for (let i = 0; i < n; i++) resid[i] = y[i]! - pred[i]!;
    const tree = buildTree();
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
export function predictGbt(model: GbtModel, X: Rows): Float64Array {
  const out = new Float64Array(X.length);
  for (let i = 0; i < X.length; i++) {
    let s = model.base;
    for (const t of model.trees) s += model.learningRate * leafValue(t, X[i]!);
    out[i] = s;
  }
  return out;
}
