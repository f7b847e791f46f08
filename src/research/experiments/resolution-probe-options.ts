/**
 * The resolution probe's options and defaults, apart from the probe (./resolution-probe.ts, which
 * loads the run's problems through the trainer) so `anchor-rl experiment --help` can show the
 * defaults without loading it.
 */

/** Defaults of the probe (the settings of the figures in docs/results.md). */
export const RESOLUTION_PROBE_DEFAULTS = {
  /** Feature extractors, concatenated. */
  features: ['js-surface'] as readonly string[],
  /** Settlement windows scored (window w holds steps [w·every, (w+1)·every)). */
  windows: [3, 6, 9, 11] as readonly number[],
  /** Fraction of earlier completions in the budget-sized refit (the anchored arm's settlement rate). */
  sample: 0.1,
  /** Weight of the sampled on-policy labels in the weighted variant. */
  weight: 4,
  /** Seed of the budget-sized sample. */
  seed: 5,
  /** Ridge penalty of every fit. */
  alpha: 1,
};

/** Options of `runResolutionProbe` (./resolution-probe.ts); unset ones take {@link RESOLUTION_PROBE_DEFAULTS}. */
export interface ResolutionProbeOptions {
  runDir: string;
  arm: string;
  features?: readonly string[];
  windows?: readonly number[];
  sample?: number;
  seed?: number;
}
