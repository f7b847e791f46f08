/**
 * The `lm` judge: an ONNX causal language model is asked whether the code is correct, and the
 * score is P(yes) / (P(yes) + P(no)) from the next-token distribution after the question.
 *
 * Dependency: the model is served by the policy rollout engine (src/policy/engine/, the only
 * module allowed to import onnxruntime-node) through its bring-your-own ONNX loading. This module
 * needs only {@link NextTokenModel}: a tokenizer and one forward pass returning next-token
 * logits. The engine must expose that (see the report / rewardB-status.md); until it does,
 * `createJudge` needs the caller to pass a NextTokenModel.
 */
import type { Problem } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { fillTemplate, type LmJudgeConfig } from './config.ts';
import type { Judge } from './types.ts';

/** What the LM judge needs from a loaded language model. */
export interface NextTokenModel {
  encode(text: string): number[];
  /** Logits over the vocabulary for the token following `promptIds`. */
  nextTokenLogits(promptIds: number[]): Promise<Float32Array>;
  /** Longest prompt the model accepts (tokens); longer prompts keep their tail. */
  readonly contextLength?: number;
  release?(): Promise<void>;
}

/** log Σ exp over the selected logits. */
function logSumExp(logits: Float32Array, ids: readonly number[]): number {
  let m = -Infinity;
  for (const i of ids) m = Math.max(m, logits[i]!);
  if (m === -Infinity) return -Infinity;
  let s = 0;
  for (const i of ids) s += Math.exp(logits[i]! - m);
  return m + Math.log(s);
}

/**
 * P(yes)/(P(yes)+P(no)) from next-token logits: the softmax normaliser cancels, so this is
 * sigmoid(logsumexp(yes logits) − logsumexp(no logits)).
 */
export function yesProbability(logits: Float32Array, yesIds: readonly number[], noIds: readonly number[]): number {
  const y = logSumExp(logits, yesIds);
  const n = logSumExp(logits, noIds);
  return 1 / (1 + Math.exp(n - y));
}

/** The LM judge over any {@link NextTokenModel}. */
export class LmJudge implements Judge {
  readonly kind = 'lm' as const;
  private readonly yesIds: number[];
  private readonly noIds: number[];

  constructor(
    private readonly cfg: LmJudgeConfig,
    private readonly lm: NextTokenModel,
  ) {
    const first = (texts: string[], label: string): number[] => {
      const ids = [...new Set(texts.map((t) => lm.encode(t)[0]).filter((i): i is number => i !== undefined))];
      if (ids.length === 0) throw new AnchorError('BAD_CONFIG', `lm judge: none of the ${label} strings encodes to a token`);
      return ids;
    };
    this.yesIds = first(cfg.yes, 'yes');
    this.noIds = first(cfg.no, 'no');
    if (this.yesIds.some((i) => this.noIds.includes(i)))
      throw new AnchorError('BAD_CONFIG', 'lm judge: a yes and a no string share their first token');
  }

  async score(problem: Problem, completions: readonly string[]): Promise<(number | null)[]> {
    const out: (number | null)[] = [];
    for (const c of completions) {
      let ids = this.lm.encode(fillTemplate(this.cfg.template, problem.prompt, c));
      const ctx = this.lm.contextLength;
      if (ctx !== undefined && ids.length > ctx) ids = ids.slice(ids.length - ctx);
      out.push(yesProbability(await this.lm.nextTokenLogits(ids), this.yesIds, this.noIds));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.lm.release?.();
  }
}
