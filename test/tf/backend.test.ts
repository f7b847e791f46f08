/**
 * The tfjs backend setup (src/tf/backend.ts): on wasm, tensors saved for the backward pass share
 * their buffer instead of copying it, and training is unchanged by it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initTf, tf } from '../../src/tf/backend.ts';

let backend = '';
beforeAll(async () => {
  backend = await initTf(() => {});
});

describe('wasm Identity shares buffers', () => {
  it('a clone adds no buffer and reads the same values; disposing either leaves the other intact', () => {
    if (backend !== 'wasm') return; // the override is wasm-only
    const engineBackend = tf.engine().backend as unknown as { numDataIds(): number };
    const x = tf.tensor1d([1, 2, 3]);
    const before = engineBackend.numDataIds();
    const y = tf.clone(x);
    expect(engineBackend.numDataIds()).toBe(before);
    x.dispose();
    expect(Array.from(y.dataSync())).toEqual([1, 2, 3]);
    y.dispose();
    expect(engineBackend.numDataIds()).toBe(before - 1);
  });

  it('gradients through saved tensors are the analytic ones, and a variable keeps its own buffer after assign', () => {
    const v = tf.variable(tf.tensor1d([1, -2, 3]));
    const { grads } = tf.variableGrads(() => tf.sum(tf.mul(tf.square(v), tf.sigmoid(v))) as tf.Scalar, [v]);
    const g = Array.from(grads[v.name]!.dataSync());
    const s = (z: number): number => 1 / (1 + Math.exp(-z));
    const want = [1, -2, 3].map((z) => 2 * z * s(z) + z * z * s(z) * (1 - s(z)));
    g.forEach((gi, i) => expect(gi).toBeCloseTo(want[i]!, 5));
    const kept = tf.clone(v);
    v.assign(tf.tensor1d([7, 8, 9]));
    expect(Array.from(kept.dataSync())).toEqual([1, -2, 3]);
    tf.dispose([v, kept, grads[v.name]!]);
  });
});
