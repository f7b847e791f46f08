/**
 * Assets every arm of a run shares, prepared once before any arm starts and cached in
 * `runs/NAME/shared/` (so `resume` never redoes them and all arms start identical): the problem
 * split, the base policy (pretrained and cached if missing), the initial reward model fitted on
 * executed base-policy samples, and the judge trained on a disjoint labelled sample.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunConfig, runRewardModelConfig } from './run-config.ts';
import { loadDataset } from '../datasets/formats.ts';
import type { Problem } from '../datasets/problem.ts';
import { isCheckpointDir, loadCheckpoint } from '../policy/checkpoint.ts';
import type { GptConfig } from '../policy/gpt-config.ts';
import { OnnxRolloutEngine } from '../policy/engine/rollout-engine.ts';
import { type PolicySource, hfSource, nativeSource } from '../policy/policy-source.ts';
import { pretrainConfigSchema } from './pretrain/config.ts';
import { runPretrain } from './pretrain/pretrain.ts';
import { LearnedJudge } from '../reward/judges/learned.ts';
import { createRewardFeatures, createRewardModel } from '../reward/models/index.ts';
import { problemProgram } from '../sandbox/programs.ts';
import { runVerdicts } from '../sandbox/rerun.ts';
import type { Executor } from '../sandbox/types.ts';
import { generateProblems } from '../tasks/index.ts';
import { AnchorError } from '../util/errors.ts';
import { writeJsonAtomic } from '../util/fs.ts';
import { Rng } from '../util/rng.ts';
import { resolveArms } from './arms.ts';
import { goldOf } from './gold.ts';
import { LABEL_SOURCES } from './label-sources.ts';
import { JsonlWriter } from './logger.ts';

/** Where the shared assets live inside a run directory. */
export function sharedPaths(runDir: string) {
  const root = join(runDir, 'shared');
  return {
    root,
    base: join(root, 'base'),
    /** A Hugging Face base: `{path, sha256}` (the directory stays where it is; its weights are pinned by hash). */
    baseHf: join(root, 'base-hf.json'),
    initialRm: join(root, 'initial-rm'),
    initialLabels: join(root, 'initial-labels.jsonl'),
    judge: join(root, 'judge'),
    judgeLabels: join(root, 'judge-labels.jsonl'),
    assets: join(root, 'assets.json'),
  };
}

/** The train and held-out problems a run config names (deterministic). */
export function loadProblems(config: RunConfig): { train: Problem[]; evalProblems: Problem[] } {
  const t = config.task;
  let train: Problem[];
  let evalProblems: Problem[];
  if ('family' in t) {
    train = generateProblems(t.family, { split: 'train', count: t.train, seed: t.split_seed, ...t.options });
    evalProblems = generateProblems(t.family, { split: 'eval', count: t.eval, seed: t.split_seed, ...t.options });
  } else {
    const all = loadDataset(t.dataset, t.format).problems;
    if (t.eval_dataset) {
      train = all;
      evalProblems = loadDataset(t.eval_dataset).problems;
    } else {
      // A fixed, seed-independent split so every run of a dataset holds out the same problems.
      const rng = new Rng(0).fork('dataset-split');
      const order = rng.shuffle([...all.keys()]);
      const nEval = Math.round(all.length * t.eval_fraction);
      const evalSet = new Set(order.slice(0, nEval));
      train = all.filter((_, i) => !evalSet.has(i));
      evalProblems = all.filter((_, i) => evalSet.has(i));
    }
    if (train.some((p) => p.meta?.evaluationOnly === true)) {
      throw new AnchorError(
        'BAD_CONFIG',
        `task.dataset ${t.dataset}: MultiPL-E files may be used to evaluate only (their licence forbids training on them)`,
      );
    }
    // Published datasets hold a few very long prompts; a prompt (plus the completion budget)
    // must fit the policy's context (counted in characters: an upper bound for any tokenizer
    // built from the corpus, exact for the native character tokenizer).
    const fits = (p: Problem) => p.prompt.length + config.policy.sampling.max_new_tokens + 2 <= config.policy.model.context;
    train = train.filter(fits);
    evalProblems = evalProblems.filter(fits);
    if (train.length === 0)
      throw new AnchorError(
        'BAD_CONFIG',
        `task.dataset ${t.dataset}: no problem's prompt fits policy.model.context ${config.policy.model.context}`,
      );
  }
  return { train, evalProblems };
}

/**
 * Check what a run will read before anything is created: the datasets load and split (errors
 * name the file and line), and the policy is one we can train.
 */
export function checkRunInputs(config: RunConfig): void {
  loadProblems(config);
  if (config.policy.onnx) {
    throw new AnchorError(
      'UNSUPPORTED',
      'policy.onnx: training a bring-your-own ONNX policy is not supported (ONNX exports are for rollouts and evaluation); use a native model',
    );
  }
}

/** What `shared/assets.json` records. */
export interface SharedAssets {
  basePassRate: number | null;
  initialRm: { samples: number; meanGold: number; passRate: number; fitMse: number };
  judge: { samples: number; meanGold: number } | null;
}

