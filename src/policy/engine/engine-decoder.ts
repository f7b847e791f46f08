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

    // Fixed-capacity caches: slot j of row b is valid once written and when j >= padCounts[b].
    const cap = Math.max(start.capacity, L);
    let rowsNow = B;
    let kt: Float32Array[] = [];
    let vv: Float32Array[] = [];
    let cacheFeeds: OrtFeeds = {};
    const bindCaches = (): void => {
      cacheFeeds = {};
      for (let i = 0; i < layers; i++) {
        cacheFeeds[engineCacheKeyName(i)] = floatTensor(kt[i]!, [rowsNow, H, D, cap]);
        cacheFeeds[engineCacheValueName(i)] = floatTensor(vv[i]!, [rowsNow, H, cap, D]);
      }
    };
    for (let i = 0; i < layers; i++) {
      kt.push(new Float32Array(B * H * D * cap));
      vv.push(new Float32Array(B * H * cap * D));
    }
    bindCaches();
    const write = (out: OrtOutputs, slot0: number, seq: number): void => {
      for (let i = 0; i < layers; i++) {
        const nk = out[engineNewKeyName(i)]!.data as Float32Array;
        const nv = out[engineNewValueName(i)]!.data as Float32Array;
        const K = kt[i]!;
        const Vb = vv[i]!;
        for (let bh = 0; bh < rowsNow * H; bh++) {
          for (let s = 0; s < seq; s++) {
            const src = (bh * seq + s) * D;
            const slot = slot0 + s;
            Vb.set(nv.subarray(src, src + D), (bh * cap + slot) * D);
            const kBase = bh * D * cap + slot;
            for (let d = 0; d < D; d++) K[kBase + d * cap] = nk[src + d]!;
          }
        }
      }
    };
    write(prefill.out, 0, L);
    let filled = L;
    let mask = new BigInt64Array(B * (cap + 1));
    for (let b = 0; b < B; b++) {
      mask.fill(1n, b * (cap + 1) + padCounts[b]!, b * (cap + 1) + L);
      mask[b * (cap + 1) + cap] = 1n;
    }
    let maskT = int64Tensor(mask, [B, cap + 1]);
    const run: DecodeRun = {
      next: async (ids, positions) => {
        if (this.session.released) throw new AnchorError('INTERNAL', 'OrtEngineDecoder used after release');
        if (filled >= cap) throw new AnchorError('INTERNAL', 'decode run exceeded its cache capacity');
        const out = await this.session.run({
          input_ids: intTensor('int64', ids, [rowsNow, 1]),
          position_ids: intTensor('int64', positions, [rowsNow, 1]),
          attention_mask: maskT,
          ...cacheFeeds,
        });
        write(out, filled, 1);
        for (let b = 0; b < rowsNow; b++) mask[b * (cap + 1) + filled] = 1n;
        filled++;
        return readLogits(out, 'logits', rowsNow);
      },
      compact: (keep) => {
        const per = H * D * cap;
        const pick = (src: Float32Array): Float32Array => {
          const dst = new Float32Array(keep.length * per);
          keep.forEach((b, r) => dst.set(src.subarray(b * per, (b + 1) * per), r * per));
          return dst;
        };
        kt = kt.map(pick);
        vv = vv.map(pick);
        const m2 = new BigInt64Array(keep.length * (cap + 1));
        keep.forEach((b, r) => m2.set(mask.subarray(b * (cap + 1), (b + 1) * (cap + 1)), r * (cap + 1)));
        mask = m2;
        rowsNow = keep.length;
        maskT = int64Tensor(mask, [rowsNow, cap + 1]);
        bindCaches();
      },
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
