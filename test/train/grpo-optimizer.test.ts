/**
 * Every `grpo:` optimizer value reaches the optimizer: each learning-rate schedule the schema
 * accepts runs as that schedule over the run's optimizer steps (steps × inner_iterations).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../src/train/run-config.ts';
import { AdamOptimizer, LR_SCHEDULES } from '../../src/policy/optimizer.ts';
import { initTf, tf } from '../../src/tf/backend.ts';
import { grpoOptimizerConfig } from '../../src/train/config.ts';

/** The learning rates an optimizer built from a `grpo:` block uses over its optimizer steps. */
function lrs(grpo: Record<string, unknown>): number[] {
  const g = runConfigSchema.parse({ grpo }).grpo;
  const w = tf.variable(tf.tensor1d([1, 2]));
  const opt = new AdamOptimizer(new Map([['w', w]]), grpoOptimizerConfig(g));
  const out = Array.from(
    { length: g.steps * g.inner_iterations },
    () => opt.trainStep(() => tf.sum(tf.square(w)) as tf.Scalar).lr,
  );
  opt.dispose();
  w.dispose();
  return out;
}

describe('grpo optimizer config', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('accepts exactly the optimizer schedules', () => {
    expect(runConfigSchema.shape.grpo.unwrap().shape.lr_schedule.unwrap().options).toEqual([...LR_SCHEDULES]);
  });

  it('constant keeps lr; cosine and linear decay toward 0.1 × lr over the run; warmup ramps first', () => {
    expect(lrs({ steps: 5, lr: 0.01, lr_schedule: 'constant' })).toEqual(Array(5).fill(0.01));
    const cos = lrs({ steps: 5, lr: 0.01, lr_schedule: 'cosine' });
    const lin = lrs({ steps: 5, lr: 0.01, lr_schedule: 'linear' });
    for (const xs of [cos, lin]) {
      expect(xs[0]).toBeCloseTo(0.01, 12);
      for (let i = 1; i < xs.length; i++) expect(xs[i]!).toBeLessThan(xs[i - 1]!);
    }
    // Progress i/5 at optimizer step i: linear lr = floor + (lr − floor)(1 − i/5), cosine the half-cosine.
    expect(lin).toEqual([0, 1, 2, 3, 4].map((i) => expect.closeTo(0.001 + 0.009 * (1 - i / 5), 12)));
    expect(cos).toEqual([0, 1, 2, 3, 4].map((i) => expect.closeTo(0.001 + 0.009 * 0.5 * (1 + Math.cos((Math.PI * i) / 5)), 12)));
    expect(lrs({ steps: 4, lr: 0.01, warmup_steps: 2, lr_schedule: 'linear' }).slice(0, 2)).toEqual([0.005, 0.01]);
  });

  it('the decay spans steps × inner_iterations optimizer steps', () => {
    const xs = lrs({ steps: 2, inner_iterations: 3, lr: 0.01, lr_schedule: 'linear' });
    expect(xs).toHaveLength(6);
    expect(xs.at(-1)).toBeCloseTo(0.001 + 0.009 / 6, 12);
  });
});
