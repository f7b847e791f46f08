/**
 * The label set a reward model is fitted on. Kept whole so `refit` can refit on everything
 * settled so far (not just the newest window), and saved with the model so a resumed run can
 * keep refitting.
 */
import { AnchorError } from '../../util/errors.ts';
import type { FeatureRows, LabelMeta } from './types.ts';

/** Growable (X, y) store with a fixed feature dimension. */
export class LabelStore {
  private rows: Float32Array[] = [];
  private ys: number[] = [];
  /** Settlement window of each label (−1: initial base-policy labels). */
  private windows: number[] = [];
  /** GRPO group id of each label (−1: none). */
  private groups: number[] = [];
  dim: number | undefined;

  get size(): number {
    return this.ys.length;
  }

  replace(X: FeatureRows, y: ArrayLike<number>, meta: LabelMeta = {}): void {
    this.rows = [];
    this.ys = [];
    this.windows = [];
    this.groups = [];
    this.dim = undefined;
    this.append(X, y, meta);
  }

  append(X: FeatureRows, y: ArrayLike<number>, meta: LabelMeta = {}): void {
    if (X.length !== y.length) throw new AnchorError('BAD_ARGUMENT', `X has ${X.length} rows but y has ${y.length} labels`);
    if (meta.groups && meta.groups.length !== X.length)
      throw new AnchorError('BAD_ARGUMENT', `X has ${X.length} rows but ${meta.groups.length} group ids`);
    for (let i = 0; i < X.length; i++) {
      const row = X[i]!;
      this.dim ??= row.length;
      if (row.length !== this.dim)
        throw new AnchorError('BAD_ARGUMENT', `feature row has ${row.length} values, expected ${this.dim}`);
      const v = y[i]!;
      if (!Number.isFinite(v)) throw new AnchorError('BAD_ARGUMENT', `label ${i} is not finite (${v})`);
      this.rows.push(row);
      this.ys.push(v);
      this.windows.push(meta.window ?? -1);
      this.groups.push(meta.groups?.[i] ?? -1);
    }
    if (this.ys.length === 0) throw new AnchorError('BAD_ARGUMENT', 'cannot fit a reward model on zero labels');
  }

  view(): { X: Float32Array[]; y: number[]; n: number; d: number; windows: number[]; groups: number[] } {
    if (this.dim === undefined || this.ys.length === 0) throw new AnchorError('RUN_FAILED', 'no labels to fit on');
    return { X: this.rows, y: this.ys, n: this.ys.length, d: this.dim, windows: this.windows, groups: this.groups };
  }

  /** Label provenance for the JSON side file (windows and groups; restored by {@link importTensors}). */
  exportMeta(): { windows: number[]; groups: number[] } {
    return { windows: [...this.windows], groups: [...this.groups] };
  }

  exportTensors(): Map<string, { shape: number[]; data: Float32Array }> {
    const { X, y, n, d } = this.view();
    return new Map([
      ['labels.x', { shape: [n, d], data: toMatrix(X, d) }],
      ['labels.y', { shape: [n], data: Float32Array.from(y) }],
    ]);
  }

  /** Labels in float64 for the JSON side file (labels.y in the tensor file is float32). */
  exportLabels(): number[] {
    return [...this.ys];
  }

  /** Restore; `yF64` (from the JSON side file) wins over the float32 copy when it matches. */
  importTensors(t: Map<string, { shape: number[]; data: Float32Array }>, yF64?: unknown, provenance?: unknown): void {
    const x = t.get('labels.x');
    const y = t.get('labels.y');
    if (!x || !y) throw new AnchorError('BAD_MODEL', 'model file lacks its label set (labels.x, labels.y)');
    const [n, d] = x.shape as [number, number];
    const rows: Float32Array[] = [];
    for (let i = 0; i < n; i++) rows.push(x.data.slice(i * d, (i + 1) * d));
    const exact =
      Array.isArray(yF64) && yF64.length === n && yF64.every((v) => typeof v === 'number') ? (yF64 as number[]) : y.data;
    this.replace(rows, exact);
    // Provenance (absent in model files written before it existed: every label counts as base).
    const p = provenance as { windows?: unknown; groups?: unknown } | undefined;
    const ints = (v: unknown): number[] | undefined =>
      Array.isArray(v) && v.length === n && v.every((x) => Number.isInteger(x)) ? (v as number[]) : undefined;
    this.windows = ints(p?.windows) ?? this.windows;
    this.groups = ints(p?.groups) ?? this.groups;
  }
}

/** Pack rows into one row-major Float32Array. */
export function toMatrix(X: FeatureRows, d: number): Float32Array {
  const out = new Float32Array(X.length * d);
  for (let i = 0; i < X.length; i++) {
    const row = X[i]!;
    if (row.length !== d) throw new AnchorError('BAD_ARGUMENT', `feature row ${i} has ${row.length} values, expected ${d}`);
    out.set(row, i * d);
  }
  return out;
}
