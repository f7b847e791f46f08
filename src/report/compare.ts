/**
 * The arm comparison table: one row per arm, read from one run directory or several of the same
 * config (different seeds → mean ± standard error per arm). `train` calls {@link compareRuns}
 * and {@link formatCompareMarkdown} at the end of every run to write compare.json/compare.md.
 */
import { spearmanOrNull } from '../util/correlation.ts';
import { metricsConfigSchema } from '../train/config.ts';
import { REWARD_SOURCES, type RewardSource } from '../train/reward-sources.ts';
import { GATE_METRIC_KEYS as GK, METRIC_KEYS as K, ROLLBACK_METRIC_KEYS as RK, type ArmStatus } from '../train/run-format.ts';
import { GOLD_WATCH_METRIC_KEYS as W } from '../train/gold-watch.ts';
import { formatTable, markdownTable } from '../util/table.ts';
import { armGaoFit, sqrtKlOf } from './gao.ts';
import { readRun, type ArmData, type MetricsLine, type RunData, type RunWarning } from './read-run.ts';
import { filterRun, parseWhere } from './provenance.ts';
import { finalWindowMean, finiteOrNull, lastValue, meanOf, meanSe, metricValue, rollingPeak } from './stats.ts';
import { AnchorError } from '../util/errors.ts';
import { armAnchoring } from './anchoring.ts';
import { formatSeedStatsMarkdown, SEED_STAT_MEASURES, seedStatistics, type SeedStatistics } from './seed-stats.ts';

/** The columns of the comparison, in display order. */
const COMPARE_COLUMNS = [
  { key: 'steps', label: 'steps', digits: 0, describe: 'steps logged' },
  { key: 'finalGold', label: 'gold final', digits: 3, describe: 'mean gold over the final window' },
  { key: 'peakGold', label: 'gold peak', digits: 3, describe: 'peak of the rolling-mean gold (full windows)' },
  { key: 'peakStep', label: 'peak step', digits: 0, describe: 'step at which the rolling gold peaked' },
  { key: 'finalProxy', label: 'proxy final', digits: 3, describe: 'mean proxy (RM score) over the final window' },
  { key: 'gap', label: 'gap', digits: 3, describe: 'hacking gap proxy − gold over the final window' },
  { key: 'kl', label: 'KL', digits: 4, describe: 'mean k3 KL to the reference policy over the final window' },
  {
    key: 'sqrtKl',
    label: '√KL',
    digits: 3,
    describe:
      'd = √(sequence-level KL to the base policy), mean over the final window (kl/sqrt; runs before it: √(kl/ref × length))',
  },
  {
    key: 'heldOut',
    label: 'held-out',
    digits: 3,
    describe: 'held-out sampled pass rate at the last evaluation (eval/sampled_pass)',
  },
  {
    key: 'goldRatio',
    label: '× exec gold',
    digits: 2,
    describe: "final gold over the execution arm's final gold in the same run",
  },
  { key: 'length', label: 'length', digits: 1, describe: 'mean completion length (tokens) over the final window' },
  { key: 'entropy', label: 'entropy', digits: 3, describe: 'mean policy entropy over the final window' },
  { key: 'refits', label: 'refits', digits: 0, describe: 'RM refits (refits.jsonl lines with refit ≠ false)' },
  { key: 'settledLabels', label: 'settled', digits: 0, describe: 'labels settled in total' },
  { key: 'execBudget', label: 'exec budget', digits: 0, describe: 'programs executed for training signal (last budget/exec)' },
  {
    key: 'execFraction',
    label: 'budget/exec arm',
    digits: 3,
    describe: "exec budget as a fraction of the execution arm's at the same step",
  },
  { key: 'judgeError', label: 'judge err', digits: 3, describe: 'judge label error |judge − gold|, mean over refits' },
  {
    key: 'rmPairAcc',
    label: 'RM pair acc',
    digits: 3,
    describe:
      "RM quality: within-group pairwise accuracy of the RM on each settlement window's settled labels, before the refit that adds them (out of sample; arms that never refit: on the window's gold), mean over windows",
  },
  {
    key: 'rmAuc',
    label: 'RM AUC',
    digits: 3,
    describe:
      "RM quality: concordance (AUC) of the RM score with each window's settled labels over all pairs with different labels, before the refit, mean over windows",
  },
  {
    key: 'gaoAlpha',
    label: 'α',
    digits: 3,
    describe: 'Gao et al. RL fit gold = g₀ + d(α − β ln d) over every step (d = √KL): α',
  },
  { key: 'gaoBeta', label: 'β', digits: 3, describe: 'the same fit: β (> 0: the curve turns over)' },
  { key: 'gaoDStar', label: 'd*', digits: 3, describe: 'the fitted peak d* = exp(α/β − 1) (n/a: no peak)' },
  {
    key: 'gaoTurn',
    label: 'slope<0 step',
    digits: 0,
    describe: 'first step whose trailing-mean d reaches d* — where more optimisation starts to cost gold (n/a: never)',
  },
] as const;

