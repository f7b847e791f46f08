/**
 * Supervised pretraining of the base policy: next-token training on (prompt, reference) pairs
 * of a task family, held-out loss, executed pass rate through the sandbox, and a checkpoint.
 * The CLI wrapper is src/cli/commands/pretrain.ts; this module takes its executor and Problem
 * source as dependencies so tests can run it on fixtures.
 */
import { initTf, tf } from '../../tf/backend.ts';
import { Rng } from '../../util/rng.ts';
import { AnchorError } from '../../util/errors.ts';
import { type Problem, assembleProgram, truncateAtStop } from '../../datasets/problem.ts';
import type { ExecResult, Executor, ProgramSpec } from '../../sandbox/types.ts';
import { gptConfigFrom } from '../../policy/gpt-config.ts';
import { GptModel } from '../../policy/model.ts';
import { AdamOptimizer, type OptimizerConfig } from '../../policy/optimizer.ts';
import { buildCompletionBatch, completionLogProbs, type CompletionBatch } from '../../policy/logprobs.ts';
import { generate } from '../../policy/generate.ts';
import { CharTokenizer, type Tokenizer } from '../../policy/tokenizer/index.ts';
import { saveCheckpoint } from '../../policy/checkpoint.ts';
import type { PretrainConfig } from './config.ts';

/** One tokenized (prompt, reference + eos) pair. */
export interface SupervisedExample {
  id: string;
  prompt: number[];
  completion: number[];
}

/** Progress callbacks (the CLI drives a progress bar with them). */
interface PretrainHooks {
  log?: (msg: string) => void;
  onStep?: (step: number, total: number, info: { loss: number; lr: number; gradNorm: number }) => void;
  onEvalStart?: (what: string, total: number) => void;
  onEvalProgress?: (done: number) => void;
}

/** Where the problems come from and how programs are executed. */
export interface PretrainDeps {
  train: Problem[];
  eval: Problem[];
  executor: Executor;
  hooks?: PretrainHooks;
  /** Skip writing the checkpoint (tests). */
  noSave?: boolean;
}

/** What pretraining measured. */
export interface PretrainResult {
  steps: number;
  trainTokensPerSecond: number;
  finalTrainLoss: number;
  /** Held-out token-mean NLL of the references (nats/token), before and after training. */
  heldOutLossBefore: number;
  heldOutLoss: number;
  /** Held-out executed pass rate (fraction of problems whose completion passes all tests). */
  passRate: number;
  passed: number;
  evaluated: number;
  statusCounts: Record<string, number>;
  /** A few decoded held-out completions, for eyeballing. */
  samples: { id: string; completion: string; status: string }[];
  seconds: number;
  output?: string;
  model: GptModel;
  tokenizer: Tokenizer;
}

/** Tokenize problems into supervised examples; characters outside the vocabulary are BAD_DATASET. */
export function toExamples(problems: readonly Problem[], tok: Tokenizer): SupervisedExample[] {
  return problems.map((p) => {
    if (p.reference === undefined) {
      throw new AnchorError(
        'BAD_DATASET',
        `problem ${p.id} has no reference solution; pretraining needs (prompt, reference) pairs`,
      );
    }
    return {
      id: p.id,
      prompt: tok.encode(p.prompt, `problem ${p.id} prompt`),
      completion: [...tok.encode(p.reference, `problem ${p.id} reference`), tok.eosId],
    };
  });
}

/** A training batch; with `promptWeight` > 0 the prompt tokens (after the first) are targets too. */
function makeBatch(
  ex: readonly SupervisedExample[],
  padId: number,
  promptWeight: number,
): { batch: CompletionBatch; weights: Float32Array } {
  if (promptWeight > 0) {
    // Treat everything after the first token as the "completion" and weight prompt positions.
    const prompts = ex.map((e) => e.prompt.slice(0, 1));
    const comps = ex.map((e) => [...e.prompt.slice(1), ...e.completion]);
    const batch = buildCompletionBatch(prompts, comps, padId);
    const C = batch.completionLength;
    const weights = new Float32Array(batch.batch * C);
    ex.forEach((e, b) => {
      const np = e.prompt.length - 1;
      for (let j = 0; j < comps[b]!.length; j++) weights[b * C + j] = j < np ? promptWeight : 1;
    });
    return { batch, weights };
  }
  const batch = buildCompletionBatch(
    ex.map((e) => e.prompt),
    ex.map((e) => e.completion),
    padId,
  );
  return { batch, weights: batch.completionMask };
}

/**
 * Endless "sortish" batches: each epoch shuffles the examples, cuts the order into windows of
 * 20 batches, sorts each window by length and shuffles the resulting batches — so rows in a
 * batch have similar lengths (little padding compute) while batches stay random.
 */
