/**
 * LoRA on the Llama-family policy: zero-initialised adapters give exactly the base logits; a
 * GRPO step changes only the adapters (base and reference untouched); the engine's adapter
 * inputs take new adapters without a rebuild and match the tfjs model and a merged-weights export.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initTf } from '../../../src/tf/backend.ts';
import { OnnxRolloutEngine } from '../../../src/policy/engine/rollout-engine.ts';
import { OrtDecoder } from '../../../src/policy/engine/ort-decoder.ts';
import { createHfPolicy } from '../../../src/policy/hf/hf-policy.ts';
import { loadHfDir, writeHfDir } from '../../../src/policy/hf/hf-dir.ts';
import { loraSchema } from '../../../src/policy/hf/lora.ts';
import { LlamaModel } from '../../../src/policy/hf/llama-model.ts';
import { tinyLlamaConfig, writeRandomHfDir } from '../../../src/policy/hf/random-dir.ts';
import { hfSource } from '../../../src/policy/policy-source.ts';
import { exportLlamaToOnnx } from '../../../src/policy/onnx/export-llama.ts';
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

function fixture() {
  const d = mkdtempSync(path.join(tmpdir(), 'anchor-lora-'));
  dirs.push(d);
  writeRandomHfDir(d, { arch: 'llama', llama: tinyLlamaConfig() }, { seed: 11 });
  return loadHfDir(d);
}

const lora = loraSchema.parse({ rank: 4, alpha: 8, target_modules: ['q_proj', 'v_proj', 'down_proj'] });
const rows = [
  [72, 101, 108, 108, 111],
  [61, 32, 49],
  [100, 101, 102, 32, 102],
];

describe('LoRA', () => {
  it('zero-initialised adapters give exactly the base logits', () => {
    const ck = fixture();
    const p = createHfPolicy(ck.config, ck.weights, { lora, seed: 1 });
    const base = LlamaModel.fromWeights(tinyLlamaConfig(), ck.weights);
    try {
      expect([...p.model.params.keys()].every((n) => /\.lora_[AB]$/.test(n))).toBe(true);
      expect(p.model.params.size).toBe(2 * 3 * 2);
      const a = tfjsRowLogits(p.model, rows);
      expect(maxAbs(a, tfjsRowLogits(base, rows))).toBe(0);
      expect(maxAbs(a, tfjsRowLogits(p.reference, rows))).toBe(0);
    } finally {
      p.dispose();
      base.dispose();
    }
  });

  it('a GRPO step changes only the adapters; the reference stays the base', () => {
    const ck = fixture();
    const p = createHfPolicy(ck.config, ck.weights, { lora, seed: 1 });
    try {
      const model = p.model as LlamaModel;
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
      for (const [n, t] of model.baseWeights())
        expect(Buffer.from(t.data.buffer).equals(Buffer.from(baseBefore.get(n)!.data.buffer))).toBe(true);
      let changed = 0;
      for (const [n, t] of model.getWeights())
        if (!Buffer.from(t.data.buffer).equals(Buffer.from(adaptersBefore.get(n)!.data.buffer))) changed++;
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
    const ck = fixture();
    const p = createHfPolicy(ck.config, ck.weights, { lora, seed: 1 });
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
      const merged = await OrtDecoder.create(exportLlamaToOnnx(tinyLlamaConfig(), p.mergedWeights()));
      const mergedLogits = await ortRowLogits(merged, rows, 'full');
      await merged.dispose();
      const d1 = maxAbs(ours, served);
      const d2 = maxAbs(ours, mergedLogits);
      const d0 = maxAbs(ours, tfjsRowLogits(p.reference, rows));
      console.log(
        `LoRA sync: max |Δlogit| tfjs vs served adapters ${d1.toExponential(2)}, vs merged export ${d2.toExponential(2)} (adapters moved logits by ${d0.toFixed(3)})`,
      );
      expect(d0).toBeGreaterThan(0.01);
      expect(d1).toBeLessThan(1e-4);
      expect(d2).toBeLessThan(1e-4);
      // Export with merged weights → a plain Hugging Face directory giving the same logits.
      const exported = mkdtempSync(path.join(tmpdir(), 'anchor-lora-export-'));
      dirs.push(exported);
      writeHfDir(exported, ck.config, p.mergedWeights(), { tokenizerDir: ck.dir, rawConfig: ck.rawConfig });
      const back = loadHfDir(exported);
      const plain = LlamaModel.fromWeights(tinyLlamaConfig(), back.weights);
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
});

describe('Hugging Face policy checkpoints', () => {
  it('save → load restores trained adapters and Adam state exactly; another base is refused', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'anchor-lora-src-'));
    dirs.push(d);
    const basePath = path.join(d, 'base');
    const src = hfSource(basePath, { lora, randomIfMissing: true });
    const built = src.build({ seed: 4 });
    const opt = new AdamOptimizer(built.model.params, { lr: 1e-2 });
    const batch = buildCompletionBatch([[1, 2]], [[3, 4, 5]], 256);
    for (let s = 0; s < 2; s++) opt.trainStep(() => completionNll(built.model, batch));
    const ckDir = path.join(d, 'ck');
    src.save(ckDir, built.model.getWeights(), { config: opt.config, state: opt.getState() }, { step: 2 });
    const again = hfSource(basePath, { lora, expectHash: src.baseHash });
    const restored = again.load(ckDir);
    const rebuilt = again.build({ trainable: restored.trainable, seed: 99 });
    try {
      expect(maxAbs(tfjsRowLogits(built.model, rows), tfjsRowLogits(rebuilt.model, rows))).toBe(0);
      expect(restored.optimizer!.state.step).toBe(2);
      for (const [n, t] of opt.getState().m)
        expect(Array.from(restored.optimizer!.state.m.get(n)!.data)).toEqual(Array.from(t.data));
      // A different base (same shapes, other weights) is refused.
      writeRandomHfDir(path.join(d, 'other'), { arch: 'llama', llama: tinyLlamaConfig() }, { seed: 5 });
      expect(() => hfSource(path.join(d, 'other'), { lora }).load(ckDir)).toThrow(/belongs to base/);
      expect(() => hfSource(path.join(d, 'other'), { lora, expectHash: src.baseHash })).toThrow(
        /not the base this run started from/,
      );
    } finally {
      opt.dispose();
      built.dispose();
      rebuilt.dispose();
    }
  });
});
