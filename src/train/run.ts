/**
 * A multi-arm run: validate the config and its inputs, lock and claim the run directory
 * (./run-dir.ts), prepare the shared assets, then train every arm in its own process (p-queue
 * for `concurrency`; SIGINT/SIGTERM make them checkpoint), and finally hand the run to the
 * caller's summary writer (the CLI composes training with src/report).
 * `resumeRun` continues the unfinished arms of an existing run directory after checking its
 * config hash and checkpoints. The steps (writeNewManifest, prepareRunShared, unfinishedArms,
 * forkArm, finishRun, StopSignals) are exported for `sweep`, which runs many such run
 * directories through one queue.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { execFileSync, type ChildProcess } from 'node:child_process';
import PQueue from 'p-queue';
import { configDiff, describeChange } from '../config/diff.ts';
import { loadRunConfig, recordedRunConfig, runConfigSchema, type RunConfig } from './run-config.ts';
import { parseConfig } from '../config/validate.ts';
import { createExecutorFromConfig } from '../sandbox/index.ts';
import { initTf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { forkModule } from '../util/fork.ts';
import { writeJsonAtomic } from '../util/fs.ts';
import { resolveArms, type ArmSpec } from './arms.ts';
import type { ArmMessage } from './arm-process.ts';
import { readStatus, verifyLatestCheckpoint, type ArmProgress } from './arm-runner.ts';
import { checkRunInputs, prepareShared } from './assets.ts';
import { RunProgress } from './progress.ts';
import type { ArmStatus, RunManifest } from './run-format.ts';
import {
  checkArmWriter,
  checkForceTarget,
  checkOutDir,
  configHash,
  emptyDir,
  isRunDir,
  LOCK_FILE,
  lockDir,
  type RunLock,
} from './run-dir.ts';
import { isSweepDir } from './sweep-format.ts';

/** Options of `anchor-rl train`. */
export interface TrainOptions {
  configPath?: string;
  sets?: string[];
  out?: string;
  force?: boolean;
  /** Writes the run's summaries (comparison, report) after its arms; see {@link finishRun}. */
  summarize?: RunSummarizer;
  /** Called after the arms finish and the summaries are written. */
  onFinished?: (runDir: string) => Promise<void>;
  log?: (line: string) => void;
  /** Redis URL: queue the arms for `anchor-rl worker --role trainer` machines instead of forking them here. */
  queue?: string;
}

/** Writes a run directory's summaries; resolves to a line for the log. */
export type RunSummarizer = (runDir: string) => Promise<string>;

function versions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const v: Record<string, string> = { node: process.version };
  for (const pkg of ['@tensorflow/tfjs', 'onnxruntime-node', 'isolated-vm', 'zod', 'yargs']) {
    try {
      v[pkg] = (require(`${pkg}/package.json`) as { version: string }).version;
    } catch {
      v[pkg] = 'unknown';
    }
  }
  try {
    v['anchor-rl'] = (require('../../package.json') as { version: string }).version;
  } catch {
    /* not fatal */
  }
  return v;
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** How the lock file names the writer: the command line as typed. */
const commandLine = () => `anchor-rl ${process.argv.slice(2).join(' ')}`.trim();

/**
 * Claim a directory for a new run: lock it (a live writer or a stale lock is RUN_LOCKED, exit 2),
 * then refuse a non-empty one unless `force`, which replaces only a run directory of ours.
 */
function claimNewRunDir(runDir: string, force: boolean | undefined, log?: (l: string) => void): RunLock {
  const nonEmpty = existsSync(runDir) && readdirSync(runDir).length > 0;
  if (nonEmpty && force && !existsSync(join(runDir, LOCK_FILE)))
    checkForceTarget(runDir, isRunDir, 'an anchor-rl run directory (no run manifest.json)');
  const lock = lockDir(runDir, commandLine(), { ...(log ? { log } : {}) });
  if (nonEmpty) {
    if (!force) {
      lock.release();
      throw new AnchorError(
        'BAD_ARGUMENT',
        `run directory ${runDir} exists and is not empty; use \`anchor-rl resume ${runDir}\` to continue it or --force to overwrite it`,
      );
    }
    emptyDir(runDir, [LOCK_FILE]);
  }
  return lock;
}

