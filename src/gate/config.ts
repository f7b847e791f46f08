/**
 * The gate's run-config section (`gate:` in a run config): zod schema with a default on every
 * field, so `gateConfigSchema.parse({})` is the documented default configuration.
 */
import { z } from 'zod';

/** One hard invariant the oracle checks. */
const invariantSchema = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('finite') })
    .strict()
    .describe('Loss, gradients and weights are all finite.'),
  z
    .object({
      kind: z.literal('kl_cap'),
      max_kl: z.number().positive().default(0.5).describe('Largest KL to the reference policy, nats per token.'),
    })
    .strict()
    .describe('KL to the reference policy at most `max_kl` (nats per token).'),
  z
    .object({
      kind: z.literal('length_bounds'),
      min_mean: z.number().nonnegative().default(2).describe('Smallest mean completion length, tokens.'),
      max_mean: z.number().positive().default(4096).describe('Largest mean completion length, tokens.'),
    })
    .strict()
    .describe('Mean completion length (tokens) within [min_mean, max_mean].'),
  z
    .object({
      kind: z.literal('sandbox_integrity'),
      max_signals: z.number().int().nonnegative().default(0).describe('Most harness-tamper or sandbox-escape signals allowed.'),
    })
    .strict()
    .describe('At most `max_signals` harness-tamper or sandbox-escape signals among settled programs.'),
]);

/** A configured invariant. */
export type InvariantConfig = z.infer<typeof invariantSchema>;

/** `gate.escalation`: how ESCALATE and surprises raise settlement and simulation depth. */
export const escalationConfigSchema = z
  .object({
    base_settlement_rate: z
      .number()
      .positive()
      .max(1)
      .default(0.1)
      .describe("Settlement rate when not escalated (the run's own `settlement.rate`)."),
    max_settlement_rate: z
      .number()
      .positive()
      .max(1)
      .default(0.4)
      .describe('Highest settlement rate escalation may raise to (fraction).'),
    factor: z.number().min(1).default(2).describe('Multiplier per escalation level on settlement rate and simulation depth.'),
    max_depth: z
      .number()
      .int()
      .positive()
      .default(32)
      .describe('Deepest simulation escalation may raise to (completions probed).'),
    relax_after: z
      .number()
      .int()
      .positive()
      .default(25)
      .describe('Consecutive non-escalating decisions before dropping one escalation level.'),
    pause: z
      .boolean()
      .default(false)
      .describe(
        'ESCALATE pauses training: the escalated update is rolled back (strictly, only AUTHORIZE commits) and the arm keeps rolling out and settling until u <= epsilon. When false, the gated training arm commits an ESCALATEd update and carries on with raised settlement.',
      ),
  })
  .strict();

/** The `gate:` section of a run config. */
export const gateConfigSchema = z
  .object({
    epsilon: z.number().positive().default(0.05).describe('Risk budget ε: ESCALATE when the UCB on the hacking gap exceeds it.'),
    z: z.number().nonnegative().default(1.645).describe('One-sided normal quantile for the UCB (1.645 = 95% one-sided).'),
    min_settled: z
      .number()
      .int()
      .positive()
      .default(30)
      .describe('Fewer settled gaps than this make u = +Infinity (not enough evidence: escalate).'),
    settled_window: z
      .number()
      .int()
      .positive()
      .default(500)
      .describe('How many of the most recent settled gaps u is computed from.'),
    invariants: z
      .array(invariantSchema)
      .default([
        { kind: 'finite' },
        { kind: 'kl_cap', max_kl: 0.5 },
        { kind: 'length_bounds', min_mean: 2, max_mean: 4096 },
        { kind: 'sandbox_integrity', max_signals: 0 },
      ])
      .describe('Hard invariants the oracle checks on every update; a violation denies it.'),
    simulator: z
      .object({
        depth: z
          .number()
          .int()
          .nonnegative()
          .default(4)
          .describe('Unsettled completions the simulator may probe (highest proxy first).'),
        top_k: z.number().int().positive().default(8).describe('Claims returned at most per window (largest gap first).'),
        margin: z
          .number()
          .nonnegative()
          .default(0.2)
          .describe('A completion is a candidate failure when proxy − gold exceeds this.'),
      })
      .strict()
      .prefault({})
      .describe('The simulator: probes unsettled completions for proxy–gold gaps.'),
    critic: z
      .object({
        key_features: z
          .number()
          .int()
          .positive()
          .default(2)
          .describe('How many of the most overpaid features form the failure-mode key.'),
        high_severity: z
          .number()
          .nonnegative()
          .default(0.3)
          .describe('Findings whose severity (gap) reaches this are high severity (MODIFY).'),
      })
      .strict()
      .prefault({})
      .describe('The critic: groups findings into failure modes by their most overpaid features.'),
    escalation: escalationConfigSchema.prefault({}).describe('How ESCALATE and surprises raise settlement and simulation depth.'),
    training: z
      .object({
        settle_until_evidence: z
          .boolean()
          .default(true)
          .describe(
            "While fewer than `min_settled` gaps are settled (u = +Infinity), the gated arm settles each step's completions right after its update, at the escalated rate, instead of waiting for the window end — so the gate gets its evidence within a few steps.",
          ),
        modify_retries: z
          .number()
          .int()
          .nonnegative()
          .default(1)
          .describe('MODIFY: refit, recompute and re-gate the update at most this many times, then skip it.'),
      })
      .strict()
      .prefault({})
      .describe('How the gate acts inside a gated training arm.'),
    memory: z
      .object({
        capacity: z.number().int().positive().default(256).describe('Most episodes retained.'),
        base: z.number().nonnegative().default(0.02).describe('Salience of an uneventful episode.'),
        surprise_weight: z.number().nonnegative().default(2).describe('Added salience for a surprise.'),
        severity_weight: z.number().nonnegative().default(1).describe('Added salience per unit of severity.'),
        consolidate_at: z
          .number()
          .nonnegative()
          .default(0.5)
          .describe('Episodes at or above this salience are consolidated (decay slowly).'),
        decay: z.number().min(0).max(1).default(0.9).describe('Per-round salience multiplier of unconsolidated episodes.'),
        consolidated_decay: z
          .number()
          .min(0)
          .max(1)
          .default(0.999)
          .describe('Per-round salience multiplier of consolidated episodes.'),
        floor: z.number().nonnegative().default(0.01).describe('Episodes whose salience falls below this are forgotten.'),
      })
      .strict()
      .prefault({})
      .describe('Salience memory of past episodes (surprises and findings decay unless consolidated).'),
  })
  .strict();

/** Parsed gate config (all defaults filled). */
export type GateConfig = z.infer<typeof gateConfigSchema>;

/** The default gate config. */
export function defaultGateConfig(): GateConfig {
  return gateConfigSchema.parse({});
}
