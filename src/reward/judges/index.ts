/**
 * Judges: construction from config.
 */
import { AnchorError } from '../../util/errors.ts';
import type { JudgeConfig } from './config.ts';
import { HttpJudge } from './http.ts';
import { LearnedJudge } from './learned.ts';
import { LmJudge, type NextTokenModel } from './lm.ts';
import type { Judge, LabelledCompletion } from './types.ts';

export type { Judge, LabelledCompletion } from './types.ts';
export { judgeSchema, type JudgeConfig, fillTemplate } from './config.ts';
export { HttpJudge, parseScore } from './http.ts';
export { yesProbability } from './lm.ts';

/** What some judge kinds need from the caller. */
export interface JudgeContext {
  /** learned: the disjoint labelled sample to train on (or `learnedDir` to load a saved judge). */
  labelled?: readonly LabelledCompletion[];
  learnedDir?: string;
  /** lm: how to load the language model (default: the policy engine's BYO ONNX loading). */
  loadLm?: (dir: string) => Promise<NextTokenModel>;
}

/** Build the judge a config names. */
export async function createJudge(cfg: JudgeConfig, ctx: JudgeContext = {}): Promise<Judge> {
  switch (cfg.kind) {
    case 'learned':
      if (ctx.learnedDir) return LearnedJudge.load(cfg, ctx.learnedDir);
      if (!ctx.labelled) throw new AnchorError('RUN_FAILED', 'the learned judge needs a labelled sample to train on');
      return LearnedJudge.train(cfg, ctx.labelled);
    case 'lm': {
      // Loaded lazily so runs without an lm judge never start ONNX Runtime.
      const load = ctx.loadLm ?? (await import('./onnx-lm.ts')).loadOnnxNextTokenModel;
      return new LmJudge(cfg, await load(cfg.model));
    }
    case 'http':
      return new HttpJudge(cfg);
  }
}