/** Start a new run. Resolves to the run directory. */
export async function trainRun(opts: TrainOptions): Promise<string> {
  // --- everything validated before anything is created -----------------------------------------
  const config = loadRunConfig(opts.configPath, opts.sets ?? []);
  checkRunInputs(config);
  const runDir = resolve(opts.out ?? join('runs', config.name));
  checkOutDir(runDir, opts.out === undefined ? 'run directory' : '--out');
  const tfBackend = await initTf(opts.log);
  const existed = existsSync(runDir);
  const lock = claimNewRunDir(runDir, opts.force, opts.log);
  // After the claim the directory holds our lock and nothing else (new, empty, or emptied by
  // --force), so whatever else appears before the arms start is this command's own.
  const ours = (n: string) => n !== LOCK_FILE;
  let armsStarted = false;
  let failedStart = false;
  try {
    const manifest = writeNewManifest(runDir, config, tfBackend);
    await runArms(runDir, config, manifest, undefined, { ...opts, onArmsStarting: () => (armsStarted = true) });
  } catch (err) {
    // A start that failed before any arm ran (a base model that does not load, a dataset the
    // shared assets cannot use) is not a run: take back what it wrote so the same command can
    // be rerun without --force.
    failedStart = !armsStarted;
    if (failedStart) for (const n of readdirSync(runDir).filter(ours)) rmSync(join(runDir, n), { recursive: true, force: true });
    throw err;
  } finally {
    lock.release();
    if (failedStart && !existed && readdirSync(runDir).length === 0) rmdirSync(runDir);
  }
  return runDir;
}

/** Read a run's manifest.json; unreadable is BAD_ARGUMENT naming the file. */
export function readManifest(dir: string): RunManifest {
  const mp = join(dir, 'manifest.json');
  try {
    return JSON.parse(readFileSync(mp, 'utf8')) as RunManifest;
  } catch (err) {
    throw new AnchorError('BAD_ARGUMENT', `${mp}: unreadable run manifest (${(err as Error).message})`);
  }
}

/** Options of {@link resumeRun} (the flags of `anchor-rl resume`). */
export interface ResumeOptions {
  arm?: string;
  /** Writes the run's summaries (comparison, report) after its arms; see {@link finishRun}. */
  summarize?: RunSummarizer;
  onFinished?: (runDir: string) => Promise<void>;
  log?: (l: string) => void;
  queue?: string;
  /** Config keys (or sections) whose edit in manifest.json this resume may apply. */
  allowConfigChange?: string[];
}

/** Continue the unfinished arms (or one arm) of an existing run. */
export async function resumeRun(runDir: string, opts: ResumeOptions = {}): Promise<string> {
  const dir = resolve(runDir);
  const mp = join(dir, 'manifest.json');
  if (!existsSync(mp) && isSweepDir(dir)) {
    throw new AnchorError(
      'BAD_ARGUMENT',
      `${dir} is a sweep directory: rerun its \`anchor-rl sweep\` command to continue it, or resume one seed run (${join(dir, 'seed-N')})`,
    );
  }
  if (!existsSync(mp)) throw new AnchorError('BAD_ARGUMENT', `${dir} is not a run directory (no manifest.json)`);
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const lock = lockDir(dir, commandLine(), { takeOverStale: true, log });
  try {
    const manifest = readManifest(dir);
    if (opts.arm && !manifest.arms.includes(opts.arm)) {
      throw new AnchorError(
        'BAD_ARGUMENT',
        `arm ${JSON.stringify(opts.arm)} is not in this run (arms: ${manifest.arms.join(', ')})`,
      );
    }
    const config = checkConfigChange(dir, manifest, opts.allowConfigChange ?? [], log);
    // Corrupt checkpoints are bad input (exit 2, the file named) before any arm process starts.
    for (const arm of unfinishedArms(dir, config, opts.arm)) {
      checkArmWriter(join(dir, arm.name), readStatus(join(dir, arm.name))?.writer);
      verifyLatestCheckpoint(join(dir, arm.name));
    }
    await runArms(dir, config, manifest, opts.arm, opts);
  } finally {
    lock.release();
  }
  return dir;
}

