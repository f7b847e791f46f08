import { describe, expect, it } from 'vitest';
import { gateDecision, gateRecordToJsonLine, type GateInputs } from '../../src/gate/gate.ts';

const calm: GateInputs = { violations: [], u: 0.01, epsilon: 0.05, unresolvedHigh: [], authorized: true };
const violation = [{ invariant: 'kl_cap', value: 0.9, limit: 0.5 }];
const failure = [{ mode: 'assert_stub', severity: 0.7 }];

describe('gate ordering', () => {
  it('AUTHORIZE (and only AUTHORIZE) commits', () => {
    const r = gateDecision(calm);
    expect(r.decision).toBe('AUTHORIZE');
    expect(r.commit).toBe(true);
  });

  // Every subset of the four conditions: the decision is the highest-precedence one that fired.
  const conditions = ['DENY', 'ESCALATE', 'MODIFY', 'WAIT'] as const;
  for (let mask = 0; mask < 16; mask++) {
    const on = conditions.filter((_, i) => mask & (1 << i));
    it(`conditions {${on.join(', ') || 'none'}} -> ${on[0] ?? 'AUTHORIZE'}`, () => {
      const r = gateDecision({
        violations: on.includes('DENY') ? violation : [],
        u: on.includes('ESCALATE') ? 0.2 : 0.01,
        epsilon: 0.05,
        unresolvedHigh: on.includes('MODIFY') ? failure : [],
        authorized: !on.includes('WAIT'),
      });
      expect(r.decision).toBe(on[0] ?? 'AUTHORIZE');
      expect(r.commit).toBe(on.length === 0);
      // All fired conditions are reported, highest precedence first.
      const reasonKinds = r.reasons.map((x) => x.split(':')[0]);
      expect(reasonKinds).toEqual(on.length ? [...on] : ['AUTHORIZE']);
    });
  }

  it('DENY > ESCALATE > MODIFY > WAIT when all fire at once', () => {
    const all = { violations: violation, u: 1, epsilon: 0.05, unresolvedHigh: failure, authorized: false };
    expect(gateDecision(all).decision).toBe('DENY');
    expect(gateDecision({ ...all, violations: [] }).decision).toBe('ESCALATE');
    expect(gateDecision({ ...all, violations: [], u: 0 }).decision).toBe('MODIFY');
    expect(gateDecision({ ...all, violations: [], u: 0, unresolvedHigh: [] }).decision).toBe('WAIT');
    expect(gateDecision({ ...all, violations: [], u: 0, unresolvedHigh: [], authorized: true }).decision).toBe('AUTHORIZE');
  });

  it('u exactly at epsilon does not escalate; NaN and +Infinity do', () => {
    expect(gateDecision({ ...calm, u: 0.05 }).decision).toBe('AUTHORIZE');
    expect(gateDecision({ ...calm, u: Number.NaN }).decision).toBe('ESCALATE');
    expect(gateDecision({ ...calm, u: Number.POSITIVE_INFINITY }).decision).toBe('ESCALATE');
  });

  it('records its evidence and serialises to one JSON line (infinite u as a string)', () => {
    const r = gateDecision({ ...calm, u: Number.POSITIVE_INFINITY, violations: violation }, { round: 7 });
    expect(r.evidence).toMatchObject({ round: 7, violations: violation, epsilon: 0.05, authorized: true });
    const line = gateRecordToJsonLine(r);
    expect(line).not.toContain('\n');
    const parsed = JSON.parse(line);
    expect(parsed.decision).toBe('DENY');
    expect(parsed.evidence.u).toBe('Infinity');
  });
});
