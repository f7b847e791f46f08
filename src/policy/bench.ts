/**
 * Training-throughput measurement for the benchmark (`npm run bench:policy`) and the
 * status notes: timed Adam steps of next-token loss on random token batches.
 */
import { Rng } from '../util/rng.ts';
import { tf } from '../tf/backend.ts';
import type { GptModel } from './model.ts';
import { AdamOptimizer } from './optimizer.ts';
import { buildCompletionBatch, completionNll } from './logprobs.ts';

/** Timing of {@link benchTrainStep}. */
export interface TrainBench {
  batch: number;
  seq: number;
  steps: number;
  /** Wall-clock milliseconds per step (median over timed steps). */
  medianMs: number;
  /** Process CPU milliseconds per step (median) — less sensitive to other load on the machine. */
  medianCpuMs: number;
  /** batch·seq / median wall time. */
  tokensPerSecond: number;
  /** batch·seq / median CPU time. */
  tokensPerCpuSecond: number;
  /** Every timed step's wall ms, in order. */
  wallMs: number[];
  /** Tensors alive after minus before the timed steps (should be 0). */
  tensorDelta: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Time full training steps (forward, backward, clipped Adam update) on `batch` random sequences
 * of `seq` tokens (1 prompt token + seq-1 scored tokens). NOTE: this trains `model` — its
 * weights change; pass a throwaway model. Call `initTf()` first.
 */
export function benchTrainStep(model: GptModel, batch = 64, seq = 64, opts: { steps?: number; warmup?: number; seed?: number } = {}): TrainBench {
  const steps = opts.steps ?? 5;
  const warmup = opts.warmup ?? 1;
  const rng = new Rng(opts.seed ?? 0);
  const V = model.config.vocabSize;
  const prompts = Array.from({ length: batch }, () => [rng.int(V)]);
  const comps = Array.from({ length: batch }, () => Array.from({ length: seq - 1 }, () => rng.int(V)));
  const data = buildCompletionBatch(prompts, comps, 0);
  const opt = new AdamOptimizer(model.params, { lr: 1e-4 });
  for (let i = 0; i < warmup; i++) opt.trainStep(() => completionNll(model, data));
  const before = tf.memory().numTensors;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < steps; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    opt.trainStep(() => completionNll(model, data));
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const tensorDelta = tf.memory().numTensors - before;
  opt.dispose();
  const medianMs = median(wall);
  const medianCpuMs = median(cpu);
  return {
    batch,
    seq,
    steps,
    medianMs,
    medianCpuMs,
    tokensPerSecond: (batch * seq * 1000) / medianMs,
    tokensPerCpuSecond: (batch * seq * 1000) / medianCpuMs,
    wallMs: wall,
    tensorDelta,
  };
}
