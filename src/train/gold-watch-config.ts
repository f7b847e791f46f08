/**
 * The `gold_watch` section of a run config (schema only, so the config module can compose it
 * without importing the trainer): how executed gold is watched (./gold-watch.ts).
 */
import { z } from 'zod';

/** Schema of the `gold_watch` config section. */
export const goldWatchConfigSchema = z
  .object({
    both_verdicts: z
      .boolean()
      .default(true)
      .describe(
        "Also judge every executed rollout (and canary) under the other verdict mode (strict ↔ parity) on a second executor, for `gold/parity_only`. Costs a second execution of every program the parser accepted; false = only the config's `sandbox.verdict`.",
      ),
  })
  .strict();
/** The validated `gold_watch` config section. */
export type GoldWatchConfig = z.output<typeof goldWatchConfigSchema>;
