/**
 * Runs one arm to completion inside its own process: builds the arm's components from the run
 * directory's shared assets, resumes from the latest complete checkpoint if there is one
 * (truncating log lines written after it), steps the trainer, checkpoints every K steps, at the
 * end and on SIGINT/SIGTERM.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RunConfig } from '../config/run-config.ts';
import { OnnxRolloutEngine } from '../policy/engine/rollout-engine.ts';
import { loadCheckpoint, saveCheckpoint } from '../policy/checkpoint.ts';
import { GptModel } from '../policy/model.ts';
import { AdamOptimizer } from '../policy/optimizer.ts';
import { createFeatureExtractor } from '../reward/features/registry.ts';
import { createJudge } from '../reward/judges/index.ts';
import { loadRewardModel } from '../reward/models/index.ts';
import { createExecutorFromConfig } from '../sandbox/index.ts';
import { initTf } from '../tf/backend.ts';
import { AnchorError } from '../util/errors.ts';
import { writeJsonAtomic } from '../util/fs.ts';
import type { ArmSpec } from './arms.ts';
import { ArmTrainer, type TrainerState } from './arm-trainer.ts';
import { LABEL_SOURCES } from './label-sources.ts';
import { JsonlWriter, KvLogger, writeCsvFromJsonl } from './logger.ts';
import type { ArmStatus } from './run-format.ts';
import { loadProblems, sharedPaths } from './assets.ts';

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
  trainer: TrainerState;
  offsets: { metrics: number; samples: number; refits: number; gate?: number };
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
  for (const n of readdirSync(join(armDir, 'checkpoints'))) if (n.startsWith('.tmp-')) rmSync(join(armDir, 'checkpoints', n), { recursive: true, force: true });
  const backend = await initTf(log);
  const shared = sharedPaths(runDir);

  // --- components -----------------------------------------------------------------------------
  const { train, evalProblems } = loadProblems(config);
  const base = loadCheckpoint(shared.base);
  const latest = listCheckpoints(armDir).at(-1);
  const start = latest ? loadCheckpoint(join(latest.dir, 'policy')) : base;
  const policy = GptModel.fromWeights(base.config, start.weights);
  const reference = GptModel.fromWeights(base.config, base.weights);
  const optimizer = new AdamOptimizer(policy.params, {
    lr: config.grpo.lr,
    grad_clip: config.grpo.grad_clip,
    warmup_steps: config.grpo.warmup_steps,
    schedule: config.grpo.lr_schedule === 'cosine' ? 'cosine' : 'constant',
    total_steps: config.grpo.steps,
  });
  if (latest && start.optimizer) optimizer.setState(start.optimizer.state);
  const engine = await OnnxRolloutEngine.fromWeights(base.config, start.weights, {
    tokenizer: base.tokenizer,
    eosTokenId: base.tokenizer.eosId,
    padTokenId: base.tokenizer.padId,
  });
  const rm = await loadRewardModel(latest ? join(latest.dir, 'rm') : shared.initialRm);
  const features = createFeatureExtractor(config.reward_model.features);
  const judge = arm.labels && LABEL_SOURCES[arm.labels].usesJudge ? await createJudge(config.judge, { learnedDir: shared.judge }) : undefined;
  const executor = createExecutorFromConfig(config.sandbox, config.seed);

  // --- logs (truncated to the checkpoint's offsets on resume: never duplicated) -----------------
  let state: CheckpointState | undefined;
  if (latest) state = JSON.parse(readFileSync(join(latest.dir, 'state.json'), 'utf8')) as CheckpointState;
  const metricsFile = new JsonlWriter(join(armDir, 'metrics.jsonl'), state?.offsets.metrics ?? 0);
  const samplesFile = new JsonlWriter(join(armDir, 'samples.jsonl'), state?.offsets.samples ?? 0);
  const refitsFile = new JsonlWriter(join(armDir, 'refits.jsonl'), state?.offsets.refits ?? 0);
  const gateFile = arm.gate ? new JsonlWriter(join(armDir, 'gate.jsonl'), state?.offsets.gate ?? 0) : undefined;
  const metrics = new KvLogger([metricsFile]);
  const trainer = new ArmTrainer(
    { config, arm, train, evalProblems, tokenizer: base.tokenizer, policy, reference, optimizer, engine, features, rm, judge, executor },
    { metrics, samples: (l) => samplesFile.write(l), refits: (l) => refitsFile.write(l), ...(gateFile ? { gate: (l: string) => gateFile.writeLine(l) } : {}) },
  );
  if (state) {
    trainer.setState(state.trainer);
    log(`${arm.name}: resumed from step ${state.trainer.step}`);
  }

  const status: ArmStatus = readStatus(armDir) ?? {
    name: arm.name,
    spec: { reward: arm.reward, labels: arm.labels, describe: arm.describe, ...(arm.gate ? { gate: true } : {}) },
    state: 'running',
    stepsDone: 0,
    totalSteps: config.grpo.steps,
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
  status.state = 'running';
  status.totalSteps = config.grpo.steps;
  status.tfBackend = backend;
  writeJsonAtomic(join(armDir, 'arm.json'), status);

  const checkpoint = async () => {
    const step = trainer.stepsDone;
    const root = join(armDir, 'checkpoints');
    const final = join(root, `${CKPT_PREFIX}${String(step).padStart(6, '0')}`);
    if (existsSync(join(final, 'state.json'))) return;
    const tmp = join(root, `.tmp-${process.pid}-${step}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    for (const f of [metricsFile, samplesFile, refitsFile, gateFile]) f?.sync();
    saveCheckpoint(join(tmp, 'policy'), {
      config: base.config,
      tokenizer: base.tokenizer,
      weights: policy.getWeights(),
      optimizer: { config: optimizer.config, state: optimizer.getState() },
      meta: { arm: arm.name, step },
    });
    await rm.save(join(tmp, 'rm'));
    const ck: CheckpointState = {
      trainer: trainer.getState(),
      offsets: { metrics: metricsFile.offset(), samples: samplesFile.offset(), refits: refitsFile.offset(), ...(gateFile ? { gate: gateFile.offset() } : {}) },
    };
    // state.json is written last: its presence marks the checkpoint complete.
    writeJsonAtomic(join(tmp, 'state.json'), ck);
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
    // Keep the newest `keep` checkpoints; older ones go only after the new one is complete.
    const all = listCheckpoints(armDir);
    for (const old of all.slice(0, Math.max(0, all.length - config.checkpoint.keep))) rmSync(old.dir, { recursive: true, force: true });
    writeCsvFromJsonl(metricsFile.path, join(armDir, 'metrics.csv'));
    status.stepsDone = step;
    writeJsonAtomic(join(armDir, 'arm.json'), status);
  };

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
    metrics.close();
    samplesFile.close();
    refitsFile.close();
    gateFile?.close();
    await executor.close();
    await engine.release();
    await judge?.close?.();
    policy.dispose();
    reference.dispose();
    optimizer.dispose();
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