export function lengthBucketedBatches(
  ex: readonly SupervisedExample[],
  batchSize: number,
  rng: Rng,
): { next(): SupervisedExample[] } {
  let queue: SupervisedExample[][] = [];
  const refill = (): void => {
    const idx = rng.shuffle(Array.from({ length: ex.length }, (_, i) => i));
    const window = batchSize * 20;
    const out: SupervisedExample[][] = [];
    for (let w = 0; w < idx.length; w += window) {
      const part = idx.slice(w, w + window).map((i) => ex[i]!);
      part.sort((a, b) => a.prompt.length + a.completion.length - (b.prompt.length + b.completion.length));
      for (let s = 0; s < part.length; s += batchSize) {
        const b = part.slice(s, s + batchSize);
        // A short tail batch is topped up with random examples so every step has batchSize rows.
        while (b.length < batchSize) b.push(ex[rng.int(ex.length)]!);
        out.push(b);
      }
    }
    queue = rng.shuffle(out);
  };
  return {
    next() {
      if (queue.length === 0) refill();
      return queue.pop()!;
    },
  };
}

/** Weighted token-mean NLL (differentiable). */
function weightedNll(model: GptModel, batch: CompletionBatch, weights: Float32Array): tf.Scalar {
  const { logProbs } = completionLogProbs(model, batch, { entropy: false });
  let n = 0;
  for (const w of weights) n += w;
  return tf.div(tf.neg(tf.sum(tf.mul(logProbs, tf.tensor2d(weights, logProbs.shape)))), Math.max(n, 1e-9)) as tf.Scalar;
}

/** Token-mean NLL of the completions (no gradient), in batches. */
function heldOutLoss(model: GptModel, ex: readonly SupervisedExample[], padId: number, batchSize = 50): number {
  let total = 0;
  let count = 0;
  for (let s = 0; s < ex.length; s += batchSize) {
    const part = ex.slice(s, s + batchSize);
    const batch = buildCompletionBatch(
      part.map((e) => e.prompt),
      part.map((e) => e.completion),
      padId,
    );
    total += tf.tidy(() => -tf.sum(completionLogProbs(model, batch, { entropy: false }).logProbs).dataSync()[0]!);
    for (const m of batch.completionMask) count += m;
  }
  return count > 0 ? total / count : NaN;
}

/** Decode completions for `problems` and execute them; returns per-problem results. */
async function evaluatePassRate(
  model: GptModel,
  tok: Tokenizer,
  problems: readonly Problem[],
  executor: Executor,
  opts: { maxNewTokens: number; temperature: number; batchSize: number; seed: number; onProgress?: (done: number) => void },
): Promise<{ completions: string[]; results: ExecResult[] }> {
  const rng = new Rng(opts.seed).fork('eval-sampling');
  const completions: string[] = [];
  for (let s = 0; s < problems.length; s += opts.batchSize) {
    const part = problems.slice(s, s + opts.batchSize);
    const prompts = part.map((p) => tok.encode(p.prompt, `problem ${p.id} prompt`));
    const gens = generate(model, prompts, {
      maxNewTokens: opts.maxNewTokens,
      temperature: opts.temperature,
      eosId: tok.eosId,
      padId: tok.padId,
      rng,
      shouldStop: (row, tokens) => {
        const text = tok.decode(tokens);
        return part[row]!.stopTokens.some((st) => st && text.includes(st));
      },
    });
    gens.forEach((g, i) => completions.push(truncateAtStop(tok.decode(g.tokens), part[i]!.stopTokens)));
    opts.onProgress?.(completions.length);
  }
  const programs: ProgramSpec[] = problems.map((p, i) => ({
    id: p.id,
    language: p.language,
    code: assembleProgram(p, completions[i]!),
  }));
  const results = await executor.run(programs);
  return { completions, results };
}

/**
 * Run pretraining. Deterministic given the config seed (init, data order, sampling), up to the
 * executor's verdicts.
 */
