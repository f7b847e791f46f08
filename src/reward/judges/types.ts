/**
 * Judges score completions without executing them. The `judge` arm refits its reward model on
 * judge labels instead of executed ones — a proxy of a proxy.
 */
import type { Problem } from '../../datasets/problem.ts';

/**
 * One interface for every judge kind. Scores are in [0, 1], one per completion, in order;
 * `null` means the judge could not score that completion (e.g. an HTTP judge whose replies never
 * contained a number after all retries) — the driver treats it like an unknown reward (it takes
 * no part in group statistics or refits), rather than inventing a value.
 */
export interface Judge {
  readonly kind: 'learned' | 'lm' | 'http';
  score(problem: Problem, completions: readonly string[]): Promise<(number | null)[]>;
  /** Release resources (sessions, sockets). Idempotent. */
  close?(): Promise<void>;
}

/** A labelled completion, the training data of the learned judge. */
export interface LabelledCompletion {
  problem: Problem;
  completion: string;
  /** Executed gold in [0, 1]. */
  gold: number;
}
