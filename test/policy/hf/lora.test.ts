/**
 * LoRA on both Hugging Face architectures (Llama family and GPT-2's Conv1D projections):
 * zero-initialised adapters give exactly the base logits; a GRPO step changes only the adapters
 * (base and reference untouched); the engine's adapter inputs take new adapters without a rebuild
 * and match the tfjs model and a merged-weights export; checkpoints restore adapters exactly.
 * Adapter dropout acts in the optimizer's pass only, reproducibly from the seed and step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../../src/tf/backend.ts';
import { OnnxRolloutEngine } from '../../../src/policy/engine/rollout-engine.ts';
import { OrtDecoder } from '../../../src/policy/engine/mapped-decoder.ts';
import type { HfModelConfig } from '../../../src/policy/hf/hf-config.ts';
import { createHfPolicy } from '../../../src/policy/hf/hf-policy.ts';
import { loadHfDir, writeHfDir } from '../../../src/policy/hf/hf-dir.ts';
import { type LoraSpec, loraSchema } from '../../../src/policy/hf/lora.ts';
import { LlamaModel } from '../../../src/policy/hf/llama-model.ts';
import { tinyGpt2Config, tinyLlamaConfig, writeRandomHfDir } from '../../../src/policy/hf/random-dir.ts';
import { GptModel } from '../../../src/policy/model.ts';
import { hfSource } from '../../../src/policy/policy-source.ts';
import type { PolicyModel } from '../../../src/policy/policy-model.ts';
import { exportGptToOnnx } from '../../../src/policy/onnx/export-gpt.ts';
import { exportLlamaToOnnx } from '../../../src/policy/onnx/export-llama.ts';
import type { WeightMap } from '../../../src/policy/weights.ts';
import { buildCompletionBatch, completionLogProbs, completionNll, sequenceLogProbs } from '../../../src/policy/logprobs.ts';
import { AdamOptimizer } from '../../../src/policy/optimizer.ts';
import { grpoLoss } from '../../../src/train/grpo.ts';
import { Rng } from '../../../src/util/rng.ts';
import { maxAbs, ortRowLogits, tfjsRowLogits } from './logit-helpers.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeAll(async () => {
  await initTf();
});

/** One architecture under test: its config, LoRA targets, and its plain (no-adapter) model and export. */
interface Arch {
  label: string;
  config: HfModelConfig;
  lora: LoraSpec;
  /** Adapter tensors the targets give (A and B per targeted module). */
  adapters: number;
  plain(w: WeightMap): PolicyModel;
  onnx(w: WeightMap): Uint8Array;
}

const llamaCfg = tinyLlamaConfig();
const gptCfg = tinyGpt2Config();
const ARCHS: Arch[] = [
  {
    label: 'Llama',
    config: { arch: 'llama', llama: llamaCfg },
    lora: loraSchema.parse({ rank: 4, alpha: 8, target_modules: ['q_proj', 'v_proj', 'down_proj'] }),
    adapters: 2 * 3 * 2,
    plain: (w) => LlamaModel.fromWeights(llamaCfg, w),
    onnx: (w) => exportLlamaToOnnx(llamaCfg, w),
  },
  {
    label: 'GPT-2',
    config: { arch: 'gpt2', gpt: gptCfg },
    // c_proj is both attn.c_proj and mlp.c_proj (PEFT's suffix match): 4 modules per layer.
    lora: loraSchema.parse({ rank: 4, alpha: 8, target_modules: ['c_attn', 'c_proj', 'c_fc'] }),
    adapters: 2 * 4 * 2,
    plain: (w) => GptModel.fromWeights(gptCfg, w),
    onnx: (w) => exportGptToOnnx(gptCfg, w),
  },
];

function fixture(arch: Arch, seed = 11) {
  const d = mkdtempSync(path.join(tmpdir(), 'anchor-lora-'));
  dirs.push(d);
  writeRandomHfDir(d, arch.config, { seed });
  return loadHfDir(d);
}

const rows = [
  [72, 101, 108, 108, 111],
  [61, 32, 49],
  [100, 101, 102, 32, 102],
];

const same = (a: Float32Array, b: Float32Array): boolean => Buffer.from(a.buffer).equals(Buffer.from(b.buffer));