export async function runPretrain(cfg: PretrainConfig, deps: PretrainDeps): Promise<PretrainResult> {
  await initTf(deps.hooks?.log);
  const t0 = performance.now();
  const log = deps.hooks?.log ?? (() => {});
  if (deps.train.length === 0) throw new AnchorError('BAD_DATASET', 'pretrain: no training problems');
  // The vocabulary comes from the training corpus (+ printable ASCII); eval text outside it is an
  // error at data-preparation time, before any training happens.
  const tok = CharTokenizer.fromCorpus(deps.train.flatMap((p) => [p.prompt, p.reference ?? '']));
  const trainEx = toExamples(deps.train, tok);
  const evalEx = toExamples(deps.eval, tok);
  const evalProblems = deps.eval.slice(0, cfg.eval.problems);
  const gpt = gptConfigFrom(cfg.model, tok.vocabSize);
  const tooLong = [...trainEx, ...evalEx].find((e) => e.prompt.length + e.completion.length > gpt.context);
  if (tooLong) {
    throw new AnchorError(
      'BAD_CONFIG',
      `problem ${tooLong.id} needs ${tooLong.prompt.length + tooLong.completion.length} tokens but model.context is ${gpt.context}`,
    );
  }
  const root = new Rng(cfg.seed);
  const model = GptModel.init(gpt, root.fork('init').nextU32());
  const optCfg: OptimizerConfig = {
    ...cfg.train.optimizer,
    total_steps: cfg.train.optimizer.total_steps ?? Math.max(1, cfg.train.steps),
  };
  const opt = new AdamOptimizer(model.params, optCfg);
  log(
    `pretrain: ${trainEx.length} train / ${evalEx.length} held-out problems, vocab ${tok.vocabSize}, model ${gpt.layers}x${gpt.dModel} (${gpt.heads} heads), ${cfg.train.steps} steps x ${cfg.train.batch_size}`,
  );

  const lossBefore = heldOutLoss(model, evalEx, tok.padId);
  const order = root.fork('data');
  const batches = lengthBucketedBatches(trainEx, Math.min(cfg.train.batch_size, trainEx.length), order);
  let lastLoss = NaN;
  let tokens = 0;
  let trainMs = 0;
  for (let step = 0; step < cfg.train.steps; step++) {
    const picked = batches.next();
    const { batch, weights } = makeBatch(picked, tok.padId, cfg.train.prompt_loss_weight);
    const s0 = performance.now();
    const r = opt.trainStep(() => weightedNll(model, batch, weights));
    trainMs += performance.now() - s0;
    for (const m of batch.mask) tokens += m;
    lastLoss = r.loss;
    if (!Number.isFinite(r.loss)) throw new AnchorError('RUN_FAILED', `pretrain: loss became ${r.loss} at step ${step + 1}`);
    deps.hooks?.onStep?.(step + 1, cfg.train.steps, { loss: r.loss, lr: r.lr, gradNorm: r.gradNorm });
    if (cfg.train.eval_every > 0 && (step + 1) % cfg.train.eval_every === 0 && step + 1 < cfg.train.steps) {
      let msg = `step ${step + 1}: train loss ${r.loss.toFixed(4)}, held-out loss ${heldOutLoss(model, evalEx, tok.padId).toFixed(4)}`;
      if (cfg.eval.pass_rate_every_eval && evalProblems.length > 0) {
        const { results } = await evaluatePassRate(model, tok, evalProblems, deps.executor, {
          maxNewTokens: cfg.eval.max_new_tokens,
          temperature: cfg.eval.temperature,
          batchSize: cfg.eval.batch_size,
          seed: cfg.seed,
        });
        const passed = results.filter((x) => x.status === 'pass').length;
        msg += `, pass rate ${(passed / evalProblems.length).toFixed(3)} (${passed}/${evalProblems.length})`;
      }
      log(msg);
    }
  }
  const lossAfter = heldOutLoss(model, evalEx, tok.padId);
  deps.hooks?.onEvalStart?.('decode held-out', evalProblems.length);
  const { completions, results } = await evaluatePassRate(model, tok, evalProblems, deps.executor, {
    maxNewTokens: cfg.eval.max_new_tokens,
    temperature: cfg.eval.temperature,
    batchSize: cfg.eval.batch_size,
    seed: cfg.seed,
    ...(deps.hooks?.onEvalProgress ? { onProgress: deps.hooks.onEvalProgress } : {}),
  });
  const statusCounts: Record<string, number> = {};
  for (const r of results) statusCounts[r.status] = (statusCounts[r.status] ?? 0) + 1;
  const passed = results.filter((r) => r.status === 'pass').length;
  const passRate = evalProblems.length > 0 ? passed / evalProblems.length : NaN;
  const result: PretrainResult = {
    steps: cfg.train.steps,
    trainTokensPerSecond: trainMs > 0 ? (tokens / trainMs) * 1000 : 0,
    finalTrainLoss: lastLoss,
    heldOutLossBefore: lossBefore,
    heldOutLoss: lossAfter,
    passRate,
    passed,
    evaluated: evalProblems.length,
    statusCounts,
    samples: evalProblems.slice(0, 5).map((p, i) => ({ id: p.id, completion: completions[i]!, status: results[i]!.status })),
    seconds: 0,
    model,
    tokenizer: tok,
  };
  if (!deps.noSave) {
    saveCheckpoint(cfg.output, {
      config: gpt,
      tokenizer: tok,
      weights: model.getWeights(),
      optimizer: { config: optCfg, state: opt.getState() },
      meta: {
        kind: 'pretrained-base',
        family: cfg.task.family,
        seed: cfg.seed,
        steps: cfg.train.steps,
        heldOutLoss: lossAfter,
        passRate,
        evaluated: evalProblems.length,
        config: cfg,
      },
    });
    result.output = cfg.output;
  }
  opt.dispose();
  result.seconds = (performance.now() - t0) / 1000;
  return result;
}
