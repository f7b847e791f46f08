/**
 * ONNX Runtime decoder sessions — the only module in the project that imports
 * onnxruntime-node. Two {@link Decoder}s drive the generation loop in ./rollout-engine.ts:
 * - {@link OrtDecoder}: any decoder graph mapped by {@link DecoderIoSpec} (optimum / genai naming,
 *   bring-your-own models); the KV cache goes in and out of ONNX Runtime as opaque tensors.
 * - {@link OrtEngineDecoder}: native policies exported in the `engine` layout; fixed-capacity
 *   caches in JS buffers that are updated in place, and finished rows can leave the batch.
 */
import * as ort from 'onnxruntime-node';
import { AnchorError } from '../../util/errors.ts';
import { floatToHalf, halfToFloat } from '../safetensors.ts';
import { mapDecoderIo, type DecoderIoSpec, type GenaiDecoderConfig, type IntType, type IoMeta } from './decoder-io.ts';
import { engineCacheKeyName, engineCacheValueName, engineNewKeyName, engineNewValueName } from '../onnx/export-gpt.ts';

/** Session options measured fastest here for small models (2 cores shared). */
const DEFAULT_SESSION_OPTIONS = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  // 'extended' (transformer fusions) measured faster per step than 'all' here: 2.3–2.7 vs 3.3–3.6 ms CPU
  // for a batch-64 decode step of the default model (the extra layout transforms of 'all' do not pay).
  graphOptimizationLevel: 'extended',
  // Errors only: ORT's warnings (e.g. about unused initializers in third-party exports) are noise here.
  logSeverityLevel: 3,
} as const satisfies ort.InferenceSession.SessionOptions;

/** Graph optimisation levels ONNX Runtime accepts. */
export type GraphOptimizationLevel = 'disabled' | 'basic' | 'extended' | 'all';

/** The KV cache after a step: opaque tensors keyed by past-input name, and its length. */
export interface KvCache {
  readonly length: number;
  /** @internal ORT tensors; only this module looks inside. */
  readonly tensors: ReadonlyMap<string, unknown>;
}

/** One forward step's input. Rows are left-padded: the first `padCounts[b]` slots of row b are pads. */
export interface StepInput {
  batch: number;
  /** New tokens per row this step. */
  seq: number;
  /** Token ids, row-major [batch, seq]. */
  ids: ArrayLike<number>;
  /** Position ids, row-major [batch, seq]. */
  positions: ArrayLike<number>;
  /** Left pad slots per row over the whole (past + seq) sequence. */
  padCounts: ArrayLike<number>;
}

/** One forward step's output. */
export interface StepOutput {
  /** Logits, row-major [batch, logitsSeq, vocab]. */
  logits: Float32Array;
  logitsSeq: number;
  vocab: number;
  cache: KvCache;
}

/** Logits of one step: row-major [batch, logitsSeq, vocab]. */
export interface StepLogits {
  logits: Float32Array;
  logitsSeq: number;
  vocab: number;
}

/** What a generation needs to start: the left-padded prompt batch. */
export interface DecodeStart {
  batch: number;
  /** Longest prompt; ids and positions are [batch, promptLen]. */
  promptLen: number;
  ids: Int32Array;
  positions: Int32Array;
  padCounts: Int32Array;
  /** Upper bound on tokens fed per row over the whole generation (prompt + generated − 1). */
  capacity: number;
  /** KV cache (default) or full recompute each step. */
  useCache: boolean;
}

/** An ongoing generation: feed one token per row, get the next logits. */
export interface DecodeRun {
  next(ids: Int32Array, positions: Int32Array): Promise<StepLogits>;
  /**
   * Optional: keep only the given rows (indices into the current batch, ascending), so finished
   * rows stop costing compute. Later `next` calls take and return the kept rows only.
   */
  compact?(keep: number[]): void;
}

/** A served model the generation loop can drive. Reference-counted across weight syncs. */
export interface Decoder {
  /** False when the graph has no attention mask: rows of a batch must then be equally long. */
  readonly supportsPadding: boolean;
  begin(start: DecodeStart): Promise<{ first: StepLogits; run: DecodeRun }>;
  retain(): void;
  dispose(): Promise<void>;
}

/**
 * Full-history decode run for recompute mode: keeps every fed token and reruns the whole
 * sequence through `forwardFull` each step.
 */
class RecomputeRun implements DecodeRun {
  private ids: Int32Array;
  private positions: Int32Array;
  private len: number;