/** Sample `n` completions from `engine` over `problems` (cycled in a seeded order) and execute them. */
async function labelledSamples(
  engine: OnnxRolloutEngine,
  problems: readonly Problem[],
  n: number,
  rng: Rng,
  s: RunConfig['policy']['sampling'],
  executor: Executor,
): Promise<{ problem: Problem; text: string; gold: number }[]> {
  const order = rng.shuffle([...problems.keys()]);
  const picked = Array.from({ length: n }, (_, i) => problems[order[i % order.length]!]!);
  const out: { problem: Problem; text: string; gold: number }[] = [];
  const chunk = 256;
  for (let i = 0; i < picked.length; i += chunk) {
    const ps = picked.slice(i, i + chunk);
    const cs = await engine.generate(
      ps.map((p) => p.prompt),
      {
        temperature: s.temperature,
        topP: s.top_p,
        topK: s.top_k,
        maxNewTokens: s.max_new_tokens,
        stop: ps[0]!.stopTokens,
        rng,
        maxBatch: 64,
      },
    );
    const results = await runVerdicts(
      executor,
      ps.map((p, j) => problemProgram(p, cs[j]!.text, `${p.id}#${i + j}`)),
    );
    ps.forEach((p, j) => out.push({ problem: p, text: cs[j]!.text, gold: goldOf(results[j]!, p) }));
  }
  return out;
}

/** The run's base policy from its shared assets (after {@link prepareShared}). */
export function openRunPolicy(runDir: string, config: RunConfig): PolicySource {
  const p = sharedPaths(runDir);
  if (!existsSync(p.baseHf)) return nativeSource(p.base);
  const pinned = JSON.parse(readFileSync(p.baseHf, 'utf8')) as { path: string; sha256: string };
  return hfSource(pinned.path, { expectHash: pinned.sha256, ...(config.policy.lora ? { lora: config.policy.lora } : {}) });
}

/**
 * Prepare (or reuse) the shared assets of a run. Pretrains the base policy into
 * `config.policy.base` when that cache is missing, then copies it into the run.
 */
