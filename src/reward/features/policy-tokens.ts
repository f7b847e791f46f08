/**
 * `policy-tokens`: a program as the policy reads it — the policy tokenizer's ids of prompt +
 * completion, the last `maxTokens` kept (the completion is at the end), padded with
 * {@link TOKEN_PAD}. The transformer reward model's input: ids are exact in float32 for any
 * vocabulary below 2^24.
 */
import type { Tokenizer } from '../../policy/tokenizer/index.ts';
import { AnchorError } from '../../util/errors.ts';
import { TOKEN_PAD } from '../models/transformer.ts';
import type { FeatureExtractor } from './types.ts';

/** The extractor over `tokenizer`'s ids, `maxTokens` per row. */
export function policyTokensExtractor(tokenizer: Tokenizer, maxTokens: number): FeatureExtractor {
  if (!(Number.isInteger(maxTokens) && maxTokens >= 1))
    throw new AnchorError('BAD_CONFIG', `policy-tokens: max tokens must be a positive integer, got ${maxTokens}`);
  return {
    name: 'policy-tokens',
    dim: maxTokens,
    extract: (text, prompt) => {
      const ids = tokenizer.encode((prompt ?? '') + text, 'reward-model input');
      const kept = ids.slice(Math.max(0, ids.length - maxTokens));
      const row = new Float32Array(maxTokens).fill(TOKEN_PAD);
      row.set(kept);
      return row;
    },
  };
}