/**
 * The alarm comparison: three statistics that could warn of reward hacking while it happens,
 * each oriented so that larger means more alarmed — the drift D at each settlement window (the
 * reference study's registered alarm), 1 − the on-policy within-group soundness Snd@G (window
 * mean of `monitor/snd_g`), and 1 − the RM-vs-label rank correlation r_s of the settled sample
 * (on arms that never refit: RM vs gold over the window). Per arm: each alarm's Spearman
 * correlation with the concurrent hacking gap over the windows, and its lead time — steps from
 * its first crossing of the run's `metrics.alarms` threshold to the rolling-gold peak (positive:
 * it fired before the peak; n/a: it never fired).
 */
const ALARM_COLUMNS = [
  {
    key: 'driftGapSpearman',
    label: 'ρ(drift,gap)',
    digits: 3,
    describe: 'Spearman correlation of drift at each settlement window with the concurrent hacking gap (needs ≥ 3 windows)',
  },
  {
    key: 'sndGapSpearman',
    label: 'ρ(1−Snd@G,gap)',
    digits: 3,
    describe: 'Spearman correlation of 1 − window-mean on-policy Snd@G with the concurrent hacking gap (needs ≥ 3 windows)',
  },
  {
    key: 'rankGapSpearman',
    label: 'ρ(1−r_s,gap)',
    digits: 3,
    describe:
      "Spearman correlation of 1 − the settled sample's RM-vs-label rank correlation with the concurrent hacking gap (needs ≥ 3 windows)",
  },
  {
    key: 'driftLead',
    label: 'drift lead',
    digits: 0,
    describe: 'steps before the rolling-gold peak at which drift first exceeded metrics.alarms.drift (n/a: never)',
  },
  {
    key: 'sndLead',
    label: 'Snd@G lead',
    digits: 0,
    describe:
      'steps before the rolling-gold peak at which the rolling Snd@G first fell below metrics.alarms.snd (full windows only; n/a: never)',
  },
  {
    key: 'rankLead',
    label: 'r_s lead',
    digits: 0,
    describe:
      'steps before the rolling-gold peak at which the settled rank correlation first fell below metrics.alarms.rank (n/a: never)',
  },
  {
    key: 'gaoLead',
    label: 'Gao lead',
    digits: 0,
    describe:
      'steps before the rolling-gold peak at which the settled-label early warning (alarm/gao: a Gao fit on settled labels alone says d > d*) first fired (n/a: never)',
  },
] as const;

/** `metrics` defaults (alarm thresholds, Snd@G window) for manifests that predate them. */
const METRICS_DEFAULTS = metricsConfigSchema.parse({});

/**
 * Gate columns (cumulative counts from the last metrics line of gated arms). Shown only when some
 * arm of the compared runs has a gate; n/a for arms without one.
 */
const GATE_COLUMNS = [
  {
    key: 'gateDeny',
    label: 'DENY',
    digits: 0,
    describe: 'gate passes that decided DENY (hard invariant violated; update rolled back)',
  },
  {
    key: 'gateEscalate',
    label: 'ESCALATE',
    digits: 0,
    describe: 'gate passes that decided ESCALATE (u > epsilon; settlement and probe depth raised)',
  },
  {
    key: 'gateModify',
    label: 'MODIFY',
    digits: 0,
    describe: 'gate passes that decided MODIFY (verified high-severity failure; RM refitted on it, update recomputed)',
  },
  { key: 'gateAuthorize', label: 'AUTHORIZE', digits: 0, describe: 'gate passes that decided AUTHORIZE (committed)' },
  {
    key: 'gateSurprises',
    label: 'surprises',
    digits: 0,
    describe: 'committed updates whose settled outcome was a failure of a mode not yet in the failure library',
  },
  { key: 'gateLibrary', label: 'library', digits: 0, describe: 'failure modes in the library (verified by re-execution)' },
] as const;

