/**
 * Token sampling from one row of logits: temperature, top-k, top-p (Hugging Face order:
 * temperature, then top-k, then top-p on the renormalised remainder), greedy at temperature 0.
 * Pure functions over the project's seeded {@link Rng}; one `rng.next()` per sampled token, so a
 * seed fixes the whole run.
 */
import type { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';

/** Resolved sampling parameters. */
export interface SamplerParams {
  temperature: number;
  topK: number;
  topP: number;
}

/** A sampled token and its log-probs (see Completion in ./types.ts for the two conventions). */
export interface SampledToken {
  token: number;
  logprob: number;
  samplerLogprob: number;
}

/** Check sampling parameters; throws AnchorError BAD_ARGUMENT. */
export function checkSamplerParams(p: SamplerParams): SamplerParams {
  if (!(p.temperature >= 0) || !Number.isFinite(p.temperature)) {
    throw new AnchorError('BAD_ARGUMENT', `temperature must be a finite number >= 0, got ${p.temperature}`);
  }
  if (!Number.isInteger(p.topK) || p.topK < 0)
    throw new AnchorError('BAD_ARGUMENT', `top-k must be an integer >= 0, got ${p.topK}`);
  if (!(p.topP > 0 && p.topP <= 1)) throw new AnchorError('BAD_ARGUMENT', `top-p must be in (0, 1], got ${p.topP}`);
  return p;
}

/**
 * Sample from `logits[offset .. offset + vocab)`. `scratch` (length ≥ vocab) avoids allocation
 * per call.
 */
export function sampleToken(
  logits: ArrayLike<number>,
  offset: number,
  vocab: number,
  p: SamplerParams,
  rng: Rng,
  scratch: Float64Array = new Float64Array(vocab),
): SampledToken {
  const greedy = p.temperature === 0;
  const invT = greedy ? 1 : 1 / p.temperature;
  let max = -Infinity;
  let argmax = 0;
  for (let v = 0; v < vocab; v++) {
    const z = logits[offset + v]! * invT;
    scratch[v] = z;
    if (z > max) {
      max = z;
      argmax = v;
    }
  }
  let sum = 0;
  for (let v = 0; v < vocab; v++) sum += Math.exp(scratch[v]! - max);
  const logZ = max + Math.log(sum);
  if (greedy) return { token: argmax, logprob: scratch[argmax]! - logZ, samplerLogprob: 0 };

  const truncate = (p.topK > 0 && p.topK < vocab) || p.topP < 1;
  if (!truncate) {
    let u = rng.next() * sum;
    let token = vocab - 1;
    for (let v = 0; v < vocab; v++) {
      u -= Math.exp(scratch[v]! - max);
      if (u < 0) {
        token = v;
        break;
      }
    }
    const lp = scratch[token]! - logZ;
    return { token, logprob: lp, samplerLogprob: lp };
  }

  // Candidates by descending tempered logit (ties by index, so the order is deterministic).
  const order = Array.from({ length: vocab }, (_, i) => i).sort((a, b) => scratch[b]! - scratch[a]! || a - b);
  let keep = p.topK > 0 ? Math.min(p.topK, vocab) : vocab;
  const weights = new Float64Array(keep);
  let kept = 0;
  for (let i = 0; i < keep; i++) {
    weights[i] = Math.exp(scratch[order[i]!]! - max);
    kept += weights[i]!;
  }
  if (p.topP < 1) {
    // Smallest prefix whose renormalised mass reaches topP (at least one token).
    let cum = 0;
    let n = 0;
    while (n < keep) {
      cum += weights[n]!;
      n++;
      if (cum / kept >= p.topP) break;
    }
    keep = n;
    kept = cum;
  }
  let u = rng.next() * kept;
  let pick = keep - 1;
  for (let i = 0; i < keep; i++) {
    u -= weights[i]!;
    if (u < 0) {
      pick = i;
      break;
    }
  }
  const token = order[pick]!;
  return { token, logprob: scratch[token]! - logZ, samplerLogprob: scratch[token]! - max - Math.log(kept) };
}
