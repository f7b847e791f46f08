/**
 * The rollout engine: batched autoregressive sampling over an ONNX decoder (./decoder.ts)
 * with a KV cache, left padding for prompts of different lengths, temperature / top-k / top-p /
 * greedy sampling from the project's seeded Rng, EOS and stop strings, and weight sync for
 * native policies (re-export + new session; the old one is released once no generation uses it;
 * or, when the served graph takes the trainable tensors as inputs — LoRA adapters — new feeds
 * to the running session).
 *
 * Left padding: row b of a batch with longest prompt Lmax has Lmax − len_b pad slots first
 * (attention_mask 0), and position ids max(cumsum(mask) − 1, 0), so every row's real tokens
 * see positions 0, 1, … exactly as if it were alone. Generated token t of row b sits at
 * position len_b + t (0-based t): positions continue from the row's own prompt.
 */
import { AnchorError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import type { GptConfig } from '../gpt-config.ts';
import type { WeightMap } from '../weights.ts';
import { headDim } from '../gpt-config.ts';
import { exportGptToOnnx } from '../onnx/export-gpt.ts';
import type { Decoder } from './decoder.ts';
import { OrtEngineDecoder } from './engine-decoder.ts';
import { OrtDecoder } from './mapped-decoder.ts';
import type { GraphOptimizationLevel } from './ort-session.ts';
import type { DecoderIoSpec, GenaiDecoderConfig } from './decoder-io.ts';
import { checkSamplerParams, sampleToken, type SamplerParams } from './sampler.ts';
import type { Completion, EngineTokenizer, FinishReason, RolloutEngine, SamplingOptions } from './types.ts';

/** Facts about the served model the generation loop needs. */
export interface EngineModelInfo {
  /** Maximum sequence length (learned positions); Infinity when unknown. */
  context: number;
  /** Default EOS token id(s) (empty: none). */
  eosTokenIds: number[];
  /** Token id written into pad slots (masked out, so any valid id works). */
  padTokenId: number;
  /** Model vocabulary (logits width) when known; prompt ids must be below it. */
  vocabSize?: number;
  /** Fed as the prompt when a prompt encodes to no tokens (BYO models with a BOS token). */
  bosTokenId?: number;
}

/**
 * How a trainable policy is served: open a decoder on its trainable weights, and optionally
 * apply new ones to an open decoder in place (graphs that take them as inputs).
 */
export interface NativeServing {
  context: number;
  vocabSize: number;
  open(weights: WeightMap, optimizationLevel: GraphOptimizationLevel | undefined): Promise<Decoder>;
  /** Apply `weights` to `decoder` without rebuilding it; false when it cannot (then the engine re-opens). */
  updateInPlace?(decoder: Decoder, weights: WeightMap): boolean;
}

/** Serving of the built-in GPT: the fast `engine` export layout, rebuilt on every weight sync. */
export function gptServing(config: GptConfig): NativeServing {
  return {
    context: config.context,
    vocabSize: config.vocabSize,
    open: (weights, level) => createNativeDecoder(config, weights, level),
  };
}

/** Engine construction options. */
export interface EngineOptions {
  tokenizer?: EngineTokenizer;
  optimizationLevel?: GraphOptimizationLevel;
}

const DEFAULTS = { temperature: 1, topK: 0, topP: 1, maxNewTokens: 64 } as const;

/** A {@link RolloutEngine} over an ONNX Runtime decoder session. */
export class OnnxRolloutEngine implements RolloutEngine {
  private decoder: Decoder;
  private releasedAll = false;

  private constructor(
    decoder: Decoder,
    /** Model facts used by generation. */
    readonly info: EngineModelInfo,
    private readonly tokenizer: EngineTokenizer | undefined,
    private readonly native: NativeServing | undefined,
    private readonly optimizationLevel: GraphOptimizationLevel | undefined,
  ) {
    this.decoder = decoder;
  }

  /**
   * Serve a native policy: export `weights` (the weight contract) to ONNX and open a session.
   * EOS and pad ids default to the tokenizer's.
   */
  static async fromWeights(
    config: GptConfig | NativeServing,
    weights: WeightMap,
    opts: EngineOptions & { eosTokenId?: number | number[]; padTokenId?: number } = {},
  ): Promise<OnnxRolloutEngine> {
    const serving = 'open' in config ? config : gptServing(config);
    const decoder = await serving.open(weights, opts.optimizationLevel);
    const info: EngineModelInfo = {
      context: serving.context,
      vocabSize: serving.vocabSize,
      eosTokenIds: toIdList(opts.eosTokenId ?? opts.tokenizer?.eosId),
      padTokenId: opts.padTokenId ?? opts.tokenizer?.padId ?? 0,
    };
    return new OnnxRolloutEngine(decoder, info, opts.tokenizer, serving, opts.optimizationLevel);
  }

  /** Serve an ONNX decoder (bytes or a file path) whose I/O is mapped by ./decoder-io.ts. */
  static async fromOnnx(
    model: Uint8Array | string,
    info: EngineModelInfo,
    opts: EngineOptions & { genai?: GenaiDecoderConfig } = {},
  ): Promise<OnnxRolloutEngine> {
    const decoder = await OrtDecoder.create(model, {
      ...(opts.genai ? { genai: opts.genai } : {}),
      ...(opts.optimizationLevel ? { optimizationLevel: opts.optimizationLevel } : {}),
    });
    const vocab = decoder.logitsVocab();
    const full: EngineModelInfo = vocab !== undefined && info.vocabSize === undefined ? { ...info, vocabSize: vocab } : info;
    return new OnnxRolloutEngine(decoder, full, opts.tokenizer, undefined, opts.optimizationLevel);
  }

  /** The I/O mapping of a bring-your-own model (undefined for native policies). */
  get ioSpec(): DecoderIoSpec | undefined {
    return this.decoder instanceof OrtDecoder ? this.decoder.spec : undefined;
  }

  /** The decoder currently served (for parity tests and diagnostics). */
  get currentDecoder(): Decoder {
    return this.decoder;
  }

  async generate(prompts: string[], options: SamplingOptions = {}): Promise<Completion[]> {
    const tok = this.requireTokenizer('generate from text');
    return this.generateIds(
      prompts.map((p) => tok.encode(p)),
      options,
    );
  }

  async generateIds(promptIds: number[][], options: SamplingOptions = {}): Promise<Completion[]> {
    if (this.releasedAll) throw new AnchorError('INTERNAL', 'rollout engine used after release()');
    if (promptIds.length === 0) return [];
    const params = checkSamplerParams({
      temperature: options.temperature ?? DEFAULTS.temperature,
      topK: options.topK ?? DEFAULTS.topK,
      topP: options.topP ?? DEFAULTS.topP,
    });
    const maxNew = options.maxNewTokens ?? DEFAULTS.maxNewTokens;
    if (!Number.isInteger(maxNew) || maxNew < 1)
      throw new AnchorError('BAD_ARGUMENT', `max new tokens must be an integer >= 1, got ${maxNew}`);
    const stop = (options.stop ?? []).filter((s) => s.length > 0);
    if (stop.length > 0) this.requireTokenizer('use stop strings');
    const eos = new Set(options.eosTokenId === undefined ? this.info.eosTokenIds : toIdList(options.eosTokenId ?? undefined));
    const rng = options.rng ?? new Rng(options.seed ?? 0);
    const useCache = options.useCache ?? true;
    const maxBatch = options.maxBatch ?? promptIds.length;
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new AnchorError('BAD_ARGUMENT', `maxBatch must be an integer >= 1, got ${maxBatch}`);

    const vocab = this.info.vocabSize;
    const prepared = promptIds.map((ids, i) => {
      if (vocab !== undefined) {
        const bad = ids.find((id) => !(Number.isInteger(id) && id >= 0 && id < vocab));
        if (bad !== undefined) {
          throw new AnchorError(
            'BAD_ARGUMENT',
            `prompt ${i}: token id ${bad} is outside the model's vocabulary of ${vocab} (tokenizer and model disagree)`,
          );
        }
      }
      if (ids.length > 0) return ids;
      if (this.info.bosTokenId !== undefined) return [this.info.bosTokenId];
      throw new AnchorError('BAD_ARGUMENT', `prompt ${i} encodes to no tokens and the model has no BOS token`);
    });
    // Hold the current session for the whole request: a concurrent weight sync swaps in a new
    // session but this request keeps sampling from one consistent set of weights.
    const decoder = this.decoder;
    decoder.retain();
    try {
      // Batches of request indices: in order, at most maxBatch each; without an attention mask
      // (some third-party exports) padding is impossible, so rows are grouped by prompt length.
      const groups: number[][] = [];
      if (decoder.supportsPadding) {
        for (let s = 0; s < prepared.length; s += maxBatch) groups.push(prepared.slice(s, s + maxBatch).map((_, k) => s + k));
      } else {
        const byLen = new Map<number, number[]>();
        prepared.forEach((p, i) => byLen.set(p.length, [...(byLen.get(p.length) ?? []), i]));
        for (const idx of byLen.values()) for (let s = 0; s < idx.length; s += maxBatch) groups.push(idx.slice(s, s + maxBatch));
      }
      const out: Completion[] = new Array<Completion>(prepared.length);
      for (const idx of groups) {
        const done = await this.generateBatch(
          decoder,
          idx.map((i) => prepared[i]!),
          { params, maxNew, stop, eos, rng, useCache },
        );
        done.forEach((c, k) => (out[idx[k]!] = { ...c, promptIndex: idx[k]! }));
      }
      return out;
    } finally {
      await decoder.dispose();
    }
  }

  async updateWeights(weights: WeightMap): Promise<void> {
    if (!this.native)
      throw new AnchorError('UNSUPPORTED', 'updateWeights needs a native policy (this engine serves an external ONNX model)');
    if (this.native.updateInPlace?.(this.decoder, weights)) return;
    const next = await this.native.open(weights, this.optimizationLevel);
    const old = this.decoder;
    this.decoder = next;
    await old.dispose();
  }

  async release(): Promise<void> {
    if (this.releasedAll) return;
    this.releasedAll = true;
    await this.decoder.dispose();
  }

  private requireTokenizer(what: string): EngineTokenizer {
    if (!this.tokenizer) throw new AnchorError('BAD_ARGUMENT', `the rollout engine has no tokenizer; cannot ${what}`);
    return this.tokenizer;
  }

  private async generateBatch(
    decoder: Decoder,
    prompts: number[][],
    o: { params: SamplerParams; maxNew: number; stop: string[]; eos: Set<number>; rng: Rng; useCache: boolean },
  ): Promise<Completion[]> {
    const B = prompts.length;
    const lens = prompts.map((p) => p.length);
    const Lmax = Math.max(...lens);
    const ctx = this.info.context;
    if (Lmax > ctx) throw new AnchorError('BAD_ARGUMENT', `prompt of ${Lmax} tokens does not fit the model's context of ${ctx}`);
    // The last sampled token is never fed back, so the fed sequence stays within the context.
    const maxNew = Math.min(o.maxNew, ctx - Lmax + 1);
    const pad = this.info.padTokenId;
    const padCounts = Int32Array.from(lens, (l) => Lmax - l);
    const maxStop = o.stop.reduce((m, s) => Math.max(m, s.length), 0);

    const rows = prompts.map(() => ({
      tokens: [] as number[],
      logprobs: [] as number[],
      samplerLogprobs: [] as number[],
      done: false,
      reason: 'length' as FinishReason,
      text: undefined as string | undefined,
      scanned: 0,
    }));

    // Prefill: the whole left-padded prompt batch.
    const ids0 = new Int32Array(B * Lmax).fill(pad);
    const pos0 = new Int32Array(B * Lmax);
    for (let b = 0; b < B; b++) {
      const pc = padCounts[b]!;
      ids0.set(prompts[b]!, b * Lmax + pc);
      for (let j = pc; j < Lmax; j++) pos0[b * Lmax + j] = j - pc;
    }
    const { first, run } = await decoder.begin({
      batch: B,
      promptLen: Lmax,
      ids: ids0,
      positions: pos0,
      padCounts,
      capacity: Lmax + maxNew - 1,
      useCache: o.useCache,
    });
    let step = first;
    const scratch = new Float64Array(step.vocab);

    // live[p] = the row at batch position p of the current decode step (rows leave the batch
    // when they finish and the decoder supports compaction).
    let live = rows.map((_, b) => b);
    for (let t = 0; ; t++) {
      const V = step.vocab;
      const S = step.logitsSeq;
      let active = 0;
      for (let p = 0; p < live.length; p++) {
        const r = rows[live[p]!]!;
        if (r.done) continue;
        const s = sampleToken(step.logits, (p * S + S - 1) * V, V, o.params, o.rng, scratch);
        r.tokens.push(s.token);
        r.logprobs.push(s.logprob);
        r.samplerLogprobs.push(s.samplerLogprob);
        if (o.eos.has(s.token)) {
          r.done = true;
          r.reason = 'eos';
        } else if (o.stop.length > 0) {
          const text = this.tokenizer!.decode(r.tokens);
          const from = Math.max(0, r.scanned - maxStop);
          let cut = -1;
          for (const st of o.stop) {
            const k = text.indexOf(st, from);
            if (k >= 0 && (cut < 0 || k < cut)) cut = k;
          }
          r.scanned = text.length;
          if (cut >= 0) {
            r.done = true;
            r.reason = 'stop';
            r.text = text.slice(0, cut);
          }
        }
        if (!r.done && r.tokens.length >= maxNew) {
          r.done = true;
          r.reason = 'length';
        }
        if (!r.done) active++;
      }
      if (active === 0) break;

      // Drop finished rows from the batch once they are an eighth of it (a cache copy is cheaper
      // than carrying dead rows through every remaining step).
      if (run.compact && live.length - active >= Math.max(1, live.length / 8)) {
        const keep: number[] = [];
        live.forEach((b, p) => {
          if (!rows[b]!.done) keep.push(p);
        });
        run.compact(keep);
        live = keep.map((p) => live[p]!);
      }
      const ids = new Int32Array(live.length);
      const positions = new Int32Array(live.length);
      for (let p = 0; p < live.length; p++) {
        const b = live[p]!;
        const r = rows[b]!;
        // Finished rows still in the batch step with a pad token; their outputs are ignored.
        ids[p] = r.done ? pad : r.tokens[t]!;
        positions[p] = lens[b]! + t;
      }
      step = await run.next(ids, positions);
    }

    return rows.map((r, b) => {
      let text = r.text;
      if (text === undefined) {
        const ids = r.tokens.filter((x) => !o.eos.has(x));
        text = this.tokenizer ? this.tokenizer.decode(ids) : '';
      }
      return {
        promptIndex: b,
        promptIds: prompts[b]!,
        tokenIds: r.tokens,
        text,
        logprobs: r.logprobs,
        samplerLogprobs: r.samplerLogprobs,
        finishReason: r.reason,
      };
    });
  }
}

function toIdList(v: number | number[] | undefined): number[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** Export a native policy in the engine's fast layout and open a session on it. */
async function createNativeDecoder(
  config: GptConfig,
  weights: WeightMap,
  optimizationLevel: GraphOptimizationLevel | undefined,
): Promise<Decoder> {
  const bytes = exportGptToOnnx(config, weights, { layout: 'engine' });
  return OrtEngineDecoder.create(
    bytes,
    { layers: config.layers, heads: config.heads, headDim: headDim(config) },
    optimizationLevel ? { optimizationLevel } : {},
  );
}
