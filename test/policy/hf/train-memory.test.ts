/**
 * The training-memory estimates (Llama family and GPT-2): they reproduce the measured peaks they
 * are quoted against; on the wasm backend a step above the heap is split into micro-batches of
 * rows that fit, and a sequence too long for even one row is a coded error before anything runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../../src/tf/backend.ts';
import { LlamaModel, llamaMemoryShape } from '../../../src/policy/hf/llama-model.ts';
import { llama50mConfig, randomHfWeights, tinyGpt2Config, tinyLlamaConfig } from '../../../src/policy/hf/random-dir.ts';
import { WASM_HEAP_BYTES, rowsPerPass, trainStepBytes } from '../../../src/policy/hf/train-memory.ts';
import { GptModel, gptMemoryShape } from '../../../src/policy/model.ts';

beforeAll(async () => {
  await initTf();
});

/** bench/hf-bench.ts's random ~50M Llama. */
const m50 = llamaMemoryShape(llama50mConfig());
/** The held-out 36M GPT-2 of the fit. */
const g36 = gptMemoryShape({ vocabSize: 32000, context: 1024, layers: 6, dModel: 512, heads: 8, tiedHead: true });
const MB = 2 ** 20;
const step = { rows: 4, length: 128, completion: 64 };

describe('training memory estimates', () => {
  // Peaks measured with tf.profile on the wasm backend (policy only, so the full-fine-tuning
  // estimates, which count the KL reference's copy, are compared after removing it).
  for (const [label, shape, lora, measuredMb] of [
    ['Llama 50M, full', m50, false, 3329],
    ['Llama 50M, LoRA', m50, true, 2621],
    ['GPT-2 36M, full', g36, false, 2328],
    ['GPT-2 36M, LoRA', g36, true, 1781.8],
  ] as const) {
    it(`${label}: within −2% / +5% of the measured ${measuredMb} MB`, () => {
      const est = (trainStepBytes(shape, lora, step) - (lora ? 0 : 4 * shape.params)) / MB;
      expect(est).toBeGreaterThan(measuredMb * 0.98);
      expect(est).toBeLessThan(measuredMb * 1.05);
      expect(trainStepBytes(shape, lora, { ...step, rows: 8 })).toBeGreaterThan(trainStepBytes(shape, lora, step) * 1.3);
    });
  }

  it('on wasm, a step above the heap is split into rows that fit; not even one row is an UNSUPPORTED error naming the estimate and limit', () => {
    if (tf.getBackend() !== 'wasm') {
      console.log(`train-memory: backend ${tf.getBackend()} is not checked; skipping`);
      return;
    }
    expect(rowsPerPass(m50, false, step)).toBe(4); // the measured 50M step fits whole
    const big = { rows: 16, length: 256, completion: 128 };
    const rows = rowsPerPass(m50, true, big);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(16);
    expect(trainStepBytes(m50, true, { ...big, rows })).toBeLessThanOrEqual(WASM_HEAP_BYTES);
    expect(trainStepBytes(m50, true, { ...big, rows: rows + 1 })).toBeGreaterThan(WASM_HEAP_BYTES);
    const long = { rows: 8, length: 2048, completion: 1024 };
    expect(() => rowsPerPass(m50, false, long)).toThrow(
      /policy: a full fine-tuning step needs an estimated \d+\.\d\d GB of tensors for even one sequence of 2048 tokens, more than the 4\.29 GB the wasm backend can address/,
    );
    try {
      rowsPerPass(m50, false, long);
    } catch (err) {
      expect((err as { code: string }).code).toBe('UNSUPPORTED');
    }
    // Both models answer the trainer's question.
    const llama = tinyLlamaConfig();
    const gpt = tinyGpt2Config();
    const models = [
      LlamaModel.fromWeights(llama, randomHfWeights({ arch: 'llama', llama }, 1)),
      GptModel.fromWeights(gpt, randomHfWeights({ arch: 'gpt2', gpt }, 1)),
    ];
    try {
      for (const model of models) {
        expect(model.trainRowsPerPass({ rows: 8, length: 32, completion: 16 })).toBe(8);
        expect(model.trainRowsPerPass({ rows: 4096, length: 64, completion: 32 })).toBeLessThan(4096);
      }
    } finally {
      for (const model of models) model.dispose();
    }
  });
});