  constructor(
    private readonly start: DecodeStart,
    private readonly forwardFull: (ids: Int32Array, positions: Int32Array, seq: number) => Promise<StepLogits>,
  ) {
    const { batch: B, promptLen: L, capacity } = start;
    this.ids = new Int32Array(B * capacity);
    this.positions = new Int32Array(B * capacity);
    for (let b = 0; b < B; b++) {
      this.ids.set(start.ids.subarray(b * L, (b + 1) * L), b * capacity);
      this.positions.set(start.positions.subarray(b * L, (b + 1) * L), b * capacity);
    }
    this.len = L;
  }

  async next(ids: Int32Array, positions: Int32Array): Promise<StepLogits> {
    const { batch: B, capacity } = this.start;
    if (this.len >= capacity) throw new AnchorError('INTERNAL', 'decode run exceeded its capacity');
    for (let b = 0; b < B; b++) {
      this.ids[b * capacity + this.len] = ids[b]!;
      this.positions[b * capacity + this.len] = positions[b]!;
    }
    this.len++;
    const S = this.len;
    const flatIds = new Int32Array(B * S);
    const flatPos = new Int32Array(B * S);
    for (let b = 0; b < B; b++) {
      flatIds.set(this.ids.subarray(b * capacity, b * capacity + S), b * S);
      flatPos.set(this.positions.subarray(b * capacity, b * capacity + S), b * S);
    }
    return this.forwardFull(flatIds, flatPos, S);
  }
}

/**
 * A decoder graph mapped by {@link DecoderIoSpec} (optimum / genai conventions, bring-your-own
 * models). The cache goes in and out of ONNX Runtime every step.
 */
export class OrtDecoder implements Decoder {
  private refs = 1;
  private released = false;
  /** Constant inputs fed every step (e.g. LoRA adapter matrices); replaced by {@link setConstantFeeds}. */
  private constants: Record<string, ort.Tensor> = {};

  private constructor(
    private readonly session: ort.InferenceSession,
    /** The I/O mapping in use. */
    readonly spec: DecoderIoSpec,
  ) {}

