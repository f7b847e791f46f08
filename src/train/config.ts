/**
 * Config schemas owned by the training driver: GRPO, settlement windows, gold metrics,
 * in-training evaluation, checkpoints. Defaults follow the reference study (docs/design.md).
 */
import { z } from 'zod';
import { escalationConfigSchema, gateConfigSchema } from '../gate/config.ts';
import { lrScheduleSchema, optimizerConfigSchema, type OptimizerConfig } from '../policy/optimizer-config.ts';
import { ADVANTAGE_ESTIMATORS, ADVANTAGE_ESTIMATOR_NAMES } from './advantages.ts';
import { SETTLEMENT_STRATEGIES, STRATEGY_NAMES } from './settlement.ts';

const opt = optimizerConfigSchema.shape;

/** GRPO hyper-parameters (the optimizer keys are the optimizer schema's, src/policy/optimizer.ts). */
export const grpoConfigSchema = z
  .object({
    steps: z
      .number()
      .int()
      .min(1)
      .default(200)
      .describe('GRPO steps per arm (each: rollouts, rewards, inner_iterations updates).'),
    prompts_per_step: z.number().int().min(1).default(8).describe('Prompts sampled per step.'),
    group_size: z
      .number()
      .int()
      .min(2)
      .default(8)
      .describe('Completions sampled per prompt; advantages are computed within each group.'),
    lr: opt.lr.describe('Adam learning rate.'),
    lr_schedule: lrScheduleSchema
      .default('constant')
      .describe("Schedule after warmup; cosine and linear decay toward 0.1 × lr over the run's optimizer steps."),
    warmup_steps: opt.warmup_steps.describe(
      'Optimizer steps of linear warmup (there are steps × inner_iterations optimizer steps in a run, more with gate re-passes rolled back).',
    ),
    grad_clip: opt.grad_clip.describe('Clip gradients to this global L2 norm; 0 disables clipping.'),
    beta: z
      .number()
      .min(0)
      .default(0.02)
      .describe('Weight of the KL penalty to the reference (base) policy (k3 estimator, per token).'),
    clip: z
      .object({
        low: z
          .number()
          .min(0)
          .max(1)
          .default(0.2)
          .describe('PPO ratio clip below 1: the ratio is clipped to [1 − low, 1 + high].'),
        high: z.number().min(0).default(0.2).describe("PPO ratio clip above 1 (DAPO's clip-higher when larger than low)."),
      })
      .strict()
      .prefault({})
      .describe('Clipping of the importance ratio.'),
    scale_rewards: z
      .enum(['group', 'batch', 'none'])
      .default('group')
      .describe(
        'Divide group-centred rewards by the standard deviation of the group (`group`), of the whole batch (`batch`), or not at all (`none`, Dr. GRPO).',
      ),
    loss: z
      .enum(['grpo', 'bnpo', 'dapo', 'dr_grpo'])
      .default('grpo')
      .describe(
        'Token aggregation of the loss: `grpo` mean per sequence then over sequences; `bnpo` and `dapo` mean over all tokens of the batch; `dr_grpo` sum divided by batch × policy.sampling.max_new_tokens.',
      ),
    inner_iterations: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe('Optimizer steps on each batch of rollouts (more than 1 makes the policy ratio and its clipping matter).'),
    length_buckets: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(4)
      .describe(
        "Buckets of similar completion length a step's rows run through the trainer in (the update's passes, the reference's and π_old's log-probs), each padded only to its own longest completion rather than the step's: less work on padding, the same log-probs to float rounding. 1 = every row padded to the step's longest completion (the layout of runs before this option).",
      ),
    eps: z
      .number()
      .positive()
      .default(1e-4)
      .describe('Added to the standard deviation when scaling advantages (avoids division by zero in uniform groups).'),
    advantage: z
      .enum(ADVANTAGE_ESTIMATOR_NAMES)
      .default('grpo')
      .describe(
        `Advantage estimator (src/train/advantages.ts): ${Object.entries(ADVANTAGE_ESTIMATORS)
          .map(([name, e]) => `\`${name}\` (${e.describe})`)
          .join(', ')}. Default \`grpo\`.`,
      ),
    importance_level: z
      .enum(['token', 'sequence'])
      .default('token')
      .describe(
        "Importance ratio of the clipped surrogate: `token` (GRPO/DAPO, default) or `sequence` (GSPO: one ratio per completion, the geometric mean of its token ratios, clipped with `clip.low`/`clip.high` — GSPO's paper uses ranges of about 3e-4/4e-4).",
      ),
    dynamic_sampling: z
      .object({
        enabled: z.boolean().default(false).describe('Turn dynamic sampling on.'),
        max_rounds: z.number().int().min(1).max(32).default(3).describe('Extra sampling rounds per step at most.'),
      })
      .strict()
      .prefault({})
      .describe(
        'DAPO dynamic sampling: drop the groups whose training rewards are all equal (no signal) and sample `prompts_per_step` more prompts, at most `max_rounds` extra rounds per step, until `prompts_per_step` groups with signal are collected (short after the cap: filled with dropped groups). Extra rounds and dropped groups are logged (`sampling/*`).',
      ),
    overlong: z
      .object({
        buffer: z
          .number()
          .int()
          .min(0)
          .default(0)
          .describe(
            'Tokens before max_new_tokens over which the penalty ramps up (0 = off; less than policy.sampling.max_new_tokens).',
          ),
        penalty: z.number().min(0).default(1).describe('Penalty at max_new_tokens (reward units).'),
        mask_truncated: z.boolean().default(false).describe('Drop completions cut at max_new_tokens from the loss.'),
      })
      .strict()
      .prefault({})
      .describe(
        "DAPO overlong reward shaping: a penalty falling linearly from 0 to −`penalty` over the last `buffer` tokens before `policy.sampling.max_new_tokens` (tokens; 0 = off), added to the training reward; `mask_truncated` drops completions cut at max_new_tokens from the loss (they still count in their group's advantage statistics, as in TRL).",
      ),
    tis: z
      .object({
        enabled: z.boolean().default(false).describe('Turn truncated importance sampling on.'),
        cap: z.number().min(1).default(2).describe('Cap C of the per-token ratio π_train/π_rollout.'),
      })
      .strict()
      .prefault({})
      .describe(
        "Truncated importance sampling for the rollout/trainer mismatch: the surrogate of each token is weighted by min(π_train/π_rollout, `cap`) (π_rollout: ONNX Runtime's log-prob, π_train: tfjs's at the same weights). Off by default; `rollout/mismatch_kl` is logged either way.",
      ),
  })
  .strict();

