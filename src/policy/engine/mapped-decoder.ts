/**
 * A decoder graph whose inputs and outputs are mapped by {@link DecoderIoSpec} (./decoder-io.ts):
 * Hugging Face optimum names with a per-layer KV cache (the Llama-family and LoRA exports,
 * bring-your-own models) and ONNX Runtime GenAI names, split or stacked (`past_{i}` /
 * `present_{i}`, GPT-2 GenAI exports). The KV cache goes in and out of ONNX Runtime every step as
 * opaque tensors; the session itself is ./ort-session.ts.
 */
import { AnchorError } from '../../util/errors.ts';
import { mapDecoderIo, type DecoderIoSpec, type GenaiDecoderConfig, type IoMeta } from './decoder-io.ts';
import { type DecodeRun, type DecodeStart, type Decoder, RecomputeRun, type StepLogits, readLogits } from './decoder.ts';
import {
  type GraphOptimizationLevel,
  type OrtFeeds,
  OrtSession,
  type OrtTensor,
  type PlainTensor,
  boolTensor,
  floatTensor,
  intTensor,
  maskTensor,
  toOrtTensor,
} from './ort-session.ts';

/** The KV cache after a step: opaque tensors keyed by past-input name, and its length. */
export interface KvCache {
  readonly length: number;
  /** @internal session tensors; only this module looks inside. */
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

/** One forward step's output: its logits and the cache that includes the step. */
export interface StepOutput extends StepLogits {
  cache: KvCache;
}

/**
 * A decoder graph mapped by {@link DecoderIoSpec} (optimum / genai conventions, bring-your-own
 * models). The cache goes in and out of ONNX Runtime every step.
 */
export class OrtDecoder implements Decoder {
  /** Constant inputs fed every step (e.g. LoRA adapter matrices); replaced by {@link setConstantFeeds}. */
  private constants: OrtFeeds = {};

  private constructor(
    private readonly session: OrtSession,
    /** The I/O mapping in use. */
    readonly spec: DecoderIoSpec,
  ) {}

  /**
   * Create a session from ONNX bytes or a file path and map its I/O (throws AnchorError
   * BAD_MODEL when it cannot be loaded or mapped).
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
    const session = await OrtSession.open(model, {
      ...(opts.optimizationLevel ? { optimizationLevel: opts.optimizationLevel } : {}),
      onLoadError: (err) =>
        new AnchorError('BAD_MODEL', `ONNX Runtime could not load the model: ${(err as Error).message}`, undefined, {
          cause: err,
        }),
    });
    try {
      const constantNames = new Set(Object.keys(opts.constants ?? {}));
      const inputs = session.io('input').filter((m) => !constantNames.has(m.name));
      const spec = opts.spec ?? mapDecoderIo(inputs, session.io('output'), opts.genai);
      const decoder = new OrtDecoder(session, spec);
      if (opts.constants) decoder.setConstantFeeds(opts.constants);
      return decoder;
    } catch (err) {
      await session.dispose();
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
    const next: OrtFeeds = {};
    for (const [name, t] of Object.entries(feeds)) next[name] = toOrtTensor(t);
    this.constants = next;
  }

  /** A cache with zero past length for `batch` rows (covers the first step). */
  emptyCache(batch: number): KvCache {
    const { kvHeads: H, headDim: D } = this.spec;
    const tensors = new Map<string, unknown>();
    for (const c of this.spec.cache) {
      const dims = c.layout === 'stacked' ? [2, batch, H, 0, D] : [batch, H, 0, D];
      tensors.set(c.past, floatTensor(new Float32Array(0), dims));
    }
    return { length: 0, tensors };
  }

  /** Run one step. `cache` defaults to an empty one (full-sequence forward). */
  async forward(step: StepInput, cache?: KvCache, constants: OrtFeeds = this.constants): Promise<StepOutput> {
    if (this.session.released) throw new AnchorError('INTERNAL', 'OrtDecoder.forward after release');
    const { batch: B, seq: S } = step;
    const past = cache ?? this.emptyCache(B);
    const total = past.length + S;
    const spec = this.spec;
    const feeds: OrtFeeds = {};
    feeds[spec.inputIds.name] = intTensor(spec.inputIds.type, step.ids, [B, S]);
    if (spec.positionIds) feeds[spec.positionIds.name] = intTensor(spec.positionIds.type, step.positions, [B, S]);
    if (spec.attentionMask) feeds[spec.attentionMask.name] = maskTensor(spec.attentionMask.type, step.padCounts, B, total);
    if (spec.useCacheBranch) feeds[spec.useCacheBranch] = boolTensor(past.length > 0);
    for (const c of spec.cache) feeds[c.past] = past.tensors.get(c.past) as OrtTensor;
    Object.assign(feeds, constants);

    const out = await this.session.run(feeds);
    const logits = readLogits(out, spec.logits);
    const tensors = new Map<string, unknown>();
    for (const c of spec.cache) tensors.set(c.past, out[c.present]);
    return { ...logits, cache: { length: total, tensors } };
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
    this.session.retain();
  }

  /** Drop a reference; the session is released when the last one goes. */
  async dispose(): Promise<void> {
    await this.session.dispose();
  }

  /** The logits output's fixed last dimension (vocabulary), when the graph declares one. */
  logitsVocab(): number | undefined {
    const o = this.session.io('output').find((m) => m.name === this.spec.logits);
    const v = o?.shape?.[o.shape.length - 1];
    return typeof v === 'number' && v > 0 ? v : undefined;
  }

  /** Inputs and outputs as ONNX Runtime reports them. */
  io(): { inputs: IoMeta[]; outputs: IoMeta[] } {
    return { inputs: this.session.io('input'), outputs: this.session.io('output') };
  }
}
