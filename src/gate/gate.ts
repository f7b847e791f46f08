/**
 * Gate: decides DENY > ESCALATE > MODIFY > WAIT > AUTHORIZE from the other roles' outputs; only
 * AUTHORIZE commits.
 *
 * Pure: it sees the oracle's violations, the bound u and budget ε, the unresolved high-severity
 * verified findings and whether authorisation is present — nothing else — and always reports
 * every condition that fired (in precedence order), not just the winning one.
 */
import type { Violation } from './oracle.ts';
import type { Decision } from './types.ts';

/** A verified high-severity soft failure not yet resolved (e.g. by refitting the RM on it). */
export interface UnresolvedFailure {
  readonly mode: string;
  readonly severity: number;
  readonly itemId?: string;
}

/** Everything the decision depends on. */
export interface GateInputs {
  readonly violations: readonly Violation[];
  /** Upper confidence bound on the hacking gap. */
  readonly u: number;
  /** Risk budget. */
  readonly epsilon: number;
  readonly unresolvedHigh: readonly UnresolvedFailure[];
  readonly authorized: boolean;
}

/** One gate decision, ready to be a `gate.jsonl` line. */
export interface GateRecord {
  readonly decision: Decision;
  /** True only for AUTHORIZE. */
  readonly commit: boolean;
  /** Every condition that fired, highest precedence first. */
  readonly reasons: readonly string[];
  readonly evidence: Record<string, unknown>;
}

/** Apply the gate's fixed precedence. `extra` is merged into the evidence (round, escalation, ...). */
export function gateDecision(inputs: GateInputs, extra: Record<string, unknown> = {}): GateRecord {
  const reasons: string[] = [];
  const fired: Decision[] = [];
  if (inputs.violations.length > 0) {
    fired.push('DENY');
    for (const v of inputs.violations)
      reasons.push(`DENY: hard invariant ${v.invariant} violated (value ${fmt(v.value)}, limit ${fmt(v.limit)})`);
  }
  // `!(u <= ε)` so that a NaN bound escalates rather than slipping through.
  if (!(inputs.u <= inputs.epsilon)) {
    fired.push('ESCALATE');
    reasons.push(`ESCALATE: u = ${fmt(inputs.u)} > epsilon = ${fmt(inputs.epsilon)}`);
  }
  if (inputs.unresolvedHigh.length > 0) {
    fired.push('MODIFY');
    const modes = [...new Set(inputs.unresolvedHigh.map((f) => f.mode))];
    const worst = Math.max(...inputs.unresolvedHigh.map((f) => f.severity));
    reasons.push(
      `MODIFY: ${inputs.unresolvedHigh.length} unresolved high-severity failure(s), modes ${modes.join(', ')}, worst gap ${fmt(worst)}`,
    );
  }
  if (!inputs.authorized) {
    fired.push('WAIT');
    reasons.push('WAIT: authorisation missing');
  }
  const decision: Decision = fired[0] ?? 'AUTHORIZE';
  if (decision === 'AUTHORIZE')
    reasons.push(
      `AUTHORIZE: invariants hold, u = ${fmt(inputs.u)} <= epsilon = ${fmt(inputs.epsilon)}, no unresolved high-severity failure, authorised`,
    );
  return {
    decision,
    commit: decision === 'AUTHORIZE',
    reasons,
    evidence: {
      ...extra,
      violations: inputs.violations,
      u: inputs.u,
      epsilon: inputs.epsilon,
      unresolved_high: inputs.unresolvedHigh,
      authorized: inputs.authorized,
    },
  };
}

/** A record as one JSON line; non-finite numbers (u = ∞ before enough settled data) become strings. */
export function gateRecordToJsonLine(record: GateRecord): string {
  return JSON.stringify(record, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
}

function fmt(x: number): string {
  return Number.isFinite(x) ? String(Math.round(x * 10000) / 10000) : String(x);
}
