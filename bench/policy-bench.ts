/**
 * `npm run bench:policy`: throughput of the default policy (2 layers, d_model 128, 4 heads,
 * context 256, char vocab ~100) — tfjs training tok/s, ONNX Runtime sampling tok/s with and
 * without the KV cache vs tfjs sampling (full recompute, and the tfjs KV-cache generate of src/policy/generate.ts) at
 * batch 64, weight-sync latency, and RSS across 1,000 weight syncs. Writes the "## Policy"
 * section of BENCHMARKS.md (other sections are left alone).
 *
 * Env: BENCH_QUICK=1 shrinks every workload (smoke run); BENCH_SYNCS overrides the sync count.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initTf, tf } from '../src/tf/backend.ts';
import { GptModel, positionsFromMask } from '../src/policy/model.ts';
import { AdamOptimizer } from '../src/policy/optimizer.ts';
import { buildCompletionBatch, completionNll } from '../src/policy/logprobs.ts';
import { generate as tfjsGenerate } from '../src/policy/generate.ts';
import { CharTokenizer } from '../src/policy/tokenizer/char.ts';
import { OnnxRolloutEngine } from '../src/policy/engine/rollout-engine.ts';
import { sampleToken } from '../src/policy/engine/sampler.ts';
import { exportGptToOnnx } from '../src/policy/onnx/export-gpt.ts';
import type { GptConfig } from '../src/policy/gpt-config.ts';
import type { WeightMap } from '../src/policy/weights.ts';
import { Rng } from '../src/util/rng.ts';
import { benchHeader, machineLoad, median, writeBenchSection } from './benchmarks-file.ts';

const quick = process.env.BENCH_QUICK === '1';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Process CPU time in ms (user + system, all threads). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const log = (m: string): void => {
  process.stderr.write(m + '\n');
};

/**
 * Training FLOPs per token of a GPT (the usual 6·N count for N parameters in matrix products,
 * the tied head included, embeddings lookups not; plus attention's QKᵀ and PV over a causal
 * context of T positions, forward and backward: 3 × 4·T·d per layer, full T×T products as run).
 */
function trainFlopsPerToken(c: GptConfig, T: number): number {
  const matmulParams = c.layers * 12 * c.dModel * c.dModel + c.vocabSize * c.dModel;
  return 6 * matmulParams + c.layers * 12 * T * c.dModel;
}

/**
 * Dense matMul throughput of the tfjs backend on the training step's shapes (GFLOP/s, median of
 * `reps`). Each repetition multiplies fresh tensors: the wasm backend caches the packed right-hand
 * operand by tensor, and in training every product meets new activations or updated weights.
 */
function matmulGflops(m: number, k: number, n: number, reps: number): number {
  const times: number[] = [];
  for (let r = 0; r < reps + 1; r++) {
    const [a, b] = [tf.randomNormal([m, k]), tf.randomNormal([k, n])] as [tf.Tensor2D, tf.Tensor2D];
    const t0 = performance.now();
    const c = tf.matMul(a, b);
    c.dataSync();
    if (r > 0) times.push(performance.now() - t0); // the first is a warm-up
    tf.dispose([a, b, c]);
  }
  return (2 * m * k * n) / (median(times) / 1000) / 1e9;
}

