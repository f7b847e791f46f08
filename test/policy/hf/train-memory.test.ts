/**
 * The training-memory estimate of Llama-family policies: it reproduces the measured peaks it is
 * quoted against; on the wasm backend a step above the heap is split into micro-batches of rows
 * that fit, and a sequence too long for even one row is a coded error before anything runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../../src/tf/backend.ts';
import { LlamaModel } from '../../../src/policy/hf/llama-model.ts';
import { randomHfWeights, tinyLlamaConfig } from '../../../src/policy/hf/random-dir.ts';
import { WASM_HEAP_BYTES, llamaRowsPerPass, llamaTrainStepBytes } from '../../../src/policy/hf/train-memory.ts';

beforeAll(async () => {
  await initTf();
});

/** bench/hf-bench.ts's random ~50M Llama. */
const m50 = tinyLlamaConfig({
  vocabSize: 32000,
  context: 2048,
  layers: 10,
  dModel: 512,
  heads: 8,
  kvHeads: 4,
  headDim: 64,
  ffn: 1536,
  tiedHead: true,
});
const MB = 2 ** 20;

describe('Llama training memory', () => {
  it('the estimate stays near the measured 50M peaks and grows with the step’s tokens', () => {
    const step = { rows: 4, length: 128, completion: 64 };
    // Measured with tf.profile (peak tensor bytes) on the wasm backend, policy only: 3,329 MB full, 2,621 MB LoRA.
    const full = llamaTrainStepBytes(m50, false, step); // includes the reference copy (+183 MB)
    expect(full / MB).toBeGreaterThan(3329);
    expect(full / MB).toBeLessThan(3329 * 1.15 + 183);
    const lora = llamaTrainStepBytes(m50, true, step) / MB;
    expect(lora).toBeGreaterThan(2621 * 0.95);
    expect(lora).toBeLessThan(2621 * 1.1);
    expect(llamaTrainStepBytes(m50, false, { ...step, rows: 8 })).toBeGreaterThan(full * 1.5);
  });

  it('on wasm, a step above the heap is split into rows that fit; not even one row is an UNSUPPORTED error naming the estimate and limit', () => {
    if (tf.getBackend() !== 'wasm') {
      console.log(`train-memory: backend ${tf.getBackend()} is not checked; skipping`);
      return;
    }
    const step = { rows: 4, length: 128, completion: 64 };
    expect(llamaRowsPerPass(m50, false, step)).toBe(4); // the measured 50M step fits whole
    const big = { rows: 16, length: 256, completion: 128 };
    const rows = llamaRowsPerPass(m50, true, big);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(16);
    expect(llamaTrainStepBytes(m50, true, { ...big, rows })).toBeLessThanOrEqual(WASM_HEAP_BYTES);
    expect(llamaTrainStepBytes(m50, true, { ...big, rows: rows + 1 })).toBeGreaterThan(WASM_HEAP_BYTES);
    const long = { rows: 8, length: 2048, completion: 1024 };
    expect(() => llamaRowsPerPass(m50, false, long)).toThrow(
      /policy: a full fine-tuning step needs an estimated \d+\.\d\d GB of tensors for even one sequence of 2048 tokens, more than the 4\.29 GB the wasm backend can address/,
    );
    try {
      llamaRowsPerPass(m50, false, long);
    } catch (err) {
      expect((err as { code: string }).code).toBe('UNSUPPORTED');
    }
    // The model answers the trainer's question.
    const cfg = tinyLlamaConfig();
    const model = LlamaModel.fromWeights(cfg, randomHfWeights({ arch: 'llama', llama: cfg }, 1));
    try {
      expect(model.trainRowsPerPass({ rows: 8, length: 32, completion: 16 })).toBe(8);
      expect(model.trainRowsPerPass({ rows: 4096, length: 512, completion: 256 })).toBeLessThan(4096);
    } finally {
      model.dispose();
    }
  });
});