/** A parsed `grpo:` block. */
export type GrpoConfig = z.output<typeof grpoConfigSchema>;

/** The optimizer config of a GRPO block: its schedule spans the run's optimizer steps (steps × inner_iterations). */
export function grpoOptimizerConfig(g: GrpoConfig): Partial<OptimizerConfig> {
  return {
    lr: g.lr,
    grad_clip: g.grad_clip,
    warmup_steps: g.warmup_steps,
    schedule: g.lr_schedule,
    total_steps: g.steps * g.inner_iterations,
  };
}

/** Settlement: how often and how much of a window is executed (or judged) to refit the RM. */
export const settlementConfigSchema = z
  .object({
    every: z
      .number()
      .int()
      .min(1)
      .default(25)
      .describe("Steps per settlement window: the RM is refitted on the window's settled labels every this many steps."),
    rate: z
      .number()
      .min(0)
      .max(1)
      .default(0.1)
      .describe("Fraction σ of each window's completions settled (executed, or judged by the judge arm): the settlement budget."),
    strategy: z
      .enum(STRATEGY_NAMES)
      .default('random')
      .describe(
        `Which claims of a window to settle (src/train/settlement.ts): ${Object.values(SETTLEMENT_STRATEGIES)
          .map((st) => `\`${st.name}\`: ${st.describe}`)
          .join('; ')}. Default \`random\`.`,
      ),
    label_weight: z
      .number()
      .positive()
      .max(1000)
      .default(1)
      .describe(
        "Weight of each settled (on-policy) label against an initial base-policy label (weight 1) in the RM's weighted least squares: a real per-label weight, not copies (ridge RMs).",
      ),
    half_life: z
      .number()
      .positive()
      .nullable()
      .default(null)
      .describe(
        'Recency decay of settled labels, as a half-life in settlement windows: a label settled a windows before the newest weighs label_weight × 2^(−a/half_life); null = no decay (ridge RMs).',
      ),
    objective: z
      .enum(['regression', 'pairwise'])
      .default('regression')
      .describe(
        'Refit objective: `regression` (squared error on each label) or `pairwise` — plus a within-group ranking term Σ ((ŷ_i − ŷ_j) − (y_i − y_j))² over the settled completions of one GRPO group, weighted `pairwise_weight` per pair (ridge RMs; pair it with `strategy: groups`).',
      ),
    pairwise_weight: z
      .number()
      .min(0)
      .default(1)
      .describe("μ: weight of one within-group pair's squared difference error (objective `pairwise`)."),
    committee: z
      .object({ members: z.number().int().min(2).max(64).default(5).describe('Bootstrap RMs in the committee.') })
      .strict()
      .prefault({})
      .describe('The bootstrap committee of the `uncertainty` strategy.'),
    adaptive: z
      .object({
        enabled: z.boolean().default(false).describe('Turn adaptive settlement on.'),
        signal: z
          .enum(['drift', 'gao'])
          .default('drift')
          .describe(
            'What raises σ: `drift` (mean |RM − label| of the settled sample above `tau`) or `gao` — the settled-label early warning: a Gao et al. RL curve fitted to (√KL, mean settled gold) per window says the policy is past its peak (the fitted slope at the current √KL < 0).',
          ),
        tau: z
          .number()
          .min(0)
          .default(0.15)
          .describe(
            "Drift alarm: when the RM's drift at a refit exceeds this, the next window settles more and damps the RM reward.",
          ),
        max_rate: z
          .number()
          .min(0)
          .max(1)
          .default(0.4)
          .describe('Highest settlement rate adaptive settlement may raise to (fraction).'),
        growth: z.number().min(1).default(2).describe('Factor on the settlement rate per drift alarm.'),
        rm_weight: z
          .number()
          .min(0)
          .max(1)
          .default(0.5)
          .describe('Multiplier on RM-reward advantages in a window after a drift alarm (1 otherwise).'),
        release: z
          .number()
          .int()
          .min(1)
          .nullable()
          .default(1)
          .describe(
            'Hysteresis: consecutive quiet refits (no alarm) before a raised alarm is released (refits; default 1: the first quiet refit releases it). null: never — once raised, the alarm holds for the rest of the run.',
          ),
      })
      .strict()
      .prefault({})
      .describe(
        'Adaptive settlement: an alarm at a refit raises the settlement rate and damps the RM reward for the next window; `release` quiet refits in a row restore `rate`.',
      ),
    rm_gate: z
      .object({
        min_pair_acc: z
          .number()
          .min(0)
          .max(1)
          .nullable()
          .default(null)
          .describe(
            "Threshold on the RM's out-of-sample within-group pairwise accuracy on a window's settled labels (a fraction, measured before the refit that adds them): below it, the RM's advantages are zeroed for the next window (`settle/rm_gate` = 1). A window without a scorable pair keeps the gate as it was. null (default): no gate.",
          ),
      })
      .strict()
      .prefault({})
      .describe(
        "RM quality gate: silence the RM's groups in the window after one whose settled labels the RM ranked worse than `min_pair_acc` (arms that refit on executed labels; independent of `adaptive`).",
      ),
    rollback: z
      .object({
        enabled: z
          .boolean()
          .default(false)
          .describe(
            "Keep a snapshot of the policy and its optimizer at the window with the best mean settled (executed) gold; restore it when a window's settled gold falls below the best by more than `z` standard errors (or, with `on_alarm`, when the adaptive alarm is raised), and train the RM's groups silenced from then on.",
          ),
        z: z
          .number()
          .min(0)
          .default(1)
          .describe(
            "How many standard errors of the difference (best − window mean settled gold, each SE over the window's settled groups) a window may fall below the best before the policy is restored (standard errors; default 1).",
          ),
        on_alarm: z
          .boolean()
          .default(true)
          .describe('Also restore the best snapshot when the adaptive alarm is newly raised (settlement.adaptive).'),
      })
      .strict()
      .prefault({})
      .describe(
        'Rollback to the best settled window (plain updater; arms that settle executed labels). The settled gold it compares is what settlement already paid for; the snapshots cost memory and checkpoint space (one policy and its Adam moments), no execution. Metrics `rollback/count`, `rollback/silenced`, `rollback/best_gold`.',
      ),
  })
  .strict();