  /**
   * Create a session from ONNX bytes or a file path and map its I/O (throws AnchorError
   * BAD_MODEL when it cannot be mapped).
   */
  static async create(
    model: Uint8Array | string,
    opts: {
      genai?: GenaiDecoderConfig;
      optimizationLevel?: GraphOptimizationLevel;
      spec?: DecoderIoSpec;
      /** Inputs that are not part of the decoder interface, fed unchanged every step. */
      constants?: Record<string, PlainTensor>;
    } = {},
  ): Promise<OrtDecoder> {
    const options: ort.InferenceSession.SessionOptions = {
      ...DEFAULT_SESSION_OPTIONS,
      graphOptimizationLevel: opts.optimizationLevel ?? DEFAULT_SESSION_OPTIONS.graphOptimizationLevel,
    };
    let session: ort.InferenceSession;
    try {
      session =
        typeof model === 'string'
          ? await ort.InferenceSession.create(model, options)
          : await ort.InferenceSession.create(model, options);
    } catch (err) {
      throw new AnchorError('BAD_MODEL', `ONNX Runtime could not load the model: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
    try {
      const constantNames = new Set(Object.keys(opts.constants ?? {}));
      const inputs = ioMeta(session, 'input').filter((m) => !constantNames.has(m.name));
      const spec = opts.spec ?? mapDecoderIo(inputs, ioMeta(session, 'output'), opts.genai);
      const decoder = new OrtDecoder(session, spec);
      if (opts.constants) decoder.setConstantFeeds(opts.constants);
      return decoder;
    } catch (err) {
      await session.release();
      throw err;
    }
  }

  get supportsPadding(): boolean {
    return this.spec.attentionMask !== undefined;
  }

  /**
   * Replace the constant inputs (same names as at creation) without rebuilding the session.
   * Generations already running keep the tensors they started with.
   */
  setConstantFeeds(feeds: Record<string, PlainTensor>): void {
    const next: Record<string, ort.Tensor> = {};
    for (const [name, t] of Object.entries(feeds)) next[name] = toOrtTensor(t);
    this.constants = next;
  }

  /** A cache with zero past length for `batch` rows (covers the first step). */
  emptyCache(batch: number): KvCache {
    const { kvHeads: H, headDim: D } = this.spec;
    const tensors = new Map<string, unknown>();
    for (const c of this.spec.cache) {
      const dims = c.layout === 'stacked' ? [2, batch, H, 0, D] : [batch, H, 0, D];
      tensors.set(c.past, new ort.Tensor('float32', new Float32Array(0), dims));
    }
    return { length: 0, tensors };
  }

  /** Run one step. `cache` defaults to an empty one (full-sequence forward). */
  async forward(step: StepInput, cache?: KvCache, constants: Record<string, ort.Tensor> = this.constants): Promise<StepOutput> {
    if (this.released) throw new AnchorError('INTERNAL', 'OrtDecoder.forward after release');
    const { batch: B, seq: S } = step;
    const past = cache ?? this.emptyCache(B);
    const total = past.length + S;
    const spec = this.spec;
    const feeds: Record<string, ort.Tensor> = {};
    feeds[spec.inputIds.name] = intTensor(spec.inputIds.type, step.ids, [B, S]);
    if (spec.positionIds) feeds[spec.positionIds.name] = intTensor(spec.positionIds.type, step.positions, [B, S]);
    if (spec.attentionMask) feeds[spec.attentionMask.name] = maskTensor(spec.attentionMask.type, step.padCounts, B, total);
    if (spec.useCacheBranch) feeds[spec.useCacheBranch] = new ort.Tensor('bool', Uint8Array.from([past.length > 0 ? 1 : 0]), [1]);
    for (const c of spec.cache) feeds[c.past] = past.tensors.get(c.past) as ort.Tensor;
    Object.assign(feeds, constants);

    const out = await runSession(this.session, feeds);
    const logitsT = out[spec.logits];
    if (logitsT?.type !== 'float32' || logitsT.dims.length !== 3) {
      throw new AnchorError('BAD_MODEL', `output '${spec.logits}' is not a float32 [batch, seq, vocab] tensor`);
    }
    const tensors = new Map<string, unknown>();
    for (const c of spec.cache) tensors.set(c.past, out[c.present]);
    return {
      logits: logitsT.data as Float32Array,
      logitsSeq: logitsT.dims[1]!,
      vocab: logitsT.dims[2]!,
      cache: { length: total, tensors },
    };
  }

  async begin(start: DecodeStart): Promise<{ first: StepLogits; run: DecodeRun }> {
    const { batch, padCounts } = start;
    const constants = this.constants; // a generation runs on the weights it started with
    const first = await this.forward(
      { batch, seq: start.promptLen, ids: start.ids, positions: start.positions, padCounts },
      undefined,
      constants,
    );
    if (!start.useCache || this.spec.cache.length === 0) {
      const run = new RecomputeRun(start, async (ids, positions, seq) =>
        this.forward({ batch, seq, ids, positions, padCounts }, undefined, constants),
      );
      return { first, run };
    }
    let cache = first.cache;
    const run: DecodeRun = {
      next: async (ids, positions) => {
        const out = await this.forward({ batch, seq: 1, ids, positions, padCounts }, cache, constants);
        cache = out.cache;
        return out;
      },
    };
    return { first, run };
  }

  /** Take a reference (a generation in flight). */
  retain(): void {
    this.refs++;
  }

  /** Drop a reference; the session is released when the last one goes. */
  async dispose(): Promise<void> {
    if (--this.refs === 0 && !this.released) {
      this.released = true;
      await this.session.release();
    }
  }

  /** The logits output's fixed last dimension (vocabulary), when the graph declares one. */
  logitsVocab(): number | undefined {
    const o = ioMeta(this.session, 'output').find((m) => m.name === this.spec.logits);
    const v = o?.shape?.[o.shape.length - 1];
    return typeof v === 'number' && v > 0 ? v : undefined;
  }

  /** Inputs and outputs as ONNX Runtime reports them. */
  io(): { inputs: IoMeta[]; outputs: IoMeta[] } {
    return { inputs: ioMeta(this.session, 'input'), outputs: ioMeta(this.session, 'output') };
  }
}

function ioMeta(session: ort.InferenceSession, kind: 'input' | 'output'): IoMeta[] {
  const names = kind === 'input' ? session.inputNames : session.outputNames;
  const metas = (kind === 'input' ? session.inputMetadata : session.outputMetadata) as readonly unknown[] | undefined;
  return names.map((name, i) => {
    const m = metas?.[i] as { name?: string; isTensor?: boolean; type?: string; shape?: Array<number | string> } | undefined;
    const entry: IoMeta = { name };
    if (m?.isTensor) {
      if (m.type) entry.type = m.type;
      if (m.shape) entry.shape = [...m.shape];
    }
    return entry;
  });
}

function intTensor(type: IntType, values: ArrayLike<number>, dims: number[]): ort.Tensor {
  const n = values.length;
  if (type === 'int32') return new ort.Tensor('int32', Int32Array.from(values), dims);
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) out[i] = BigInt(values[i]!);
  return new ort.Tensor('int64', out, dims);
}

function maskTensor(type: IntType, padCounts: ArrayLike<number>, batch: number, total: number): ort.Tensor {
  if (type === 'int32') {
    const m = new Int32Array(batch * total).fill(1);
    for (let b = 0; b < batch; b++) m.fill(0, b * total, b * total + padCounts[b]!);
    return new ort.Tensor('int32', m, [batch, total]);
  }
  const m = new BigInt64Array(batch * total).fill(1n);
  for (let b = 0; b < batch; b++) m.fill(0n, b * total, b * total + padCounts[b]!);
  return new ort.Tensor('int64', m, [batch, total]);
}

/**
 * A native policy exported with the `engine` layout (see ../onnx/export-gpt.ts): fixed-capacity
 * caches live in JS buffers that ONNX Runtime only reads; each step returns just the new
 * tokens' keys/values, written into the buffers in place.
 */
export class OrtEngineDecoder implements Decoder {
  readonly supportsPadding = true;
  private refs = 1;
  private released = false;

  private constructor(
    private readonly session: ort.InferenceSession,
    private readonly layers: number,
    private readonly heads: number,
    private readonly headDim: number,
  ) {}

  /** Open a session on `engine`-layout bytes for a model with the given shape. */
  static async create(
    model: Uint8Array,
    shape: { layers: number; heads: number; headDim: number },
    opts: { optimizationLevel?: GraphOptimizationLevel } = {},
  ): Promise<OrtEngineDecoder> {
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(model, {
        ...DEFAULT_SESSION_OPTIONS,
        graphOptimizationLevel: opts.optimizationLevel ?? DEFAULT_SESSION_OPTIONS.graphOptimizationLevel,
      });
    } catch (err) {
      throw new AnchorError('INTERNAL', `ONNX Runtime rejected the exported policy: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
    return new OrtEngineDecoder(session, shape.layers, shape.heads, shape.headDim);
  }

  async begin(start: DecodeStart): Promise<{ first: StepLogits; run: DecodeRun }> {
    const { batch: B, promptLen: L, padCounts } = start;
    const { layers, heads: H, headDim: D } = this;
    const emptyK = new ort.Tensor('float32', new Float32Array(0), [B, H, D, 0]);
    const emptyV = new ort.Tensor('float32', new Float32Array(0), [B, H, 0, D]);
    const runFull = async (
      ids: Int32Array,
      positions: Int32Array,
      seq: number,
    ): Promise<{ out: ort.InferenceSession.OnnxValueMapType; logits: StepLogits }> => {
      const feeds: Record<string, ort.Tensor> = {
        input_ids: intTensor('int64', ids, [B, seq]),
        position_ids: intTensor('int64', positions, [B, seq]),
        attention_mask: maskTensor('int64', padCounts, B, seq),
      };
      for (let i = 0; i < layers; i++) {
        feeds[engineCacheKeyName(i)] = emptyK;
        feeds[engineCacheValueName(i)] = emptyV;
      }
      const out = await runSession(this.session, feeds);
      return { out, logits: logitsOf(out, B) };
    };
    if (this.released) throw new AnchorError('INTERNAL', 'OrtEngineDecoder used after release');
    const prefill = await runFull(start.ids, start.positions, L);
    if (!start.useCache) {
      return { first: prefill.logits, run: new RecomputeRun(start, async (i, p, s) => (await runFull(i, p, s)).logits) };
    }

    // Fixed-capacity caches: slot j of row b is valid once written and when j >= padCounts[b].
    const cap = Math.max(start.capacity, L);
    let rowsNow = B;
    let kt: Float32Array[] = [];
    let vv: Float32Array[] = [];
    let cacheFeeds: Record<string, ort.Tensor> = {};
    const bindCaches = (): void => {
      cacheFeeds = {};
      for (let i = 0; i < layers; i++) {
        cacheFeeds[engineCacheKeyName(i)] = new ort.Tensor('float32', kt[i]!, [rowsNow, H, D, cap]);
        cacheFeeds[engineCacheValueName(i)] = new ort.Tensor('float32', vv[i]!, [rowsNow, H, cap, D]);
      }
    };
    for (let i = 0; i < layers; i++) {
      kt.push(new Float32Array(B * H * D * cap));
      vv.push(new Float32Array(B * H * cap * D));
    }
    bindCaches();
    const write = (out: ort.InferenceSession.OnnxValueMapType, slot0: number, seq: number): void => {
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
    let maskT = new ort.Tensor('int64', mask, [B, cap + 1]);
    const run: DecodeRun = {
      next: async (ids, positions) => {
        if (this.released) throw new AnchorError('INTERNAL', 'OrtEngineDecoder used after release');
        if (filled >= cap) throw new AnchorError('INTERNAL', 'decode run exceeded its cache capacity');
        const out = await runSession(this.session, {
          input_ids: intTensor('int64', ids, [rowsNow, 1]),
          position_ids: intTensor('int64', positions, [rowsNow, 1]),
          attention_mask: maskT,
          ...cacheFeeds,
        });
        write(out, filled, 1);
        for (let b = 0; b < rowsNow; b++) mask[b * (cap + 1) + filled] = 1n;
        filled++;
        return logitsOf(out, rowsNow);
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
        maskT = new ort.Tensor('int64', mask, [rowsNow, cap + 1]);
        bindCaches();
      },
    };
    return { first: prefill.logits, run };
  }

  retain(): void {
    this.refs++;
  }

  async dispose(): Promise<void> {
    if (--this.refs === 0 && !this.released) {
      this.released = true;
      await this.session.release();
    }
  }
}

async function runSession(
  session: ort.InferenceSession,
  feeds: Record<string, ort.Tensor>,
): Promise<ort.InferenceSession.OnnxValueMapType> {
  try {
    return await session.run(feeds);
  } catch (err) {
    throw new AnchorError('RUN_FAILED', `ONNX Runtime inference failed: ${(err as Error).message}`, undefined, { cause: err });
  }
}

function logitsOf(out: ort.InferenceSession.OnnxValueMapType, batch: number): StepLogits {
  const t = out.logits;
  if (t?.type !== 'float32' || t.dims.length !== 3 || t.dims[0] !== batch) {
    throw new AnchorError('BAD_MODEL', "output 'logits' is not a float32 [batch, seq, vocab] tensor");
  }
  return { logits: t.data as Float32Array, logitsSeq: t.dims[1]!, vocab: t.dims[2]! };
}

/** A plain tensor for {@link runOnnxOnce}: float data is given and returned as float32. */
export interface PlainTensor {
  type: 'float32' | 'float16' | 'int32' | 'int64';
  data: Float32Array | Int32Array | number[];
  dims: number[];
}

/**
 * One inference of an ONNX file or bytes with plain feeds (float16 inputs converted from
 * float32, float16 outputs returned as float32). For tests and tools comparing a graph made
 * elsewhere against the project's models; the rollout path is the {@link Decoder}s above.
 */
export async function runOnnxOnce(
  model: string | Uint8Array,
  feeds: Record<string, PlainTensor>,
): Promise<Record<string, { data: Float32Array; dims: number[] }>> {
  const session =
    typeof model === 'string'
      ? await ort.InferenceSession.create(model, { ...DEFAULT_SESSION_OPTIONS })
      : await ort.InferenceSession.create(model, { ...DEFAULT_SESSION_OPTIONS });
  try {
    const input: Record<string, ort.Tensor> = {};
    for (const [name, t] of Object.entries(feeds)) input[name] = toOrtTensor(t);
    const out = await runSession(session, input);
    const res: Record<string, { data: Float32Array; dims: number[] }> = {};
    for (const [name, t] of Object.entries(out)) {
      const data =
        t.type === 'float16'
          ? Float32Array.from(t.data as Uint16Array, halfToFloat)
          : Float32Array.from(t.data as ArrayLike<number>);
      res[name] = { data, dims: [...t.dims] };
    }
    return res;
  } finally {
    await session.release();
  }
}

function toOrtTensor(t: PlainTensor): ort.Tensor {
  const d = t.data;
  if (t.type === 'int64') return new ort.Tensor('int64', BigInt64Array.from(Array.from(d, (x) => BigInt(x))), t.dims);
  if (t.type === 'int32') return new ort.Tensor('int32', Int32Array.from(d), t.dims);
  if (t.type === 'float16') return new ort.Tensor('float16', Uint16Array.from(Array.from(d, floatToHalf)), t.dims);
  return new ort.Tensor('float32', d instanceof Float32Array ? d : Float32Array.from(d), t.dims);
}