async function main(): Promise<void> {
  const loadBefore = machineLoad();
  const backend = await initTf(log);
  const tok = CharTokenizer.fromCorpus([]);
  const config: GptConfig = { vocabSize: tok.vocabSize, context: 256, layers: 2, dModel: 128, heads: 4, tiedHead: true };
  const B = 64;
  const promptLen = 16;
  const newTokens = quick ? 8 : 48;
  const reps = quick ? 1 : 3;
  const model = GptModel.init(config, 0);
  const weights = model.getWeights();
  const rng = new Rng(1);
  const prompts = Array.from({ length: B }, () => Array.from({ length: promptLen }, () => 2 + rng.int(tok.vocabSize - 2)));
  const rows: string[][] = [];
  const notes: string[] = [];
  let tokensPerStepRate = 0;

  // --- training: AdamOptimizer.trainStep on completionNll, batch 64 x 64 tokens.
  {
    const opt = new AdamOptimizer(model.params, { lr: 3e-4 });
    const completions = Array.from({ length: B }, () =>
      Array.from({ length: 64 - promptLen }, () => 2 + rng.int(tok.vocabSize - 2)),
    );
    const batch = buildCompletionBatch(prompts, completions, tok.padId);
    const tokensPerStep = B * 64;
    opt.trainStep(() => completionNll(model, batch)); // warm-up
    const before = tf.memory().numTensors;
    const times: number[] = [];
    const c0 = cpuMs();
    for (let i = 0; i < (quick ? 2 : 8); i++) {
      const t0 = performance.now();
      opt.trainStep(() => completionNll(model, batch));
      times.push(performance.now() - t0);
    }
    const cpuPerStep = (cpuMs() - c0) / times.length;
    const grew = tf.memory().numTensors - before;
    const ms = median(times);
    tokensPerStepRate = tokensPerStep / (ms / 1000);
    rows.push([
      `training (tfjs ${backend}, AdamOptimizer.trainStep, batch 64×64)`,
      `${fmt(tokensPerStep / (ms / 1000))} tok/s`,
      `${fmt(tokensPerStep / (cpuPerStep / 1000))}`,
      `${ms.toFixed(0)} ms/step median of ${times.length}; tensor count change ${grew}`,
      '≥ 4,000 tok/s',
    ]);
    model.setWeights(weights); // the sampling benches use the initial weights

    // Dense matMul in the same backend, right after: the training step's product shapes.
    const N = B * 64;
    const d = config.dModel;
    const shapes: [string, number, number, number][] = [
      [`[${N},${d}]·[${d},${4 * d}] (MLP in)`, N, d, 4 * d],
      [`[${N},${4 * d}]·[${4 * d},${d}] (MLP out)`, N, 4 * d, d],
      [`[${N},${d}]·[${d},${d}] (q, k, v, attention out)`, N, d, d],
      [`[${d},${N}]·[${N},${4 * d}] (a weight gradient)`, d, N, 4 * d],
    ];
    const gflops = shapes.map(([label, m, k, n]) => [label, matmulGflops(m, k, n, quick ? 2 : 7)] as const);
    const best = Math.max(...gflops.map(([, g]) => g));
    const flopsPerToken = trainFlopsPerToken(config, 64);
    const trainGflops = (tokensPerStepRate * flopsPerToken) / 1e9;
    for (const [label, g] of gflops)
      rows.push([
        `dense matMul ${label}, tfjs ${backend}`,
        `${g.toFixed(1)} GFLOP/s`,
        '',
        'median of fresh operands; same process, right after training',
        '',
      ]);
    rows.push([
      'training as a share of dense matMul',
      `${trainGflops.toFixed(1)} GFLOP/s = ${((100 * trainGflops) / best).toFixed(0)}% of ${best.toFixed(1)}`,
      '',
      `${(flopsPerToken / 1e6).toFixed(2)} MFLOP per trained token (6 × ${((flopsPerToken - config.layers * 12 * 64 * d) / 6 / 1e3).toFixed(0)}k matmul parameters + attention over 64 positions) × ${fmt(tokensPerStepRate)} tok/s, against the best shape above`,
      '',
    ]);
  }

  // --- sampling at batch 64: prompts of 16 tokens, `newTokens` new tokens, no EOS.
  const sampleOpts = { maxNewTokens: newTokens, temperature: 1, seed: 3, eosTokenId: null };
  const engine = await OnnxRolloutEngine.fromWeights(config, weights, { tokenizer: tok });
  await engine.generateIds(prompts.slice(0, 4), { ...sampleOpts, maxNewTokens: 4 }); // warm-up
  /** Wall-clock tok/s (median of reps) and tok/s per CPU-second (all reps). */
  const ortRate = async (useCache: boolean, maxNew = newTokens): Promise<[number, number]> => {
    const rates: number[] = [];
    let n = 0;
    const c0 = cpuMs();
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      const out = await engine.generateIds(prompts, { ...sampleOpts, maxNewTokens: maxNew, useCache });
      const k = out.reduce((a, c) => a + c.tokenIds.length, 0);
      n += k;
      rates.push(k / ((performance.now() - t0) / 1000));
    }
    return [median(rates), n / ((cpuMs() - c0) / 1000)];
  };
  const [kv, kvCpu] = await ortRate(true);
  const [noKv, noKvCpu] = await ortRate(false);
  const [kvLong, kvLongCpu] = quick ? [kv, kvCpu] : await ortRate(true, 200);

  // tfjs full recompute: the whole sequence through GptModel.logits each step.
  const tfjsRecompute = (): [number, number] => {
    const srng = new Rng(3);
    const seqs = prompts.map((p) => [...p]);
    const scratch = new Float64Array(config.vocabSize);
    const t0 = performance.now();
    const c0 = cpuMs();
    for (let t = 0; t < newTokens; t++) {
      const T = seqs[0]!.length;
      const logits = tf.tidy(() => {
        const mask = new Float32Array(B * T).fill(1);
        const ids = new Int32Array(B * T);
        seqs.forEach((s, b) => ids.set(s, b * T));
        const x = { batch: B, length: T, ids, mask, positions: positionsFromMask(mask, B, T) };
        const all = model.logits(x);
        return tf.slice(all, [0, T - 1, 0], [B, 1, config.vocabSize]).dataSync() as Float32Array;
      });
      for (let b = 0; b < B; b++) {
        seqs[b]!.push(
          sampleToken(logits, b * config.vocabSize, config.vocabSize, { temperature: 1, topK: 0, topP: 1 }, srng, scratch).token,
        );
      }
    }
    const n = B * newTokens;
    return [n / ((performance.now() - t0) / 1000), n / ((cpuMs() - c0) / 1000)];
  };
  const [tfjsFull, tfjsFullCpu] = tfjsRecompute();
  const [tfjsKvRate, tfjsKvCpu] = (() => {
    const t0 = performance.now();
    const c0 = cpuMs();
    const out = tfjsGenerate(model, prompts, {
      maxNewTokens: newTokens,
      temperature: 1,
      eosId: -1,
      padId: tok.padId,
      rng: new Rng(3),
    });
    const n = out.reduce((a, g) => a + g.tokens.length, 0);
    return [n / ((performance.now() - t0) / 1000), n / ((cpuMs() - c0) / 1000)];
  })();
  rows.push([
    `ORT sampling, KV cache (batch 64, prompt 16, ${newTokens} new)`,
    `${fmt(kv)} tok/s`,
    fmt(kvCpu),
    `median of ${reps}; wall ${(kv / tfjsFull).toFixed(0)}× / CPU ${(kvCpu / tfjsFullCpu).toFixed(0)}× tfjs recompute; wall ${(kv / tfjsKvRate).toFixed(1)}× tfjs KV-cache generate`,
    '≥ 20,000 tok/s and ≥ 40× tfjs',
  ]);
  if (!quick)
    rows.push([
      'ORT sampling, KV cache (batch 64, prompt 16, 200 new)',
      `${fmt(kvLong)} tok/s`,
      fmt(kvLongCpu),
      `median of ${reps}; attention over a longer cache`,
      '',
    ]);
  rows.push([
    `ORT sampling, no KV cache (full recompute, same workload)`,
    `${fmt(noKv)} tok/s`,
    fmt(noKvCpu),
    `median of ${reps}; KV cache is ${(kv / noKv).toFixed(1)}× faster`,
    '',
  ]);
  rows.push([
    `tfjs sampling, full recompute (GptModel.logits, same workload)`,
    `${fmt(tfjsFull)} tok/s`,
    fmt(tfjsFullCpu),
    `one run`,
    '',
  ]);
  rows.push([
    `tfjs sampling, KV cache (src/policy/generate.ts, same workload)`,
    `${fmt(tfjsKvRate)} tok/s`,
    fmt(tfjsKvCpu),
    `one run`,
    '',
  ]);

  // --- weight sync: re-export + new session + release the old one.
  const other = GptModel.init(config, 1);
  const weights2: WeightMap = other.getWeights();
  other.dispose();
  const exportMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    exportGptToOnnx(config, weights2, { layout: 'engine' });
    exportMs.push(performance.now() - t0);
  }
  const syncMs: number[] = [];
  const cs = cpuMs();
  for (let i = 0; i < (quick ? 5 : 50); i++) {
    const t0 = performance.now();
    await engine.updateWeights(i % 2 ? weights : weights2);
    syncMs.push(performance.now() - t0);
  }
  const syncCpu = (cpuMs() - cs) / syncMs.length;
  const bytes = exportGptToOnnx(config, weights, { layout: 'engine' }).byteLength;
  rows.push([
    `weight sync (export ${(bytes / 1e6).toFixed(1)} MB + new session + release old)`,
    `${median(syncMs).toFixed(1)} ms`,
    `${syncCpu.toFixed(1)} ms CPU`,
    `median of ${syncMs.length}; export alone ${median(exportMs).toFixed(1)} ms`,
    '≤ 25 ms',
  ]);

  // --- memory across many syncs.
  const syncs = Number(process.env.BENCH_SYNCS ?? (quick ? 50 : 1000));
  const gc = (globalThis as { gc?: () => void }).gc;
  const rss = (): number => {
    gc?.();
    return process.memoryUsage().rss / 2 ** 20;
  };
  for (let i = 0; i < 50; i++) await engine.updateWeights(i % 2 ? weights : weights2); // settle allocator
  const rss0 = rss();
  const rssMid: number[] = [];
  for (let i = 0; i < syncs; i++) {
    await engine.updateWeights(i % 2 ? weights : weights2);
    if ((i + 1) % Math.max(1, Math.floor(syncs / 4)) === 0) rssMid.push(rss());
  }
  const rss1 = rss();
  rows.push([
    `RSS across ${syncs} weight syncs`,
    `${rss0.toFixed(0)} → ${rss1.toFixed(0)} MB`,
    '',
    `quartiles ${rssMid.map((x) => x.toFixed(0)).join(', ')} MB${gc ? ' (after gc)' : ' (no --expose-gc)'}`,
    'no growth',
  ]);
  const check = await engine.generateIds(prompts.slice(0, 2), { ...sampleOpts, maxNewTokens: 4 });
  if (check.length !== 2) throw new Error('engine broken after syncs');
  await engine.release();
  model.dispose();

  if (kv < 20000)
    notes.push(
      `KV-cache sampling ${fmt(kv)} tok/s wall clock (${fmt(kvCpu)} per CPU-second) is below the 20,000 tok/s target on this run.`,
    );
  if (kv / tfjsFull < 40)
    notes.push(
      `KV-cache sampling is ${(kv / tfjsFull).toFixed(0)}× tfjs full recompute on wall clock (${(kvCpu / tfjsFullCpu).toFixed(0)}× per CPU-second), below the 40× target.`,
    );
  if (median(syncMs) > 25)
    notes.push(
      `weight sync ${median(syncMs).toFixed(1)} ms wall clock (${syncCpu.toFixed(1)} ms CPU) is above the 25 ms target.`,
    );
  if (tokensPerStepRate < 4000)
    notes.push(`training ${fmt(tokensPerStepRate)} tok/s wall clock is below the 4,000 tok/s target (see docs/policy.md).`);

  const wasmSetup =
    backend === 'wasm'
      ? `; wasm SIMD ${(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) ? 'on' : 'off'}, threads ${(await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')) ? 'on' : 'off (tfjs-backend-wasm disables its threaded build under Node, tensorflow/tfjs#3830: one core per process)'}`
      : '';
  const section = [
    '## Policy',
    '',
    `${benchHeader('npm run bench:policy', 'bench/policy-bench.ts', loadBefore, machineLoad())} tfjs backend ${backend}${wasmSetup}; ONNX Runtime with intraOpNumThreads 1, sequential.${quick ? ' QUICK smoke run (BENCH_QUICK=1): small workloads, not comparable.' : ''}`,
    `Default model: 2 layers, d_model 128, 4 heads, context 256, char vocab ${config.vocabSize}, tied head. Sampling: temperature 1, no EOS (every row runs to the limit), random-init weights.`,
    'The "per CPU-second" column divides by the process CPU time (user + system, all threads) spent in the measurement: it is much less disturbed by other processes sharing the cores than wall clock, and equals the wall-clock rate on an idle machine for single-threaded work (ONNX Runtime runs with one intra-op thread).',
    '',
    '| measure | figure (wall clock) | per CPU-second | detail | target |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    ...(notes.length ? ['Shortfalls on this run:', '', ...notes.map((n) => `- ${n}`), ''] : ['All targets met on this run.', '']),
  ].join('\n');
  writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Policy', section);
  process.stdout.write(section + '\n');
}

function fmt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

await main();