/** Which rollouts are executed for the gold metrics (never for training, except the execution arm). */
/** A validated `settlement:` section. */
export type SettlementConfig = z.output<typeof settlementConfigSchema>;

export const metricsConfigSchema = z
  .object({
    gold: z
      .enum(['all', 'settled'])
      .default('all')
      .describe(
        'Which rollouts are executed for the gold metrics: `all` (every rollout; costs sandbox time) or `settled` (only the settled sample). Never used as a training signal except by the execution arm.',
      ),
    snd_window: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe('Steps in the rolling mean of the on-policy soundness `monitor/snd_g` (`monitor/snd_g_rolling`).'),
    alarms: z
      .object({
        drift: z.number().min(0).default(0.15).describe('Drift of the RM at a refit above which an alarm is raised.'),
        snd: z.number().min(0).max(1).default(0.5).describe('Rolling Snd@G below which an alarm is raised.'),
        rank: z
          .number()
          .min(-1)
          .max(1)
          .default(0.2)
          .describe('Proxy–label rank correlation of the settled sample below which an alarm is raised.'),
      })
      .strict()
      .prefault({})
      .describe(
        'Alarm thresholds `compare` uses for lead times (never used in training): drift at a refit above `drift`, rolling Snd@G below `snd`, proxy–label rank correlation of the settled sample below `rank`. Fixed before looking at any run, not tuned on one.',
      ),
  })
  .strict();

