/**
 * ONNX Runtime sessions — the only module in the project that imports onnxruntime-node
 * (`one-onnxruntime-module` in .dependency-cruiser.cjs). It owns what is about the runtime and
 * nothing about models: session creation and options, feeds (tensor construction), graph I/O
 * metadata, running a step, and reference-counted release. The decoders that give the tensors
 * their meaning (./mapped-decoder.ts, ./engine-decoder.ts) see tensors only through the type
 * aliases below, as transformers.js keeps its ONNX backend apart from its model classes.
 */
import * as ort from 'onnxruntime-node';
import { AnchorError } from '../../util/errors.ts';
import { floatToHalf, halfToFloat } from '../safetensors.ts';
import type { IntType, IoMeta } from './decoder-io.ts';

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

/** A tensor fed to or returned by a session (opaque outside this module but for `type`, `dims`, `data`). */
export type OrtTensor = ort.Tensor;

/** Named tensors fed to one session run. */
export type OrtFeeds = Record<string, OrtTensor>;

/** Named tensors one session run returned. */
export type OrtOutputs = ort.InferenceSession.OnnxValueMapType;

/** A plain tensor (no ONNX Runtime types): float data is given and returned as float32. */
export interface PlainTensor {
  type: 'float32' | 'float16' | 'int32' | 'int64';
  data: Float32Array | Int32Array | number[];
  dims: number[];
}

/**
 * An inference session shared by the generations that use it: created with one reference,
 * released when the last reference is dropped.
 */
export class OrtSession {
  private refs = 1;
  private releasedFlag = false;

  private constructor(private readonly session: ort.InferenceSession) {}

  /**
   * Create a session on ONNX bytes or a file path with the project's session options.
   * `onLoadError` turns ONNX Runtime's load failure into the caller's typed error (without it
   * the runtime's error propagates unchanged).
   */
  static async open(
    model: Uint8Array | string,
    opts: { optimizationLevel?: GraphOptimizationLevel; onLoadError?: (err: unknown) => AnchorError } = {},
  ): Promise<OrtSession> {
    const options: ort.InferenceSession.SessionOptions = {
      ...DEFAULT_SESSION_OPTIONS,
      graphOptimizationLevel: opts.optimizationLevel ?? DEFAULT_SESSION_OPTIONS.graphOptimizationLevel,
    };
    try {
      // Two calls because the overloads differ by argument type.
      const session =
        typeof model === 'string'
          ? await ort.InferenceSession.create(model, options)
          : await ort.InferenceSession.create(model, options);
      return new OrtSession(session);
    } catch (err) {
      if (opts.onLoadError) throw opts.onLoadError(err);
      throw err;
    }
  }

  /** True once the last reference was dropped and the native session freed. */
  get released(): boolean {
    return this.releasedFlag;
  }

  /** Run the graph once (throws AnchorError RUN_FAILED when ONNX Runtime fails). */
  async run(feeds: OrtFeeds): Promise<OrtOutputs> {
    try {
      return await this.session.run(feeds);
    } catch (err) {
      throw new AnchorError('RUN_FAILED', `ONNX Runtime inference failed: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
  }

  /** The graph's inputs or outputs as ONNX Runtime reports them. */
  io(kind: 'input' | 'output'): IoMeta[] {
    const session = this.session;
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

  /** Take a reference (a generation in flight). */
  retain(): void {
    this.refs++;
  }

  /** Drop a reference; the native session is released when the last one goes. */
  async dispose(): Promise<void> {
    if (--this.refs === 0 && !this.releasedFlag) {
      this.releasedFlag = true;
      await this.session.release();
    }
  }
}

/** An int32 or int64 tensor of `values` (the graph input's declared type). */
export function intTensor(type: IntType, values: ArrayLike<number>, dims: number[]): OrtTensor {
  const n = values.length;
  if (type === 'int32') return new ort.Tensor('int32', Int32Array.from(values), dims);
  const out = new BigInt64Array(n);
  for (let i = 0; i < n; i++) out[i] = BigInt(values[i]!);
  return new ort.Tensor('int64', out, dims);
}

/** An attention mask [batch, total]: 0 over each row's first `padCounts[b]` slots, 1 elsewhere. */
export function maskTensor(type: IntType, padCounts: ArrayLike<number>, batch: number, total: number): OrtTensor {
  if (type === 'int32') {
    const m = new Int32Array(batch * total).fill(1);
    for (let b = 0; b < batch; b++) m.fill(0, b * total, b * total + padCounts[b]!);
    return new ort.Tensor('int32', m, [batch, total]);
  }
  const m = new BigInt64Array(batch * total).fill(1n);
  for (let b = 0; b < batch; b++) m.fill(0n, b * total, b * total + padCounts[b]!);
  return new ort.Tensor('int64', m, [batch, total]);
}

/** A float32 tensor over `data` (not copied: a later write to `data` is what the next run reads). */
export function floatTensor(data: Float32Array, dims: number[]): OrtTensor {
  return new ort.Tensor('float32', data, dims);
}

/** An int64 tensor over `data` (not copied). */
export function int64Tensor(data: BigInt64Array, dims: number[]): OrtTensor {
  return new ort.Tensor('int64', data, dims);
}

/** A one-element bool tensor (e.g. optimum's `use_cache_branch`). */
export function boolTensor(value: boolean): OrtTensor {
  return new ort.Tensor('bool', Uint8Array.from([value ? 1 : 0]), [1]);
}

/** A session tensor from a {@link PlainTensor} (float16 converted from the given floats). */
export function toOrtTensor(t: PlainTensor): OrtTensor {
  const d = t.data;
  if (t.type === 'int64') return new ort.Tensor('int64', BigInt64Array.from(Array.from(d, (x) => BigInt(x))), t.dims);
  if (t.type === 'int32') return new ort.Tensor('int32', Int32Array.from(d), t.dims);
  if (t.type === 'float16') return new ort.Tensor('float16', Uint16Array.from(Array.from(d, floatToHalf)), t.dims);
  return new ort.Tensor('float32', d instanceof Float32Array ? d : Float32Array.from(d), t.dims);
}

/**
 * One inference of an ONNX file or bytes with plain feeds (float16 inputs converted from
 * float32, float16 outputs returned as float32). For tests and tools comparing a graph made
 * elsewhere against the project's models; the rollout path is the decoders of ./decoder.ts.
 */
export async function runOnnxOnce(
  model: string | Uint8Array,
  feeds: Record<string, PlainTensor>,
): Promise<Record<string, { data: Float32Array; dims: number[] }>> {
  const session = await OrtSession.open(model);
  try {
    const input: OrtFeeds = {};
    for (const [name, t] of Object.entries(feeds)) input[name] = toOrtTensor(t);
    const out = await session.run(input);
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
    await session.dispose();
  }
}
