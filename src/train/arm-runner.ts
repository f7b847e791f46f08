/**
 * Runs one arm to completion inside its own process: builds the arm's components from the run
 * directory's shared assets, resumes from the latest complete checkpoint if there is one (its
 * SHA-256s and finite values verified; log lines written after it truncated), steps the trainer
 * (stopping with NON_FINITE as soon as the weights are not finite), checkpoints every K steps, at
 * the end and on SIGINT/SIGTERM.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type RunConfig, runRewardModelConfig } from './run-config.ts';
import { OnnxRolloutEngine } from '../policy/engine/rollout-engine.ts';
import { assertFiniteTensors, decodeSafetensors } from '../policy/safetensors.ts';
import { AdamOptimizer } from '../policy/optimizer.ts';
import { createJudge } from '../reward/judges/index.ts';
import { createRewardFeatures, loadRewardModel } from '../reward/models/index.ts';
import { createExecutorFromConfig } from '../sandbox/index.ts';
import { initTf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { writeJsonAtomic } from '../util/fs.ts';
import type { ArmSpec } from './arms.ts';
import { type ArmComponents, type ArmSinks, ArmTrainer, type TrainerState, type TrainerStateV1 } from './arm-trainer.ts';
import { otherVerdictExecutor } from './gold-watch.ts';
import { grpoOptimizerConfig } from './config.ts';
import { LABEL_SOURCES } from './label-sources.ts';
import { JsonlWriter, KvLogger, writeCsvFromJsonl } from './logger.ts';
import { TensorBoardWriter } from './tensorboard.ts';
import { updaterOf } from './updaters.ts';
import type { ArmStatus, RefitLine } from './run-format.ts';
import { loadProblems, openRunPolicy, sharedPaths } from './assets.ts';
import { checkArmWriter } from './run-dir.ts';

/** Progress events sent to the parent process. */
export interface ArmProgress {
  arm: string;
  step: number;
  total: number;
  proxy: number | null;
  gold: number | null;
  kl: number | null;
}

interface CheckpointState {
  trainer: TrainerState | TrainerStateV1;
  offsets: { metrics: number; samples: number; refits: number; gate?: number };
  /** SHA-256 (hex) of every other file of the checkpoint, by path relative to it. */
  files?: Record<string, string>;
}

const CKPT_PREFIX = 'step-';

/** Complete checkpoints of an arm, oldest first. */
export function listCheckpoints(armDir: string): { step: number; dir: string }[] {
  const root = join(armDir, 'checkpoints');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => n.startsWith(CKPT_PREFIX) && existsSync(join(root, n, 'state.json')))
    .map((n) => ({ step: Number(n.slice(CKPT_PREFIX.length)), dir: join(root, n) }))
    .filter((c) => Number.isInteger(c.step))
    .sort((a, b) => a.step - b.step);
}

/** Files under `dir` (recursively), as paths relative to it, sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

const sha256File = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Read a checkpoint's state.json; a truncated or corrupt one is BAD_MODEL naming the file. */
function readCheckpointState(dir: string): CheckpointState {
  const p = join(dir, 'state.json');
  try {
    const s = JSON.parse(readFileSync(p, 'utf8')) as CheckpointState;
    if (typeof s !== 'object' || s === null || typeof s.trainer !== 'object' || typeof s.offsets !== 'object')
      throw new Error('missing trainer state or log offsets');
    return s;
  } catch (err) {
    throw new AnchorError('BAD_MODEL', `${p}: unreadable checkpoint state (${(err as Error).message})`, { file: p });
  }
}

/**
 * Verify an arm's latest complete checkpoint before resuming from it: state.json readable, every
 * file matching the SHA-256 recorded at save time, and no NaN/Infinity in the policy weights,
 * optimizer moments or RM. On failure BAD_MODEL names the file and says how to continue from the
 * previous complete checkpoint (if one is kept). Returns the checkpoint (undefined: none yet).
 */
