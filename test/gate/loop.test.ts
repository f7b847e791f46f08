import { describe, expect, it, vi } from 'vitest';
import { defaultGateConfig, type GateConfig } from '../../src/gate/config.ts';
import { GateLoop } from '../../src/gate/loop.ts';
import { createUpdateOracle, type ProposedUpdate } from '../../src/gate/oracle.ts';
import { WindowMiningSimulator } from '../../src/gate/simulator.ts';
import type { Claim, WindowItem } from '../../src/gate/types.ts';

const rm = { weights: [1, 1, 0.2], featureNames: ['stub_return', 'assert_free', 'len'] };
const good: ProposedUpdate = {
  kind: 'policy_update',
  step: 0,
  loss: 0.3,
  gradNorm: 1,
  nonFinite: { loss: 0, grads: 0, weights: 0 },
  klToRef: 0.05,
  completionLength: { mean: 30, min: 5, max: 60 },
  sandboxIntegritySignals: 0,
};
/** Ground truth for `verify`: the executed gold of every completion id. */
const truth = new Map<string, number>();
const verify = (c: Claim) => {
  const g = truth.get(c.item.id);
  return g !== undefined && c.item.proxy - g > 0.2;
};

function honest(id: string, gold = 0.6): WindowItem {
  truth.set(id, gold);
  return { id, proxy: gold + 0.01, gold, features: [0, 0, 1] };
}
function exploit(id: string, settled = true): WindowItem {
  truth.set(id, 0.05);
  return { id, proxy: 0.95, gold: settled ? 0.05 : null, features: [1, 0, 1] };
}

function makeLoop(config: GateConfig = defaultGateConfig()) {
  const oracle = createUpdateOracle(config.invariants);
  return new GateLoop<ProposedUpdate>({ config, oracle, simulator: new WindowMiningSimulator(), verify, rm });
}

/** Give the loop a calm settled sample so u is small. */
async function calmDown(loop: GateLoop<ProposedUpdate>, n = 40) {
  await loop.settle({ round: -1, committed: false, items: Array.from({ length: n }, (_, i) => honest(`calm-${i}`)) });
}