/** Held-out evaluation during training. */
export const evalConfigSchema = z
  .object({
    every: z
      .number()
      .int()
      .min(0)
      .default(50)
      .describe('Held-out evaluation every this many steps, and at the last step (0 = never).'),
    problems: z.number().int().min(1).default(100).describe('Held-out problems evaluated.'),
    samples: z
      .number()
      .int()
      .min(1)
      .default(4)
      .describe('Sampled completions per problem for the sampled pass rate (the greedy pass rate uses one).'),
  })
  .strict();

/** Checkpointing. */
export const checkpointConfigSchema = z
  .object({
    every: z
      .number()
      .int()
      .min(1)
      .default(25)
      .describe('Checkpoint every this many steps (and at the end and on SIGINT/SIGTERM).'),
    keep: z.number().int().min(1).default(2).describe('Most recent checkpoints kept per arm; older ones are deleted.'),
  })
  .strict();

/** The run config's `logging:` section: which logs an arm writes besides its JSONL files. */
export const loggingConfigSchema = z
  .object({
    tensorboard: z
      .boolean()
      .default(false)
      .describe(
        'Also write a TensorBoard event file per arm (`<arm>/events.out.tfevents.*`, every numeric metric and refit value as a scalar), so `tensorboard --logdir runs/` shows the run (the JSONL logs are the source of truth either way).',
      ),
  })
  .strict();