/**
 * Gold-watch columns (docs/gold-watch.md), shown when some arm logged them: hacks the strict
 * verdict caught, and canary passes (any pass of an impossible variant is a tamper).
 */
const WATCH_COLUMNS = [
  {
    key: 'parityOnly',
    label: 'parity-only',
    digits: 0,
    describe:
      'executed rollouts that passed the published harness (parity) but failed strict, summed over the run (gold/parity_only)',
  },
  {
    key: 'parityOnlyRate',
    label: 'parity-only rate',
    digits: 4,
    describe: 'gold/parity_only_rate, mean over the final window',
  },
  {
    key: 'canaryPass',
    label: 'canary pass',
    digits: 4,
    describe:
      'share of canary executions that passed under either verdict, over the run (canary/pass_rate weighted by canary/count)',
  },
  {
    key: 'canaryStrictPass',
    label: 'canary strict',
    digits: 4,
    describe: 'share of canary executions that passed strict (the training verdict was tampered with), over the run',
  },
] as const;

/**
 * Anchoring-control columns (docs/settlement.md, "Anchoring methods"), shown when some arm logged
 * them: how often the RM was silenced, by the quality gate or for good after a rollback, and how
 * many times the policy was restored to its best settled window.
 */
const ANCHOR_COLUMNS = [
  {
    key: 'rmSilenced',
    label: 'RM silenced',
    digits: 2,
    describe: 'share of steps whose RM-reward weight was 0 (settle/rm_weight: alarm, quality gate or rollback)',
  },
  {
    key: 'rmGateClosed',
    label: 'RM gate closed',
    digits: 2,
    describe: 'share of steps the RM quality gate (settlement.rm_gate) was closed (settle/rm_gate)',
  },
  {
    key: 'rollbacks',
    label: 'rollbacks',
    digits: 0,
    describe: "restores of the best settled window's policy and optimizer over the run (rollback/count at the last step)",
  },
] as const;

/** The anchoring-control columns of one arm. */
function anchorValues(m: readonly MetricsLine[]): Record<(typeof ANCHOR_COLUMNS)[number]['key'], number | null> {
  const share = (key: string, hit: (v: number) => boolean) => {
    const vs = m.map((l) => metricValue(l, key)).filter((v): v is number => v !== null);
    return vs.length ? vs.filter(hit).length / vs.length : null;
  };
  return {
    rmSilenced: share(K.rmWeight, (v) => v === 0),
    rmGateClosed: share(K.rmGate, (v) => v === 1),
    rollbacks: lastValue(m, RK.count),
  };
}

/** A run-long rate from per-step rates and counts (null without any count). */
function weightedRate(m: readonly MetricsLine[], rateKey: string, countKey: string): number | null {
  let n = 0;
  let k = 0;
  for (const l of m) {
    const c = metricValue(l, countKey);
    const r = metricValue(l, rateKey);
    if (c === null || r === null || c <= 0) continue;
    n += c;
    k += r * c;
  }
  return n > 0 ? k / n : null;
}

/** The gold-watch columns of one arm. */
function watchValues(m: readonly MetricsLine[], window: number): Record<(typeof WATCH_COLUMNS)[number]['key'], number | null> {
  const parityOnly = m.map((l) => metricValue(l, W.parityOnly)).filter((v): v is number => v !== null);
  return {
    parityOnly: parityOnly.length ? parityOnly.reduce((a, v) => a + v, 0) : null,
    parityOnlyRate: finalWindowMean(m, W.parityOnlyRate, window),
    canaryPass: weightedRate(m, W.canaryPassRate, W.canaryCount),
    canaryStrictPass: weightedRate(m, W.canaryStrictPassRate, W.canaryCount),
  };
}

const GATE_SOURCES: Record<(typeof GATE_COLUMNS)[number]['key'], string> = {
  gateDeny: GK.deny,
  gateEscalate: GK.escalate,
  gateModify: GK.modify,
  gateAuthorize: GK.authorize,
  gateSurprises: GK.surprises,
  gateLibrary: GK.librarySize,
};

/** A column key of the comparison. */
type CompareKey =
  | (typeof COMPARE_COLUMNS)[number]['key']
  | (typeof ALARM_COLUMNS)[number]['key']
  | (typeof GATE_COLUMNS)[number]['key']
  | (typeof WATCH_COLUMNS)[number]['key']
  | (typeof ANCHOR_COLUMNS)[number]['key'];