describe.each(ARCHS)('LoRA on $label', (arch) => {
  it('zero-initialised adapters give exactly the base logits', () => {
    const ck = fixture(arch);
    const p = createHfPolicy(ck.config, ck.weights, { lora: arch.lora, seed: 1 });
    const base = arch.plain(ck.weights);
    try {
      expect([...p.model.params.keys()].every((n) => /\.lora_[AB]$/.test(n))).toBe(true);
      expect(p.model.params.size).toBe(arch.adapters);
      const a = tfjsRowLogits(p.model, rows);
      expect(maxAbs(a, tfjsRowLogits(base, rows))).toBe(0);
      expect(maxAbs(a, tfjsRowLogits(p.reference, rows))).toBe(0);
    } finally {
      p.dispose();
      base.dispose();
    }
  });

  it('a GRPO step changes only the adapters; the reference stays the base', () => {
    const ck = fixture(arch);
    const p = createHfPolicy(ck.config, ck.weights, { lora: arch.lora, seed: 1 });
    try {
      const model = p.model as LlamaModel | GptModel;
      const baseBefore = model.baseWeights();
      const adaptersBefore = model.getWeights();
      const prompts = rows.map((r) => r.slice(0, 2));
      const completions = rows.map((r) => r.slice(2));
      const batch = buildCompletionBatch(prompts, completions, 256);
      const old = sequenceLogProbs(p.model, prompts, completions, { padId: 256 });
      const ref = sequenceLogProbs(p.reference, prompts, completions, { padId: 256 });
      const opt = new AdamOptimizer(p.model.params, { lr: 1e-2 });
      // Two steps: B starts at zero, so the first step moves only B; the second moves A too.
      for (let s = 0; s < 2; s++) {
        opt.trainStep(() =>
          grpoLoss(
            completionLogProbs(p.model, batch, { entropy: false }).logProbs,
            {
              batch: batch.batch,
              length: batch.completionLength,
              oldLogp: old.logProbs,
              refLogp: ref.logProbs,
              mask: batch.completionMask,
              advantages: Float32Array.from([1, -1, 0.5]),
            },
            { clipLow: 0.2, clipHigh: 0.2, beta: 0.04, aggregation: 'grpo' },
          ),
        );
      }
      opt.dispose();
      for (const [n, t] of model.baseWeights()) expect(same(t.data, baseBefore.get(n)!.data), n).toBe(true);
      let changed = 0;
      for (const [n, t] of model.getWeights()) if (!same(t.data, adaptersBefore.get(n)!.data)) changed++;
      expect(changed).toBe(adaptersBefore.size);
      const after = sequenceLogProbs(p.reference, prompts, completions, { padId: 256 });
      expect(Array.from(after.logProbs)).toEqual(Array.from(ref.logProbs));
      const now = sequenceLogProbs(p.model, prompts, completions, { padId: 256 });
      expect(Array.from(now.logProbs)).not.toEqual(Array.from(old.logProbs));
    } finally {
      p.dispose();
    }
  });

  it('weight sync feeds new adapters to the running session; logits match tfjs and the merged export', async () => {
    const ck = fixture(arch);
    const p = createHfPolicy(ck.config, ck.weights, { lora: arch.lora, seed: 1 });
    const engine = await OnnxRolloutEngine.fromWeights(p.serving, p.model.getWeights(), { tokenizer: ck.tokenizer });
    try {
      const before = engine.currentDecoder;
      // Random adapters (as after training).
      const rng = new Rng(3);
      const adapters = p.model.getWeights();
      for (const t of adapters.values()) for (let i = 0; i < t.data.length; i++) t.data[i] = rng.normal() * 0.3;
      p.model.setWeights(adapters);
      await engine.updateWeights(p.model.getWeights());
      expect(engine.currentDecoder).toBe(before); // no rebuild
      const ours = tfjsRowLogits(p.model, rows);
      const served = await ortRowLogits(engine.currentDecoder, rows, 'cached');
      const merged = await OrtDecoder.create(arch.onnx(p.mergedWeights()));
      const mergedLogits = await ortRowLogits(merged, rows, 'full');
      await merged.dispose();
      const d1 = maxAbs(ours, served);
      const d2 = maxAbs(ours, mergedLogits);
      const d0 = maxAbs(ours, tfjsRowLogits(p.reference, rows));
      console.log(
        `${arch.label} LoRA sync: max |Δlogit| tfjs vs served adapters ${d1.toExponential(2)}, vs merged export ${d2.toExponential(2)} (adapters moved logits by ${d0.toFixed(3)})`,
      );
      expect(d0).toBeGreaterThan(0.01);
      expect(d1).toBeLessThan(1e-4);
      expect(d2).toBeLessThan(1e-4);
      // Export with merged weights → a plain Hugging Face directory giving the same logits.
      const exported = mkdtempSync(path.join(tmpdir(), 'anchor-lora-export-'));
      dirs.push(exported);
      writeHfDir(exported, ck.config, p.mergedWeights(), { tokenizerDir: ck.dir, rawConfig: ck.rawConfig });
      const back = loadHfDir(exported);
      const plain = arch.plain(back.weights);
      const d3 = maxAbs(ours, tfjsRowLogits(plain, rows));
      plain.dispose();
      expect(d3).toBeLessThan(1e-4);
      const out = await engine.generate(['def f', 'x ='], { maxNewTokens: 6, seed: 2 });
      expect(out.every((c) => c.tokenIds.length > 0 && c.logprobs.every(Number.isFinite))).toBe(true);
    } finally {
      await engine.release();
      p.dispose();
    }
  });

  it('checkpoints: save → load restores trained adapters and Adam state exactly; another base is refused', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'anchor-lora-src-'));
    dirs.push(d);
    const basePath = path.join(d, 'base');
    writeRandomHfDir(basePath, arch.config, { seed: 0 });
    const src = hfSource(basePath, { lora: arch.lora });
    const built = src.build({ seed: 4 });
    const opt = new AdamOptimizer(built.model.params, { lr: 1e-2 });
    const batch = buildCompletionBatch([[1, 2]], [[3, 4, 5]], 256);
    for (let s = 0; s < 2; s++) opt.trainStep(() => completionNll(built.model, batch));
    const ckDir = path.join(d, 'ck');
    src.save(ckDir, built.model.getWeights(), { config: opt.config, state: opt.getState() }, { step: 2 });
    const again = hfSource(basePath, { lora: arch.lora, expectHash: src.baseHash });
    const restored = again.load(ckDir);
    // Only the adapters are stored.
    expect([...restored.trainable.keys()].every((n) => /\.lora_[AB]$/.test(n))).toBe(true);
    const rebuilt = again.build({ trainable: restored.trainable, seed: 99 });
    try {
      expect(maxAbs(tfjsRowLogits(built.model, rows), tfjsRowLogits(rebuilt.model, rows))).toBe(0);
      expect(restored.optimizer!.state.step).toBe(2);
      for (const [n, t] of opt.getState().m)
        expect(Array.from(restored.optimizer!.state.m.get(n)!.data)).toEqual(Array.from(t.data));
      // A different base (same shapes, other weights) is refused.
      writeRandomHfDir(path.join(d, 'other'), arch.config, { seed: 5 });
      expect(() => hfSource(path.join(d, 'other'), { lora: arch.lora }).load(ckDir)).toThrow(/belongs to base/);
      expect(() => hfSource(path.join(d, 'other'), { lora: arch.lora, expectHash: src.baseHash })).toThrow(
        /not the base this run started from/,
      );
    } finally {
      opt.dispose();
      built.dispose();
      rebuilt.dispose();
    }
  });
});

