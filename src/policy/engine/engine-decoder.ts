/**
 * The decoder of native policies exported in the `engine` layout (see ../onnx/export-gpt.ts):
 * per-layer fixed-capacity caches live in JS buffers that ONNX Runtime only reads (keys
 * transposed, [rows, heads, headDim, capacity]); each step returns just the new tokens'
 * keys/values, written into the buffers in place, and finished rows can leave the batch. The
 * session itself is ./ort-session.ts.
 */
import { AnchorError } from '../../util/errors.ts';
import { engineCacheKeyName, engineCacheValueName, engineNewKeyName, engineNewValueName } from '../onnx/export-gpt.ts';
import { type DecodeRun, type DecodeStart, type Decoder, RecomputeRun, type StepLogits, readLogits } from './decoder.ts';
import {
  type GraphOptimizationLevel,
  type OrtFeeds,
  type OrtOutputs,
  OrtSession,
  type OrtTensor,
  floatTensor,
  int64Tensor,
  intTensor,
  maskTensor,
} from './ort-session.ts';

/**
 * A native policy exported with the `engine` layout: fixed-capacity caches updated in place,
 * rows compacted away once finished.
 */
export class OrtEngineDecoder implements Decoder {
  readonly supportsPadding = true;

  private constructor(
    private readonly session: OrtSession,
    private readonly layers: number,
    private readonly heads: number,
    private readonly headDim: number,
  ) {}

  /** Open a session on `engine`-layout bytes for a model with the given shape (AnchorError INTERNAL when rejected). */
  static async create(
    model: Uint8Array,
    shape: { layers: number; heads: number; headDim: number },
    opts: { optimizationLevel?: GraphOptimizationLevel } = {},
  ): Promise<OrtEngineDecoder> {
    const session = await OrtSession.open(model, {
      ...(opts.optimizationLevel ? { optimizationLevel: opts.optimizationLevel } : {}),
      onLoadError: (err) =>
        new AnchorError('INTERNAL', `ONNX Runtime rejected the exported policy: ${(err as Error).message}`, undefined, {
          cause: err,
        }),
    });
    return new OrtEngineDecoder(session, shape.layers, shape.heads, shape.headDim);
  }

  async begin(start: DecodeStart): Promise<{ first: StepLogits; run: DecodeRun }> {
    const { batch: B, promptLen: L, padCounts } = start;
    const { layers, heads: H, headDim: D } = this;
    const emptyK = floatTensor(new Float32Array(0), [B, H, D, 0]);
    const emptyV = floatTensor(new Float32Array(0), [B, H, 0, D]);
    const runFull = async (
      ids: Int32Array,
      positions: Int32Array,
      seq: number,
    ): Promise<{ out: OrtOutputs; logits: StepLogits }> => {
      const feeds: OrtFeeds = {
        input_ids: intTensor('int64', ids, [B, seq]),
        position_ids: intTensor('int64', positions, [B, seq]),
        attention_mask: maskTensor('int64', padCounts, B, seq),
      };
      for (let i = 0; i < layers; i++) {
        feeds[engineCacheKeyName(i)] = emptyK;
        feeds[engineCacheValueName(i)] = emptyV;
      }
      const out = await this.session.run(feeds);
      return { out, logits: readLogits(out, 'logits', B) };
    };
    if (this.session.released) throw new AnchorError('INTERNAL', 'OrtEngineDecoder used after release');
    const prefill = await runFull(start.ids, start.positions, L);
    if (!start.useCache) {
      return { first: prefill.logits, run: new RecomputeRun(start, async (i, p, s) => (await runFull(i, p, s)).logits) };
    }

    const cache = new EngineCache({ layers, heads: H, headDim: D }, start);
    cache.prefill(prefill.out);
    const run: DecodeRun = {
      next: async (ids, positions) => {
        if (this.session.released) throw new AnchorError('INTERNAL', 'OrtEngineDecoder used after release');
        if (cache.full) throw new AnchorError('INTERNAL', 'decode run exceeded its cache capacity');
        const rows = cache.rows;
        const out = await this.session.run(cache.stepFeeds(ids, positions));
        cache.append(out);
        return readLogits(out, 'logits', rows);
      },
      compact: (keep) => cache.compact(keep),
    };
    return { first: prefill.logits, run };
  }

  /** Take a reference (a generation in flight). */
  retain(): void {
    this.session.retain();
  }

  /** Drop a reference; the session is released when the last one goes. */
  async dispose(): Promise<void> {
    await this.session.dispose();
  }
}

/**
 * The fixed-capacity caches of one generation, in the layout the `engine` graph reads: per layer,
 * keys transposed [rows, heads, headDim, cap] and values [rows, heads, cap, headDim], plus the
 * attention mask [rows, cap + 1] (the last slot is the token being fed). Slot j of row b is valid
 * once written and when j >= padCounts[b].
 */
