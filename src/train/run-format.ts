/**
 * The run directory format — the product's main output, read by `compare`, `report` and
 * `resume`. Writers (the trainer) and readers (compare/report) share these types and keys.
 *
 * ```
 * runs/NAME/
 *   .lock                  held by the one process writing the run (pid, host, start time, command)
 *   manifest.json          RunManifest: resolved config + its hash, seed, versions, tfjs backend, git commit, times
 *   config.resolved.json   the config in force (what manifest.configHash hashes)
 *   shared/                assets every arm shares: initial RM (+ its labels), judge, problem split
 *   <arm>/
 *     arm.json             ArmStatus (spec, state, steps done/total, times)
 *     metrics.jsonl        one MetricsLine per step (keys below); eval/* keys only on eval steps
 *     metrics.csv          CSV copy of metrics.jsonl (derived)
 *     samples.jsonl        one SampleLine per completion, written when its settlement window closes
 *     refits.jsonl         one RefitLine per settlement window
 *     gate.jsonl           gate decisions (gated arms only)
 *     events.out.tfevents.*  TensorBoard scalars (logging.tensorboard: true; tensorboard.ts)
 *     checkpoints/step-N/  policy + optimizer + RM; state.json (queue, RNG, logger offsets and the
 *                          SHA-256 of every other file) is written last and marks it complete
 *   compare.json / compare.md / report.html   written at the end of `train`
 * ```
 */
import type { ExecStatus, VerdictMode } from '../sandbox/types.ts';
import type { CanaryTag } from '../tasks/canaries.ts';

/** Metric keys (namespaced) written to metrics.jsonl. */
export const METRIC_KEYS = {
  step: 'step',
  /** Mean RM score of the step's completions (what RM-trained arms optimise). */
  proxy: 'reward/proxy',
  /** Mean executed pass fraction (null when gold was not measured this step). */
  gold: 'reward/gold',
  /** proxy − gold. */
  gap: 'reward/gap',
  /** RM's within-group soundness (gold of its favourite / best gold in the group), see monitor.ts. */
  sndG: 'monitor/snd_g',
  /** Trailing mean of `monitor/snd_g` over `metrics.snd_window` steps (steps without a value skipped). */
  sndGRolling: 'monitor/snd_g_rolling',
  /** Mean of the reward the arm actually trained on. */
  train: 'reward/train',
  /** Mean per-token k3 KL to the reference policy, on the policy of the last inner iteration's loss; logged whatever `grpo.beta`, 0 included. */
  kl: 'kl/ref',
  /**
   * Share of the step's groups whose training rewards are all equal (no learning signal; TRL's
   * `frac_reward_zero_std`). Under dynamic sampling: of the first round, before any group is dropped.
   */
  fracZeroStd: 'reward/frac_reward_zero_std',
  /**
   * Mean per-token KL(π_rollout‖π_train), k3 on the sampled tokens: the ONNX Runtime engine's
   * log-probs against the tfjs trainer's at the same weights (≈ 0; a regression guard).
   */
  mismatchKl: 'rollout/mismatch_kl',
  /** Share of completion tokens whose TIS weight hit `grpo.tis.cap` (TIS arms only). */
  tisCapped: 'rollout/tis_capped',
  /** Mean DAPO overlong penalty added to the training reward (arms with `grpo.overlong.buffer` > 0). */
  overlongPenalty: 'reward/overlong_penalty',
  /** Share of completions cut at max_new_tokens (arms with overlong shaping or masking). */
  truncated: 'completion/truncated',
  /** Extra sampling rounds this step under dynamic sampling (arms with `grpo.dynamic_sampling`). */
  extraRounds: 'sampling/extra_rounds',
  /** Groups dropped this step for zero reward variance under dynamic sampling. */
  droppedGroups: 'sampling/dropped_groups',
  /** Groups without signal kept to fill the batch once `dynamic_sampling.max_rounds` was reached. */
  filledGroups: 'sampling/filled_groups',
  /** Sequence-level KL(π‖π_base): mean over the step's completions of Σ_t k3 (nats). */
  klSeq: 'kl/seq',
  /** d = √(kl/seq), the x axis of Gao et al.'s over-optimisation curves. */
  klSqrt: 'kl/sqrt',
  /**
   * Settled-label early warning (arms that settle executed labels): 1 once a Gao et al. RL curve
   * fitted to (window √KL, window mean settled gold) says the policy is past its peak, else 0;
   * null before enough windows. Never uses gold beyond the settled sample.
   */
  alarmGao: 'alarm/gao',
  /** The fitted peak d* of that curve (null while it does not turn over). */
  alarmGaoPeak: 'alarm/gao_dstar',
  /**
   * RM quality at a settlement window (logged on the window's last step, null elsewhere): the
   * RM's within-group pairwise accuracy on the window's settled labels, measured before the refit
   * that adds them (out of sample); on arms that never refit, on the window's gold. See
   * reward/models/ranking-quality.ts.
   */
  rmPairAcc: 'rm/pair_acc',
  /** The same window's concordance (AUC) of the RM score with the labels over all pairs. */
  rmAuc: 'rm/auc',
  /** Mean per-token entropy of the sampling policy. */
  entropy: 'policy/entropy',
  /** Mean completion length in tokens. */
  length: 'completion/length',
  loss: 'loss/total',
  clipFraction: 'loss/clip_fraction',
  gradNorm: 'grad/norm',
  lr: 'opt/lr',
  /** Completions settled (executed or judged for RM labels) at this step. */
  settled: 'settle/count',
  /** Settlement rate in force (changes under adaptive settlement). */
  settleRate: 'settle/rate',
  /** Multiplier on RM-reward advantages in force (adaptive settlement only: < 1 while its alarm is raised). */
  rmWeight: 'settle/rm_weight',
  /** The RM quality gate (`settlement.rm_gate`, arms that set it): 1 while closed (the RM's advantages zeroed), 0 open. */
  rmGate: 'settle/rm_gate',
  /** Cumulative programs executed to produce training signal (rewards or RM labels). */
  budget: 'budget/exec',
  /** Cumulative programs executed only for gold metrics (monitoring, never training). */
  goldBudget: 'budget/gold_exec',
  /** Wall-clock seconds of the step's phases. Rollout: sampling the step's completions. */
  rolloutSeconds: 'perf/rollout_s',
  /** Scoring, all of it: the RM's features and prediction, gold execution, and the reward source's own work (judge, ensemble). */
  rewardSeconds: 'perf/reward_s',
  /** The part of `perf/reward_s` spent extracting RM features and predicting with the RM. */
  rewardRmSeconds: 'perf/reward_rm_s',
  /** The part of `perf/reward_s` spent executing the step's completions (gold metrics, or the execution reward). */
  rewardGoldSeconds: 'perf/reward_gold_s',
  /** Settlement at a window's end: choosing, executing or judging, refitting the RM (and rebuilding an ensemble's members). */
  settleSeconds: 'perf/settle_s',
  /** The GRPO update (reference log-probs, loss, optimizer step; the gate's work on gated arms). */
  trainSeconds: 'perf/train_s',
  /** Sending the updated weights to the rollout engine. */
  syncSeconds: 'perf/sync_s',
  /** Computing the step's metrics and writing the previous step's record (its own is written after this is measured). */
  logSeconds: 'perf/log_s',
  /** Held-out evaluation (steps where it is due; excluded from `perf/log_s`). */
  evalSeconds: 'perf/eval_s',
  /** The whole step: rollout to metrics, plus the previous record's write (the phases above add up to it). */
  stepSeconds: 'perf/step_s',
  /**
   * CPU seconds (user + system, all threads) the arm's own process spent on the step, over the
   * same span as `perf/step_s`; its sandbox workers are other processes and not counted. Much less
   * disturbed than wall time when other processes share the cores.
   */
  cpuSeconds: 'perf/cpu_s',
  evalGreedy: 'eval/greedy_pass',
  evalSampled: 'eval/sampled_pass',
} as const;