/** The resolved config in force, next to manifest.json; its hash is manifest.configHash. */
const RESOLVED_CONFIG = 'config.resolved.json';

/**
 * The config a resume runs with. manifest.json's `config` must hash to `configHash` (the config
 * in force); an edit is refused (BAD_CONFIG listing the changed keys) unless every changed key is
 * under one of `allow`, and is then recorded in `configChanges` with each arm's step.
 */
function checkConfigChange(dir: string, manifest: RunManifest, allow: readonly string[], log: (l: string) => void): RunConfig {
  const mp = join(dir, 'manifest.json');
  const rp = join(dir, RESOLVED_CONFIG);
  const now = manifest.config;
  // The recorded config as the versions that wrote it ran it: options added since with a default
  // that changes what is trained keep their earlier behaviour (run-config.ts RECORDED_BEFORE).
  const { config: asRun, filled } = recordedRunConfig(now);
  if (filled.length > 0)
    log(`the run was recorded before these options existed; it resumes with what it trained with: ${filled.join(', ')}`);
  const record = () => {
    manifest.configHash = configHash(now);
    writeJsonAtomic(rp, now);
    writeJsonAtomic(mp, manifest);
  };
  if (!manifest.configHash) {
    // A run directory from before config hashes: the config as it stands becomes the record.
    const config = parseConfig(runConfigSchema, asRun, `${mp} (config)`);
    record();
    return config;
  }
  if (configHash(now) === manifest.configHash) return parseConfig(runConfigSchema, asRun, `${mp} (config)`);
  let recorded: unknown;
  try {
    recorded = JSON.parse(readFileSync(rp, 'utf8'));
  } catch (err) {
    throw new AnchorError(
      'BAD_CONFIG',
      `${mp}: the config was changed since the run started, and ${rp} (the config in force) is unreadable (${(err as Error).message}); restore it to resume`,
    );
  }
  if (configHash(recorded) !== manifest.configHash) {
    throw new AnchorError(
      'BAD_CONFIG',
      `${rp} does not match manifest.json's configHash: the record of the config in force was edited; restore it to resume`,
    );
  }
  const changes = configDiff(recorded, now);
  const allowed = (key: string) => allow.some((a) => key === a || key.startsWith(`${a}.`));
  const refused = changes.filter(
    (c) => !allowed(c.key) || c.key === 'arms' || c.key.startsWith('arms.') || c.key === 'name' || c.key === 'seed',
  );
  if (refused.length > 0) {
    throw new AnchorError(
      'BAD_CONFIG',
      `${mp}: the config was changed since the run started:\n  ${changes.map(describeChange).join('\n  ')}\n` +
        `resume refuses a changed config; restore the recorded values (${rp}), or apply the change from the arms' current steps with --allow-config-change ${refused.map((c) => c.key).join(' ')}` +
        (refused.some((c) => c.key === 'arms' || c.key.startsWith('arms.') || c.key === 'name' || c.key === 'seed')
          ? ' (arms, name and seed cannot change: start a new run)'
          : ''),
      { changed: changes.map((c) => c.key) },
    );
  }
  const config = parseConfig(runConfigSchema, asRun, `${mp} (config)`);
  const steps = Object.fromEntries(manifest.arms.map((a) => [a, readStatus(join(dir, a))?.stepsDone ?? 0]));
  manifest.configChanges = [...(manifest.configChanges ?? []), { at: new Date().toISOString(), steps, changes }];
  record();
  log(
    `applying the config change (${changes.map((c) => c.key).join(', ')}) from step ${Object.entries(steps)
      .map(([a, s]) => `${s} (${a})`)
      .join(', ')}`,
  );
  return config;
}

/**
 * The manifest of a new run of `config` (its arms, versions, tfjs backend, git commit, start
 * time). `train` and `sweep` (one per seed) write it before any arm starts.
 */