export function verifyLatestCheckpoint(armDir: string): { step: number; dir: string } | undefined {
  const all = listCheckpoints(armDir);
  const latest = all.at(-1);
  if (!latest) return undefined;
  try {
    const state = readCheckpointState(latest.dir);
    for (const [rel, sha] of Object.entries(state.files ?? {})) {
      const p = join(latest.dir, rel);
      if (!existsSync(p)) throw new AnchorError('BAD_MODEL', `${p}: missing checkpoint file`, { file: p });
      if (sha256File(p) !== sha)
        throw new AnchorError(
          'BAD_MODEL',
          `${p}: does not match the SHA-256 recorded in ${join(latest.dir, 'state.json')} (corrupt checkpoint file)`,
          { file: p },
        );
    }
    for (const rel of filesUnder(latest.dir).filter((f) => f.endsWith('.safetensors'))) {
      const p = join(latest.dir, rel);
      assertFiniteTensors(decodeSafetensors(readFileSync(p), p).tensors, p);
    }
  } catch (err) {
    if (!(err instanceof AnchorError)) throw err;
    const prev = all.at(-2);
    const aside = join(dirname(latest.dir), `corrupt-${basename(latest.dir)}`);
    const hint = prev
      ? `the previous complete checkpoint ${prev.dir} (step ${prev.step}) is kept: move the bad one aside (mv ${latest.dir} ${aside}) and resume again to continue from step ${prev.step}`
      : `no earlier checkpoint is kept (checkpoint.keep); move the bad one aside (mv ${latest.dir} ${aside}) to restart this arm from step 0`;
    throw new AnchorError('BAD_MODEL', `${err.message}\n${hint}`, {
      ...err.details,
      checkpoint: latest.dir,
      previous: prev?.dir ?? null,
    });
  }
  return latest;
}

/**
 * NON_FINITE when any of `tensors` holds NaN/Infinity. The step logs cannot say so (the metrics
 * logger writes a non-finite loss or gradient norm as null), but a non-finite loss or gradient
 * always reaches the weights through the update.
 */
function assertFiniteState(
  tensors: Iterable<[string, { data: ArrayLike<number> }]>,
  arm: string,
  what: string,
  step: number,
): void {
  try {
    assertFiniteTensors(tensors, `${arm} policy`, what);
  } catch (err) {
    throw new AnchorError(
      'NON_FINITE',
      `${(err as Error).message} after step ${step}; the arm stopped and keeps its last good checkpoint (lower grpo.lr or check the reward)`,
    );
  }
}

/** An arm's built components and what releases them. */
interface BuiltArm {
  components: ArmComponents;
  /** The policy source (saves checkpoints in its own format). */
  source: ReturnType<typeof openRunPolicy>;
  release(): Promise<void>;
}

/**
 * Build an arm's components from the run directory's shared assets, starting from `latest`'s
 * policy, optimizer state and RM when resuming.
 */
async function buildArm(runDir: string, config: RunConfig, arm: ArmSpec, latest: { dir: string } | undefined): Promise<BuiltArm> {
  const shared = sharedPaths(runDir);
  const { train, evalProblems } = loadProblems(config);
  const source = openRunPolicy(runDir, config);
  const start = latest ? source.load(join(latest.dir, 'policy')) : undefined;
  const built = source.build({ ...(start ? { trainable: start.trainable } : {}), seed: config.seed });
  const { model: policy, reference } = built;
  const optimizer = new AdamOptimizer(policy.params, grpoOptimizerConfig(config.grpo));
  if (start?.optimizer) optimizer.setState(start.optimizer.state);
  const engine = await OnnxRolloutEngine.fromWeights(built.serving, policy.getWeights(), {
    tokenizer: source.promptTokenizer(config.policy.prompt),
    eosTokenId: source.tokenizer.eosId,
    padTokenId: source.tokenizer.padId,
  });
  const rm = await loadRewardModel(latest ? join(latest.dir, 'rm') : shared.initialRm);
  const features = createRewardFeatures(runRewardModelConfig(config), {
    tokenizer: source.tokenizer,
    context: config.policy.model.context,
  });
  const judge =
    arm.labels && LABEL_SOURCES[arm.labels].usesJudge ? await createJudge(config.judge, { learnedDir: shared.judge }) : undefined;
  const executor = createExecutorFromConfig(config.sandbox, config.seed);
  const watchExecutor = otherVerdictExecutor(config);
  const updater = await updaterOf(arm).load();
  return {
    components: {
      config,
      arm,
      train,
      evalProblems,
      tokenizer: source.tokenizer,
      policy,
      reference,
      optimizer,
      engine,
      features,
      rm,
      judge,
      executor,
      ...(watchExecutor ? { watchExecutor } : {}),
      updater,
    },
    source,
    release: async () => {
      await executor.close();
      await watchExecutor?.close();
      await engine.release();
      await judge?.close?.();
      built.dispose();
      optimizer.dispose();
    },
  };
}

