/**
 * A run cut at a step: every arm's metrics, refit lines and samples up to `step`. Arms compared
 * at the step the slowest of them has reached (an arm still running, or one stopped early) are
 * compared over the same steps; their final window then ends at `step`, not at each arm's last.
 */
import type { RunData } from './read-run.ts';

/** The run with every arm's lines after `step` left out (the inputs are not modified). */
export function untilStep(run: RunData, step: number): RunData {
  return {
    ...run,
    arms: run.arms.map((arm) => ({
      ...arm,
      metrics: arm.metrics.filter((l) => l.step <= step),
      refits: arm.refits.filter((r) => r.step <= step),
      samples: arm.samples ? arm.samples.filter((s) => s.step <= step) : null,
    })),
  };
}