function newManifest(config: RunConfig, tfBackend: string): RunManifest {
  return {
    name: config.name,
    seed: config.seed,
    config: config as unknown as Record<string, unknown>,
    configHash: configHash(config),
    arms: resolveArms(config.arms).map((a) => a.name),
    versions: versions(),
    tfBackend,
    gitCommit: gitCommit(),
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
}

/** Write a new run's manifest.json and the record of its resolved config (`train`, `sweep`). */
export function writeNewManifest(runDir: string, config: RunConfig, tfBackend: string): RunManifest {
  const manifest = newManifest(config, tfBackend);
  writeJsonAtomic(join(runDir, RESOLVED_CONFIG), config);
  writeJsonAtomic(join(runDir, 'manifest.json'), manifest);
  return manifest;
}

/** Prepare (or reuse) a run's shared assets with a sandbox of its own, closed afterwards. */
export async function prepareRunShared(runDir: string, config: RunConfig, log: (l: string) => void): Promise<void> {
  const executor = createExecutorFromConfig(config.sandbox, config.seed);
  try {
    await prepareShared(runDir, config, executor, log);
  } finally {
    await executor.close();
  }
}

/** The arms of a run (or just `only`) whose arm.json does not say done: what a rerun must train. */
export function unfinishedArms(runDir: string, config: RunConfig, only?: string): ArmSpec[] {
  return resolveArms(config.arms).filter((a) => (!only || a.name === only) && readStatus(join(runDir, a.name))?.state !== 'done');
}

/** Arm processes running now: a stop signal is forwarded to each. */
const armProcesses = new Set<ChildProcess>();

/**
 * SIGINT/SIGTERM while arms run: the signal is forwarded to every arm process (each finishes its
 * step, checkpoints and exits cleanly), `onStop` callbacks keep queued arms from starting, and
 * {@link StopSignals.throwIfStopped} then ends the command with INTERRUPTED (exit 130) once the
 * arms have exited. Before the arms start (shared assets, which may pretrain for minutes in
 * long synchronous stretches) signals keep their default and end the process at once; its lock
 * is then left stale, and `resume` takes it over.
 */
export class StopSignals {
  signal: NodeJS.Signals | undefined;
  private readonly onStop: (() => void)[] = [];
  private readonly handler = (sig: NodeJS.Signals) => {
    if (!this.signal) process.stderr.write(`anchor-rl: ${sig}: the running arms finish their step, checkpoint and stop\n`);
    this.signal ??= sig;
    for (const c of armProcesses) c.kill(sig);
    for (const f of this.onStop) f();
  };

  /** Arms are about to start: from now on a signal stops them cleanly; `onStop` runs on it. */
  armsStarting(onStop: () => void): void {
    if (this.onStop.length === 0) {
      process.on('SIGINT', this.handler);
      process.on('SIGTERM', this.handler);
    }
    this.onStop.push(onStop);
  }

  /** Remove the handlers (idempotent). */
  dispose(): void {
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.handler);
  }

  /** INTERRUPTED when a signal stopped the arms; `howToContinue` tells the user how to go on. */
  throwIfStopped(howToContinue: string): void {
    if (this.signal)
      throw new AnchorError('INTERRUPTED', `stopped by ${this.signal}: the running arms checkpointed; ${howToContinue}`);
  }
}

/** Where {@link forkArm} reports an arm's progress and log lines. */
export interface ArmProcessHooks {
  progress: (p: ArmProgress) => void;
  log: (line: string) => void;
  /** Prefix of the arm's log lines (default the arm name; a sweep adds the seed). */
  label?: string;
}

/**
 * Train one arm of a run directory in its own process (./arm-process.ts), which resumes from the
 * arm's last complete checkpoint if it has one. Resolves to null when the arm finished or stopped
 * cleanly, else to a one-line description of the failure (never rejects: one failed arm must
 * not stop the others).
 */
