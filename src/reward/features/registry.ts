/**
 * Feature extractors by name. The JS extractors live here; the DSL ones wrap the task worlds'
 * feature sets (src/tasks/dsl), so the DSL verifiers use exactly the features the worlds define.
 */
import { AnchorError } from '../../util/errors.ts';
import { dsl6, richdsl, type DslWorld } from '../../tasks/index.ts';
import { jsAstExtractor, jsSurfaceExtractor, type JsSurfaceOptions } from './js-surface.ts';
import type { Tokenizer } from '../../policy/tokenizer/index.ts';
import { policyTokensExtractor } from './policy-tokens.ts';
import { pySurfaceExtractor } from './py-surface.ts';
import type { FeatureExtractor } from './types.ts';

export type { FeatureExtractor } from './types.ts';

/** Options any extractor may take (ignored by extractors that have none). */
export type FeatureOptions = JsSurfaceOptions & {
  /** The policy's tokenizer (`policy-tokens`). */
  tokenizer?: Tokenizer;
  /** Ids per row (`policy-tokens`). */
  maxTokens?: number;
};

function dslExtractor(name: string, world: DslWorld, set: string): FeatureExtractor {
  const dim = world.featureDim(set);
  return {
    name,
    dim,
    // The completion is the program; the prompt carries no features in the DSL worlds.
    extract: (text) => world.features(text.trim(), set),
  };
}

const FACTORIES: Record<string, (opts: FeatureOptions) => FeatureExtractor> = {
  'js-surface': (o) => jsSurfaceExtractor(o),
  'js-ast': () => jsAstExtractor(),
  'py-surface': (o) => pySurfaceExtractor(o),
  dsl6: () => dslExtractor('dsl6', dsl6, 'default'),
  'richdsl-weak': () => dslExtractor('richdsl-weak', richdsl, 'weak'),
  'richdsl-strong': () => dslExtractor('richdsl-strong', richdsl, 'strong'),
  'policy-tokens': (o) => {
    if (!o.tokenizer || o.maxTokens === undefined)
      throw new AnchorError(
        'BAD_CONFIG',
        'the policy-tokens features need the policy tokenizer and a token count (reward_model.kind transformer)',
      );
    return policyTokensExtractor(o.tokenizer, o.maxTokens);
  },
};

/** Names of the registered feature extractors. */
export function featureExtractorNames(): string[] {
  return Object.keys(FACTORIES);
}

/** A feature extractor by registry name; unknown names are a config error. */
export function createFeatureExtractor(name: string, opts: FeatureOptions = {}): FeatureExtractor {
  const make = FACTORIES[name];
  if (!make)
    throw new AnchorError('BAD_CONFIG', `unknown feature extractor "${name}" (have: ${featureExtractorNames().join(', ')})`);
  return make(opts);
}
