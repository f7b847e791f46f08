/**
 * `anchor-rl sweep`: the settlement-budget sweep. The cartesian product of `--grid` axes becomes
 * one inline arm per cell (extending `--arm`), trained next to the `--reference` arms in one
 * ordinary run directory per seed (`OUT/seed-<s>/`, so `compare`, `report` and `resume` work on
 * each unchanged). Every (seed, arm) pair goes through one p-queue, arm by arm (all seeds of an arm
 * before the next arm), each arm in its own process
 * (the same {@link forkArm} as `train`); a seed's shared assets are prepared while the arms of
 * the seeds before it train. Rerunning the same command continues the sweep: done
 * arms are skipped, unfinished ones resume from their checkpoints.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import PQueue from 'p-queue';
import { loadRunConfig, recordedRunConfig, runConfigSchema, type RunConfig } from './run-config.ts';
import { configDiff, describeChange } from '../config/diff.ts';
import { parseConfig } from '../config/validate.ts';
import { initTf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { writeJsonAtomic } from '../util/fs.ts';
import { deepMerge } from '../config/overrides.ts';
import { resolveArms } from './arms.ts';
import { RunProgress } from './progress.ts';
import type { RunManifest } from './run-format.ts';
import { checkRunInputs } from './assets.ts';
import {
  finishRun,
  forkArm,
  prepareRunShared,
  readManifest,
  StopSignals,
  unfinishedArms,
  writeNewManifest,
  type RunSummarizer,
} from './run.ts';
import { checkForceTarget, checkOutDir, emptyDir, LOCK_FILE, lockDir, type RunLock } from './run-dir.ts';
import {
  DEFAULT_SEEDS,
  SWEEP_FILE,
  isSweepDir,
  parseSeeds,
  readSweepRecord,
  seedDirName,
  type SweepRecord,
} from './sweep-format.ts';
import { cellArm, checkArmBase, gridCells, parseGrid, parseReferences } from './sweep-grid.ts';

/** Options of {@link sweepRun} (the flags of `anchor-rl sweep`). */
export interface SweepOptions {
  configPath?: string;
  sets?: string[];
  /** `KEY=V1,V2,...` axes; none: the sweep trains the `references` alone (a comparison of registry arms over seeds). */
  grids: string[];
  /**
   * The seeds: a count N (config.seed, config.seed + 1, ...), an explicit list, or a `--seeds`
   * text (`10`, `0,3,7`, `10..19`; see {@link parseSeeds}). Default {@link DEFAULT_SEEDS}.
   */
  seeds?: number | string | readonly number[];
  /** The arm every cell extends. Default `anchored`. */
  arm?: string;
  /** `frozen,execution` (default) or `none`. */
  references?: string;
  /** Sweep directory. Default `runs/<config name>-sweep`. */
  out?: string;
  force?: boolean;
  log?: (line: string) => void;
  /** Writes each seed run's summaries (as `train` does). */
  summarizeRun?: RunSummarizer;
  /** Writes the sweep's summaries (comparison over seeds, knob chart); resolves to a line for the log. */
  summarizeSweep?: (dir: string) => Promise<string>;
}

/** What a sweep will do, fully validated; nothing is written while planning. */
export interface SweepPlan {
  out: string;
  /** sweep.json without its times. */
  record: Omit<SweepRecord, 'startedAt' | 'endedAt'>;
  /** One run per seed. */
  runs: { seed: number; dir: string; config: RunConfig }[];
}

/**
 * Validate the flags and build every seed's run config: unknown or forbidden grid keys,
 * ill-typed values and out-of-range cell configs are errors before anything is written.
 */
export function planSweep(opts: SweepOptions): SweepPlan {
  const config = loadRunConfig(opts.configPath, opts.sets ?? []);
  checkRunInputs(config);
  const axes = parseGrid(opts.grids);
  const cells = gridCells(axes);
  const armBase = checkArmBase(opts.arm ?? 'anchored');
  const references = parseReferences(opts.references ?? 'frozen,execution');
  const seeds = parseSeeds(opts.seeds ?? DEFAULT_SEEDS, config.seed);
  const arms = [...references, ...cells.map((c) => cellArm(c, armBase))];
  if (arms.length === 0)
    throw new AnchorError(
      'BAD_ARGUMENT',
      'nothing to train: give at least one --grid KEY=V1,V2,... (e.g. --grid settlement.rate=0,0.05,0.1) or --reference arms',
    );
  const out = resolve(opts.out ?? join('runs', `${config.name}-sweep`));
  const runs = seeds.map((seed) => {
    const seedConfig = parseConfig(
      runConfigSchema,
      { ...config, name: `${config.name}-seed${seed}`, seed, arms },
      `sweep seed ${seed}`,
    );
    return { seed, dir: join(out, seedDirName(seed)), config: seedConfig };
  });
  // Each cell's own config (base + overlay), validated as its arm process will: a grid value out
  // of range (settlement.rate=2) is caught here with the cell's name, not in a forked process.
  const first = runs[0]!.config;
  for (const arm of resolveArms(first.arms)) {
    parseConfig(runConfigSchema, deepMerge(first as unknown as Record<string, unknown>, arm.overlay), `--grid cell ${arm.name}`);
  }
  return {
    out,
    record: {
      name: config.name,
      grid: axes.map((a) => ({ key: a.key, values: a.values })),
      seeds,
      armBase,
      references,
      cells: Object.fromEntries(cells.map((c) => [c.name, c.values])),
      config: config as unknown as Record<string, unknown>,
      source: { config: opts.configPath ?? null, sets: opts.sets ?? [] },
    },
    runs,
  };
}

