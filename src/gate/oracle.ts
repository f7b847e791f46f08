/**
 * Oracle: checks hard invariants of a proposed action exactly and deterministically.
 *
 * Its verdict depends on nothing but the action's evidence and the configured invariant list —
 * `Oracle.check` takes no simulator, critic, library or RNG — so no gap in simulation or in the
 * failure library can let a hard-invariant violation through.
 */
import type { InvariantConfig } from './config.ts';

/** One broken invariant: which, the observed value and the limit it broke. */
export interface Violation {
  readonly invariant: string;
  readonly value: number;
  readonly limit: number;
}

/** The oracle's verdict. */
export interface OracleVerdict {
  readonly ok: boolean;
  readonly violations: readonly Violation[];
}

/** A hard invariant over evidence of type E: returns its violations (empty when satisfied). */
export interface Invariant<E> {
  readonly name: string;
  check(evidence: E): Violation[];
}

/** Checks a fixed list of invariants; pure and deterministic. */
export class Oracle<E> {
  readonly invariants: readonly Invariant<E>[];

  constructor(invariants: readonly Invariant<E>[]) {
    this.invariants = [...invariants];
  }

  /** All violations of all invariants, in list order. */
  check(evidence: E): OracleVerdict {
    const violations: Violation[] = [];
    for (const inv of this.invariants) violations.push(...inv.check(evidence));
    return { ok: violations.length === 0, violations };
  }
}

/**
 * Evidence of one proposed policy update (or checkpoint promotion), collected by the training
 * loop after computing the update and before applying it.
 */
export interface ProposedUpdate {
  readonly kind: 'policy_update' | 'checkpoint_promotion';
  /** Optimizer step the update would produce. */
  readonly step: number;
  /** GRPO loss of the update. */
  readonly loss: number;
  /** Global L2 norm of the gradients (before clipping). */
  readonly gradNorm: number;
  /** Counts of non-finite (NaN/±Inf) values in the loss, the gradients and the updated weights. */
  readonly nonFinite: { readonly loss: number; readonly grads: number; readonly weights: number };
  /** Mean per-token KL of the updated policy to the reference (k3 estimator), nats. */
  readonly klToRef: number;
  /** Completion length statistics of the window the update was computed from, tokens. */
  readonly completionLength: { readonly mean: number; readonly min: number; readonly max: number };
  /** Settled programs that reported a harness-tamper or sandbox-escape signal. */
  readonly sandboxIntegritySignals: number;
}

/** Number of non-finite values in the given arrays (helper for filling `ProposedUpdate.nonFinite`). */
export function countNonFinite(...arrays: readonly ArrayLike<number>[]): number {
  let n = 0;
  for (const a of arrays) for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i]!)) n++;
  return n;
}

// Comparisons are written `!(value <= limit)` so a NaN value counts as a violation.
function finiteInvariant(): Invariant<ProposedUpdate> {
  return {
    name: 'finite',
    check(e) {
      const out: Violation[] = [];
      const nonFinite = e.nonFinite.loss + e.nonFinite.grads + e.nonFinite.weights;
      if (!(nonFinite <= 0)) out.push({ invariant: 'finite', value: nonFinite, limit: 0 });
      for (const [name, v] of [
        ['finite.loss', e.loss],
        ['finite.grad_norm', e.gradNorm],
        ['finite.kl', e.klToRef],
      ] as const) {
        if (!Number.isFinite(v)) out.push({ invariant: name, value: v, limit: 0 });
      }
      return out;
    },
  };
}

function klCapInvariant(maxKl: number): Invariant<ProposedUpdate> {
  return {
    name: 'kl_cap',
    check: (e) => (!(e.klToRef <= maxKl) ? [{ invariant: 'kl_cap', value: e.klToRef, limit: maxKl }] : []),
  };
}

function lengthBoundsInvariant(minMean: number, maxMean: number): Invariant<ProposedUpdate> {
  return {
    name: 'length_bounds',
    check(e) {
      const m = e.completionLength.mean;
      if (!(m >= minMean)) return [{ invariant: 'length_bounds.min_mean', value: m, limit: minMean }];
      if (!(m <= maxMean)) return [{ invariant: 'length_bounds.max_mean', value: m, limit: maxMean }];
      return [];
    },
  };
}

function sandboxIntegrityInvariant(maxSignals: number): Invariant<ProposedUpdate> {
  return {
    name: 'sandbox_integrity',
    check: (e) =>
      !(e.sandboxIntegritySignals <= maxSignals)
        ? [{ invariant: 'sandbox_integrity', value: e.sandboxIntegritySignals, limit: maxSignals }]
        : [],
  };
}

/** The invariants over {@link ProposedUpdate} named by a config list. */
function updateInvariants(configs: readonly InvariantConfig[]): Invariant<ProposedUpdate>[] {
  return configs.map((c) => {
    switch (c.kind) {
      case 'finite':
        return finiteInvariant();
      case 'kl_cap':
        return klCapInvariant(c.max_kl);
      case 'length_bounds':
        return lengthBoundsInvariant(c.min_mean, c.max_mean);
      case 'sandbox_integrity':
        return sandboxIntegrityInvariant(c.max_signals);
    }
  });
}

/** An oracle over proposed policy updates with the configured invariants. */
export function createUpdateOracle(configs: readonly InvariantConfig[]): Oracle<ProposedUpdate> {
  return new Oracle(updateInvariants(configs));
}
