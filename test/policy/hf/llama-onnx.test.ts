/**
 * The project's own ONNX export of Llama-family models (GQA, q/k/v bias, tied and untied heads)
 * gives the tfjs model's logits within 1e-4, for a left-padded batch in one forward and for
 * step-by-step KV-cached decoding; and a model loaded from a Hugging Face directory samples
 * through the rollout engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf } from '../../../src/tf/backend.ts';
import { OrtDecoder } from '../../../src/policy/engine/mapped-decoder.ts';
import { exportLlamaToOnnx } from '../../../src/policy/onnx/export-llama.ts';
import { LlamaModel } from '../../../src/policy/hf/llama-model.ts';
import { randomHfWeights, tinyLlamaConfig, writeRandomHfDir } from '../../../src/policy/hf/random-dir.ts';
import type { HfModelConfig, LlamaConfig } from '../../../src/policy/hf/hf-config.ts';
import { loadHfDir } from '../../../src/policy/hf/hf-dir.ts';
import { createHfPolicy } from '../../../src/policy/hf/hf-policy.ts';
import { OnnxRolloutEngine } from '../../../src/policy/engine/rollout-engine.ts';
import { Rng } from '../../../src/util/rng.ts';
import { maxAbs, ortRowLogits, tfjsRowLogits } from './logit-helpers.ts';

beforeAll(async () => {
  await initTf();
});

const rowsFor = (V: number): number[][] => {
  const rng = new Rng(9);
  return [7, 4, 6].map((n) => Array.from({ length: n }, () => rng.int(V)));
};

describe('Llama ONNX export', () => {
  const shapes: [string, LlamaConfig][] = [
    ['GQA 4 heads / 2 kv heads, untied', tinyLlamaConfig()],
    ['q/k/v bias (Qwen2), tied head, multi-query', tinyLlamaConfig({ qkvBias: true, tiedHead: true, kvHeads: 1 })],
    ['o_proj bias, plain multi-head', tinyLlamaConfig({ qkvBias: true, oBias: true, kvHeads: 4, ropeTheta: 500000 })],
  ];
  for (const [label, cfg] of shapes) {
    it(`${label}: ONNX Runtime matches tfjs within 1e-4 (full and cached)`, async () => {
      const w = randomHfWeights({ arch: 'llama', llama: cfg }, 4, 0.2);
      const model = LlamaModel.fromWeights(cfg, w);
      const rows = rowsFor(cfg.vocabSize);
      const ref = tfjsRowLogits(model, rows);
      model.dispose();
      const dec = await OrtDecoder.create(exportLlamaToOnnx(cfg, w));
      try {
        const full = maxAbs(ref, await ortRowLogits(dec, rows, 'full'));
        const cached = maxAbs(ref, await ortRowLogits(dec, rows, 'cached'));
        console.log(`llama export (${label}): max |Δlogit| full ${full.toExponential(2)}, cached ${cached.toExponential(2)}`);
        expect(full).toBeLessThan(1e-4);
        expect(cached).toBeLessThan(1e-4);
      } finally {
        await dec.dispose();
      }
    });
  }
});

describe('Hugging Face directories through the rollout engine', () => {
  for (const arch of ['llama', 'gpt2'] as const) {
    it(`${arch}: the project's ONNX export of a loaded directory matches tfjs and samples; a sync rebuilds with new weights`, async () => {
      const d = mkdtempSync(path.join(tmpdir(), 'anchor-hf-engine-'));
      try {
        const cfg: HfModelConfig =
          arch === 'llama'
            ? { arch, llama: tinyLlamaConfig() }
            : { arch, gpt: { vocabSize: 257, context: 64, layers: 2, dModel: 16, heads: 2, tiedHead: true } };
        writeRandomHfDir(d, cfg, { seed: 6, shardBytes: 30_000 });
        const ck = loadHfDir(d);
        const p = createHfPolicy(ck.config, ck.weights);
        const engine = await OnnxRolloutEngine.fromWeights(p.serving, p.model.getWeights(), { tokenizer: ck.tokenizer });
        try {
          const rows = [
            [100, 101, 102],
            [40, 41, 42, 43, 44],
          ];
          const served = await ortRowLogits(engine.currentDecoder, rows, 'full');
          expect(maxAbs(tfjsRowLogits(p.model, rows), served)).toBeLessThan(1e-4);
          const out = await engine.generate(['def add(a, b):', 'x'], { maxNewTokens: 5, seed: 1, stop: ['\n'] });
          expect(out).toHaveLength(2);
          expect(out.every((c) => c.tokenIds.length > 0 && c.logprobs.every((l) => Number.isFinite(l) && l <= 0))).toBe(true);
          const before = engine.currentDecoder;
          const w = p.model.getWeights();
          for (const t of w.values()) for (let i = 0; i < t.data.length; i++) t.data[i]! *= 1.5;
          await engine.updateWeights(w);
          expect(engine.currentDecoder).not.toBe(before);
        } finally {
          await engine.release();
          p.dispose();
        }
      } finally {
        rmSync(d, { recursive: true, force: true });
      }
    });
  }
});
