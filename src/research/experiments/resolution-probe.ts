/**
 * Resolution probe (`anchor-rl experiment resolution-probe RUN ARM`): can a ridge RM on the
 * run's features rank the completions of one GRPO group at all, given on-policy labels? It reads
 * an arm's samples.jsonl (every completion with its executed gold) and, at the chosen settlement
 * windows, refits offline on the run's base labels (shared/initial-labels.jsonl, what the initial
 * RM was fitted on) plus (a) a 10% uniform sample of the earlier windows' completions (the
 * anchored budget), (b) the same weighted 4×, (c) all of them (10× the budget), (d) all of them
 * without base labels, (e) all including the scored window itself (in-sample, an upper bound),
 * and scores the window: mean within-group Spearman(RM, gold) over groups whose gold varies,
 * Snd@G, mean |RM − gold|. The arm's logged proxy and the base-label fit are scored alongside.
 *
 * Everything is float64 ridge math (../../reward/models/ridge-math.ts) over the feature
 * extractors of ../../reward/features: no tensors, so the probe needs no tfjs backend. Several
 * feature sets may be concatenated (e.g. js-surface + js-ast). Figures it produced:
 * docs/results.md ("Why (the experiments that tested it)").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFeatureExtractor } from '../../reward/features/registry.ts';
import { fitWeightedRidgeF64, predictLinear } from '../../reward/models/ridge-math.ts';
import { loadProblems, sharedPaths } from '../../train/assets.ts';
import { withinGroupSoundness } from '../../train/monitor.ts';
import type { RunConfig } from '../../train/run-config.ts';
import type { RunManifest, SampleLine } from '../../train/run-format.ts';
import { spearmanOrNull } from '../../util/correlation.ts';
import { AnchorError } from '../../util/errors.ts';
import { Rng } from '../../util/rng.ts';
import { RESOLUTION_PROBE_DEFAULTS, type ResolutionProbeOptions } from './resolution-probe-options.ts';

/** How well one predictor ranks a window's groups. */
export interface ProbeScore {
  /** Mean within-group Spearman(prediction, gold) over the groups whose gold varies (null when none does). */
  rho: number | null;
  /** Groups that entered `rho`. */
  groups: number;
  /** Within-group soundness Snd@G (null when no group has a positive best gold). */
  snd: number | null;
  /** Mean |prediction − gold| over the window's completions. */
  mae: number;
}

/** One predictor scored on a window; `score` is null when it had nothing to fit or no value to score. */
interface ProbeRow {
  name: string;
  score: ProbeScore | null;
}

/** One scored window. */
interface ProbeWindow {
  window: number;
  /** Completions in the window (the scored set). */
  completions: number;
  rows: ProbeRow[];
}

/** What {@link runResolutionProbe} found. */
export interface ResolutionProbeResult {
  runDir: string;
  arm: string;
  features: string[];
  /** Feature dimensions (the concatenation). */
  dims: number;
  baseLabels: number;
  /** The run's `grpo.group_size`. */
  groupSize: number;
  /** The run's `settlement.every` (steps per window). */
  every: number;
  windows: ProbeWindow[];
}

/** The probe's input, as feature rows: the base labels and the arm's completions sorted by (step, index). */
interface ProbeData {
  base: { X: Float32Array[]; y: number[] };
  X: Float32Array[];
  gold: number[];
  /** The arm's logged RM score of each completion. */
  proxy: (number | null)[];
  step: number[];
}

/** Read a run's base labels and an arm's samples, and score the windows (see the module docs). */
export function runResolutionProbe(opts: ResolutionProbeOptions): ResolutionProbeResult {
  const d = RESOLUTION_PROBE_DEFAULTS;
  const features = [...(opts.features ?? d.features)];
  const manifest = readJson<RunManifest>(join(opts.runDir, 'manifest.json'), 'a run directory');
  const config = manifest.config as unknown as RunConfig;
  const groupSize = config.grpo?.group_size;
  const every = config.settlement?.every;
  if (!Number.isInteger(groupSize) || !Number.isInteger(every))
    throw new AnchorError('BAD_ARGUMENT', `${opts.runDir}/manifest.json: the config lacks grpo.group_size or settlement.every`);
  const data = readProbeData(opts.runDir, opts.arm, config, features);
  const windows = probeWindows(data, {
    groupSize,
    every,
    windows: opts.windows ?? d.windows,
    sample: opts.sample ?? d.sample,
    seed: opts.seed ?? d.seed,
  });
  return {
    runDir: opts.runDir,
    arm: opts.arm,
    features,
    dims: data.base.X[0]?.length ?? data.X[0]?.length ?? 0,
    baseLabels: data.base.y.length,
    groupSize,
    every,
    windows,
  };
}

