import { describe, expect, it } from 'vitest';
import { runValidation } from '../../src/research/gate-validation.ts';

describe('validate-loop simulation', () => {
  it('passes every check at the design parameters (T = 40,000, N = 300, seed 0)', async () => {
    const r = await runValidation({ seed: 0 });
    for (const c of r.checks) expect({ name: c.name, pass: c.pass, detail: c.detail }).toMatchObject({ pass: true });
    expect(r.ok).toBe(true);
    expect(r.checks).toHaveLength(6);
    const v = r.checks[0]!.figures;
    expect(v.injected).toBeGreaterThan(1500);
    expect(v.committed).toBe(0);
    expect(r.decisions.ESCALATE).toBeGreaterThan(0);
  });

  it('is deterministic: same seed, same report; another seed, another report', async () => {
    const a = await runValidation({ seed: 11, rounds: 3000 });
    const b = await runValidation({ seed: 11, rounds: 3000 });
    const c = await runValidation({ seed: 12, rounds: 3000 });
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(JSON.stringify(c)).not.toBe(JSON.stringify(a));
  });

  it('the checks can fail: with no simulation depth, known modes are committed again and again', async () => {
    const r = await runValidation({ seed: 0, rounds: 6000, simulatorDepth: 0 });
    expect(r.ok).toBe(false);
    const rates = r.checks.find((c) => c.name.startsWith('surprise and committed-failure'))!;
    expect(rates.pass).toBe(false);
    // Violations are still all denied: the oracle does not depend on the simulator.
    expect(r.checks[0]!.pass).toBe(true);
  });

  it('rejects bad parameters as bad input', async () => {
    await expect(runValidation({ rounds: 10 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(runValidation({ modes: 0 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
  });
});
