import { describe, expect, it } from 'vitest';
import { gatedUpdate, type Restorable } from '../../src/gate/transaction.ts';

/** A tiny model + Adam-like optimizer state, standing in for the policy's tensors. */
class TinyModel implements Restorable<{ w: Float32Array; m: Float32Array; v: Float32Array; step: number }> {
  w = new Float32Array([0.5, -1.25, 2]);
  m = new Float32Array([0.01, 0.02, 0.03]);
  v = new Float32Array([0.1, 0.2, 0.3]);
  step = 7;
  snapshot() {
    return { w: this.w.slice(), m: this.m.slice(), v: this.v.slice(), step: this.step };
  }
  restore(s: { w: Float32Array; m: Float32Array; v: Float32Array; step: number }) {
    this.w.set(s.w);
    this.m.set(s.m);
    this.v.set(s.v);
    this.step = s.step;
  }
  applyUpdate(grad: number[]) {
    this.step++;
    for (let i = 0; i < this.w.length; i++) {
      this.m[i] = 0.9 * this.m[i]! + 0.1 * grad[i]!;
      this.v[i] = 0.999 * this.v[i]! + 0.001 * grad[i]! * grad[i]!;
      this.w[i] = this.w[i]! - (0.01 * this.m[i]!) / (Math.sqrt(this.v[i]!) + 1e-8);
    }
  }
}

describe('gatedUpdate', () => {
  it('DENY restores the exact pre-update weights and optimizer state', async () => {
    const model = new TinyModel();
    const before = model.snapshot();
    const out = await gatedUpdate(
      model,
      () => model.applyUpdate([Number.NaN, 1, 2]),
      () => ({ decision: 'DENY', commit: false }),
    );
    expect(out.restored).toBe(true);
    expect(Array.from(model.w)).toEqual(Array.from(before.w));
    expect(Array.from(model.m)).toEqual(Array.from(before.m));
    expect(Array.from(model.v)).toEqual(Array.from(before.v));
    expect(model.step).toBe(7);
  });

  it('AUTHORIZE keeps the update', async () => {
    const model = new TinyModel();
    const before = model.snapshot();
    const out = await gatedUpdate(
      model,
      () => model.applyUpdate([1, 1, 1]),
      async () => ({ commit: true }),
    );
    expect(out.restored).toBe(false);
    expect(model.step).toBe(8);
    expect(Array.from(model.w)).not.toEqual(Array.from(before.w));
  });

  it('restores before rethrowing when the gate or the update throws', async () => {
    const model = new TinyModel();
    const before = model.snapshot();
    await expect(
      gatedUpdate(
        model,
        () => model.applyUpdate([1, 2, 3]),
        () => {
          throw new Error('sandbox down');
        },
      ),
    ).rejects.toThrow('sandbox down');
    expect(Array.from(model.w)).toEqual(Array.from(before.w));
    expect(model.step).toBe(7);
  });
});
