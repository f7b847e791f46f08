/**
 * How well a reward model ranks programs, measured on labels it has not been fitted on (a
 * settlement window's labels, before the refit that adds them): the quantity GRPO actually uses
 * is the order of scores within a group, not their level.
 *
 * - within-group pairwise accuracy: over pairs of the same group whose labels differ, the fraction
 *   the RM orders like the labels (a tie in score counts ½);
 * - AUC: the same over every pair of the window whose labels differ, groups ignored — the
 *   probability that a better-labelled program scores higher (Harrell's concordance index; with
 *   pass/fail labels exactly the ROC AUC of the score for "passes").
 *
 * Both are null when there is no pair to judge (all labels equal).
 */
import { AnchorError } from '../../util/errors.ts';

/** Ranking quality of one set of scored, labelled programs. */
export interface RankingQuality {
  /** Within-group pairwise accuracy (null: no same-group pair with different labels). */
  pairAccuracy: number | null;
  /** Same-group pairs with different labels. */
  groupPairs: number;
  /** Concordance over all pairs with different labels (null: none). */
  auc: number | null;
  /** Pairs with different labels. */
  pairs: number;
}

/** Credit of one ordered comparison: 1 when the scores order like the labels, ½ on a score tie, else 0. */
function concordance(scoreHi: number, scoreLo: number): number {
  return scoreHi > scoreLo ? 1 : scoreHi === scoreLo ? 0.5 : 0;
}

/**
 * Ranking quality of `scores` against `labels`; `groups[i]` is the program's group (GRPO group),
 * negative or absent for none (it then counts only towards the AUC).
 */
export function rankingQuality(scores: ArrayLike<number>, labels: ArrayLike<number>, groups?: ArrayLike<number>): RankingQuality {
  const n = labels.length;
  if (scores.length !== n || (groups !== undefined && groups.length !== n))
    throw new AnchorError(
      'INTERNAL',
      `rankingQuality: ${scores.length} scores, ${n} labels${groups ? `, ${groups.length} groups` : ''}`,
    );
  let all = 0;
  let allPairs = 0;
  let within = 0;
  let withinPairs = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const li = labels[i]!;
      const lj = labels[j]!;
      if (li === lj) continue;
      const c = li > lj ? concordance(scores[i]!, scores[j]!) : concordance(scores[j]!, scores[i]!);
      all += c;
      allPairs++;
      const g = groups?.[i];
      if (g !== undefined && g >= 0 && g === groups![j]) {
        within += c;
        withinPairs++;
      }
    }
  }
  return {
    pairAccuracy: withinPairs > 0 ? within / withinPairs : null,
    groupPairs: withinPairs,
    auc: allPairs > 0 ? all / allPairs : null,
    pairs: allPairs,
  };
}
