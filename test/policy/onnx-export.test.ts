/** Structure of the exported ONNX model: opset, interface names and types, initializers. */
import { describe, expect, it } from 'vitest';
import { decodeModel } from '../../src/policy/onnx/onnx-proto.ts';
import { EXPORT_OPSET, exportGptToOnnx } from '../../src/policy/onnx/export-gpt.ts';
import { expectedWeightShapes } from '../../src/policy/weights.ts';
import type { GptConfig } from '../../src/policy/gpt-config.ts';
import { randomWeights } from './parity-reference.ts';

const c: GptConfig = { vocabSize: 11, context: 8, layers: 2, dModel: 8, heads: 2, tiedHead: true };
const w = randomWeights(c, 1);

describe('exportGptToOnnx', () => {
  const model = decodeModel(exportGptToOnnx(c, w));
  const g = model.graph;
  const dims = (name: string, list = g.input) =>
    list.find((v) => v.name === name)!.type.tensor_type.shape.dim.map((d) => ('dim_value' in d ? d.dim_value : d.dim_param));
  const elem = (name: string, list = g.input) => list.find((v) => v.name === name)!.type.tensor_type.elem_type;

  it('is an opset-17 model with the optimum decoder interface', () => {
    expect(EXPORT_OPSET).toBeGreaterThanOrEqual(17);
    expect(model.opset_import).toEqual([{ domain: '', version: EXPORT_OPSET }]);
    expect(g.input.map((i) => i.name)).toEqual([
      'input_ids',
      'attention_mask',
      'position_ids',
      'past_key_values.0.key',
      'past_key_values.0.value',
      'past_key_values.1.key',
      'past_key_values.1.value',
    ]);
    expect(g.output.map((o) => o.name)).toEqual([
      'logits',
      'present.0.key',
      'present.0.value',
      'present.1.key',
      'present.1.value',
    ]);
    for (const n of ['input_ids', 'attention_mask', 'position_ids']) expect(elem(n)).toBe(7); // int64
    expect(elem('past_key_values.0.key')).toBe(1); // float32
    expect(dims('past_key_values.1.value')).toEqual(['batch_size', 2, 'past_sequence_length', 4]);
    expect(dims('logits', g.output)).toEqual(['batch_size', 'sequence_length', 11]);
    expect(dims('present.0.key', g.output)).toEqual(['batch_size', 2, 'total_sequence_length', 4]);
  });

  it('stores every contract weight as a float32 initializer with its shape and data', () => {
    const inits = new Map(g.initializer.map((t) => [t.name, t]));
    for (const [name, shape] of expectedWeightShapes(c)) {
      const t = inits.get(name);
      expect(t, name).toBeDefined();
      expect(t!.dims).toEqual(shape);
      expect(t!.data_type).toBe(1);
      const data = new Float32Array(Uint8Array.from(t!.raw_data!).buffer);
      expect(data).toEqual(w.get(name)!.data);
    }
  });

  it('uses only standard-domain operators available at opset 17 (no Gelu, no contrib ops)', () => {
    const ops = new Set(g.node.map((n) => n.op_type));
    expect(g.node.every((n) => !n.domain)).toBe(true);
    expect(ops.has('Gelu')).toBe(false);
    expect(ops.has('LayerNormalization')).toBe(true);
    expect(ops.has('Tanh')).toBe(true);
  });

  it('the engine layout exposes fixed-capacity cache inputs and new-key/value outputs', () => {
    const em = decodeModel(exportGptToOnnx(c, w, { layout: 'engine' }));
    expect(em.opset_import).toContainEqual({ domain: 'com.microsoft', version: 1 });
    const e = em.graph;
    expect(
      e.node
        .filter((n) => n.domain === 'com.microsoft')
        .map((n) => n.op_type)
        .sort(),
    ).toEqual(['FastGelu', 'FastGelu', 'FusedMatMul', 'FusedMatMul']);
    expect(e.input.map((i) => i.name).slice(3)).toEqual(['cache.0.key_t', 'cache.0.value', 'cache.1.key_t', 'cache.1.value']);
    expect(e.output.map((o) => o.name)).toEqual(['logits', 'new.0.key', 'new.0.value', 'new.1.key', 'new.1.value']);
  });

  it('rejects weights that break the contract', () => {
    const bad = new Map(w);
    bad.set('wte', { shape: [c.vocabSize, c.dModel + 1], data: new Float32Array(c.vocabSize * (c.dModel + 1)) });
    expect(() => exportGptToOnnx(c, bad)).toThrow(/wte/);
    const missing = new Map(w);
    missing.delete('ln_f.bias');
    expect(() => exportGptToOnnx(c, missing)).toThrow(/ln_f.bias/);
  });
});