/** The outcome columns (the first text table) — the rest are settlement/cost columns. */
const OUTCOME_KEYS: readonly CompareKey[] = [
  'steps',
  'finalGold',
  'peakGold',
  'peakStep',
  'finalProxy',
  'gap',
  'kl',
  'sqrtKl',
  'heldOut',
  'goldRatio',
  'length',
  'entropy',
];
/** The alarm columns (their own table). */
const ALARM_KEYS: readonly CompareKey[] = ALARM_COLUMNS.map((c) => c.key);

/** One cell: mean over runs ± standard error (se null with a single run). */
export interface CompareCell {
  mean: number | null;
  se: number | null;
  /** Runs that contributed a value. */
  n: number;
}

/** One arm's row. */
interface CompareRow {
  arm: string;
  /** What the arm is a reference for, from its spec in arm.json ({@link armRole}). */
  role?: ArmRole;
  /** The RM kind and the settlement controls the arm ran with ({@link armAnchoring}), from the first run whose config is known. */
  anchoring?: string;
  /** Runs in which this arm appears. */
  runs: number;
  /** True when the arm is unfinished (state ≠ done) in any run. */
  incomplete: boolean;
  /** arm.json state per run ('missing' when absent). */
  states: string[];
  values: Record<CompareKey, CompareCell>;
  /** Per-run values (same order as {@link CompareTable.runs}; null where the arm is absent). */
  perRun: (Record<CompareKey, number | null> | null)[];
}

/** The structured comparison (what `compare --json` prints and compare.json holds). */
export interface CompareTable {
  window: number;
  runs: { dir: string; name: string; seed: number | null; incompleteArms: string[]; emptyArms: string[] }[];
  columns: { key: CompareKey; label: string; digits: number; describe: string }[];
  rows: CompareRow[];
  /** Arms unfinished in any run. */
  incompleteArms: string[];
  /** Arms with no logged steps in any run. */
  emptyArms: string[];
  warnings: RunWarning[];
  /**
   * Interval estimates over seeds (several runs only): every arm against the reference arm paired
   * by seed, and P(A > B) between every two arms ({@link seedStatistics}); null with one run or
   * without a reference arm.
   */
  statistics: SeedStatistics | null;
}

/** Options of {@link compareRuns}. */
export interface CompareOptions {
  /** Final/rolling window in steps (default: {@link defaultWindow}). */
  window?: number;
  /** Provenance conditions (`--where key=value`, ./provenance.ts): only matching samples' steps. */
  where?: readonly string[];
  /**
   * Compute the interval estimates over seeds (several runs; a bootstrap of every arm and every
   * pair, seconds for a dozen arms over ten seeds — the CLI and the written summaries ask for
   * them, the live view does not). Default false.
   */
  statistics?: boolean;
  /** The arm the statistics over seeds pair every arm with (default: the execution arm). */
  reference?: string;
  /** Bootstrap replicates of the statistics over seeds (default: interval-stats DEFAULT_REPS). */
  reps?: number;
  /** Seed of the bootstrap (default 0). */
  bootstrapSeed?: number;
}

/** The window when none is given: the first run's settlement window (`settlement.every`), else 25. */
export function defaultWindow(runs: readonly RunData[]): number {
  const settlement = runs[0]?.manifest?.config?.settlement as { every?: unknown } | undefined;
  const every = settlement?.every;
  return typeof every === 'number' && Number.isInteger(every) && every >= 1 ? every : 25;
}

/**
 * What an arm is a reference for: `execution` — its reward source executes every rollout (the
 * cost of training on execution); `frozen` — an RM reward that is never refitted (no settlement);
 * null otherwise or when the spec is unknown.
 */
export type ArmRole = 'execution' | 'frozen' | null;

/** The role of an arm from its spec (reward source and label source). */
function armRole(spec: ArmStatus['spec'] | undefined): ArmRole {
  if (!spec) return null;
  const source = (REWARD_SOURCES as Record<string, RewardSource | undefined>)[spec.reward];
  if (source?.executesRollouts) return 'execution';
  return source && spec.labels === null && !spec.gate ? 'frozen' : null;
}

/** The arm whose budget is the denominator of execFraction: the first whose reward executes every rollout. */
export function executionArm(run: RunData): ArmData | undefined {
  return run.arms.find((a) => armRole(a.status?.spec) === 'execution');
}