/**
 * The training order of a sweep's unfinished (seed run, arm) pairs: arm by arm, every seed of an
 * arm before the next arm (in `order`, the run config's arm order), so a sweep stopped part-way has
 * its first arms complete over all seeds (mean ± SE) rather than complete seeds of every arm.
 */
export function armMajor<T>(
  order: readonly string[],
  pending: readonly { item: T; arms: readonly string[] }[],
): { item: T; arm: string }[] {
  return order.flatMap((arm) => pending.filter((p) => p.arms.includes(arm)).map((p) => ({ item: p.item, arm })));
}

/** What makes two sweeps the same sweep (the source of the config and the times do not). */
function sweepDiff(recorded: SweepRecord, now: SweepPlan['record']): string[] {
  const key = (r: Pick<SweepRecord, 'grid' | 'seeds' | 'armBase' | 'references' | 'config'>) => ({
    // By key, so the message names the axis that changed; the order separately (it orders the cells).
    grid: Object.fromEntries(r.grid.map((a) => [a.key, a.values])),
    gridOrder: r.grid.map((a) => a.key),
    seeds: r.seeds,
    arm: r.armBase,
    references: r.references,
    // Which logs are written besides the JSONL (logging.*) does not change what is trained, and a
    // sweep recorded before the section existed must still continue.
    config: Object.fromEntries(Object.entries(r.config).filter(([k]) => k !== 'logging')),
  });
  // A sweep recorded before a config key existed must still continue: the recorded config is read
  // as the versions that wrote it ran it, as a seed run's manifest is on resume (./arm-process.ts):
  // such a key takes its default, the earlier behaviour for options that defaulted to it, and
  // the earlier behaviour itself for the others (run-config.ts RECORDED_BEFORE) — so a sweep
  // whose config now trains differently is named as changed instead of continued.
  const upgraded = runConfigSchema.safeParse(recordedRunConfig(recorded.config).config);
  const then = upgraded.success ? { ...recorded, config: upgraded.data } : recorded;
  return configDiff(key(then), key(now), 5).map(describeChange);
}

/** Run (or continue) a sweep. Resolves to the sweep directory. */
export async function sweepRun(opts: SweepOptions): Promise<string> {
  const plan = planSweep(opts);
  const { out } = plan;
  checkOutDir(out);
  const progress = new RunProgress();
  const log = opts.log ?? ((l: string) => progress.log(l));
  // The sweep directory and every seed run directory are locked while the sweep writes them; a
  // rerun is the sweep's resume, so it takes over stale locks.
  const locks: RunLock[] = [];
  const signals = new StopSignals();
  try {
    return await sweepLocked(opts, plan, progress, log, locks, signals);
  } finally {
    signals.dispose();
    for (const l of locks.reverse()) l.release();
  }
}