/** An arm's log files, opened at a checkpoint's offsets (lines written after it are truncated: never duplicated). */
interface ArmLogs {
  sinks: ArmSinks;
  /** Flush every file to disk (before a checkpoint records their offsets). */
  sync(): void;
  offsets(): CheckpointState['offsets'];
  /** metrics.jsonl's path (metrics.csv is derived from it). */
  metricsPath: string;
  close(): void;
}

function openArmLogs(armDir: string, config: RunConfig, arm: ArmSpec, state: CheckpointState | undefined): ArmLogs {
  const at = state?.offsets;
  const metricsFile = new JsonlWriter(join(armDir, 'metrics.jsonl'), at?.metrics ?? 0);
  const samplesFile = new JsonlWriter(join(armDir, 'samples.jsonl'), at?.samples ?? 0);
  const refitsFile = new JsonlWriter(join(armDir, 'refits.jsonl'), at?.refits ?? 0);
  // The updater's own log (gate.jsonl); its checkpoint offset keeps the key `gate` of earlier checkpoints.
  const logFile = updaterOf(arm).logFile;
  const updaterFile = logFile ? new JsonlWriter(join(armDir, logFile), at?.gate ?? 0) : undefined;
  // A new event file per process; on resume it tells TensorBoard to drop the old one's later steps.
  const tensorboard = config.logging.tensorboard ? new TensorBoardWriter(armDir, state?.trainer.step) : undefined;
  const metrics = new KvLogger([metricsFile, ...(tensorboard ? [tensorboard] : [])]);
  const refits = (l: RefitLine) => {
    refitsFile.write(l);
    tensorboard?.writeScalars(
      l.step,
      { ...l, ...Object.fromEntries(Object.entries(l.fit ?? {}).map(([k, v]) => [`fit/${k}`, v])) },
      'refit',
    );
  };
  return {
    sinks: {
      metrics,
      samples: (l) => samplesFile.write(l),
      refits,
      ...(updaterFile ? { updaterLog: (l: string) => updaterFile.writeLine(l) } : {}),
    },
    sync: () => {
      for (const f of [metricsFile, samplesFile, refitsFile, updaterFile, tensorboard]) f?.sync();
    },
    offsets: () => ({
      metrics: metricsFile.offset(),
      samples: samplesFile.offset(),
      refits: refitsFile.offset(),
      ...(updaterFile ? { gate: updaterFile.offset() } : {}),
    }),
    metricsPath: metricsFile.path,
    close: () => {
      metrics.close();
      samplesFile.close();
      refitsFile.close();
      updaterFile?.close();
    },
  };
}

