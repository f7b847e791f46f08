/**
 * Batched sampling from the tfjs model with a key/value cache (prefill the left-padded prompts
 * once, then one position per step). This is the simple in-process decoder used for pretraining
 * evaluation and tests; the ONNX Runtime engine (src/policy/engine) is the fast rollout path.
 */
import { tf } from '../tf/backend.ts';
import type { Rng } from '../util/rng.ts';
import { AnchorError } from '../util/errors.ts';
import type { LayerKv, PolicyModel, TokenBatch } from './policy-model.ts';
import { positionsFromMask } from './model.ts';

/** Sampling settings. `temperature` 0 means greedy. */
export interface GenerateOptions {
  maxNewTokens: number;
  temperature?: number;
  /** Nucleus sampling mass (1 = off). */
  topP?: number;
  /** Keep only the k most likely tokens (0 = off). */
  topK?: number;
  eosId: number;
  padId: number;
  /** Seeded RNG for sampling (required unless greedy). */
  rng?: Rng;
  /** Called after each new token of a row; return true to stop that row (e.g. a stop string). */
  shouldStop?: (row: number, tokens: readonly number[]) => boolean;
}

/** Why a row stopped. */
type FinishReason = 'eos' | 'stop' | 'length';

/** One row's output. */
export interface Generation {
  /** New token ids (without eos). */
  tokens: number[];
  /**
   * Log-prob of each token under the sampling distribution (after temperature/top-k/top-p);
   * for greedy decoding, under the model's own softmax.
   */
  logProbs: number[];
  finish: FinishReason;
}

/** Generate continuations for `prompts` (token ids; each non-empty). */
export function generate(model: PolicyModel, prompts: readonly (readonly number[])[], opts: GenerateOptions): Generation[] {
  const B = prompts.length;
  if (B === 0) return [];
  const temperature = opts.temperature ?? 1;
  if (temperature > 0 && !opts.rng) throw new AnchorError('BAD_ARGUMENT', 'generate: sampling with temperature > 0 needs an rng');
  const P = Math.max(...prompts.map((p) => p.length));
  if (prompts.some((p) => p.length === 0)) throw new AnchorError('BAD_ARGUMENT', 'generate: empty prompt');
  const V = model.config.vocabSize;
  const ids = new Int32Array(B * P).fill(opts.padId);
  const mask = new Float32Array(B * P);
  const realLen = new Int32Array(B);
  prompts.forEach((p, b) => {
    ids.set(p, b * P + (P - p.length));
    mask.fill(1, b * P + (P - p.length), (b + 1) * P);
    realLen[b] = p.length;
  });
  const out: Generation[] = prompts.map(() => ({ tokens: [], logProbs: [], finish: 'length' as FinishReason }));
  const done = new Uint8Array(B);
  // Positions available: the row's next position must stay inside the context.
  const maxNew = Math.max(0, Math.min(opts.maxNewTokens, model.config.context - Math.max(...realLen)));
  let past: LayerKv[] | undefined;
  let pastMask = mask;
  let batch: TokenBatch = { batch: B, length: P, ids, mask, positions: positionsFromMask(mask, B, P) };
  try {
    for (let step = 0; step < maxNew; step++) {
      const res = tf.tidy(() => {
        const f = past
          ? model.forward(batch, { past, pastMask, keepPresent: true })
          : model.forward(batch, { keepPresent: true });
        const T = batch.length;
        const d = model.config.dModel;
        const last = tf.reshape(tf.slice(tf.reshape(f.hidden, [B, T, d]), [0, T - 1, 0], [B, 1, d]), [B, d]) as tf.Tensor2D;
        const logits = model.head(last);
        return {
          logits: logits.dataSync() as Float32Array,
          present: f.present!.map((kv) => ({ keysT: tf.keep(kv.keysT), values: tf.keep(kv.values) })),
        };
      });
      if (past) for (const kv of past) tf.dispose([kv.keysT, kv.values]);
      past = res.present;
      if (step > 0) {
        const m = new Float32Array(pastMask.length + B);
        // Cache layout is row-major [B, S]; rebuild with one more column of ones.
        const S = pastMask.length / B;
        for (let b = 0; b < B; b++) {
          m.set(pastMask.subarray(b * S, (b + 1) * S), b * (S + 1));
          m[b * (S + 1) + S] = 1;
        }
        pastMask = m;
      }
      const next = new Int32Array(B);
      for (let b = 0; b < B; b++) {
        if (done[b]) {
          next[b] = opts.padId;
          continue;
        }
        const row = res.logits.subarray(b * V, (b + 1) * V);
        const { id, logProb } = pick(row, temperature, opts.topK ?? 0, opts.topP ?? 1, opts.rng);
        next[b] = id;
        if (id === opts.eosId) {
          done[b] = 1;
          out[b]!.finish = 'eos';
          continue;
        }
        out[b]!.tokens.push(id);
        out[b]!.logProbs.push(logProb);
        if (opts.shouldStop?.(b, out[b]!.tokens)) {
          done[b] = 1;
          out[b]!.finish = 'stop';
        }
      }
      if (done.every((x) => x === 1)) break;
      const positions = new Int32Array(B);
      for (let b = 0; b < B; b++) positions[b] = Math.min(realLen[b]! + step, model.config.context - 1);
      batch = { batch: B, length: 1, ids: next, mask: new Float32Array(B).fill(1), positions };
    }
  } finally {
    if (past) for (const kv of past) tf.dispose([kv.keysT, kv.values]);
  }
  return out;
}

/** Choose a token from one row of logits; returns it with its log-prob under the used distribution. */
function pick(
  logits: Float32Array,
  temperature: number,
  topK: number,
  topP: number,
  rng: Rng | undefined,
): { id: number; logProb: number } {
  const V = logits.length;
  if (temperature <= 0) {
    let best = 0;
    for (let i = 1; i < V; i++) if (logits[i]! > logits[best]!) best = i;
    // Greedy: report the model's own (temperature-1) log-prob of the chosen token.
    let z = 0;
    for (let i = 0; i < V; i++) z += Math.exp(logits[i]! - logits[best]!);
    return { id: best, logProb: -Math.log(z) };
  }
  let max = -Infinity;
  for (let i = 0; i < V; i++) max = Math.max(max, logits[i]! / temperature);
  const p = new Float64Array(V);
  let z = 0;
  for (let i = 0; i < V; i++) {
    p[i] = Math.exp(logits[i]! / temperature - max);
    z += p[i]!;
  }
  for (let i = 0; i < V; i++) p[i]! /= z;
  let keep: number[] | undefined;
  if ((topK > 0 && topK < V) || topP < 1) {
    const order = Array.from({ length: V }, (_, i) => i).sort((a, b) => p[b]! - p[a]! || a - b);
    let n = topK > 0 ? Math.min(topK, V) : V;
    if (topP < 1) {
      let acc = 0;
      for (let i = 0; i < n; i++) {
        acc += p[order[i]!]!;
        if (acc >= topP) {
          n = i + 1;
          break;
        }
      }
    }
    keep = order.slice(0, n);
  }
  const cand = keep ?? Array.from({ length: V }, (_, i) => i);
  let mass = 0;
  for (const i of cand) mass += p[i]!;
  let u = rng!.next() * mass;
  let chosen = cand[cand.length - 1]!;
  for (const i of cand) {
    u -= p[i]!;
    if (u < 0) {
      chosen = i;
      break;
    }
  }
  return { id: chosen, logProb: Math.log(p[chosen]! / mass) };
}