/** Metric keys of arms with `settlement.rollback.enabled` (./rollback.ts). */
export const ROLLBACK_METRIC_KEYS = {
  /** Restores of the best window's snapshot so far (cumulative). */
  count: 'rollback/count',
  /** 1 once a rollback trigger has silenced the RM's completions for the rest of the run. */
  silenced: 'rollback/silenced',
  /** Mean settled gold of the best window so far (the snapshot's). */
  bestGold: 'rollback/best_gold',
} as const;

/**
 * Metric keys of gated arms (written only by arms with `gate: true`). Counts are cumulative over
 * gate passes (a MODIFY is followed by a re-gate of the recomputed update in the same step).
 */
export const GATE_METRIC_KEYS = {
  /** Final decision of the step's update (DENY | ESCALATE | MODIFY | WAIT | AUTHORIZE). */
  decision: 'gate/decision',
  /** The step's update was committed (AUTHORIZE, or ESCALATE without `gate.escalation.pause`). */
  applied: 'gate/applied',
  /** Gate passes this step (1 + re-gates after MODIFY). */
  passes: 'gate/passes',
  deny: 'gate/deny',
  escalate: 'gate/escalate',
  modify: 'gate/modify',
  wait: 'gate/wait',
  authorize: 'gate/authorize',
  /** Surprises: committed updates whose settled outcome was a failure of a mode not yet in the library. */
  surprises: 'gate/surprises',
  /** Failure modes in the library. */
  librarySize: 'gate/library_size',
  /** UCB u on the hacking gap at the step's last gate pass (null = +Infinity, too few settled gaps). */
  u: 'gate/u',
  /** Settled gaps u is computed from. */
  settledGaps: 'gate/settled_gaps',
  /** Verified failures fed to the RM as hard examples (MODIFY refits), cumulative. */
  hardExamples: 'gate/hard_examples',
} as const;

