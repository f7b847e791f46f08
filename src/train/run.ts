/**
 * A multi-arm run: validate the config, claim the run directory, prepare the shared assets,
 * then train every arm in its own process (p-queue for `concurrency`), and finally write the
 * comparison. `resumeRun` continues the unfinished arms of an existing run directory.
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
import { resolveArms } from './arms.ts';
import type { ArmMessage } from './arm-process.ts';
import { readStatus } from './arm-runner.ts';
import { prepareShared } from './assets.ts';
import { RunProgress } from './progress.ts';
import type { ArmStatus, RunManifest } from './run-format.ts';

/** Options of `anchor-rl train`. */
export interface TrainOptions {
  configPath?: string;
  sets?: string[];
  out?: string;
  force?: boolean;
  /** Called after the arms finish (compare/report writers hook in here). */
  onFinished?: (runDir: string) => Promise<void>;
  log?: (line: string) => void;
  /** Redis URL: queue the arms for `anchor-rl worker --role trainer` machines instead of forking them here. */
  queue?: string;
}

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
  const arms = resolveArms(config.arms);
  const runDir = resolve(opts.out ?? join('runs', config.name));
  if (existsSync(runDir) && readdirSync(runDir).length > 0) {
    if (!opts.force) {
      throw new AnchorError('BAD_ARGUMENT', `run directory ${runDir} exists and is not empty; use \`anchor-rl resume ${runDir}\` to continue it or --force to overwrite it`);
    }
    rmSync(runDir, { recursive: true, force: true });
  }
  mkdirSync(runDir, { recursive: true });
  const manifest: RunManifest = {
    name: config.name,
    seed: config.seed,
    config: config as unknown as Record<string, unknown>,
    arms: arms.map((a) => a.name),
    versions: versions(),
    tfBackend: await initTf(opts.log),
    gitCommit: gitCommit(),
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
  writeJsonAtomic(join(runDir, 'manifest.json'), manifest);
  await runArms(runDir, config, manifest, undefined, opts);
  return runDir;
}

/** Continue the unfinished arms (or one arm) of an existing run. */
export async function resumeRun(runDir: string, opts: { arm?: string; onFinished?: (runDir: string) => Promise<void>; log?: (l: string) => void; queue?: string } = {}): Promise<string> {
  const dir = resolve(runDir);
  const mp = join(dir, 'manifest.json');
  if (!existsSync(mp)) throw new AnchorError('BAD_ARGUMENT', `${dir} is not a run directory (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(mp, 'utf8')) as RunManifest;
  const config = runConfigSchema.parse(manifest.config);
  if (opts.arm && !manifest.arms.includes(opts.arm)) {
    throw new AnchorError('BAD_ARGUMENT', `arm ${JSON.stringify(opts.arm)} is not in this run (arms: ${manifest.arms.join(', ')})`);
  }
  await runArms(dir, config, manifest, opts.arm, opts);
  return dir;
}

async function runArms(
  runDir: string,
  config: RunConfig,
  manifest: RunManifest,
  only: string | undefined,
  opts: { onFinished?: (runDir: string) => Promise<void>; log?: (l: string) => void; queue?: string },
): Promise<void> {
  const progress = new RunProgress();
  const log = (l: string) => (opts.log ? opts.log(l) : progress.log(l));
  // --- shared assets (once per run; cached) -------------------------------------------------
  const executor = createExecutorFromConfig(config.sandbox);
  try {
    await prepareShared(runDir, config, executor, log);
  } finally {
    await executor.close();
  }

  // --- arms, each in its own process ----------------------------------------------------------
  const todo = resolveArms(config.arms).filter((a) => (!only || a.name === only) && readStatus(join(runDir, a.name))?.state !== 'done');
  const queue = new PQueue({ concurrency: config.concurrency });
  const failures: string[] = [];
  if (opts.queue) {
    // Arms across machines: trainer workers run them (same arm process, same run directory).
    const { runArmsOnQueue } = await import('../sandbox/queue/arm-queue.ts');
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
      const code = await new Promise<number>((res) => {
        const child = forkModule(new URL('./arm-process.ts', import.meta.url), [runDir, arm.name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        child.on('message', (m: ArmMessage) => {
          if (m.type === 'progress') progress.update(m.progress);
          else if (m.type === 'log') log(`[${arm.name}] ${m.message}`);
          else log(`[${arm.name}] error: ${m.message}`);
        });
        child.on('exit', (c, sig) => res(c ?? (sig ? 128 : 1)));
      });
      const status = readStatus(join(runDir, arm.name));
      if (code !== 0 || status?.state === 'failed') failures.push(`${arm.name} (${status?.error ?? `exit code ${code}`})`);
    });
  }
  await queue.onIdle();
  progress.stop();
  const statuses = manifest.arms.map((a) => readStatus(join(runDir, a))).filter((s): s is ArmStatus => !!s);
  if (statuses.length === manifest.arms.length && statuses.every((s) => s.state === 'done')) {
    manifest.endedAt = new Date().toISOString();
    writeJsonAtomic(join(runDir, 'manifest.json'), manifest);
  }
  // The comparison and the HTML report, written at the end of every run (vega loads lazily).
  try {
    const { writeRunSummaries } = await import('../report/report.ts');
    await writeRunSummaries(runDir);
    log(`comparison and report: ${join(runDir, 'compare.md')}, ${join(runDir, 'report.html')}`);
  } catch (err) {
    log(`could not write the comparison/report: ${(err as Error).message}`);
  }
  if (opts.onFinished) await opts.onFinished(runDir);
  if (failures.length) throw new AnchorError('RUN_FAILED', `arms failed: ${failures.join('; ')}`);
}
