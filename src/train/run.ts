/**
 * A multi-arm run: validate the config, claim the run directory, prepare the shared assets,
 * then train every arm in its own process (p-queue for `concurrency`), and finally hand the run to
 * the caller's summary writer (the CLI composes training with src/report). `resumeRun` continues the unfinished arms of an existing run directory. The steps
 * (newManifest, prepareRunShared, unfinishedArms, forkArm, finishRun) are exported for `sweep`,
 * which runs many such run directories through one queue.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import PQueue from 'p-queue';
import { loadRunConfig, runConfigSchema, type RunConfig } from '../config/run-config.ts';
import { createExecutorFromConfig } from '../sandbox/index.ts';
import { initTf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { forkModule } from '../util/fork.ts';
import { writeJsonAtomic } from '../util/fs.ts';
import { resolveArms, type ArmSpec } from './arms.ts';
import type { ArmMessage } from './arm-process.ts';
import { readStatus, type ArmProgress } from './arm-runner.ts';
import { prepareShared } from './assets.ts';
import { RunProgress } from './progress.ts';
import type { ArmStatus, RunManifest } from './run-format.ts';
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

/** Start a new run. Resolves to the run directory. */
export async function trainRun(opts: TrainOptions): Promise<string> {
  const config = loadRunConfig(opts.configPath, opts.sets ?? []);
  const runDir = resolve(opts.out ?? join('runs', config.name));
  if (existsSync(runDir) && readdirSync(runDir).length > 0) {
    if (!opts.force) {
      throw new AnchorError('BAD_ARGUMENT', `run directory ${runDir} exists and is not empty; use \`anchor-rl resume ${runDir}\` to continue it or --force to overwrite it`);
    }
    rmSync(runDir, { recursive: true, force: true });
  }
  mkdirSync(runDir, { recursive: true });
  const manifest = newManifest(config, await initTf(opts.log));
  writeJsonAtomic(join(runDir, 'manifest.json'), manifest);
  await runArms(runDir, config, manifest, undefined, opts);
  return runDir;
}

/** Continue the unfinished arms (or one arm) of an existing run. */
export async function resumeRun(
  runDir: string,
  opts: { arm?: string; summarize?: RunSummarizer; onFinished?: (runDir: string) => Promise<void>; log?: (l: string) => void; queue?: string } = {},
): Promise<string> {
  const dir = resolve(runDir);
  const mp = join(dir, 'manifest.json');
  if (!existsSync(mp) && isSweepDir(dir)) {
    throw new AnchorError('BAD_ARGUMENT', `${dir} is a sweep directory: rerun its \`anchor-rl sweep\` command to continue it, or resume one seed run (${join(dir, 'seed-N')})`);
  }
  if (!existsSync(mp)) throw new AnchorError('BAD_ARGUMENT', `${dir} is not a run directory (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(mp, 'utf8')) as RunManifest;
  const config = runConfigSchema.parse(manifest.config);
  if (opts.arm && !manifest.arms.includes(opts.arm)) {
    throw new AnchorError('BAD_ARGUMENT', `arm ${JSON.stringify(opts.arm)} is not in this run (arms: ${manifest.arms.join(', ')})`);
  }
  await runArms(dir, config, manifest, opts.arm, opts);
  return dir;
}

/**
 * The manifest of a new run of `config` (its arms, versions, tfjs backend, git commit, start
 * time). `train` and `sweep` (one per seed) write it before any arm starts.
 */
export function newManifest(config: RunConfig, tfBackend: string): RunManifest {
  return {
    name: config.name,
    seed: config.seed,
    config: config as unknown as Record<string, unknown>,
    arms: resolveArms(config.arms).map((a) => a.name),
    versions: versions(),
    tfBackend,
    gitCommit: gitCommit(),
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
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
    const child = forkModule(new URL('./arm-process.ts', import.meta.url), [runDir, armName], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
export async function finishRun(runDir: string, manifest: RunManifest, log: (l: string) => void, summarize?: RunSummarizer): Promise<void> {
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
  opts: { summarize?: RunSummarizer; onFinished?: (runDir: string) => Promise<void>; log?: (l: string) => void; queue?: string },
): Promise<void> {
  const progress = new RunProgress();
  const log = (l: string) => (opts.log ? opts.log(l) : progress.log(l));
  // --- shared assets (once per run; cached) -------------------------------------------------
  await prepareRunShared(runDir, config, log);

  // --- arms, each in its own process ----------------------------------------------------------
  const todo = unfinishedArms(runDir, config, only);
  const queue = new PQueue({ concurrency: config.concurrency });
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
