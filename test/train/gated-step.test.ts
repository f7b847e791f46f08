/**
 * Tiny-model component tests of the gated arm's update (src/train/gated-step.ts) on a real tfjs
 * policy and Adam optimizer: a DENY restores weights and optimizer state bit for bit, an
 * AUTHORIZE commits, ESCALATE commits or pauses by config, MODIFY refits the RM with the verified
 * failures and re-gates, and the gate state survives a checkpoint round trip.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runConfigSchema } from '../../src/train/run-config.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import type { Completion } from '../../src/policy/engine/types.ts';
import { buildCompletionBatch, sequenceLogProbs } from '../../src/policy/logprobs.ts';
import { GptModel } from '../../src/policy/model.ts';
import { AdamOptimizer, type OptimizerState } from '../../src/policy/optimizer.ts';
import type { WeightMap } from '../../src/policy/weights.ts';
import type { FeatureExtractor } from '../../src/reward/features/types.ts';
import { RidgeRewardModel } from '../../src/reward/models/ridge.ts';
import type { ExecResult, Executor, ProgramSpec } from '../../src/sandbox/types.ts';
import { initTf, tf } from '../../src/tf/backend.ts';
import { resolveArms } from '../../src/train/arms.ts';
import { featureNamesOf, GatedStep, integritySignal, resolveGateConfig } from '../../src/train/gated-step.ts';
import { jsSurfaceExtractor, LENGTH_FEATURES } from '../../src/reward/features/js-surface.ts';
import type { Rewards, ScoredRollouts } from '../../src/train/reward-sources.ts';
import { applyGrpoUpdate, type UpdateBatch } from '../../src/train/update.ts';
import { MODEL, promptIds, tokenIds } from '../helpers/tiny-update.ts';

const problem: Problem = {
  id: 'p0',
  language: 'javascript',
  prompt: 'function f() {',
  tests: 'assert(f() === 1);',
  stopTokens: [],
  source: 'test',
};
// Two groups of two completions (prompt ids / completion ids are token ids of the tiny vocab).
const texts = ['aaa', 'bb', 'ab', 'bbbb'];
const features: FeatureExtractor = {
  name: 'toy',
  dim: 2,
  extract: (t) => Float32Array.from([[...t].filter((c) => c === 'a').length, [...t].filter((c) => c === 'b').length]),
};

/** An executor whose programs pass or fail by a rule on their code; counts its programs. */
function fakeExecutor(status: (code: string) => ExecResult['status']): Executor & { runs: number } {
  const ex = {
    runs: 0,
    async run(programs: readonly ProgramSpec[]) {
      ex.runs += programs.length;
      return programs.map((p) => {
        const s = status(p.code);
        return { id: p.id, status: s, passed: s === 'pass' ? 1 : 0, total: 1, ms: 0, stdout: '' } satisfies ExecResult;
      });
    },
    async close() {},
  };
  return ex;
}

const bytes = (w: WeightMap) =>
  [...w].map(([k, v]) => [k, Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength).toString('base64')]);
const optBytes = (s: OptimizerState) => ({ step: s.step, m: bytes(s.m), v: bytes(s.v) });

interface Rig {
  policy: GptModel;
  reference: GptModel;
  optimizer: AdamOptimizer;
  rm: RidgeRewardModel;
  executor: ReturnType<typeof fakeExecutor>;
  gated: GatedStep;
  lines: Record<string, unknown>[];
  /** The step's update batch (π_old = the policy as it is now). */
  input: (step: number) => UpdateBatch;
  /** Apply an ungated update with these rewards. */
  update: (rewards: (number | null)[]) => void;
}

/** The proxy as the rewards (the gated arm trains on the RM). */
const proxyRewards = (b: ScoredRollouts): Rewards => ({ values: Array.from(b.proxy), advantageScale: 1 });