class EngineCache {
  /** Rows still in the batch. */
  rows: number;
  private readonly cap: number;
  private filled = 0;
  private kt: Float32Array[] = [];
  private vv: Float32Array[] = [];
  private mask: BigInt64Array;
  private maskT: OrtTensor;
  private cacheFeeds: OrtFeeds = {};

  constructor(
    private readonly shape: { readonly layers: number; readonly heads: number; readonly headDim: number },
    private readonly start: DecodeStart,
  ) {
    const { batch: B, promptLen: L, padCounts } = start;
    const { layers, heads: H, headDim: D } = shape;
    const cap = Math.max(start.capacity, L);
    this.cap = cap;
    this.rows = B;
    for (let i = 0; i < layers; i++) {
      this.kt.push(new Float32Array(B * H * D * cap));
      this.vv.push(new Float32Array(B * H * cap * D));
    }
    this.bind();
    this.mask = new BigInt64Array(B * (cap + 1));
    for (let b = 0; b < B; b++) {
      this.mask.fill(1n, b * (cap + 1) + padCounts[b]!, b * (cap + 1) + L);
      this.mask[b * (cap + 1) + cap] = 1n;
    }
    this.maskT = int64Tensor(this.mask, [B, cap + 1]);
  }

  /** True when every slot is written: another step would overrun the capacity. */
  get full(): boolean {
    return this.filled >= this.cap;
  }

  /** Write the prompt's keys and values (the prefill run's outputs) into slots 0 … promptLen − 1. */
  prefill(out: OrtOutputs): void {
    this.write(out, 0, this.start.promptLen);
    this.filled = this.start.promptLen;
  }

  /** The feeds of a one-token step of the current rows. */
  stepFeeds(ids: Int32Array, positions: Int32Array): OrtFeeds {
    return {
      input_ids: intTensor('int64', ids, [this.rows, 1]),
      position_ids: intTensor('int64', positions, [this.rows, 1]),
      attention_mask: this.maskT,
      ...this.cacheFeeds,
    };
  }

  /** Write a step's new keys and values into the next slot and open it in the mask. */
  append(out: OrtOutputs): void {
    this.write(out, this.filled, 1);
    for (let b = 0; b < this.rows; b++) this.mask[b * (this.cap + 1) + this.filled] = 1n;
    this.filled++;
  }

  /** Keep only the rows `keep` (ascending indices into the current rows). */
  compact(keep: number[]): void {
    const { heads: H, headDim: D } = this.shape;
    const cap = this.cap;
    const per = H * D * cap;
    const pick = (src: Float32Array): Float32Array => {
      const dst = new Float32Array(keep.length * per);
      keep.forEach((b, r) => dst.set(src.subarray(b * per, (b + 1) * per), r * per));
      return dst;
    };
    this.kt = this.kt.map(pick);
    this.vv = this.vv.map(pick);
    const m2 = new BigInt64Array(keep.length * (cap + 1));
    keep.forEach((b, r) => m2.set(this.mask.subarray(b * (cap + 1), (b + 1) * (cap + 1)), r * (cap + 1)));
    this.mask = m2;
    this.rows = keep.length;
    this.maskT = int64Tensor(this.mask, [this.rows, cap + 1]);
    this.bind();
  }

  /** Session tensors over the current buffers (the run reads them; nothing is copied). */
  private bind(): void {
    const { layers, heads: H, headDim: D } = this.shape;
    this.cacheFeeds = {};
    for (let i = 0; i < layers; i++) {
      this.cacheFeeds[engineCacheKeyName(i)] = floatTensor(this.kt[i]!, [this.rows, H, D, this.cap]);
      this.cacheFeeds[engineCacheValueName(i)] = floatTensor(this.vv[i]!, [this.rows, H, this.cap, D]);
    }
  }

  /** Write `seq` new tokens' keys/values per row (outputs [rows, heads, seq, headDim]) from slot `slot0` on. */
  private write(out: OrtOutputs, slot0: number, seq: number): void {
    const { layers, heads: H, headDim: D } = this.shape;
    const cap = this.cap;
    for (let i = 0; i < layers; i++) {
      const nk = out[engineNewKeyName(i)]!.data as Float32Array;
      const nv = out[engineNewValueName(i)]!.data as Float32Array;
      const K = this.kt[i]!;
      const Vb = this.vv[i]!;
      for (let bh = 0; bh < this.rows * H; bh++) {
        for (let s = 0; s < seq; s++) {
          const src = (bh * seq + s) * D;
          const slot = slot0 + s;
          Vb.set(nv.subarray(src, src + D), (bh * cap + slot) * D);
          const kBase = bh * D * cap + slot;
          for (let d = 0; d < D; d++) K[kBase + d * cap] = nk[src + d]!;
        }
      }
    }
  }
}
