/**
 * The `learned` judge: an independent, frozen model with different features from the reward
 * model (default js-ast + MLP, where the RM is js-surface + ridge), trained once on a labelled
 * sample disjoint from the RM's. It never sees settled labels after training.
 */
import type { Problem } from '../../datasets/problem.ts';
import { AnchorError } from '../../util/errors.ts';
import { createFeatureExtractor, type FeatureExtractor } from '../features/registry.ts';
import { loadRewardModel, REWARD_MODEL_KINDS } from '../models/kinds.ts';
import type { RewardModel } from '../models/types.ts';
import type { LearnedJudgeConfig } from './config.ts';
import type { Judge, LabelledCompletion } from './types.ts';

/** Learned judge. Construct with {@link LearnedJudge.train} or {@link LearnedJudge.load}. */
export class LearnedJudge implements Judge {
  readonly kind = 'learned' as const;

  private constructor(
    private readonly features: FeatureExtractor,
    private readonly model: RewardModel,
    private readonly clamp: boolean,
  ) {}

  /** Train once on `sample` (which the caller keeps disjoint from the RM's labels). Call initTf() first. */
  static async train(cfg: LearnedJudgeConfig, sample: readonly LabelledCompletion[]): Promise<LearnedJudge> {
    if (sample.length === 0) throw new AnchorError('RUN_FAILED', 'the learned judge needs a non-empty labelled sample');
    const fx = createFeatureExtractor(cfg.features);
    const model = REWARD_MODEL_KINDS[cfg.model].create({ alpha: cfg.alpha, standardize: false, seed: cfg.seed, mlp: cfg.mlp });
    await model.fit(
      sample.map((s) => fx.extract(s.completion, s.problem.prompt)),
      sample.map((s) => s.gold),
    );
    return new LearnedJudge(fx, model, cfg.clamp);
  }

  /** Load a judge saved with {@link save}. */
  static async load(cfg: LearnedJudgeConfig, dir: string): Promise<LearnedJudge> {
    const fx = createFeatureExtractor(cfg.features);
    const model = await loadRewardModel(dir);
    if (model.dim !== fx.dim)
      throw new AnchorError('BAD_MODEL', `judge model in ${dir} has ${model.dim} features; ${cfg.features} has ${fx.dim}`);
    return new LearnedJudge(fx, model, cfg.clamp);
  }

  async save(dir: string): Promise<void> {
    await this.model.save(dir);
  }

  async score(problem: Problem, completions: readonly string[]): Promise<(number | null)[]> {
    const p = await this.model.predict(completions.map((c) => this.features.extract(c, problem.prompt)));
    return Array.from(p, (v) => (this.clamp ? Math.min(1, Math.max(0, v)) : v));
  }

  async close(): Promise<void> {
    this.model.dispose?.();
  }
}