async function rig(
  gate: Record<string, unknown>,
  opts: {
    rmTarget?: number;
    status?: (code: string) => ExecResult['status'];
    /** The arm's reward source on re-scored rollouts (default: the RM's score). */
    reward?: (s: ScoredRollouts) => Rewards;
  } = {},
): Promise<Rig> {
  const config = runConfigSchema.parse({ gate, settlement: { rate: 0.25 }, grpo: { group_size: 2 } });
  const policy = GptModel.init(MODEL, 3);
  const reference = GptModel.init(MODEL, 3);
  const optimizer = new AdamOptimizer(policy.params, { lr: 0.05, grad_clip: 1 });
  const rm = new RidgeRewardModel({ alpha: 1, standardize: false });
  // A RM that pays 'a's: proxy rises with the count of 'a'.
  const X = [0, 1, 2, 3].map((a) => Float32Array.from([a, 1]));
  await rm.fit(
    X,
    X.map((x) => (opts.rmTarget ?? 0.1) * x[0]!),
  );
  const executor = fakeExecutor(opts.status ?? (() => 'pass'));
  const lines: Record<string, unknown>[] = [];
  const gated = new GatedStep({
    grpo: config.grpo,
    sampling: config.policy.sampling,
    gate: resolveGateConfig(config.gate, config.settlement.rate),
    policy,
    optimizer,
    rm,
    features,
    executor,
    padId: 0,
    writeLine: (l) => lines.push(JSON.parse(l) as Record<string, unknown>),
    onExecuted: () => {},
    reward: async (s) => (opts.reward ?? proxyRewards)(s),
  });
  const completions: Completion[] = tokenIds.map((t, i) => ({
    promptIndex: i,
    promptIds,
    tokenIds: t,
    text: texts[i]!,
    logprobs: [],
    samplerLogprobs: [],
    finishReason: 'eos',
  }));
  const ref = sequenceLogProbs(
    reference,
    completions.map((c) => c.promptIds),
    tokenIds,
    { padId: 0 },
  );
  const batch = buildCompletionBatch(
    completions.map((c) => c.promptIds),
    tokenIds,
    0,
    { completionLength: ref.completionLength },
  );
  const input = (step: number): UpdateBatch => {
    const feats = texts.map((t) => features.extract(t));
    const old = sequenceLogProbs(
      policy,
      completions.map((c) => c.promptIds),
      tokenIds,
      { padId: 0 },
    );
    return {
      step,
      promptIdx: [0, 1],
      problems: texts.map(() => problem),
      completions,
      texts,
      features: feats,
      proxy: Float32Array.from(feats.map((x) => (opts.rmTarget ?? 0.1) * x[0]!)),
      results: undefined,
      gold: texts.map(() => null),
      ref,
      oldLogp: old.logProbs,
      rolloutLogp: old.logProbs,
      batch,
    };
  };
  const update = (values: (number | null)[]) =>
    void applyGrpoUpdate({ grpo: config.grpo, sampling: config.policy.sampling, policy, optimizer }, input(0), {
      values,
      advantageScale: 1,
    });
  return { policy, reference, optimizer, rm, executor, gated, lines, input, update };
}

/** Give the loop enough settled zero gaps for a finite u (so ESCALATE does not outrank). */
async function seedEvidence(r: Rig, n: number): Promise<void> {
  await r.gated.settled(
    Array.from({ length: n }, (_, i) => ({
      step: -1,
      index: i,
      problem,
      text: 'x',
      x: Float32Array.from([0, 1]),
      gold: 0.5,
      proxy: 0.5,
    })),
  );
}

