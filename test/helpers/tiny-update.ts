/**
 * A tiny tfjs policy with one step's update batch (two groups of two completions), for component
 * tests of updaters (test/train/update.test.ts, test/train/rollback.test.ts).
 */
import type { Problem } from '../../src/datasets/problem.ts';
import type { Completion } from '../../src/policy/engine/types.ts';
import { buildCompletionBatch, sequenceLogProbs } from '../../src/policy/logprobs.ts';
import { GptModel } from '../../src/policy/model.ts';
import { AdamOptimizer } from '../../src/policy/optimizer.ts';
import { type RunConfig, runConfigSchema } from '../../src/train/run-config.ts';
import type { UpdateBatch, UpdateParts } from '../../src/train/update.ts';

/** The tiny policy's shape. */
export const MODEL = { vocabSize: 12, context: 16, layers: 1, dModel: 16, heads: 2, tiedHead: true };
const problem: Problem = { id: 'p0', language: 'javascript', prompt: 'f', tests: '', stopTokens: [], source: 'test' };
/** The prompt's token ids. */
export const promptIds = [1, 2, 3];
/** Two groups of two completions' token ids (lengths 3, 2, 2, 3). */
export const tokenIds = [
  [4, 5, 6],
  [7, 8],
  [4, 9],
  [10, 11, 5],
];

/** The run config (`grpo.group_size` 2 unless given), the update's parts and the batch. */
export function tinyUpdateRig(config: Record<string, unknown>): { config: RunConfig; parts: UpdateParts; batch: UpdateBatch } {
  const grpo = (config.grpo ?? {}) as Record<string, unknown>;
  const cfg = runConfigSchema.parse({ ...config, grpo: { group_size: 2, ...grpo } });
  const policy = GptModel.init(MODEL, 3);
  const reference = GptModel.init(MODEL, 3);
  const optimizer = new AdamOptimizer(policy.params, { lr: 0.05, grad_clip: 0 });
  const completions: Completion[] = tokenIds.map((t, i) => ({
    promptIndex: i,
    promptIds,
    tokenIds: t,
    text: String(i),
    logprobs: [],
    samplerLogprobs: [],
    finishReason: 'eos',
  }));
  const ids = completions.map((c) => c.promptIds);
  const ref = sequenceLogProbs(reference, ids, tokenIds, { padId: 0 });
  const old = sequenceLogProbs(policy, ids, tokenIds, { padId: 0 }).logProbs;
  const batch: UpdateBatch = {
    step: 0,
    promptIdx: [0, 1],
    problems: tokenIds.map(() => problem),
    completions,
    texts: completions.map((c) => c.text),
    features: [],
    proxy: new Float32Array(4),
    results: undefined,
    gold: [null, null, null, null],
    ref,
    oldLogp: old,
    rolloutLogp: old,
    batch: buildCompletionBatch(ids, tokenIds, 0, { completionLength: ref.completionLength }),
  };
  return {
    config: cfg,
    parts: { grpo: cfg.grpo, sampling: cfg.policy.sampling, policy, reference, optimizer, padId: 0 },
    batch,
  };
}
