/**
 * The label-source registry: where a settlement window's refit labels come from. Each source is
 * one object with one method; the trainer chooses the claims to settle, asks the arm's source
 * for their labels and refits the RM on them. A new label source is a new entry here.
 */
import type { Problem } from '../datasets/problem.ts';
import type { Judge } from '../reward/judges/types.ts';
import type { ExecResult } from '../sandbox/types.ts';
import { goldOf } from './gold.ts';
import type { Claim } from './settlement.ts';

/** What a label source may use. */
interface LabelContext {
  /** Run the completions in the sandbox. */
  execute(problems: readonly Problem[], texts: readonly string[]): Promise<ExecResult[]>;
  /** Charge programs executed for the training signal to the arm's budget. */
  charge(programs: number): void;
  /** The arm's judge (present when the source `usesJudge`). */
  judge: Judge | undefined;
}

/** Labels of the settled claims. */
export interface Labels {
  /** The refit label of each claim (null = no label, left out of the refit). */
  labels: (number | null)[];
  /** Executed gold of each claim where known (for drift against reality). */
  gold: (number | null)[];
  /** Sandbox results where the claims were executed (integrity signals for the gate). */
  results?: ExecResult[];
  /** The labels are a judge's scores (logged per sample and compared with gold where known). */
  judged: boolean;
}

/** A refit-label source. */
export interface LabelSource {
  /** Needs a judge (`judge:` in the run config): the run prepares it and the arm process loads it. */
  readonly usesJudge: boolean;
  /** Labels for the chosen claims of a window. */
  label(claims: readonly Claim[], problems: readonly Problem[], ctx: LabelContext): Promise<Labels>;
}

/** The built-in label sources. */
export const LABEL_SOURCES = {
  /** Executed tests (anchored): the labels are gold and cost budget. */
  execution: {
    usesJudge: false,
    label: async (claims, problems, ctx) => {
      const results = await ctx.execute(
        problems,
        claims.map((c) => c.text),
      );
      const labels = results.map((r, i) => goldOf(r, problems[i]!));
      ctx.charge(claims.length);
      return { labels, gold: labels, results, judged: false };
    },
  },
  /** A judge that does not execute. */
  judge: {
    usesJudge: true,
    label: async (claims, problems, ctx) => {
      const labels: (number | null)[] = [];
      for (let i = 0; i < claims.length; i++) labels.push(...(await ctx.judge!.score(problems[i]!, [claims[i]!.text])));
      return { labels, gold: claims.map((c) => c.gold), judged: true };
    },
  },
} satisfies Record<string, LabelSource>;

/**
 * The labels of claims the reward source settled as they were rolled out (instant settlement):
 * each claim carries its executed label, already charged, so nothing is executed again. Not a
 * choice in a config: the settlement window uses it for a window whose claims arrived labelled.
 */
export const INSTANT_LABELS: LabelSource = {
  usesJudge: false,
  label: (claims) => {
    const labels = claims.map((c) => c.label ?? null);
    return Promise.resolve({ labels, gold: labels, judged: false });
  },
};

/** A label-source name. */
export type LabelSourceName = keyof typeof LABEL_SOURCES;

/** Label-source names, for config schemas. */
export const LABEL_SOURCE_NAMES = Object.keys(LABEL_SOURCES) as [LabelSourceName, ...LabelSourceName[]];