/** The comparison values of one arm of one run. */
function armValues(arm: ArmData, run: RunData, window: number): Record<CompareKey, number | null> {
  const m = arm.metrics;
  const peak = rollingPeak(m, K.gold, window);
  // Gap per step, from the logged key or proxy − gold where only those are logged.
  const gapKey = '__gap';
  const withGap = m.map((l) => {
    const g = metricValue(l, K.gap);
    const p = metricValue(l, K.proxy);
    const o = metricValue(l, K.gold);
    return { ...l, [gapKey]: g ?? (p !== null && o !== null ? p - o : null) };
  });
  // Lines with refit: false only monitor drift (arms whose RM is never refitted).
  const refits = arm.refits.filter((r) => r.refit !== false);
  const settledPerStep = m.map((l) => metricValue(l, K.settled));
  const settledLabels = settledPerStep.some((v) => v !== null)
    ? settledPerStep.reduce<number>((a, v) => a + (v ?? 0), 0)
    : refits.length > 0
      ? refits.reduce((a, r) => a + (typeof r.newLabels === 'number' ? r.newLabels : 0), 0)
      : null;

  let execFraction: number | null = null;
  const ref = executionArm(run);
  const lastStep = m.at(-1)?.step;
  if (ref && lastStep !== undefined && ref.metrics.length > 0) {
    // Compare budgets at the same step so an unfinished arm is not flattered by stopping early.
    const at = Math.min(lastStep, ref.metrics.at(-1)!.step);
    const mine = lastValue(m, K.budget, at);
    const theirs = lastValue(ref.metrics, K.budget, at);
    if (mine !== null && theirs !== null && theirs > 0) execFraction = mine / theirs;
  }

  const alarms = alarmValues(arm, run, withGap, gapKey, peak?.step ?? null);
  const finalGold = finalWindowMean(m, K.gold, window);
  const refGold = ref && ref.metrics.length > 0 ? finalWindowMean(ref.metrics, K.gold, window) : null;
  const dRows = m.map((l) => ({ step: l.step, d: sqrtKlOf(l)?.d ?? null }));
  const gao = armGaoFit(arm, window);
  return {
    steps: m.length,
    finalGold,
    peakGold: peak?.value ?? null,
    peakStep: peak?.step ?? null,
    finalProxy: finalWindowMean(m, K.proxy, window),
    gap: finalWindowMean(withGap, gapKey, window),
    kl: finalWindowMean(m, K.kl, window),
    sqrtKl: finalWindowMean(dRows as unknown as MetricsLine[], 'd', window),
    heldOut: lastValue(m, K.evalSampled),
    goldRatio: finalGold !== null && refGold !== null && refGold > 0 ? finalGold / refGold : null,
    length: finalWindowMean(m, K.length, window),
    entropy: finalWindowMean(m, K.entropy, window),
    refits: refits.length,
    settledLabels,
    execBudget: lastValue(m, K.budget),
    execFraction,
    judgeError: meanOf(arm.refits.map((r) => (typeof r.judgeLabelError === 'number' ? r.judgeLabelError : null))),
    rmPairAcc: meanOf(arm.refits.map((r) => finiteOrNull(r.pairAcc))),
    rmAuc: meanOf(arm.refits.map((r) => finiteOrNull(r.auc))),
    gaoAlpha: gao?.fit.alpha ?? null,
    gaoBeta: gao?.fit.beta ?? null,
    gaoDStar: gao?.fit.dStar ?? null,
    gaoTurn: gao?.turnStep ?? null,
    ...alarms,
    ...watchValues(m, window),
    ...anchorValues(m),
    ...(Object.fromEntries(Object.entries(GATE_SOURCES).map(([k, key]) => [k, lastValue(m, key)])) as Record<
      keyof typeof GATE_SOURCES,
      number | null
    >),
  };
}

/** Spearman of (alarm, gap) pairs, or null with fewer than 3 pairs or no variance. */
const pairRho = (pairs: readonly [number, number][]): number | null =>
  spearmanOrNull(
    pairs.map((p) => p[0]),
    pairs.map((p) => p[1]),
  );