describe('GateLoop', () => {
  it('escalates without settled evidence, authorises once u <= epsilon', async () => {
    const loop = makeLoop();
    const r0 = await loop.decide({ round: 0, evidence: good, window: [honest('a')] });
    expect(r0.decision).toBe('ESCALATE');
    expect(r0.bound.u).toBe(Number.POSITIVE_INFINITY);
    await calmDown(loop);
    const r1 = await loop.decide({ round: 1, evidence: good, window: [honest('b')] });
    expect(r1.bound.u).toBeLessThanOrEqual(0.05);
    expect(r1.decision).toBe('AUTHORIZE');
    expect(r1.commit).toBe(true);
  });

  it('DENY depends only on the evidence: the oracle gets nothing else', async () => {
    const loop = makeLoop();
    await calmDown(loop);
    const spy = vi.spyOn(loop.oracle, 'check');
    const bad = { ...good, klToRef: 9 };
    const r = await loop.decide({ round: 0, evidence: bad, window: [exploit('x')] });
    expect(r.decision).toBe('DENY');
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]).toEqual([bad]);
    // The simulator's and library's findings are still reported but cannot change the verdict.
    expect(r.verified).toHaveLength(1);
    expect(r.record.reasons[0]).toMatch(/^DENY: hard invariant kl_cap/);
  });

  it('MODIFY on a verified high-severity failure; AUTHORIZE once resolved', async () => {
    const loop = makeLoop();
    await calmDown(loop);
    const window = [honest('h1'), exploit('e1'), honest('h2')];
    const r = await loop.decide({ round: 3, evidence: good, window });
    expect(r.decision).toBe('MODIFY');
    expect(r.verified.map((f) => f.mode)).toEqual(['stub_return']);
    expect(r.reward).toBe(1);
    expect(loop.library.has('stub_return')).toBe(true);
    // The caller refits the RM on r.verified and re-proposes; the mode is now resolved.
    const again = await loop.decide({ round: 3, evidence: good, window, resolvedModes: new Set(['stub_return']) });
    expect(again.decision).toBe('AUTHORIZE');
    // Re-gating the same completions in the same round neither re-verifies nor pays again.
    expect(again.reward).toBe(0);
    expect(loop.library.stats.rewardReproduced).toBe(1);
  });

  it('a different claim about an already-verified completion is verified afresh', async () => {
    const cfg = defaultGateConfig();
    let next: Claim[] = [];
    const loop = new GateLoop<ProposedUpdate>({
      config: cfg,
      oracle: createUpdateOracle(cfg.invariants),
      simulator: { find: async () => next },
      verify,
      rm,
    });
    await calmDown(loop);
    const e = exploit('e9');
    next = [{ item: e, gold: 0.05, gap: 0.9, source: 'settled' }];
    expect((await loop.decide({ round: 1, evidence: good, window: [e] })).verified).toHaveLength(1);
    // Same completion, now re-priced at 0.2 and claimed to have gold 0: reality (gold 0.05) says the gap is 0.15.
    next = [{ item: { ...e, proxy: 0.2 }, gold: 0, gap: 0.2, source: 'probe' }];
    const r = await loop.decide({ round: 1, evidence: good, window: [e] });
    expect(r.rejected).toHaveLength(1);
    expect(r.reward).toBe(0);
  });

  it('a claim the independent oracle does not reproduce earns 0, is not stored, and does not MODIFY', async () => {
    const loop = makeLoop();
    await calmDown(loop);
    // Reported gold 0.05, but re-execution says 0.9: a fabricated failure.
    truth.set('liar', 0.9);
    const r = await loop.decide({
      round: 0,
      evidence: good,
      window: [{ id: 'liar', proxy: 0.95, gold: 0.05, features: [1, 0, 0] }],
    });
    expect(r.rejected).toHaveLength(1);
    expect(r.claims.map((c) => c.reward)).toEqual([0]);
    expect(loop.library.size).toBe(0);
    expect(r.decision).toBe('AUTHORIZE');
  });

  it('WAIT when authorisation is missing', async () => {
    const loop = makeLoop();
    await calmDown(loop);
    expect((await loop.decide({ round: 0, evidence: good, window: [], authorized: false })).decision).toBe('WAIT');
  });

  it('ESCALATE raises settlement rate and depth; calm passes relax them', async () => {
    const cfg = defaultGateConfig();
    cfg.escalation = { ...cfg.escalation, relax_after: 3 };
    const loop = makeLoop(cfg);
    const base = loop.escalation();
    expect(base).toMatchObject({ level: 0, settlementRate: 0.1, depth: 4 });
    await loop.decide({ round: 0, evidence: good, window: [] }); // u = inf
    await loop.decide({ round: 1, evidence: good, window: [] });
    expect(loop.escalation()).toMatchObject({ level: 2, settlementRate: 0.4, depth: 16 });
    await calmDown(loop);
    for (let r = 2; r < 5; r++) await loop.decide({ round: r, evidence: good, window: [] });
    expect(loop.escalation().level).toBe(1);
    for (let r = 5; r < 8; r++) await loop.decide({ round: r, evidence: good, window: [] });
    expect(loop.escalation()).toMatchObject({ level: 0, settlementRate: 0.1, depth: 4 });
  });

  it('pause is reported on ESCALATE when configured', async () => {
    const cfg = defaultGateConfig();
    cfg.escalation = { ...cfg.escalation, pause: true };
    const loop = makeLoop(cfg);
    const r = await loop.decide({ round: 0, evidence: good, window: [] });
    expect(r.decision).toBe('ESCALATE');
    expect(r.escalation.pause).toBe(true);
    await calmDown(loop);
    expect((await loop.decide({ round: 1, evidence: good, window: [] })).escalation.pause).toBe(false);
  });

  it('settlement: a committed failure of an unknown mode surprises once, raises escalation, is remembered', async () => {
    const loop = makeLoop();
    await calmDown(loop);
    const s1 = await loop.settle({ round: 5, committed: true, items: [exploit('o1'), exploit('o2'), honest('o3')] });
    expect(s1.surprises).toEqual(['stub_return']);
    expect(loop.library.stats.surprises).toBe(1);
    expect(s1.escalation.level).toBe(1);
    // Reality found these itself: stored, but no bounty is paid to anyone.
    expect(loop.library.stats.rewardReproduced).toBe(0);
    const s2 = await loop.settle({ round: 6, committed: true, items: [exploit('o4')] });
    expect(s2.surprises).toEqual([]);
    expect(loop.memory.retained().some((e) => e.surprise && e.modes.includes('stub_return'))).toBe(true);
    // A failure found by settling an uncommitted action is stored but is not a surprise.
    const other = { id: 'o5', proxy: 0.95, gold: 0.05, features: [0, 1, 0] };
    truth.set('o5', 0.05);
    const s3 = await loop.settle({ round: 7, committed: false, items: [other] });
    expect(s3.surprises).toEqual([]);
    expect(loop.library.has('assert_free')).toBe(true);
  });

  it('checkpoint round-trip: a restored loop makes the same decisions', async () => {
    const a = makeLoop();
    await calmDown(a);
    await a.decide({ round: 0, evidence: good, window: [exploit('k1')] });
    await a.settle({ round: 0, committed: true, items: [honest('k2'), exploit('k3')] });
    const data = JSON.parse(JSON.stringify(a.toJSON()));
    const cfg = defaultGateConfig();
    const b = GateLoop.fromJSON<ProposedUpdate, unknown>(data, {
      config: cfg,
      oracle: createUpdateOracle(cfg.invariants),
      simulator: new WindowMiningSimulator(),
      verify,
      rm,
    });
    expect(JSON.parse(JSON.stringify(b.toJSON()))).toEqual(data);
    const w = [honest('k4'), exploit('k5')];
    const ra = await a.decide({ round: 1, evidence: good, window: w });
    const rb = await b.decide({ round: 1, evidence: good, window: w });
    expect(rb.record).toEqual(ra.record);
  });

  it('jsonLine gives one parseable line', async () => {
    const loop = makeLoop();
    const r = await loop.decide({ round: 0, evidence: good, window: [] });
    const parsed = JSON.parse(GateLoop.jsonLine(r.record));
    expect(parsed).toMatchObject({ decision: 'ESCALATE', commit: false, evidence: { round: 0, u: 'Infinity' } });
  });
});