describe('LoRA target modules', () => {
  it('default to the architecture’s attention projections; modules of the other architecture are refused', () => {
    for (const arch of ARCHS) {
      const ck = fixture(arch);
      const p = createHfPolicy(ck.config, ck.weights, { lora: loraSchema.parse({ rank: 2 }) });
      const modules = new Set(
        [...p.model.params.keys()].map((n) => n.replace(/^(model\.layers|h)\.\d+\./, '').replace(/\.lora_[AB]$/, '')),
      );
      p.dispose();
      expect([...modules].sort()).toEqual(
        arch.config.arch === 'gpt2'
          ? ['attn.c_attn']
          : ['self_attn.k_proj', 'self_attn.o_proj', 'self_attn.q_proj', 'self_attn.v_proj'],
      );
    }
    const [llama, gpt] = ARCHS as [Arch, Arch];
    const g = fixture(gpt);
    expect(() => createHfPolicy(g.config, g.weights, { lora: loraSchema.parse({ target_modules: ['q_proj'] }) })).toThrow(
      /policy\.lora\.target_modules: q_proj is not a GPT-2 module \(its modules: c_attn, c_proj, c_fc\)/,
    );
    const l = fixture(llama);
    expect(() => createHfPolicy(l.config, l.weights, { lora: loraSchema.parse({ target_modules: ['c_fc'] }) })).toThrow(
      /c_fc is not a Llama-family module/,
    );
  });
});