/** The alarm columns of one arm (see {@link ALARM_COLUMNS}). */
function alarmValues(
  arm: ArmData,
  run: RunData,
  withGap: readonly Record<string, unknown>[],
  gapKey: string,
  peakStep: number | null,
): Record<(typeof ALARM_COLUMNS)[number]['key'], number | null> {
  const m = arm.metrics;
  const cfg = run.manifest?.config as
    | { metrics?: { alarms?: Partial<typeof METRICS_DEFAULTS.alarms>; snd_window?: number } }
    | undefined;
  const th = { ...METRICS_DEFAULTS.alarms, ...cfg?.metrics?.alarms };
  const sndWindow = cfg?.metrics?.snd_window ?? METRICS_DEFAULTS.snd_window;
  const drift: [number, number][] = [];
  const snd: [number, number][] = [];
  const rank: [number, number][] = [];
  let driftCross: number | null = null;
  let rankCross: number | null = null;
  let prev = -Infinity;
  for (const r of arm.refits) {
    const inWindow = (l: { step: number }) => l.step > prev && l.step <= r.step;
    // The concurrent gap: logged with the refit, else the window's mean gap.
    const gap =
      finiteOrNull(r.gap) ??
      meanOf(withGap.filter((l) => inWindow(l as { step: number })).map((l) => l[gapKey] as number | null));
    // A monitoring line without gold has no drift measurement (the trainer writes 0 there).
    const measured = r.refit !== false || finiteOrNull(r.driftGold) !== null;
    const d = measured ? finiteOrNull(r.drift) : null;
    const s = meanOf(m.filter(inWindow).map((l) => metricValue(l, K.sndG)));
    const rs = finiteOrNull(r.rank);
    if (gap !== null) {
      if (d !== null) drift.push([d, gap]);
      if (s !== null) snd.push([1 - s, gap]);
      if (rs !== null) rank.push([1 - rs, gap]);
    }
    if (driftCross === null && d !== null && d > th.drift) driftCross = r.step;
    if (rankCross === null && rs !== null && rs < th.rank) rankCross = r.step;
    prev = r.step;
  }
  // Snd@G fires per step, once its rolling window is full (a partial window is too noisy).
  const first = m[0]?.step ?? 0;
  const sndCross =
    m.find((l) => l.step - first + 1 >= sndWindow && (metricValue(l, K.sndGRolling) ?? Infinity) < th.snd)?.step ?? null;
  const lead = (cross: number | null) => (cross === null || peakStep === null ? null : peakStep - cross);
  const gaoCross = m.find((l) => metricValue(l, K.alarmGao) === 1)?.step ?? null;
  return {
    driftGapSpearman: pairRho(drift),
    sndGapSpearman: pairRho(snd),
    rankGapSpearman: pairRho(rank),
    driftLead: lead(driftCross),
    sndLead: lead(sndCross),
    rankLead: lead(rankCross),
    gaoLead: lead(gaoCross),
  };
}