export async function forkArm(runDir: string, armName: string, hooks: ArmProcessHooks): Promise<string | null> {
  const label = hooks.label ?? armName;
  const code = await new Promise<number>((res) => {
    const child = forkModule('./arm-process', import.meta.url, [runDir, armName], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    armProcesses.add(child);
    child.on('exit', () => armProcesses.delete(child));
    child.on('message', (m: ArmMessage) => {
      if (m.type === 'progress') hooks.progress(m.progress);
      else if (m.type === 'log') hooks.log(`[${label}] ${m.message}`);
      else hooks.log(`[${label}] error: ${m.message}`);
    });
    // A process that cannot be started emits no 'exit'; count it as failed instead of waiting.
    child.on('error', (err) => {
      hooks.log(`[${label}] error: ${err.message}`);
      res(1);
    });
    child.on('exit', (c, sig) => res(c ?? (sig ? 128 : 1)));
  });
  const status = readStatus(join(runDir, armName));
  return code !== 0 || status?.state === 'failed' ? `${label} (${status?.error ?? `exit code ${code}`})` : null;
}

/**
 * After a run's arms: stamp `endedAt` in the manifest when every arm is done, then write the
 * summaries with `summarize` (when given). A summary that cannot be written is logged, not
 * thrown: the training it summarises is already on disk.
 */
export async function finishRun(
  runDir: string,
  manifest: RunManifest,
  log: (l: string) => void,
  summarize?: RunSummarizer,
): Promise<void> {
  const statuses = manifest.arms.map((a) => readStatus(join(runDir, a))).filter((s): s is ArmStatus => !!s);
  if (statuses.length === manifest.arms.length && statuses.every((s) => s.state === 'done')) {
    manifest.endedAt = new Date().toISOString();
    writeJsonAtomic(join(runDir, 'manifest.json'), manifest);
  }
  if (!summarize) return;
  try {
    log(await summarize(runDir));
  } catch (err) {
    log(`could not write the comparison/report: ${(err as Error).message}`);
  }
}

async function runArms(
  runDir: string,
  config: RunConfig,
  manifest: RunManifest,
  only: string | undefined,
  opts: {
    summarize?: RunSummarizer;
    onFinished?: (runDir: string) => Promise<void>;
    log?: (l: string) => void;
    queue?: string;
    /** Called once the shared assets are ready and the arms are about to start. */
    onArmsStarting?: () => void;
  },
): Promise<void> {
  const progress = new RunProgress();
  const log = (l: string) => (opts.log ? opts.log(l) : progress.log(l));
  const signals = new StopSignals();
  try {
    // --- shared assets (once per run; cached) -------------------------------------------------
    await prepareRunShared(runDir, config, log);

    // --- arms, each in its own process --------------------------------------------------------
    const todo = unfinishedArms(runDir, config, only);
    const queue = new PQueue({ concurrency: config.concurrency });
    signals.armsStarting(() => queue.clear());
    opts.onArmsStarting?.();
    await trainArms(runDir, config, manifest, todo, queue, progress, log, opts);
  } finally {
    signals.dispose();
  }
  signals.throwIfStopped(`continue with \`anchor-rl resume ${runDir}\``);
}

async function trainArms(
  runDir: string,
  config: RunConfig,
  manifest: RunManifest,
  todo: ArmSpec[],
  queue: PQueue,
  progress: RunProgress,
  log: (l: string) => void,
  opts: { summarize?: RunSummarizer; onFinished?: (runDir: string) => Promise<void>; queue?: string },
): Promise<void> {
  const failures: string[] = [];
  if (opts.queue) {
    // Arms across machines: trainer workers run them (same arm process, same run directory).
    const { runArmsOnQueue } = await import('./distributed/arm-queue.ts');
    failures.push(
      ...(await runArmsOnQueue({
        redis: opts.queue,
        prefix: config.sandbox.queue_prefix,
        runDir,
        arms: todo.map((a) => a.name),
        log,
        onProgress: (p) => progress.update(p),
      })),
    );
  }
  for (const arm of opts.queue ? [] : todo) {
    void queue.add(async () => {
      const failure = await forkArm(runDir, arm.name, { progress: (p) => progress.update(p), log });
      if (failure) failures.push(failure);
    });
  }
  await queue.onIdle();
  progress.stop();
  await finishRun(runDir, manifest, log, opts.summarize);
  if (opts.onFinished) await opts.onFinished(runDir);
  if (failures.length) throw new AnchorError('RUN_FAILED', `arms failed: ${failures.join('; ')}`);
}