/** manifest.json */
export interface RunManifest {
  name: string;
  seed: number;
  /** The resolved run config. */
  config: Record<string, unknown>;
  /**
   * SHA-256 of the config in force (canonical JSON; a copy is in config.resolved.json). `resume`
   * and every arm process refuse a `config` that no longer matches it.
   */
  configHash?: string;
  /** Config changes applied by `resume --allow-config-change`, with each arm's step at the time. */
  configChanges?: { at: string; steps: Record<string, number>; changes: { key: string; before: unknown; after: unknown }[] }[];
  arms: string[];
  versions: Record<string, string>;
  tfBackend: string;
  gitCommit: string | null;
  startedAt: string;
  endedAt: string | null;
}

/** <arm>/arm.json */
export interface ArmStatus {
  name: string;
  spec: { reward: string; labels: string | null; describe: string; gate?: boolean };
  state: 'pending' | 'running' | 'done' | 'failed';
  stepsDone: number;
  totalSteps: number;
  startedAt: string | null;
  endedAt: string | null;
  /** tfjs backend the arm process trained on. */
  tfBackend?: string;
  /** The arm process that last trained it (no second one starts while it runs). */
  writer?: { pid: number; host: string };
  error?: string;
}

/** Both verdicts of one execution (null where that verdict was not run, or the sandbox could not run the program at all). */
export interface Verdicts {
  strict: ExecStatus | null;
  parity: ExecStatus | null;
}

/** A samples.jsonl line's provenance and gold-watch fields (see run-format.ts SampleLine). */
export interface SampleWatch {
  /** The policy that sampled the completion: the step and a hash of its weights. */
  policy: { step: number; weights: string };
  /** The RM that scored it: its refit index (0 = initial fit) and a hash of its label set. */
  rm: { refit: number; hash: string } | null;
  /** SHA-256 (first 16 hex) of the sandbox harness files that executed it. */
  harness: string;
  /** The verdict mode `gold` and `status` were decided under (`sandbox.verdict`). */
  verdict: VerdictMode;
  /** Run seed (each program's random sources are derived from it and the program). */
  seed: number;
  /** Status under each verdict (absent when the completion was not executed for the metrics). */
  verdicts?: Verdicts;
  /** The group's canary and this completion's statuses against it (canary groups only). */
  canary?: CanaryTag & Verdicts;
}

/**
 * One line of samples.jsonl. The provenance stamps (`policy`, `rm`, `harness`, `verdict`, `seed`)
 * and the gold watch's `verdicts`/`canary` come from ./gold-watch.ts (absent in runs written
 * before it; docs/gold-watch.md).
 */
export interface SampleLine extends Partial<SampleWatch> {
  step: number;
  problem: string;
  /** Index within the step's batch. */
  index: number;
  text: string;
  tokens: number;
  proxy: number | null;
  gold: number | null;
  /** The judge's score (judge arms: the settled claims, which the judge labelled). */
  judge: number | null;
  /** Chosen for settlement when its window closed (executed or judged for an RM label). */
  settled: boolean;
  status?: string;
}

/** One line of refits.jsonl. */
export interface RefitLine {
  step: number;
  /** Labels in the RM's training set after this refit. */
  labels: number;
  /** Labels added at this window. */
  newLabels: number;
  /** mean |RM(c) − label(c)| on the new claims, measured before the refit. */
  drift: number;
  /** mean |RM(c) − gold(c)| on the new claims (equals drift when labels are executed). */
  driftGold: number | null;
  /** mean |judge(c) − gold(c)| on the new claims (judge arm). */
  judgeLabelError: number | null;
  /** Concurrent hacking gap (window mean proxy − gold). */
  gap: number | null;
  /**
   * Spearman correlation of the RM's score (before the refit) with the labels of the settled
   * sample; on monitoring lines (refit: false), of proxy with gold over the window. Null with
   * fewer than 3 claims or no variance.
   */
  rank?: number | null;
  /**
   * The RM's within-group pairwise accuracy and AUC on the settled labels, before the refit (on
   * monitoring lines: on the window's gold). Null without a pair of different labels.
   */
  pairAcc?: number | null;
  auc?: number | null;
  /** Settlement strategy that chose the sample (null on monitoring lines). */
  strategy?: string | null;
  /** RM fit diagnostics (e.g. train MSE). */
  fit: Record<string, number>;
  /**
   * Wall times of the window in seconds (`refit_s`: the RM refit alone); like the metrics'
   * `perf/*` keys, the only part of a line a resumed run does not reproduce.
   */
  perf?: Record<string, number>;
  /** False for arms whose RM is never refitted (the line then only monitors drift against gold). */
  refit: boolean;
}