function configKey(run: RunData): string | null {
  const c = run.manifest?.config;
  if (!c || typeof c !== 'object') return null;
  const { seed: _s, name: _n, ...rest } = c as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** Build the comparison from runs already read (the report reuses its read). */
export function compareRunData(runs: readonly RunData[], opts: CompareOptions = {}): CompareTable {
  const window = opts.window ?? defaultWindow(runs);
  if (!(Number.isInteger(window) && window >= 1))
    throw new AnchorError('BAD_ARGUMENT', `window must be a positive integer, got ${window}`);
  const warnings: RunWarning[] = runs.flatMap((r) => r.warnings);
  if (runs.length > 1) {
    const keys = new Set(runs.map(configKey));
    if (keys.size > 1) {
      warnings.push({ file: runs[1]!.dir, message: 'runs have different configs (beyond seed and name); mean ± SE mixes them' });
    }
  }
  const armNames: string[] = [];
  for (const r of runs) for (const a of r.arms) if (!armNames.includes(a.name)) armNames.push(a.name);
  const perRunValues = runs.map((r) => new Map(r.arms.map((a) => [a.name, armValues(a, r, window)])));
  const gated = perRunValues.some((m) => [...m.values()].some((v) => v.gateAuthorize !== null || v.gateEscalate !== null));
  const watched = perRunValues.some((m) => [...m.values()].some((v) => v.parityOnly !== null || v.canaryPass !== null));
  const anchored = perRunValues.some((m) => [...m.values()].some((v) => v.rmSilenced !== null || v.rollbacks !== null));
  const columns = [
    ...COMPARE_COLUMNS,
    ...ALARM_COLUMNS,
    ...(anchored ? ANCHOR_COLUMNS : []),
    ...(gated ? GATE_COLUMNS : []),
    ...(watched ? WATCH_COLUMNS : []),
  ];

  const rows: CompareRow[] = armNames.map((name) => {
    const perRun = perRunValues.map((m) => m.get(name) ?? null);
    const arms = runs.map((r) => r.arms.find((a) => a.name === name));
    const values = {} as Record<CompareKey, CompareCell>;
    for (const c of columns) values[c.key] = meanSe(perRun.map((v) => (v ? v[c.key] : null)));
    const role = armRole(arms.find((a) => a?.status?.spec)?.status?.spec);
    const anchoring = runs.map((r) => armAnchoring(r, name)).find((d) => d !== null);
    return {
      arm: name,
      ...(role ? { role } : {}),
      ...(anchoring ? { anchoring } : {}),
      runs: arms.filter(Boolean).length,
      incomplete: arms.some((a) => a?.incomplete),
      states: arms.map((a) => (a ? (a.status?.state ?? 'missing') : 'absent')),
      values,
      perRun,
    };
  });
  const runInfo = runs.map((r) => ({
    dir: r.dir,
    name: r.name,
    seed: typeof r.manifest?.seed === 'number' ? r.manifest.seed : null,
    incompleteArms: r.arms.filter((a) => a.incomplete).map((a) => a.name),
    emptyArms: r.arms.filter((a) => a.metrics.length === 0).map((a) => a.name),
  }));
  return {
    window,
    runs: runInfo,
    columns: columns.map((c) => ({ ...c })),
    rows,
    incompleteArms: rows.filter((r) => r.incomplete).map((r) => r.arm),
    emptyArms: armNames.filter((n) => runInfo.some((r) => r.emptyArms.includes(n))),
    warnings,
    statistics: statisticsOf(rows, runInfo, opts),
  };
}

/** The statistics over seeds of the rows, or null (one run, or no reference arm among them). */
function statisticsOf(rows: readonly CompareRow[], runs: CompareTable['runs'], opts: CompareOptions): SeedStatistics | null {
  if (opts.reference !== undefined && !rows.some((r) => r.arm === opts.reference))
    throw new AnchorError(
      'BAD_ARGUMENT',
      `--reference-arm ${JSON.stringify(opts.reference)} is not an arm of the compared runs (${rows.map((r) => r.arm).join(', ')})`,
    );
  if (!opts.statistics || runs.length < 2) return null;
  const reference = opts.reference ?? rows.find((r) => r.role === 'execution')?.arm;
  if (reference === undefined) return null;
  return seedStatistics(
    {
      seeds: runs.map((r) => r.seed),
      arms: rows.map((r) => ({
        arm: r.arm,
        // An unfinished arm-run (still running, failed, stopped) has no final window yet: its last
        // steps are not the arm's result, so it takes no part in the statistics over seeds.
        values: Object.fromEntries(
          SEED_STAT_MEASURES.map((m) => [m.key, r.perRun.map((v, i) => (v && r.states[i] === 'done' ? v[m.key] : null))]),
        ) as Record<(typeof SEED_STAT_MEASURES)[number]['key'], (number | null)[]>,
      })),
    },
    { reference, reps: opts.reps, seed: opts.bootstrapSeed },
  );
}

/** Read run directories and compare their arms (several dirs = seeds of one config). */
export function compareRuns(dirs: readonly string[], opts: CompareOptions = {}): CompareTable {
  if (dirs.length === 0) throw new AnchorError('BAD_ARGUMENT', 'compareRuns needs at least one run directory');
  const where = parseWhere(opts.where ?? []);
  return compareRunData(
    dirs.map((d) => filterRun(readRun(d, { samples: where.length > 0 }), where)),
    opts,
  );
}

/** One cell as text: `0.512` or `0.512 ± 0.013` (multi-run, se > 0), `n/a` when absent. */
export function formatCell(cell: CompareCell, digits: number, multiRun: boolean): string {
  if (cell.mean === null) return 'n/a';
  const m = cell.mean.toFixed(digits);
  // se exactly 0 (counts identical across seeds) says nothing a bare number does not.
  if (!multiRun || cell.se === null || cell.se === 0) return m;
  return `${m} ± ${cell.se.toFixed(Math.max(digits, 1))}`;
}

function armLabel(row: CompareRow): string {
  return row.incomplete ? `${row.arm}*` : row.arm;
}

function footnotes(t: CompareTable): string[] {
  const notes: string[] = [];
  const runs = t.runs.length;
  notes.push(
    `${runs} run${runs > 1 ? 's' : ''} (${t.runs.map((r) => `${r.name}${r.seed !== null ? ` seed ${r.seed}` : ''}`).join(', ')}); window ${t.window} steps` +
      (runs > 1 ? '; mean ± standard error over runs' : ''),
  );
  if (t.incompleteArms.length > 0)
    notes.push(`* incomplete (still running, failed or not started): ${t.incompleteArms.join(', ')}`);
  if (t.emptyArms.length > 0) notes.push(`no steps logged: ${t.emptyArms.join(', ')}`);
  return notes;
}

/** A blank line, then one line per arm with a known config: its anchoring ({@link armAnchoring}); nothing when no arm has one. */
function anchorBlock(t: CompareTable): string[] {
  const rows = t.rows.filter((r) => r.anchoring);
  if (rows.length === 0) return [];
  return [
    '',
    'Anchoring (RM kind and options; settlement controls that silence or roll back the RM):',
    ...rows.map((r) => `- ${r.arm}: ${r.anchoring}`),
  ];
}

/** Aligned plain-text tables (outcomes, then settlement/cost) for the terminal. */
export function formatCompareText(t: CompareTable): string {
  const multi = t.runs.length > 1;
  const table = (keys: readonly CompareKey[]): string => {
    const cols = t.columns.filter((c) => keys.includes(c.key));
    // formatTable right-aligns; pad arm names so that column reads left-aligned.
    const armWidth = Math.max(3, ...t.rows.map((r) => armLabel(r).length));
    return formatTable(
      ['arm'.padEnd(armWidth), ...cols.map((c) => c.label)],
      t.rows.map((r) => [armLabel(r).padEnd(armWidth), ...cols.map((c) => formatCell(r.values[c.key], c.digits, multi))]),
    );
  };
  const rest = t.columns.map((c) => c.key).filter((k) => !OUTCOME_KEYS.includes(k) && !ALARM_KEYS.includes(k));
  const stats = t.statistics ? ['', formatSeedStatsMarkdown(t.statistics).trimEnd()] : [];
  return (
    [
      table(OUTCOME_KEYS),
      '',
      table(['steps', ...rest]),
      '',
      table(ALARM_KEYS),
      '',
      ...footnotes(t),
      ...anchorBlock(t),
      ...stats,
    ].join('\n') + '\n'
  );
}

/** Markdown tables (compare.md, README): the arm table, then the alarm comparison. */
export function formatCompareMarkdown(t: CompareTable): string {
  const multi = t.runs.length > 1;
  const table = (cols: CompareTable['columns']): string[] =>
    markdownTable(
      ['arm', ...cols.map((c) => c.label)],
      t.rows.map((r) => [armLabel(r), ...cols.map((c) => formatCell(r.values[c.key], c.digits, multi))]),
      [false, ...cols.map(() => true)],
    );
  const main = t.columns.filter((c) => !ALARM_KEYS.includes(c.key));
  const alarms = t.columns.filter((c) => ALARM_KEYS.includes(c.key));
  return (
    [
      ...table(main),
      '',
      ...footnotes(t).map((n) => `${n.replace(/^\* /, '\\* ')}  `),
      ...anchorBlock(t),
      '',
      'Alarms (each oriented so larger = more alarmed; ρ = Spearman with the concurrent hacking gap over settlement windows; lead = steps before the rolling-gold peak of the first threshold crossing, n/a = never crossed):',
      '',
      ...table(alarms),
      ...(t.statistics ? ['', '## Over seeds', '', formatSeedStatsMarkdown(t.statistics).trimEnd()] : []),
    ].join('\n') + '\n'
  );
}

/** CSV: one row per arm; `_se` columns only when several runs are compared. */
export function formatCompareCsv(t: CompareTable): string {
  const multi = t.runs.length > 1;
  const header = ['arm', 'runs', 'incomplete', ...t.columns.flatMap((c) => (multi ? [c.key, `${c.key}_se`] : [c.key]))];
  const cell = (v: number | null): string => (v === null ? '' : String(v));
  const q = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [header.join(',')];
  for (const r of t.rows) {
    lines.push(
      [
        q(r.arm),
        String(r.runs),
        String(r.incomplete),
        ...t.columns.flatMap((c) =>
          multi ? [cell(r.values[c.key].mean), cell(r.values[c.key].se)] : [cell(r.values[c.key].mean)],
        ),
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}