export async function prepareShared(
  runDir: string,
  config: RunConfig,
  executor: Executor,
  log: (m: string) => void,
): Promise<SharedAssets> {
  const p = sharedPaths(runDir);
  if (existsSync(p.assets)) return JSON.parse(readFileSync(p.assets, 'utf8')) as SharedAssets;
  mkdirSync(p.root, { recursive: true });
  const { train } = loadProblems(config);

  // --- base policy ------------------------------------------------------------------------------
  let basePassRate: number | null = null;
  checkRunInputs(config);
  const hf = config.policy.model.source === 'hf';
  if (hf) {
    // A Hugging Face base is used as it is (no pretraining); the run pins its weights by hash.
  } else if (!isCheckpointDir(config.policy.base)) {
    if (!('family' in config.task)) {
      // A dataset (MBPP, HumanEval, ...): pretrain on the training split's reference solutions.
      const ctx = config.policy.model.context;
      const withRef = train.filter((q) => q.reference !== undefined && q.prompt.length + q.reference.length + 2 <= ctx);
      if (withRef.length === 0) {
        throw new AnchorError(
          'NOT_FOUND',
          `policy.base ${config.policy.base} is not a checkpoint, and task.dataset has no reference solutions to pretrain it on`,
        );
      }
      const heldOut = loadProblems(config)
        .evalProblems.filter((q) => q.reference !== undefined && q.prompt.length + q.reference.length + 2 <= ctx)
        .slice(0, 100);
      log(
        `base policy ${config.policy.base} missing: pretraining it on ${withRef.length} reference solutions of ${config.task.dataset} (cached for later runs)`,
      );
      const pcfg = pretrainConfigSchema.parse({
        seed: config.seed,
        task: { family: `dataset:${config.task.dataset}`, train: withRef.length, eval: Math.max(1, heldOut.length) },
        model: config.policy.model,
        train: config.policy.pretrain,
        eval: { problems: Math.max(1, heldOut.length), max_new_tokens: config.policy.sampling.max_new_tokens },
        sandbox: { workers: config.sandbox.workers, timeout_ms: config.sandbox.timeout_ms, memory_mb: config.sandbox.memory_mb },
        output: config.policy.base,
      });
      const r = await runPretrain(pcfg, { train: withRef, eval: heldOut, executor, hooks: { log } });
      basePassRate = r.passRate;
      r.model.dispose();
      log(
        `pretrained base policy: held-out pass rate ${(r.passRate * 100).toFixed(1)}% (${r.passed}/${r.evaluated}), ${r.seconds.toFixed(0)} s`,
      );
    } else {
      const t = config.task;
      log(`base policy ${config.policy.base} missing: pretraining it (cached for later runs)`);
      const pcfg = pretrainConfigSchema.parse({
        seed: config.seed,
        task: { family: t.family, split_seed: t.split_seed, train: t.train, eval: Math.min(t.eval, 100), options: t.options },
        model: config.policy.model,
        train: config.policy.pretrain,
        eval: { problems: Math.min(t.eval, 100), max_new_tokens: config.policy.sampling.max_new_tokens },
        sandbox: { workers: config.sandbox.workers, timeout_ms: config.sandbox.timeout_ms, memory_mb: config.sandbox.memory_mb },
        output: config.policy.base,
      });
      const evalProblems = generateProblems(t.family, { split: 'eval', count: pcfg.task.eval, seed: t.split_seed, ...t.options });
      const r = await runPretrain(pcfg, { train, eval: evalProblems, executor, hooks: { log } });
      basePassRate = r.passRate;
      r.model.dispose();
      log(
        `pretrained base policy: held-out pass rate ${(r.passRate * 100).toFixed(1)}% (${r.passed}/${r.evaluated}), ${r.seconds.toFixed(0)} s`,
      );
    }
  }
  let source: PolicySource;
  let trunkConfig: GptConfig | undefined;
  if (hf) {
    const m = config.policy.model;
    source = hfSource(m.path!, {
      randomIfMissing: m.random_if_missing,
      ...(config.policy.lora ? { lora: config.policy.lora } : {}),
    });
    writeJsonAtomic(p.baseHf, { path: m.path, sha256: source.baseHash });
  } else {
    const base = loadCheckpoint(config.policy.base);
    const m = config.policy.model;
    const bc = base.config;
    if (bc.layers !== m.layers || bc.dModel !== m.d_model || bc.heads !== m.heads || bc.context !== m.context) {
      throw new AnchorError(
        'BAD_CONFIG',
        `policy.base ${config.policy.base} holds a ${bc.layers}x${bc.dModel} model (${bc.heads} heads, context ${bc.context}) but policy.model asks for ${m.layers}x${m.d_model} (${m.heads} heads, context ${m.context}); set policy.base to a new directory (e.g. runs/.cache/base-NAME) to pretrain a base of that shape there`,
      );
    }
    basePassRate ??= typeof base.meta?.passRate === 'number' ? (base.meta.passRate as number) : null;
    cpSync(config.policy.base, p.base, { recursive: true });
    source = nativeSource(p.base);
    trunkConfig = bc;
  }

  // --- initial RM: fitted once on executed base-policy samples ----------------------------------
  const served = source.base();
  const trunk = trunkConfig ? { config: trunkConfig, weights: served.weights } : undefined;
  const engine = await OnnxRolloutEngine.fromWeights(served.serving, served.weights, {
    tokenizer: source.promptTokenizer(config.policy.prompt),
    eosTokenId: source.tokenizer.eosId,
    padTokenId: source.tokenizer.padId,
  });
  try {
    const root = new Rng(config.seed);
    const n = config.reward_model.initial_samples;
    log(`initial reward model: sampling and executing ${n} base-policy completions`);
    const labelled = await labelledSamples(engine, train, n, root.fork('initial-rm'), config.policy.sampling, executor);
    const fx = createRewardFeatures(runRewardModelConfig(config), {
      tokenizer: source.tokenizer,
      context: trunk?.config.context ?? config.policy.model.context,
    });
    // The transformer RM starts from the base policy's own trunk (built-in GPT policies).
    const rm = createRewardModel(runRewardModelConfig(config), trunk ? { trunk } : {});
    const X = labelled.map((l) => fx.extract(l.text, l.problem.prompt));
    const y = labelled.map((l) => l.gold);
    await rm.fit(X, y);
    const pred = await rm.predict(X);
    const fitMse = y.reduce((a, v, i) => a + (pred[i]! - v) ** 2, 0) / y.length;
    await rm.save(p.initialRm);
    const w = new JsonlWriter(p.initialLabels, 0);
    for (const l of labelled) w.write({ problem: l.problem.id, text: l.text, gold: l.gold });
    w.close();
    const meanGold = y.reduce((a, b) => a + b, 0) / y.length;
    const assets: SharedAssets = {
      basePassRate,
      initialRm: { samples: n, meanGold, passRate: y.filter((v) => v === 1).length / y.length, fitMse },
      judge: null,
    };

    // --- judge: trained once on a disjoint labelled sample ---------------------------------------
    const needsJudge = resolveArms(config.arms).some((a) => a.labels !== null && LABEL_SOURCES[a.labels].usesJudge);
    if (needsJudge && config.judge.kind === 'learned') {
      const nj = config.judge.samples;
      log(`learned judge: sampling and executing ${nj} more base-policy completions (disjoint from the RM's)`);
      const jl = await labelledSamples(engine, train, nj, root.fork('judge'), config.policy.sampling, executor);
      const judge = await LearnedJudge.train(
        config.judge,
        jl.map((l) => ({ problem: l.problem, completion: l.text, gold: l.gold })),
      );
      await judge.save(p.judge);
      await judge.close();
      const jw = new JsonlWriter(p.judgeLabels, 0);
      for (const l of jl) jw.write({ problem: l.problem.id, text: l.text, gold: l.gold });
      jw.close();
      assets.judge = { samples: nj, meanGold: jl.reduce((a, l) => a + l.gold, 0) / jl.length };
    }
    writeJsonAtomic(p.assets, assets);
    return assets;
  } finally {
    await engine.release();
  }
}
