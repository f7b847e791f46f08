/**
 * The settlement window on its own: a fake reward model (its score is the completion's first
 * feature), a fake feature extractor and a fake sandbox — no policy, no tensors.
 */
import { rankingQuality } from '../../src/reward/models/ranking-quality.ts';
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/datasets/problem.ts';
import type { Judge } from '../../src/reward/judges/types.ts';
import type { LabelMeta, RewardModel } from '../../src/reward/models/types.ts';
import type { ExecResult } from '../../src/sandbox/types.ts';
import { settlementConfigSchema } from '../../src/train/config.ts';
import { LABEL_SOURCES } from '../../src/train/label-sources.ts';
import type { RefitLine, SampleLine } from '../../src/train/run-format.ts';
import type { Claim } from '../../src/train/settlement.ts';
import { SettlementWindow, type SettlementParts } from '../../src/train/settlement-window.ts';
import type { SettledClaim } from '../../src/train/update.ts';
import { Rng } from '../../src/util/rng.ts';

const problems: Problem[] = [0, 1, 2].map((i) => ({
  id: `p${i}`,
  language: 'javascript',
  prompt: `// p${i}\n`,
  tests: '',
  stopTokens: [],
  source: 'test',
})) as unknown as Problem[];

/** Completion text `score:pass` — the RM's feature is `score`, the sandbox passes it when `pass` is 1. */
const text = (score: number, pass: 0 | 1) => `${score}:${pass}`;

/** A reward model whose prediction is feature 0 plus its bias, refitted by moving the bias to the labels' mean residual. */
class FakeRm implements RewardModel {
  readonly kind = 'ridge' as const;
  readonly dim = 1;
  X: Float32Array[] = [new Float32Array([0.5]), new Float32Array([0.5])];
  y: number[] = [0, 1];
  bias = 0;
  refitCalls: { X: number[]; y: number[]; meta?: LabelMeta }[] = [];
  get labelCount() {
    return this.y.length;
  }
  fit(): Promise<void> {
    return Promise.resolve();
  }
  refit(X: readonly Float32Array[], y: ArrayLike<number>, meta?: LabelMeta): Promise<void> {
    this.refitCalls.push({ X: X.map((x) => x[0]!), y: Array.from(y), ...(meta ? { meta } : {}) });
    this.X.push(...X);
    this.y.push(...Array.from(y));
    this.bias = this.y.reduce((a, v, i) => a + v - this.X[i]![0]!, 0) / this.y.length;
    return Promise.resolve();
  }
  labelSet() {
    return { X: this.X, y: this.y };
  }
  predict(X: readonly Float32Array[]): Promise<Float32Array> {
    return Promise.resolve(Float32Array.from(X, (x) => x[0]! + this.bias));
  }
  save(): Promise<void> {
    return Promise.resolve();
  }
}

interface Harness {
  window: SettlementWindow;
  rm: FakeRm;
  refits: RefitLine[];
  samples: SampleLine[];
  executed: string[];
  charged: number;
  settledForUpdater: SettledClaim[];
}

function harness(over: Partial<SettlementParts> = {}, config: Record<string, unknown> = {}): Harness {
  const h = { refits: [], samples: [], executed: [], charged: 0, settledForUpdater: [] } as unknown as Harness;
  h.rm = new FakeRm();
  const parts: SettlementParts = {
    settlement: settlementConfigSchema.parse({ every: 2, rate: 0.5, ...config }),
    rng: new Rng(7).fork('settlement'),
    train: problems,
    rm: h.rm,
    features: { name: 'fake', dim: 1, extract: (t) => new Float32Array([Number(t.split(':')[0])]) },
    labels: LABEL_SOURCES.execution,
    instant: false,
    judge: undefined,
    execute: (_ps, ts) => {
      h.executed.push(...ts);
      return Promise.resolve(
        ts.map(
          (t) => ({ id: t, status: t.endsWith(':1') ? 'pass' : 'fail', passed: 0, total: 1, ms: 0, stdout: '' }) as ExecResult,
        ),
      );
    },
    charge: (n) => (h.charged += n),
    updater: {
      settlementRate: (r) => r,
      needsEvidence: () => false,
      settled: (cs) => {
        h.settledForUpdater.push(...cs);
        return Promise.resolve();
      },
    },
    disagreement: (cs) => Promise.resolve(Float64Array.from(cs, (c) => c.proxy)),
    refits: (l) => h.refits.push(l),
    samples: (l) => h.samples.push(l),
    ...over,
  };
  h.window = new SettlementWindow(parts);
  return h;
}