describe.each(ARCHS)('LoRA dropout on $label', (arch) => {
  const prompts = rows.map((r) => r.slice(0, 2));
  const completions = rows.map((r) => r.slice(2));
  const batch = buildCompletionBatch(prompts, completions, 256);
  /** The summed completion log-prob's adapter gradients, optionally in the optimizer's pass (`key`). */
  const grads = (model: PolicyModel, key?: number): Float32Array[] =>
    tf.tidy(() => {
      const vars = [...model.params.values()];
      const r = tf.variableGrads(
        () =>
          tf.sum(
            completionLogProbs(model, batch, { entropy: false, ...(key === undefined ? {} : { dropoutKey: key }) }).logProbs,
          ) as tf.Scalar,
        vars,
      );
      return vars.map((v) => Float32Array.from(r.grads[v.name]!.dataSync()));
    });
  const sameAll = (a: Float32Array[], b: Float32Array[]): boolean => a.every((t, i) => same(t, b[i]!));

  it('changes the gradients only in the optimizer pass, the same way for the same seed and step', () => {
    const ck = fixture(arch);
    const spec = (dropout: number) => ({ ...arch.lora, dropout });
    const p0 = createHfPolicy(ck.config, ck.weights, { lora: spec(0), seed: 1 });
    const p1 = createHfPolicy(ck.config, ck.weights, { lora: spec(0.3), seed: 1 });
    const p2 = createHfPolicy(ck.config, ck.weights, { lora: spec(0.3), seed: 1 });
    try {
      // Trained-looking adapters (B ≠ 0), the same in all three.
      const rng = new Rng(8);
      const adapters = p0.model.getWeights();
      for (const t of adapters.values()) for (let i = 0; i < t.data.length; i++) t.data[i] = rng.normal() * 0.2;
      for (const p of [p0, p1, p2]) p.model.setWeights(adapters);
      const g0 = grads(p0.model, 5);
      const g1 = grads(p1.model, 5);
      expect(sameAll(g1, g0)).toBe(false);
      expect(sameAll(grads(p1.model, 5), g1)).toBe(true); // the same step redraws the same masks
      expect(sameAll(grads(p2.model, 5), g1)).toBe(true); // another model from the same seed too
      expect(sameAll(grads(p1.model, 6), g1)).toBe(false); // the next step draws new ones
      // Outside the optimizer's pass (π_old, evaluation) there is no dropout.
      expect(sameAll(grads(p1.model), grads(p0.model))).toBe(true);
      expect(maxAbs(tfjsRowLogits(p1.model, rows), tfjsRowLogits(p0.model, rows))).toBe(0);
    } finally {
      p0.dispose();
      p1.dispose();
      p2.dispose();
    }
  });

  it('training with dropout resumes exactly from a checkpoint', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'anchor-lora-drop-'));
    dirs.push(d);
    const basePath = path.join(d, 'base');
    writeRandomHfDir(basePath, arch.config, { seed: 0 });
    const lora = { ...arch.lora, dropout: 0.25 };
    const step = (model: PolicyModel, opt: AdamOptimizer): void => {
      opt.trainStep(() => {
        const lp = completionLogProbs(model, batch, { entropy: false, dropoutKey: opt.step }).logProbs;
        return tf.neg(tf.mean(lp)) as tf.Scalar;
      });
    };
    const src = hfSource(basePath, { lora });
    const a = src.build({ seed: 3 });
    const optA = new AdamOptimizer(a.model.params, { lr: 1e-2 });
    for (let s = 0; s < 2; s++) step(a.model, optA);
    src.save(path.join(d, 'ck'), a.model.getWeights(), { config: optA.config, state: optA.getState() }, { step: 2 });
    const restored = src.load(path.join(d, 'ck'));
    const b = src.build({ seed: 3, trainable: restored.trainable });
    const optB = new AdamOptimizer(b.model.params, restored.optimizer!.config);
    optB.setState(restored.optimizer!.state);
    // Without dropout the same steps end elsewhere (dropout did take part).
    const plain = hfSource(basePath, { lora: { ...lora, dropout: 0 } }).build({ seed: 3 });
    const optP = new AdamOptimizer(plain.model.params, { lr: 1e-2 });
    try {
      for (let s = 0; s < 2; s++) {
        step(a.model, optA);
        step(b.model, optB);
      }
      for (let s = 0; s < 4; s++) step(plain.model, optP);
      const wa = a.model.getWeights();
      for (const [n, t] of b.model.getWeights()) expect(same(t.data, wa.get(n)!.data), n).toBe(true);
      expect([...plain.model.getWeights()].every(([n, t]) => same(t.data, wa.get(n)!.data))).toBe(false);
    } finally {
      for (const o of [optA, optB, optP]) o.dispose();
      for (const p of [a, b, plain]) p.dispose();
    }
  });
});
