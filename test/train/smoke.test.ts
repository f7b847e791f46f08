/**
 * CLI smoke runs of the training driver on configs/smoke.yaml (tiny model, tiny budget), and the
 * kill-and-resume identity test: a run SIGKILLed mid-way and resumed logs exactly the metrics of
 * an uninterrupted run (wall-time `perf/*` keys aside), with no duplicated lines.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { killAndResumeRun, metrics } from '../helpers/kill-resume.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-train-'));
const base = join(work, 'base');
const common = ['--config', 'configs/smoke.yaml', '--set', `policy.base=${base}`];

const killAndResume = (arm: string) => killAndResumeRun({ work, common, arm, tensorboard: true });

/** The strategy a refit line names, where it is not `random` (instant: settled as rolled out). */
const SETTLEMENT_LOGGED: Record<string, string> = {
  'anchored-uncertainty': 'uncertainty',
  hybrid: 'instant',
  'settled-gao': 'instant',
};

describe('train (smoke)', () => {
  let full: string;
  beforeAll(() => {
    full = join(work, 'full');
    const r = runCli(['train', ...common, '--out', full], { timeoutMs: 600_000 });
    if (r.code !== 0) throw new Error(`smoke train failed (${r.code}):\n${r.stderr.slice(-4000)}`);
  }, 900_000);

  it('runs every arm into its own directory with the logs of a run directory (run-format.ts)', () => {
    const manifest = JSON.parse(readFileSync(join(full, 'manifest.json'), 'utf8'));
    expect(manifest.arms).toEqual([
      'frozen',
      'anchored',
      'execution',
      'judge',
      'gated',
      'anchored-uncertainty',
      'hybrid',
      'ensemble',
      'settled-gao',
      'gspo-dapo',
      'reinforce-pp',
    ]);
    expect(manifest.endedAt).toBeTruthy();
    expect(manifest.config.grpo.steps).toBe(4);
    for (const arm of manifest.arms as string[]) {
      const rows = metrics(full, arm);
      expect(rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
      for (const key of [
        'reward/proxy',
        'reward/gold',
        'reward/gap',
        'monitor/snd_g',
        'monitor/snd_g_rolling',
        'kl/ref',
        'kl/seq',
        'kl/sqrt',
        'reward/frac_reward_zero_std',
        'rollout/mismatch_kl',
        'policy/entropy',
        'completion/length',
        'loss/total',
        'grad/norm',
        'opt/lr',
        'settle/count',
        'budget/exec',
        'perf/rollout_s',
        'perf/train_s',
      ]) {
        expect(rows[0], `${arm} ${key}`).toHaveProperty(key);
      }
      // The step's phase times add up to the step (held-out evaluation aside); RM and gold are parts of scoring.
      const phases = ['rollout', 'reward', 'train', 'sync', 'settle', 'log'];
      for (const r of rows) {
        const sum = phases.reduce((a, p) => a + (r[`perf/${p}_s`] as number), 0) + (r['perf/eval_s'] as number);
        expect(sum, `${arm} step ${r.step}`).toBeCloseTo(r['perf/step_s'] as number, 6);
        expect((r['perf/reward_rm_s'] as number) + (r['perf/reward_gold_s'] as number)).toBeLessThanOrEqual(
          (r['perf/reward_s'] as number) + 1e-9,
        );
      }
      const samples = readFileSync(join(full, arm, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, any>);
      expect(samples).toHaveLength(4 * 2 * 4);
      // Written when their window closes: every completion once, settled flags final.
      expect(new Set(samples.map((x) => `${x.step}/${x.index}`)).size).toBe(samples.length);
      const settledSamples = samples.filter((x) => x.settled);
      expect(settledSamples.length, arm).toBe(rows.reduce((a, r) => a + (r['settle/count'] as number), 0));
      // The judge's score is recorded where the judge labelled (its settled claims), nowhere else.
      for (const x of samples) expect(x.judge !== null, `${arm} ${x.step}/${x.index}`).toBe(arm === 'judge' && x.settled);
      expect(existsSync(join(full, arm, 'metrics.csv'))).toBe(true);
      expect(
        readdirSync(join(full, arm)).filter((n) => n.includes('tfevents')),
        'logging.tensorboard defaults to off',
      ).toEqual([]);
      expect(JSON.parse(readFileSync(join(full, arm, 'arm.json'), 'utf8')).state).toBe('done');
      const refits = readFileSync(join(full, arm, 'refits.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      // The gated arm settles every step while its gate has fewer than gate.min_settled gaps.
      expect(refits).toHaveLength(arm === 'gated' ? 4 : 2);
      for (const r of refits) {
        expect(r).toHaveProperty('rank');
        // RM quality before the refit (monitoring lines: against the window's gold): a fraction or null.
        for (const key of ['pairAcc', 'auc']) {
          expect(r).toHaveProperty(key);
          if (r[key] !== null) expect(r[key]).toBeGreaterThanOrEqual(0), expect(r[key]).toBeLessThanOrEqual(1);
        }
        expect(r.strategy).toBe(r.refit ? (SETTLEMENT_LOGGED[arm] ?? 'random') : null);
      }
    }
    const settledOf = (arm: string) =>
      readFileSync(join(full, arm, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((x) => x.settled)
        .map((x) => `${x.step}/${x.index}`);
    expect(settledOf('anchored-uncertainty')).not.toEqual(settledOf('anchored'));
    // Budgets: execution pays for every rollout, anchored for its settled sample, frozen/judge none.
    const last = (arm: string) => metrics(full, arm).at(-1)!['budget/exec'] as number;
    expect(last('execution')).toBe(4 * 8);
    expect(last('anchored')).toBe(8); // 25% of each 16-completion window (2 steps x 8), two windows
    expect(last('frozen')).toBe(0);
    expect(last('judge')).toBe(0);
    expect(last('anchored-uncertainty')).toBe(8); // same budget as anchored, other claims
    expect(last('ensemble')).toBe(8); // the conservative reward changes what is optimised, not the budget
    // hybrid: σ of every step settled before its update (2 of 8 per step), the same 8 in all.
    expect(metrics(full, 'hybrid').map((r) => r['budget/exec'])).toEqual([2, 4, 6, 8]);
    // gated: its settled sample (every step, escalated rate) plus the gate's probes and verifications.
    const gatedRows = metrics(full, 'gated');
    const gatedSettled = gatedRows.reduce((a, r) => a + (r['settle/count'] as number), 0);
    expect(gatedSettled).toBeGreaterThan(8);
    expect(last('gated')).toBeGreaterThan(gatedSettled);
    // The policy moved: the arms share step-0 data, so they differ only through training.
    expect(metrics(full, 'anchored')[0]!['reward/proxy']).toBe(metrics(full, 'frozen')[0]!['reward/proxy']);
  });

  it('the GRPO-variant arms log what their options did; the other arms log none of it', () => {
    const variantKeys = [
      'rollout/tis_capped',
      'reward/overlong_penalty',
      'completion/truncated',
      'sampling/extra_rounds',
      'sampling/dropped_groups',
      'sampling/filled_groups',
    ];
    for (const arm of [
      'frozen',
      'anchored',
      'execution',
      'judge',
      'gated',
      'anchored-uncertainty',
      'gspo-dapo',
      'reinforce-pp',
    ]) {
      for (const r of metrics(full, arm)) {
        // ONNX Runtime and tfjs agree on the sampled tokens' log-probs (the engine regression guard).
        expect(r['rollout/mismatch_kl'] as number, arm).toBeLessThan(1e-6);
        const f = r['reward/frac_reward_zero_std'] as number;
        expect(f >= 0 && f <= 1, `${arm} ${f}`).toBe(true);
        if (arm === 'frozen' || arm === 'anchored' || arm === 'execution')
          for (const k of variantKeys) expect(r, `${arm} ${k}`).not.toHaveProperty(k);
      }
    }
    const g = metrics(full, 'gspo-dapo');
    for (const r of g) {
      for (const k of variantKeys) expect(r, k).toHaveProperty(k);
      expect(r['rollout/tis_capped']).toBe(0); // no mismatch, nothing capped
      expect(r['reward/overlong_penalty'] as number).toBeLessThanOrEqual(0);
      expect(r['sampling/extra_rounds'] as number).toBeLessThanOrEqual(2);
    }
    // β = 0, yet kl/ref is logged, and it grows from 0 as the policy moves.
    expect(g[0]!['kl/ref']).toBe(0);
    expect(g.at(-1)!['kl/ref'] as number).toBeGreaterThan(0);
    // Dynamic sampling: extra rounds are capped, the batch keeps its size (samples are 4 × 2 × 4 above),
    // and every dropped group was sampled in some round: 2 groups per round.
    for (const r of metrics(full, 'reinforce-pp')) {
      const extra = r['sampling/extra_rounds'] as number;
      expect(extra).toBeLessThanOrEqual(1);
      expect(r['sampling/dropped_groups'] as number).toBeLessThanOrEqual(2 * (1 + extra));
      expect(r['sampling/filled_groups'] as number).toBeLessThanOrEqual(r['sampling/dropped_groups'] as number);
    }
  });

  it('the gated arm gates every update: gate.jsonl lines parse, metrics count decisions, compare shows them', () => {
    const lines = readFileSync(join(full, 'gated', 'gate.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => l.step)).toEqual([0, 1, 2, 3]);
    for (const l of lines) {
      expect(['DENY', 'ESCALATE', 'MODIFY', 'WAIT', 'AUTHORIZE']).toContain(l.decision);
      expect(l.reasons.length).toBeGreaterThan(0);
      expect(l.evidence.update).toMatchObject({
        kind: 'policy_update',
        nonFinite: { loss: 0, grads: 0, weights: 0 },
        sandboxIntegritySignals: 0,
      });
      expect(Number.isFinite(l.evidence.update.klToRef)).toBe(true);
    }
    // Too few settled gaps for a finite u (12 < min_settled 30): every update ESCALATEs, and
    // commits (escalation.pause is false) with settlement raised to the 0.4 cap.
    expect(lines.map((l) => [l.decision, l.applied])).toEqual(Array(4).fill(['ESCALATE', true]));
    const rows = metrics(full, 'gated');
    expect(rows.map((r) => r['gate/decision'])).toEqual(Array(4).fill('ESCALATE'));
    expect(rows.at(-1)).toMatchObject({
      'gate/escalate': 4,
      'gate/deny': 0,
      'gate/modify': 0,
      'gate/authorize': 0,
      'gate/surprises': 0,
      'gate/u': null,
      'settle/rate': 0.4,
    });
    expect(rows.at(-1)!['gate/settled_gaps']).toBe(rows.reduce((a, r) => a + (r['settle/count'] as number), 0));
    expect(rows.at(-1)).toHaveProperty('gate/library_size');
    for (const arm of ['frozen', 'anchored', 'execution', 'judge', 'anchored-uncertainty'])
      expect(existsSync(join(full, arm, 'gate.jsonl'))).toBe(false);
    const md = readFileSync(join(full, 'compare.md'), 'utf8');
    expect(md).toMatch(/\| DENY \| ESCALATE \| MODIFY \| AUTHORIZE \| surprises \| library \|/);
    expect(md).toMatch(/\| gated \|.* \| 0 \| 4 \| 0 \| 0 \| 0 \| \d+ \|/);
  });

  it('refuses to overwrite a run directory without --force (exit 2, nothing written)', () => {
    const r = runCli(['train', ...common, '--out', full]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exists and is not empty; use `anchor-rl resume/);
  });

  it('a bad config value exits 2 before creating the run directory', () => {
    const out = join(work, 'never');
    const r = runCli(['train', ...common, '--set', 'grpo.group_size=1', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('grpo.group_size: got 1, expected at least 2');
    expect(existsSync(out)).toBe(false);
  });

  it('settlement.label_weight weights the settled labels in the refit (not copies)', () => {
    const out = join(work, 'label-weight');
    const r = runCli(
      [
        'train',
        ...common,
        '--set',
        'arms=[anchored]',
        '--set',
        'grpo.steps=4',
        '--set',
        'settlement.label_weight=3',
        '--out',
        out,
      ],
      { timeoutMs: 600_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const weighted = readFileSync(join(out, 'anchored', 'refits.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const plain = readFileSync(join(full, 'anchored', 'refits.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // 48 initial labels; 4 new claims per window (25% of 2 steps × 8), each entered once.
    expect(weighted.map((l) => [l.newLabels, l.labels])).toEqual([
      [4, 52],
      [4, 56],
    ]);
    expect(plain.map((l) => [l.newLabels, l.labels])).toEqual([
      [4, 52],
      [4, 56],
    ]);
    // The first window's claims and drift are the same (the weight only acts at the refit) ...
    expect(weighted[0].drift).toBe(plain[0].drift);
    // ... where weighted least squares fits the heavier labels at least as closely.
    expect(weighted[0].fit.new_mse).toBeLessThanOrEqual(plain[0].fit.new_mse + 1e-12);
  }, 600_000);

  it('SIGKILL at any moment + resume gives the metrics of an uninterrupted run', () => killAndResume('anchored'), 900_000);

  it('the same for the gated arm (failure library, memory and escalation restored)', () => killAndResume('gated'), 900_000);

  it('the same for the hybrid arm (instant labels in the window, the carried fraction)', () => killAndResume('hybrid'), 900_000);

  it(
    'the same for the ensemble arm (its bootstrap members rebuilt from the restored RM)',
    () => killAndResume('ensemble'),
    900_000,
  );
});

describe('train (smoke): resume of the Gao thermostat', () => {
  it('a resumed settled-gao arm logs the early warning of an uninterrupted one, between windows too', async () => {
    // Settlement every 2 steps: the warning's first reading is at the third window (step 5); the
    // kill after 7 logged steps resumes from the step-6 (or step-8) checkpoint, whose first
    // logged step closes no window, so it logs the checkpointed reading. The tiny policy's gold is
    // all 0: the overlong penalty varies its rewards and a larger learning rate moves it far enough
    // from its base (√KL ≈ 1.5) for the warning's curve to be fitted (flat: it reads 0, not null).
    const rows = await killAndResumeRun({
      work,
      common: [...common, '--set', 'grpo.lr=0.01', '--set', 'grpo.overlong.buffer=16'],
      arm: 'settled-gao',
      steps: 10,
      killAfter: 7,
    });
    expect(rows.slice(5).map((r) => r['alarm/gao'])).not.toContain(null);
  }, 900_000);
});