/** The arm's status file at the start of this process (created on a fresh start; this process its writer). */
function startStatus(armDir: string, config: RunConfig, arm: ArmSpec, backend: string): ArmStatus {
  const status: ArmStatus = readStatus(armDir) ?? {
    name: arm.name,
    spec: { reward: arm.reward, labels: arm.labels, describe: arm.describe, ...(arm.gate ? { gate: true } : {}) },
    state: 'running',
    stepsDone: 0,
    totalSteps: config.grpo.steps,
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
  checkArmWriter(armDir, status.writer);
  status.state = 'running';
  status.totalSteps = config.grpo.steps;
  status.tfBackend = backend;
  status.writer = { pid: process.pid, host: hostname() };
  writeJsonAtomic(join(armDir, 'arm.json'), status);
  return status;
}

/**
 * The arm's checkpointer: policy (in its source's format), optimizer, RM, trainer state and log
 * offsets into a temp directory, SHA-256 of every file, state.json last (its presence marks the
 * checkpoint complete), then renamed into place; the newest `checkpoint.keep` are kept. A
 * diverged state is never checkpointed: the last good checkpoint stays the latest.
 */
function checkpointer(
  armDir: string,
  config: RunConfig,
  arm: ArmSpec,
  b: BuiltArm,
  trainer: ArmTrainer,
  logs: ArmLogs,
  status: ArmStatus,
): () => Promise<void> {
  const { policy, optimizer, rm } = b.components;
  return async () => {
    const step = trainer.stepsDone;
    const weights = policy.getWeights();
    const optState = optimizer.getState();
    assertFiniteState(weights, arm.name, 'weights', step);
    assertFiniteState([...optState.m, ...optState.v], arm.name, 'optimizer moments', step);
    const root = join(armDir, 'checkpoints');
    const final = join(root, `${CKPT_PREFIX}${String(step).padStart(6, '0')}`);
    if (existsSync(join(final, 'state.json'))) return;
    const tmp = join(root, `.tmp-${process.pid}-${step}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    logs.sync();
    b.source.save(join(tmp, 'policy'), weights, { config: optimizer.config, state: optState }, { arm: arm.name, step });
    await rm.save(join(tmp, 'rm'));
    const ck: CheckpointState = {
      trainer: trainer.getState(),
      offsets: logs.offsets(),
      files: Object.fromEntries(filesUnder(tmp).map((f) => [f, sha256File(join(tmp, f))])),
    };
    writeJsonAtomic(join(tmp, 'state.json'), ck);
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
    // Keep the newest `keep` checkpoints; older ones go only after the new one is complete.
    const all = listCheckpoints(armDir);
    for (const old of all.slice(0, Math.max(0, all.length - config.checkpoint.keep)))
      rmSync(old.dir, { recursive: true, force: true });
    writeCsvFromJsonl(logs.metricsPath, join(armDir, 'metrics.csv'));
    status.stepsDone = step;
    writeJsonAtomic(join(armDir, 'arm.json'), status);
  };
}

/**
 * Train one arm (resuming if it has checkpoints). Resolves when the arm is done or was
 * stopped by a signal (state `running`, resumable).
 */
export async function runArm(opts: {
  runDir: string;
  config: RunConfig;
  arm: ArmSpec;
  onProgress?: (p: ArmProgress) => void;
  log?: (msg: string) => void;
  /** Stop after this many steps in this process (tests of kill-and-resume). */
  stopAfter?: number;
}): Promise<ArmStatus> {
  const { runDir, config, arm } = opts;
  const log = opts.log ?? (() => {});
  const armDir = join(runDir, arm.name);
  mkdirSync(join(armDir, 'checkpoints'), { recursive: true });
  // A checkpoint interrupted mid-write (SIGKILL) leaves a temp dir; it was never complete.
  for (const n of readdirSync(join(armDir, 'checkpoints')))
    if (n.startsWith('.tmp-')) rmSync(join(armDir, 'checkpoints', n), { recursive: true, force: true });
  const backend = await initTf(log);
  const latest = verifyLatestCheckpoint(armDir);
  const built = await buildArm(runDir, config, arm, latest);
  const state = latest ? readCheckpointState(latest.dir) : undefined;
  const logs = openArmLogs(armDir, config, arm, state);
  const trainer = new ArmTrainer(built.components, logs.sinks);
  if (state) {
    trainer.setState(state.trainer);
    log(`${arm.name}: resumed from step ${state.trainer.step}`);
  }
  const status = startStatus(armDir, config, arm, backend);
  const checkpoint = checkpointer(armDir, config, arm, built, trainer, logs, status);

  let stopRequested = false;
  const onSignal = () => {
    stopRequested = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let ranHere = 0;
  try {
    while (trainer.stepsDone < config.grpo.steps && !stopRequested) {
      const rec = await trainer.step();
      assertFiniteState(built.components.policy.getWeights(), arm.name, 'weights', trainer.stepsDone);
      ranHere++;
      opts.onProgress?.({
        arm: arm.name,
        step: trainer.stepsDone,
        total: config.grpo.steps,
        proxy: (rec['reward/proxy'] as number | null) ?? null,
        gold: (rec['reward/gold'] as number | null) ?? null,
        kl: (rec['kl/ref'] as number | null) ?? null,
      });
      if (trainer.stepsDone % config.checkpoint.every === 0) await checkpoint();
      if (opts.stopAfter !== undefined && ranHere >= opts.stopAfter) break;
    }
    await checkpoint();
    if (trainer.stepsDone >= config.grpo.steps) {
      status.state = 'done';
      status.endedAt = new Date().toISOString();
    }
    status.stepsDone = trainer.stepsDone;
    writeJsonAtomic(join(armDir, 'arm.json'), status);
    return status;
  } catch (err) {
    status.state = 'failed';
    status.error = (err as Error).message;
    writeJsonAtomic(join(armDir, 'arm.json'), status);
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    logs.close();
    await built.release();
  }
}

/** Read `<arm>/arm.json` if present. */
export function readStatus(armDir: string): ArmStatus | undefined {
  const p = join(armDir, 'arm.json');
  if (!existsSync(p)) return undefined;
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as ArmStatus;
  } catch (err) {
    throw new AnchorError('RUN_FAILED', `${p}: unreadable arm status (${(err as Error).message})`);
  }
}