describe('gated update on a tiny tfjs policy', () => {
  beforeAll(async () => {
    await initTf(() => {});
  });

  it('DENY (KL cap violated) restores weights and optimizer state bit for bit', async () => {
    const r = await rig({ invariants: [{ kind: 'kl_cap', max_kl: 1e-9 }] });
    // A committed ungated step first, so the optimizer's moments and step counter are non-trivial.
    r.update([1, 0, 0, 1]);
    const w0 = bytes(r.policy.getWeights());
    const o0 = optBytes(r.optimizer.getState());
    expect(o0.step).toBe(1);
    const tensors = tf.memory().numTensors;
    const out = await r.gated.update(r.input(1), proxyRewards(r.input(1)));
    expect(tf.memory().numTensors).toBe(tensors);
    expect(out.metrics()['gate/decision']).toBe('DENY');
    expect(out.applied).toBe(false);
    // The update was really applied before the gate looked: its KL to the reference was > 0.
    const line = r.lines.at(-1)!;
    const ev = (line.evidence as { update: { klToRef: number; step: number } }).update;
    expect(ev.klToRef).toBeGreaterThan(1e-9);
    expect(ev.step).toBe(2);
    expect(line.applied).toBe(false);
    expect(line.reasons).toEqual([
      expect.stringMatching(/^DENY: hard invariant kl_cap violated/),
      expect.stringMatching(/^ESCALATE/),
    ]);
    expect(bytes(r.policy.getWeights())).toEqual(w0);
    expect(optBytes(r.optimizer.getState())).toEqual(o0);
    expect(out.metrics()).toMatchObject({ 'gate/decision': 'DENY', 'gate/deny': 1, 'gate/authorize': 0 });
  });

  it('AUTHORIZE commits the update (weights and optimizer move)', async () => {
    const r = await rig({ epsilon: 1, min_settled: 2 });
    await seedEvidence(r, 4);
    const w0 = bytes(r.policy.getWeights());
    const tensors = tf.memory().numTensors;
    const out = await r.gated.update(r.input(0), proxyRewards(r.input(0)));
    expect(tf.memory().numTensors).toBe(tensors);
    expect(out.metrics()['gate/decision']).toBe('AUTHORIZE');
    expect(out.applied).toBe(true);
    expect(r.optimizer.step).toBe(1);
    expect(bytes(r.policy.getWeights())).not.toEqual(w0);
    // Probes executed the highest-proxy completions (all pass: no claim).
    expect(r.executor.runs).toBe(4);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ step: 0, pass: 0, decision: 'AUTHORIZE', commit: true, applied: true });
  });

  it('ESCALATE (u = Infinity) commits by default and rolls back with escalation.pause', async () => {
    const go = await rig({});
    const out = await go.gated.update(go.input(0), proxyRewards(go.input(0)));
    expect(out.applied).toBe(true);
    expect(out.metrics()['gate/decision']).toBe('ESCALATE');
    expect(go.optimizer.step).toBe(1);
    expect(go.gated.needsEvidence()).toBe(true);
    // ESCALATE raised the settlement rate for the next window: 0.25 (settlement.rate) x 2, capped at 0.4.
    expect(go.gated.settlementRate(0.25)).toBeCloseTo(0.4, 12);

    const held = await rig({ escalation: { pause: true } });
    const w0 = bytes(held.policy.getWeights());
    const o0 = optBytes(held.optimizer.getState());
    const out2 = await held.gated.update(held.input(0), proxyRewards(held.input(0)));
    expect(out2.applied).toBe(false);
    expect(out2.metrics()['gate/decision']).toBe('ESCALATE');
    expect(bytes(held.policy.getWeights())).toEqual(w0);
    expect(optBytes(held.optimizer.getState())).toEqual(o0);
  });

  it('MODIFY refits the RM with the verified failures, re-scores and re-gates', async () => {
    // The RM pays 0.4 per 'a' but every program fails (gold 0): 'aaa' is overpaid by 1.2.
    const r = await rig({ epsilon: 1, min_settled: 2, training: { modify_retries: 1 } }, { rmTarget: 0.4, status: () => 'fail' });
    await seedEvidence(r, 4);
    const labels0 = r.rm.labelCount;
    const w0 = bytes(r.policy.getWeights());
    const out = await r.gated.update(r.input(0), proxyRewards(r.input(0)));
    expect(r.lines[0]).toMatchObject({ pass: 0, decision: 'MODIFY', applied: false });
    const refit = r.lines[0]!.refit as { hard_examples: number; labels: number };
    expect(refit.hard_examples).toBeGreaterThan(0);
    expect(r.rm.labelCount).toBe(labels0 + refit.hard_examples);
    expect(r.lines).toHaveLength(2); // one re-gate of the recomputed update (retries capped at 1)
    expect(r.lines[1]).toMatchObject({ step: 0, pass: 1 });
    expect(out.metrics()['gate/passes']).toBe(2);
    // Re-scored rewards: the refitted RM pays the failing completions less than before.
    expect(out.rewards.values[0]!).toBeLessThan(1.2);
    if (!out.applied) expect(bytes(r.policy.getWeights())).toEqual(w0);
    // The failure mode is in the library, verified by re-execution (probe + verify per claim).
    expect(r.gated.loop.library.size).toBeGreaterThan(0);
    expect(out.metrics()['gate/modify']).toBeGreaterThanOrEqual(1);
  });

  it("a MODIFY retry trains on the arm's reward source over the re-scored rollouts, not the raw RM score", async () => {
    // PAR-like shaping: the arm's reward is a bounded transform of the RM's score.
    const shaped = (s: ScoredRollouts): Rewards => ({
      values: Array.from(s.proxy, (p) => 1 / (1 + Math.exp(-(p - 0.5) / 0.1))),
      advantageScale: 0.5,
    });
    const r = await rig(
      { epsilon: 1, min_settled: 2, training: { modify_retries: 1 } },
      { rmTarget: 0.4, status: () => 'fail', reward: shaped },
    );
    await seedEvidence(r, 4);
    const input = r.input(0);
    const out = await r.gated.update(input, shaped(input));
    expect(r.lines[0]).toMatchObject({ decision: 'MODIFY' });
    const rescored = await r.rm.predict(input.features);
    expect(out.rewards.values).toEqual(shaped({ ...input, proxy: rescored }).values);
    expect(out.rewards.advantageScale).toBe(0.5);
    expect(out.rewards.values).not.toEqual(Array.from(rescored));
  });

  it('settled failures of a committed update are surprises; state round-trips through JSON', async () => {
    const r = await rig({ epsilon: 1, min_settled: 2 }, { rmTarget: 0.05, status: () => 'fail' });
    await seedEvidence(r, 4);
    const out = await r.gated.update(r.input(0), proxyRewards(r.input(0)));
    expect(out.applied).toBe(true); // proxies of 0.05 per 'a' stay under the margin: nothing claimed
    await r.gated.settled([{ step: 0, index: 0, problem, text: 'aaa', x: Float32Array.from([9, 0]), gold: 0, proxy: 0.9 }]);
    expect(r.gated.loop.library.stats.surprises).toBe(1);
    const state = JSON.parse(JSON.stringify(r.gated.getState()));
    const r2 = await rig({ epsilon: 1, min_settled: 2 }, { status: () => 'fail' });
    r2.gated.setState(state);
    expect(r2.gated.getState()).toEqual(r.gated.getState());
    expect(r2.gated.loop.library.size).toBe(1);
  });

  it('the arm registry has `gated` (anchored + gate); inline arms inherit the flag; a gate needs rm + execution labels', () => {
    expect(resolveArms(['gated'])[0]).toMatchObject({ name: 'gated', reward: 'rm', labels: 'execution', gate: true });
    expect(resolveArms(['anchored'])[0]!.gate).toBeUndefined();
    expect(resolveArms([{ name: 'gated-eps', extends: 'gated', overlay: { gate: { epsilon: 0.1 } } }])[0]).toMatchObject({
      gate: true,
      labels: 'execution',
    });
    expect(resolveArms([{ name: 'g', extends: 'anchored', gate: true, overlay: {} }])[0]!.gate).toBe(true);
    expect(() => resolveArms([{ name: 'bad', reward: 'execution', gate: true, overlay: {} }])).toThrow(
      /gated arm needs reward rm and labels execution/,
    );
    expect(() => resolveArms([{ name: 'bad', extends: 'judge', gate: true, overlay: {} }])).toThrow(/gated arm needs/);
  });

  it('resolves gate.escalation.base_settlement_rate from settlement.rate unless set; flags integrity signals', () => {
    const gateOf = (c: ReturnType<typeof runConfigSchema.parse>) => resolveGateConfig(c.gate, c.settlement.rate);
    expect(gateOf(runConfigSchema.parse({ settlement: { rate: 0.2 } })).escalation.base_settlement_rate).toBe(0.2);
    expect(
      gateOf(runConfigSchema.parse({ settlement: { rate: 0.2 }, gate: { escalation: { base_settlement_rate: 0.05 } } }))
        .escalation.base_settlement_rate,
    ).toBe(0.05);
    expect(gateOf(runConfigSchema.parse({ settlement: { rate: 0 } })).escalation.base_settlement_rate).toBe(0.1);
    const res = (error?: string, code?: ExecResult['code']): ExecResult => ({
      id: 'x',
      status: 'fail',
      passed: 0,
      total: 0,
      ms: 0,
      stdout: '',
      ...(error ? { error } : {}),
      ...(code ? { code } : {}),
    });
    expect(integritySignal(res('no assertion ran (0 < min_assertions 1): the tests did not execute', 'tests_not_run'))).toBe(
      true,
    );
    // The code decides, not the message (a program can print anything into its error).
    expect(integritySignal(res('Error: the tests did not execute'))).toBe(false);
    expect(integritySignal(res('TypeError: x is not a function'))).toBe(false);
    expect(integritySignal(res())).toBe(false);
  });

  it("the critic's feature names are the extractor's own (js-surface: hash buckets and length features), else name[i]", () => {
    expect(featureNamesOf(jsSurfaceExtractor({ hashDim: 3 }))).toEqual(['ngram#0', 'ngram#1', 'ngram#2', ...LENGTH_FEATURES]);
    expect(featureNamesOf({ ...features, featureNames: ['as', 'bs'] })).toEqual(['as', 'bs']);
    expect(featureNamesOf(features)).toEqual(['toy[0]', 'toy[1]']);
  });
});