/** The `proxy:` block: how the RM's score becomes the training reward of RM arms. */
export const proxyConfigSchema = z
  .object({
    ensemble: z
      .object({
        members: z
          .number()
          .int()
          .min(0)
          .max(64)
          .default(0)
          .describe("Bootstrap members of the conservative ensemble; 0 = off (reward = the RM's score)."),
        mode: z
          .enum(['std', 'min'])
          .default('std')
          .describe("`std`: mean − λ·std over members (UWO); `min`: the members' minimum (WCO)."),
        lambda: z.number().min(0).default(1).describe('λ of `std` mode, in reward units per unit of member standard deviation.'),
      })
      .strict()
      .prefault({})
      .describe('Conservative ensemble reward (Coste et al., ICLR 2024): K bootstrap RMs refitted together.'),
    par: z
      .object({
        enabled: z.boolean().default(false).describe('Bound the reward with a sigmoid centred on the reference reward.'),
        scale: z.number().positive().default(0.1).describe('Sigmoid scale s, in reward (gold) units: σ((r − r_ref)/s).'),
        centre: z
          .number()
          .nullable()
          .default(null)
          .describe('Reference reward r_ref; null = the mean label of the initial base-policy label set.'),
      })
      .strict()
      .prefault({})
      .describe('Bounded reward shaping (PAR, arXiv 2502.18770): a sigmoid of the reward centred on a reference reward.'),
    silenced: z
      .enum(['weight', 'mask'])
      .default('weight')
      .describe(
        "How a `settled-rm` arm trains the RM's completions while their weight is 0 (alarm, quality gate, rollback): `weight` (default) keeps them in the loss with zero advantage — their KL term stays and they count in the loss's denominator, so the executed groups' policy gradient is divided by every completion of the step; `mask` leaves them out of the loss entirely, so it is normalised over the completions that carry a signal (the executed ones).",
      ),
    weight: z
      .number()
      .min(0)
      .default(1)
      .describe(
        "Multiplier on the advantages of the completions trained on the RM's reward in an arm that also trains on instantly executed gold (reward source `settled-rm`; its executed completions weigh 1). 0 = the executed groups alone (the `settled` control).",
      ),
  })
  .strict();

/** Sampling settings for rollouts. */
export const samplingConfigSchema = z
  .object({
    temperature: z.number().min(0).default(1.0).describe('Sampling temperature of rollouts (0 = greedy).'),
    top_p: z
      .number()
      .gt(0)
      .max(1)
      .default(1.0)
      .describe('Nucleus sampling: keep the smallest set of tokens with this total probability (1 = off).'),
    top_k: z.number().int().min(0).default(0).describe('Keep only the k most likely tokens (0 = off).'),
    max_new_tokens: z.number().int().min(1).default(48).describe('Longest completion, tokens.'),
  })
  .strict();

/** Rollout sampling settings (`policy.sampling`). */
export type SamplingConfig = z.output<typeof samplingConfigSchema>;

/**
 * The gate (`gate:`, used by gated arms). `escalation.base_settlement_rate` has no default here:
 * unset, it follows `settlement.rate` (resolved where the gate is built, so an arm overlay that
 * changes `settlement.rate` carries over too).
 */
export const runGateConfigSchema = gateConfigSchema.extend({
  escalation: escalationConfigSchema
    .extend({
      base_settlement_rate: z
        .number()
        .positive()
        .max(1)
        .optional()
        .describe(
          "Settlement rate when not escalated; unset = the run's settlement.rate (an arm overlay of settlement.rate carries over).",
        ),
    })
    .prefault({})
    .describe('How ESCALATE and surprises raise settlement and simulation depth.'),
});

/** The run's `gate:` section (before `escalation.base_settlement_rate` is resolved). */
export type RunGateConfig = z.output<typeof runGateConfigSchema>;