function readJson<T>(file: string, what: string): T {
  if (!existsSync(file)) throw new AnchorError('NOT_FOUND', `${file} not found (expected ${what})`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (err) {
    throw new AnchorError('BAD_ARGUMENT', `${file}: not valid JSON (${(err as Error).message})`, undefined, { cause: err });
  }
}

function readJsonl<T>(file: string, what: string): T[] {
  if (!existsSync(file)) throw new AnchorError('NOT_FOUND', `${file} not found (expected ${what})`);
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.flatMap((l, i) => {
    if (l.trim() === '') return [];
    try {
      return [JSON.parse(l) as T];
    } catch (err) {
      throw new AnchorError('BAD_ARGUMENT', `${file}:${i + 1}: not valid JSON (${(err as Error).message})`, undefined, {
        cause: err,
      });
    }
  });
}

/** Feature rows of the run's base labels and of the arm's completions. */
function readProbeData(runDir: string, arm: string, config: RunConfig, features: readonly string[]): ProbeData {
  const extractors = features.map((n) => createFeatureExtractor(n));
  const extract = (text: string, prompt: string): Float32Array => {
    const parts = extractors.map((e) => e.extract(text, prompt));
    const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const prompts = new Map(loadProblems(config).train.map((p) => [p.id, p.prompt]));
  const promptOf = (problem: string, file: string): string => {
    const prompt = prompts.get(problem);
    if (prompt === undefined)
      throw new AnchorError('BAD_ARGUMENT', `${file}: problem ${problem} is not in the run's train split`);
    return prompt;
  };

  const labelsFile = sharedPaths(runDir).initialLabels;
  const labels = readJsonl<{ problem: string; text: string; gold: number }>(labelsFile, "the initial RM's labels");
  const base = {
    X: labels.map((l) => extract(l.text, promptOf(l.problem, labelsFile))),
    y: labels.map((l) => l.gold),
  };

  const samplesFile = join(runDir, arm, 'samples.jsonl');
  const samples = readJsonl<SampleLine>(samplesFile, `arm ${arm}'s samples`);
  samples.sort((a, b) => a.step - b.step || a.index - b.index);
  const gold = samples.map((s) => {
    if (s.gold === null)
      throw new AnchorError(
        'BAD_ARGUMENT',
        `${samplesFile}: step ${s.step} index ${s.index} has no gold; the probe needs every completion executed (metrics.gold: all)`,
      );
    return s.gold;
  });
  return {
    base,
    X: samples.map((s) => extract(s.text, promptOf(s.problem, samplesFile))),
    gold,
    proxy: samples.map((s) => s.proxy),
    step: samples.map((s) => s.step),
  };
}

/**
 * Score `pred` on the completions `idx` (consecutive runs of `groupSize` are the groups):
 * mean within-group Spearman over groups whose gold varies, Snd@G and mean absolute error.
 */
export function scoreWindow(
  pred: ArrayLike<number>,
  gold: readonly number[],
  idx: readonly number[],
  groupSize: number,
): ProbeScore {
  const rhos: number[] = [];
  for (let g = 0; g < idx.length; g += groupSize) {
    const ids = idx.slice(g, g + groupSize);
    const r = spearmanOrNull(
      ids.map((i) => pred[i]!),
      ids.map((i) => gold[i]!),
    );
    if (r !== null) rhos.push(r);
  }
  const mean = (a: number[]): number => a.reduce((s, v) => s + v, 0) / a.length;
  return {
    rho: rhos.length > 0 ? mean(rhos) : null,
    groups: rhos.length,
    snd: withinGroupSoundness(
      Float64Array.from(idx, (i) => pred[i]!),
      idx.map((i) => gold[i]!),
      groupSize,
    ),
    mae: idx.length > 0 ? mean(idx.map((i) => Math.abs(pred[i]! - gold[i]!))) : Number.NaN,
  };
}

/** Score every window of `opts.windows` (see the module docs for the rows). */
function probeWindows(
  data: ProbeData,
  opts: { groupSize: number; every: number; windows: readonly number[]; sample: number; seed: number },
): ProbeWindow[] {
  const { X, gold } = data;
  const alpha = RESOLUTION_PROBE_DEFAULTS.alpha;
  // One draw per completion in (step, index) order, shared by every window: a completion is in the
  // budget-sized sample or not, whichever window scores.
  const rng = new Rng(opts.seed);
  const sampled = data.step.map(() => rng.next() < opts.sample);
  const windowOf = (i: number): number => Math.floor(data.step[i]! / opts.every);
  /** Predictions for every completion of a ridge fit on `idx` (after the base labels when `withBase`); `weight` weights `idx`. */
  const predictAfterFit = (idx: readonly number[], withBase: boolean, weight?: number): Float64Array => {
    const bx = withBase ? data.base.X : [];
    const by = withBase ? data.base.y : [];
    const f = fitWeightedRidgeF64([...bx, ...idx.map((i) => X[i]!)], [...by, ...idx.map((i) => gold[i]!)], {
      alpha,
      ...(weight !== undefined ? { weights: [...by.map(() => 1), ...idx.map(() => weight)] } : {}),
    });
    return predictLinear(f, X);
  };

  return opts.windows.map((w) => {
    const all = gold.map((_, i) => i);
    const test = all.filter((i) => windowOf(i) === w);
    const before = all.filter((i) => windowOf(i) < w);
    const budget = before.filter((i) => sampled[i]);
    const score = (pred: ArrayLike<number> | null): ProbeScore | null =>
      pred === null || test.length === 0 ? null : scoreWindow(pred, gold, test, opts.groupSize);
    const logged = test.every((i) => data.proxy[i] !== null) ? data.proxy.map((p) => p ?? Number.NaN) : null;
    const rows: ProbeRow[] = [
      { name: "logged proxy (the arm's own RM)", score: score(logged) },
      { name: 'base RM', score: score(predictAfterFit([], true)) },
      {
        name: `${pct(opts.sample)} (anchored budget)`,
        score: score(budget.length > 0 ? predictAfterFit(budget, true, 1) : null),
      },
      {
        name: `${pct(opts.sample)}, weight ${RESOLUTION_PROBE_DEFAULTS.weight}`,
        score: score(budget.length > 0 ? predictAfterFit(budget, true, RESOLUTION_PROBE_DEFAULTS.weight) : null),
      },
      { name: '100% (every earlier completion)', score: score(before.length > 0 ? predictAfterFit(before, true, 1) : null) },
      { name: '100% on-policy only, no base', score: score(before.length > 0 ? predictAfterFit(before, false) : null) },
      { name: 'in-sample (test labels included)', score: score(predictAfterFit([...before, ...test], true)) },
    ];
    return { window: w, completions: test.length, rows };
  });
}

const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;