async function sweepLocked(
  opts: SweepOptions,
  plan: SweepPlan,
  progress: RunProgress,
  log: (l: string) => void,
  locks: RunLock[],
  signals: StopSignals,
): Promise<string> {
  const { out } = plan;
  const command = `anchor-rl ${process.argv.slice(2).join(' ')}`.trim();
  let startedAt = new Date().toISOString();
  let previousEnd: string | null = null;
  const nonEmpty = existsSync(out) && readdirSync(out).length > 0;
  if (nonEmpty && opts.force) checkForceTarget(out, isSweepDir, `an anchor-rl sweep directory (no ${SWEEP_FILE})`);
  locks.push(lockDir(out, command, { takeOverStale: true, log }));
  if (nonEmpty) {
    if (opts.force) {
      // Not while another process writes one of its seed runs (`resume OUT/seed-N`).
      for (const d of readdirSync(out))
        if (existsSync(join(out, d, LOCK_FILE))) lockDir(join(out, d), command, { takeOverStale: true, log }).release();
      emptyDir(out, [LOCK_FILE]);
    } else if (!isSweepDir(out)) {
      throw new AnchorError(
        'BAD_ARGUMENT',
        `${out} exists and is not a sweep directory (no ${SWEEP_FILE}); choose another --out`,
      );
    } else {
      const recorded = readSweepRecord(out);
      const diff = sweepDiff(recorded, plan.record);
      if (diff.length > 0) {
        throw new AnchorError(
          'BAD_ARGUMENT',
          `${out} holds a different sweep:\n  ${diff.join('\n  ')}\nrerun the recorded sweep to continue it, choose another --out, or use --force to start over`,
        );
      }
      startedAt = recorded.startedAt;
      previousEnd = recorded.endedAt;
      log(`continuing the sweep in ${out}`);
    }
  }
  const record: SweepRecord = { ...plan.record, startedAt, endedAt: null };
  writeJsonAtomic(join(out, SWEEP_FILE), record);

  // --- seed runs: locked and claimed (manifest) ------------------------------------------------
  let tfBackend: string | undefined;
  const manifests = new Map<number, RunManifest>();
  for (const run of plan.runs) {
    locks.push(lockDir(run.dir, command, { takeOverStale: true, log }));
    let manifest: RunManifest;
    if (existsSync(join(run.dir, 'manifest.json'))) {
      manifest = readManifest(run.dir);
    } else {
      tfBackend ??= await initTf(log);
      manifest = writeNewManifest(run.dir, run.config, tfBackend);
    }
    manifests.set(run.seed, manifest);
  }

  // --- every (seed, arm) pair through one queue, each arm in its own process ------------------
  // A seed's shared assets are prepared here, one seed after another, while the arms of the seeds
  // already prepared train: the assets (mostly one core's work) no longer hold every arm back, and
  // the queue's slots stay busy. A seed's arms enter the queue once its assets exist, ranked in the
  // sweep's arm-major order (priority), so whichever prepared pair comes first in that order runs
  // next.
  const concurrency = plan.runs[0]!.config.concurrency;
  const queue = new PQueue({ concurrency });
  const failures: string[] = [];
  const ran = new Set<number>();
  let total = 0;
  for (const run of plan.runs) total += resolveArms(run.config.arms).length;
  const pending = plan.runs.map((run) => ({ item: run, arms: unfinishedArms(run.dir, run.config).map((a) => a.name) }));
  const order = resolveArms(plan.runs[0]!.config.arms).map((a) => a.name);
  const ranked = armMajor(order, pending);
  const todo = ranked.length;
  log(
    `sweep: ${plan.runs.length} seed${plan.runs.length > 1 ? 's' : ''} × ${total / plan.runs.length} arms; ${todo} to train (${total - todo} done), ${concurrency} at a time`,
  );
  let armsStarted = false;
  for (const run of plan.runs) {
    // A stop signal ends the preparation of further seeds (the running arms checkpoint and stop).
    if (signals.signal) break;
    try {
      await prepareRunShared(run.dir, run.config, (l) => log(`[${seedDirName(run.seed)}] ${l}`));
    } catch (err) {
      // No new arm starts; the running ones finish (a rerun of the command continues them).
      queue.clear();
      await queue.onIdle();
      throw err;
    }
    if (signals.signal) break;
    if (!armsStarted) {
      signals.armsStarting(() => queue.clear());
      armsStarted = true;
    }
    ranked.forEach(({ item, arm }, rank) => {
      if (item !== run) return;
      ran.add(run.seed);
      const label = `${seedDirName(run.seed)}/${arm}`;
      void queue.add(
        async () => {
          const failure = await forkArm(run.dir, arm, { label, log, progress: (p) => progress.update({ ...p, arm: label }) });
          progress.finish(label);
          if (failure) failures.push(failure);
        },
        { priority: -rank },
      );
    });
  }
  await queue.onIdle();
  progress.stop();
  signals.throwIfStopped(`run the same \`anchor-rl sweep\` command again to continue ${out}`);

  // --- per-seed summaries (as `train` writes them), then the sweep's -------------------------
  for (const run of plan.runs) {
    const m = manifests.get(run.seed)!;
    // A seed nothing ran for keeps its end time and summaries.
    if (ran.has(run.seed) || !m.endedAt || !existsSync(join(run.dir, 'compare.json')))
      await finishRun(run.dir, m, log, opts.summarizeRun);
  }
  // The end time first: the summaries print it.
  if (plan.runs.every((r) => unfinishedArms(r.dir, r.config).length === 0)) {
    record.endedAt = todo === 0 && previousEnd ? previousEnd : new Date().toISOString();
    writeJsonAtomic(join(out, SWEEP_FILE), record);
  }
  if (opts.summarizeSweep) {
    try {
      log(await opts.summarizeSweep(out));
    } catch (err) {
      log(`could not write the sweep summaries: ${(err as Error).message}`);
    }
  }
  if (failures.length) throw new AnchorError('RUN_FAILED', `arms failed: ${failures.join('; ')}`);
  return out;
}