/** Four claims of step `step`: two groups (problems 0 and 1) of two. */
function stepOf(step: number, scores: number[] = [0.9, 0.1, 0.8, 0.2], pass: (0 | 1)[] = [0, 1, 1, 0]): Claim[] {
  return scores.map((s, i) => ({
    step,
    index: i,
    problem: Math.floor(i / 2),
    text: text(s, pass[i]!),
    proxy: s,
    gold: null,
    tokens: 3,
    group: step * 2 + Math.floor(i / 2),
  }));
}

describe('SettlementWindow', () => {
  it('closes every `settlement.every` steps: σ of the window executed, charged, refitted on, logged', async () => {
    const h = harness();
    expect(await h.window.add(0, stepOf(0), 0.1, false)).toBe(0);
    expect(h.samples).toHaveLength(0); // written when the window closes, settled flags final
    expect(await h.window.add(1, stepOf(1), 0.3, false)).toBe(4); // σ 0.5 of 8
    expect(h.executed).toHaveLength(4);
    expect(h.charged).toBe(4);
    const [refit] = h.rm.refitCalls;
    expect(refit!.y).toEqual(h.executed.map((t) => Number(t.endsWith(':1'))));
    expect(refit!.meta?.window).toBe(0);
    const line = h.refits[0]!;
    expect(line).toMatchObject({ step: 1, newLabels: 4, labels: 6, strategy: 'random', refit: true });
    // Drift is the RM as it stood (bias 0) against the labels.
    const expected = refit!.X.reduce((a, x, i) => a + Math.abs(x - refit!.y[i]!), 0) / 4;
    expect(line.drift).toBeCloseTo(expected, 6);
    expect(line.fit.d).toBeCloseTo(0.2, 9); // the window's mean √KL
    // RM quality out of sample: the RM as it stood (bias 0: score = feature) ranked against the new labels.
    const q = rankingQuality(refit!.X, refit!.y, refit!.meta!.groups!);
    expect(line.pairAcc).toBe(q.pairAccuracy);
    expect(line.auc).toBe(q.auc);
    expect(line.perf?.refit_s).toBeGreaterThanOrEqual(0);
    expect(h.samples).toHaveLength(8);
    expect(h.samples.filter((s) => s.settled).map((s) => s.text)).toEqual(h.executed);
    expect(h.window.refits).toBe(1);
    // The updater hears of every settled claim with the RM's score before the refit.
    expect(h.settledForUpdater.map((c) => c.proxy)).toEqual(refit!.X.map((x) => Math.fround(x)));
  });

  it('the strategy is data: top-proxy settles the RM favourites', async () => {
    const h = harness({}, { strategy: 'top-proxy' });
    await h.window.add(0, stepOf(0), 0, false);
    await h.window.add(1, stepOf(1, [0.3, 0.95, 0.4, 0.5]), 0, false);
    // The four highest of 0.9 0.1 0.8 0.2 | 0.3 0.95 0.4 0.5, in window order.
    expect(h.rm.refitCalls[0]!.X).toEqual([0.9, 0.8, 0.95, 0.5].map(Math.fround));
    expect(h.refits[0]!.strategy).toBe('top-proxy');
  });

  it('without a label source it only monitors: no refit, no execution, drift against known gold', async () => {
    const h = harness({ labels: undefined });
    const claims = stepOf(0).map((c, i) => ({ ...c, gold: i % 2 }));
    await h.window.add(0, claims, 0, false);
    await h.window.add(1, stepOf(1), 0, false);
    expect(h.executed).toEqual([]);
    expect(h.rm.refitCalls).toEqual([]);
    expect(h.refits[0]).toMatchObject({ refit: false, newLabels: 0, strategy: null });
    expect(h.refits[0]!.driftGold).toBeCloseTo((0.9 + 0.9 + 0.8 + 0.8) / 4, 6);
    // The frozen RM ranks the known gold backwards in both groups (0.9 over 0.1, 0.8 over 0.2).
    expect(h.refits[0]).toMatchObject({ pairAcc: 0, auc: 0 });
    expect(h.window.rate).toBe(0);
  });

  it('claims settled as they were rolled out (instant) refit the RM with their labels, nothing executed again', async () => {
    const h = harness({ instant: true });
    const s0 = stepOf(0);
    s0[1]!.label = 1;
    s0[2]!.label = 0;
    await h.window.add(0, s0, 0, false);
    await h.window.add(1, stepOf(1), 0, false);
    expect(h.executed).toEqual([]);
    expect(h.charged).toBe(0);
    expect(h.rm.refitCalls[0]!.y).toEqual([1, 0]);
    expect(h.refits[0]!.strategy).toBe('instant');
    expect(h.samples.filter((s) => s.settled).map((s) => s.index)).toEqual([1, 2]);
    // A window in which nothing arrived labelled settles nothing (it never pays for a choice of its own).
    await h.window.add(2, stepOf(2), 0, false);
    expect(await h.window.add(3, stepOf(3), 0, false)).toBe(0);
    expect(h.executed).toEqual([]);
  });

  it('instantly settled claims left out of the batch (dynamic sampling) refit the RM but write no sample and no gap', async () => {
    const h = harness({ instant: true });
    const s0 = stepOf(0).map((c) => ({ ...c, gold: 0 }));
    s0[1]!.label = 1;
    const off: Claim = { ...stepOf(0)[0]!, index: 0, text: text(0.7, 0), gold: 0, label: 0, offBatch: true };
    await h.window.add(0, [...s0, off], 0, false);
    await h.window.add(
      1,
      stepOf(1).map((c) => ({ ...c, gold: 0 })),
      0,
      false,
    );
    expect(h.rm.refitCalls[0]!.y).toEqual([1, 0]);
    expect(h.samples).toHaveLength(8);
    expect(h.refits[0]!.gap).toBeCloseTo((0.9 + 0.1 + 0.8 + 0.2) / 4, 6); // the batch's claims only
  });

  it('instant choice settles σ·n per step, carrying the owed fraction', async () => {
    const h = harness({}, { rate: 0.3 });
    const counts = [];
    for (let s = 0; s < 4; s++) counts.push((await h.window.instantChoice(stepOf(s))).length);
    expect(counts).toEqual([1, 1, 1, 1]); // 1.2 → 1 (.2), 1.4 → 1 (.4), 1.6 → 1 (.6), 1.8 → 1 (.8)
    expect((await h.window.instantChoice(stepOf(4))).length).toBe(2); // 2.0 owed
  });

  it("judge labels: the judge's scores refit the RM and go into samples.jsonl; the early warning never sees them", async () => {
    const judge: Judge = { kind: 'learned', score: (_p, cs) => Promise.resolve(cs.map(() => 0.5)) };
    const h = harness({ labels: LABEL_SOURCES.judge, judge }, { rate: 1 });
    for (let s = 0; s < 8; s++) await h.window.add(s, stepOf(s), 0.1 * s, false);
    expect(h.executed).toEqual([]);
    expect(h.rm.refitCalls.every((c) => c.y.every((v) => v === 0.5))).toBe(true);
    expect(h.samples.filter((s) => s.settled).every((s) => s.judge === 0.5)).toBe(true);
    expect(h.window.gaoReading).toEqual({ fired: null, dStar: null });
    expect(h.refits.every((l) => l.fit.gao_alpha === undefined)).toBe(true);
  });

  it('the thermostat (drift signal) raises σ and damps the RM while drift exceeds τ, releasing after `release` quiet refits', async () => {
    const h = harness(
      {},
      { rate: 0.25, adaptive: { enabled: true, signal: 'drift', tau: 0.3, growth: 2, max_rate: 1, rm_weight: 0.5, release: 2 } },
    );
    // The RM scores 0.9/0.1 for completions that fail/pass: drift 0.9 → alarm.
    const bad = () => stepOf(0, [0.9, 0.9, 0.9, 0.9], [0, 0, 0, 0]);
    await h.window.add(0, bad(), 0, false);
    await h.window.add(1, bad(), 0, false);
    expect(h.window.rate).toBe(0.5);
    expect(h.window.rmWeight).toBe(0.5);
    // Perfectly priced windows: quiet once (still raised), then released.
    const good = () => stepOf(0, [1, 1, 1, 1], [1, 1, 1, 1]);
    h.rm.bias = 0;
    for (const s of [2, 3]) await h.window.add(s, good(), 0, false);
    expect(h.refits.at(-1)!.drift).toBeLessThan(0.3);
    expect(h.window.rmWeight).toBe(0.5);
    for (const s of [4, 5]) await h.window.add(s, good(), 0, false);
    expect(h.window.rmWeight).toBe(1);
    expect(h.window.rate).toBe(0.25);
  });

  it('the RM quality gate silences the RM for the window after one it ranked below min_pair_acc, and opens again', async () => {
    const h = harness({ instant: true }, { rm_gate: { min_pair_acc: 0.5 } });
    expect(h.window.rmGateClosed).toBe(false);
    // Every claim arrives labelled with its pass/fail; the RM scores `scores`.
    const labelled = (step: number, scores: number[]) => {
      const c = stepOf(step, scores, [0, 1, 1, 0]);
      for (const x of c) x.label = x.text.endsWith(':1') ? 1 : 0;
      return c;
    };
    // Within each group the RM prefers the failing completion: pair accuracy 0 → closed.
    const wrong = (step: number) => labelled(step, [0.9, 0.1, 0.2, 0.8]);
    await h.window.add(0, wrong(0), 0, false);
    await h.window.add(1, wrong(1), 0, false);
    expect(h.refits[0]!.pairAcc).toBe(0);
    expect(h.window.rmGateClosed).toBe(true);
    expect(h.window.rmWeight).toBe(0);
    // A window without a scorable pair (no label of another value in its group) leaves it closed.
    await h.window.add(2, stepOf(2), 0, false);
    await h.window.add(3, stepOf(3), 0, false);
    expect(h.window.rmWeight).toBe(0);
    // Ranked right: open again.
    const right = (step: number) => labelled(step, [0.1, 0.9, 0.8, 0.2]);
    await h.window.add(4, right(4), 0, false);
    await h.window.add(5, right(5), 0, false);
    expect(h.refits.at(-1)!.pairAcc).toBe(1);
    expect(h.window.rmGateClosed).toBe(false);
    expect(h.window.rmWeight).toBe(1);
    // The gate's state is checkpointed with the window.
    await h.window.add(6, wrong(6), 0, false);
    await h.window.add(7, wrong(7), 0, false);
    const again = harness({ instant: true }, { rm_gate: { min_pair_acc: 0.5 } });
    again.window.setState(JSON.parse(JSON.stringify(h.window.getState())));
    expect(again.window.rmWeight).toBe(0);
    // No gate configured: never closed, reported as absent.
    expect(harness().window.rmGateClosed).toBeNull();
  });

  it('the updater hears each closed window’s executed labels and the alarm, and may silence the RM', async () => {
    const heard: { step: number; labels: readonly number[]; groups: readonly number[]; alarm: boolean }[] = [];
    const h = harness({
      updater: {
        settlementRate: (r) => r,
        needsEvidence: () => false,
        settled: () => Promise.resolve(),
        rmWeight: () => 0,
        windowClosed: (w) => {
          heard.push(w);
          return Promise.resolve();
        },
      },
    });
    await h.window.add(0, stepOf(0), 0, false);
    await h.window.add(1, stepOf(1), 0, false);
    expect(heard).toHaveLength(1);
    expect(heard[0]!.step).toBe(1);
    expect(heard[0]!.labels).toEqual(h.rm.refitCalls[0]!.y);
    expect(heard[0]!.groups).toHaveLength(heard[0]!.labels.length);
    expect(heard[0]!.alarm).toBe(false);
    expect(h.window.rmWeight).toBe(0);
  });

  it('the updater sets the rate and can ask for settlement every step', async () => {
    const h = harness({
      updater: { settlementRate: (r) => r * 2, needsEvidence: () => true, settled: () => Promise.resolve() },
    });
    expect(h.window.rate).toBe(1);
    expect(await h.window.add(0, stepOf(0), 0, false)).toBe(4);
  });

  it('a last partial window is written unsettled', async () => {
    const h = harness({}, { every: 4 });
    await h.window.add(0, stepOf(0), 0, false);
    expect(await h.window.add(1, stepOf(1), 0, true)).toBe(0);
    expect(h.samples).toHaveLength(8);
    expect(h.samples.some((s) => s.settled)).toBe(false);
    expect(h.refits).toEqual([]);
  });

  it('its state is one object: a window restored mid-way settles exactly as an uninterrupted one', async () => {
    const cfg = { strategy: 'random', every: 3, adaptive: { enabled: true, signal: 'gao', growth: 1, rm_weight: 0 } };
    const run = async (restoreAt?: number) => {
      let h = harness({}, cfg);
      const lines: RefitLine[] = [];
      for (let s = 0; s < 12; s++) {
        if (s === restoreAt) {
          const state = JSON.parse(JSON.stringify(h.window.getState()));
          const rm = h.rm;
          h = harness({ rm }, cfg);
          h.rm = rm;
          h.window.setState(state);
        }
        const n = await h.window.add(s, stepOf(s, [0.1 * (s % 7), 0.5, 0.2, 0.9], [s % 2 ? 1 : 0, 1, 0, 0]), 0.05 * s, false);
        // Wall times aside (perf), a resumed window writes the same lines.
        if (n) lines.push({ ...h.refits.at(-1)!, perf: {} });
      }
      return { lines, state: h.window.getState() };
    };
    const straight = await run();
    expect(straight.lines).toHaveLength(4);
    const resumed = await run(4);
    expect(resumed.lines).toEqual(straight.lines);
    expect(resumed.state).toEqual(straight.state);
  });
});
