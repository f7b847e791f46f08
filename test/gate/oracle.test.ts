import { describe, expect, it } from 'vitest';
import { defaultGateConfig } from '../../src/gate/config.ts';
import { countNonFinite, createUpdateOracle, Oracle, type ProposedUpdate } from '../../src/gate/oracle.ts';

const ok: ProposedUpdate = {
  kind: 'policy_update',
  step: 3,
  loss: 0.4,
  gradNorm: 1.2,
  nonFinite: { loss: 0, grads: 0, weights: 0 },
  klToRef: 0.1,
  completionLength: { mean: 30, min: 4, max: 80 },
  sandboxIntegritySignals: 0,
};

const oracle = createUpdateOracle([
  { kind: 'finite' },
  { kind: 'kl_cap', max_kl: 0.5 },
  { kind: 'length_bounds', min_mean: 2, max_mean: 200 },
  { kind: 'sandbox_integrity', max_signals: 0 },
]);

describe('oracle', () => {
  it('accepts an update satisfying every invariant', () => {
    expect(oracle.check(ok)).toEqual({ ok: true, violations: [] });
  });

  it('flags non-finite loss, gradients or weights with the count', () => {
    const v = oracle.check({ ...ok, loss: Number.NaN, nonFinite: { loss: 1, grads: 7, weights: 2 } });
    expect(v.ok).toBe(false);
    expect(v.violations).toContainEqual({ invariant: 'finite', value: 10, limit: 0 });
    expect(v.violations.map((x) => x.invariant)).toContain('finite.loss');
    // Non-finite weights alone (loss fine) are still a violation.
    expect(oracle.check({ ...ok, nonFinite: { loss: 0, grads: 0, weights: 1 } }).violations).toEqual([
      { invariant: 'finite', value: 1, limit: 0 },
    ]);
  });

  it('enforces the KL cap, treating NaN KL as a violation', () => {
    expect(oracle.check({ ...ok, klToRef: 0.5 }).ok).toBe(true);
    expect(oracle.check({ ...ok, klToRef: 0.51 }).violations).toEqual([{ invariant: 'kl_cap', value: 0.51, limit: 0.5 }]);
    const nan = oracle.check({ ...ok, klToRef: Number.NaN });
    expect(nan.violations.map((x) => x.invariant).sort()).toEqual(['finite.kl', 'kl_cap']);
  });

  it('enforces length bounds on the mean completion length', () => {
    expect(oracle.check({ ...ok, completionLength: { mean: 1, min: 0, max: 2 } }).violations).toEqual([
      { invariant: 'length_bounds.min_mean', value: 1, limit: 2 },
    ]);
    expect(oracle.check({ ...ok, completionLength: { mean: 250, min: 100, max: 400 } }).violations).toEqual([
      { invariant: 'length_bounds.max_mean', value: 250, limit: 200 },
    ]);
  });

  it('enforces sandbox integrity', () => {
    expect(oracle.check({ ...ok, sandboxIntegritySignals: 2 }).violations).toEqual([
      { invariant: 'sandbox_integrity', value: 2, limit: 0 },
    ]);
  });

  it('checks only the configured invariants', () => {
    const klOnly = createUpdateOracle([{ kind: 'kl_cap', max_kl: 1 }]);
    expect(klOnly.check({ ...ok, sandboxIntegritySignals: 5, completionLength: { mean: 0, min: 0, max: 0 } }).ok).toBe(true);
    expect(klOnly.check({ ...ok, klToRef: 2 }).ok).toBe(false);
  });

  it('default config yields the four documented invariants', () => {
    const o = createUpdateOracle(defaultGateConfig().invariants);
    expect(o.invariants.map((i) => i.name)).toEqual(['finite', 'kl_cap', 'length_bounds', 'sandbox_integrity']);
  });

  it('is deterministic and takes nothing but the evidence', () => {
    const bad = { ...ok, klToRef: 3, sandboxIntegritySignals: 1 };
    expect(oracle.check(bad)).toEqual(oracle.check(bad));
    expect(Oracle.prototype.check.length).toBe(1);
  });

  it('is generic over the evidence type', () => {
    const o = new Oracle<{ x: number }>([
      { name: 'pos', check: (e) => (e.x > 0 ? [] : [{ invariant: 'pos', value: e.x, limit: 0 }]) },
    ]);
    expect(o.check({ x: 1 }).ok).toBe(true);
    expect(o.check({ x: -1 }).violations).toEqual([{ invariant: 'pos', value: -1, limit: 0 }]);
  });

  it('countNonFinite counts NaN and infinities across arrays', () => {
    expect(countNonFinite(new Float32Array([1, Number.NaN, 2]), [Number.POSITIVE_INFINITY, -Infinity, 0])).toBe(3);
    expect(countNonFinite([])).toBe(0);
  });
});
