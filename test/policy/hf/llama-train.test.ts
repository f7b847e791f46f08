/**
 * Full fine-tuning of the tfjs Llama: the hand-written embedding gradient equals a finite
 * difference, and Adam steps on a fixed batch lower the loss and move every parameter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../../src/tf/backend.ts';
import { LlamaModel } from '../../../src/policy/hf/llama-model.ts';
import { randomHfWeights, tinyLlamaConfig } from '../../../src/policy/hf/random-dir.ts';
import { buildCompletionBatch, completionNll } from '../../../src/policy/logprobs.ts';
import { AdamOptimizer } from '../../../src/policy/optimizer.ts';

beforeAll(async () => {
  await initTf();
});

const cfg = tinyLlamaConfig({ vocabSize: 40, layers: 1, qkvBias: true });
const prompts = [
  [1, 2, 3],
  [4, 5],
];
const completions = [
  [6, 7, 8],
  [9, 10, 11, 12],
];

describe('Llama full fine-tuning', () => {
  it('embedding and q-projection gradients match finite differences', () => {
    const w = randomHfWeights({ arch: 'llama', llama: cfg }, 2, 0.3);
    const batch = buildCompletionBatch(prompts, completions, 0);
    const model = LlamaModel.fromWeights(cfg, w);
    try {
      const loss = (): number => tf.tidy(() => completionNll(model, batch).dataSync()[0]!);
      const grads = tf.tidy(() => {
        const r = tf.variableGrads(() => completionNll(model, batch), [...model.params.values()]);
        const out: Record<string, Float32Array> = {};
        for (const [n, v] of model.params) out[n] = r.grads[v.name]!.dataSync() as Float32Array;
        return out;
      });
      for (const [name, idx] of [
        ['model.embed_tokens.weight', 2 * cfg.dModel + 5],
        ['model.layers.0.self_attn.q_proj.weight', 17],
        ['model.layers.0.self_attn.k_proj.bias', 3],
      ] as const) {
        const base = model.getWeights();
        const eps = 1e-2;
        const bump = (d: number): number => {
          const ww = new Map([...base].map(([k, t]) => [k, { shape: t.shape, data: new Float32Array(t.data) }]));
          ww.get(name)!.data[idx]! += d;
          model.setWeights(ww);
          return loss();
        };
        const numeric = (bump(eps) - bump(-eps)) / (2 * eps);
        model.setWeights(base);
        expect(Math.abs(grads[name]![idx]! - numeric), name).toBeLessThan(2e-3 + 0.02 * Math.abs(numeric));
        expect(Math.abs(numeric), name).toBeGreaterThan(1e-5);
      }
    } finally {
      model.dispose();
    }
  });

  it('Adam steps lower the loss and move every parameter', () => {
    const w = randomHfWeights({ arch: 'llama', llama: cfg }, 3);
    const model = LlamaModel.fromWeights(cfg, w);
    const batch = buildCompletionBatch(prompts, completions, 0);
    const opt = new AdamOptimizer(model.params, { lr: 1e-2 });
    try {
      const first = opt.trainStep(() => completionNll(model, batch)).loss;
      let last = first;
      for (let s = 0; s < 8; s++) last = opt.trainStep(() => completionNll(model, batch)).loss;
      expect(last).toBeLessThan(first * 0.8);
      for (const [n, t] of model.getWeights())
        expect(Buffer.from(t.data.buffer).equals(Buffer.from(w.get(n)!.data.buffer)), n).toBe(false);
    } finally {
      opt.dispose();
      model.dispose();
    }
  });
});
