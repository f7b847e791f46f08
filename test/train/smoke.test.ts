/**
 * CLI smoke runs of the training driver on configs/smoke.yaml (tiny model, tiny budget), and the
 * kill-and-resume identity test: a run SIGKILLed mid-way and resumed logs exactly the metrics of
 * an uninterrupted run (wall-time `perf/*` keys aside), with no duplicated lines.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-train-'));
const base = join(work, 'base');
const common = ['--config', 'configs/smoke.yaml', '--set', `policy.base=${base}`];

function metrics(dir: string, arm: string): Record<string, unknown>[] {
  return readFileSync(join(dir, arm, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const withoutTiming = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('perf/'))));

/** Train `arm` for 6 steps, SIGKILL it once step 3 is logged, resume, compare with an uninterrupted run. */
async function killAndResume(arm: string): Promise<void> {
    const killed = join(work, `killed-${arm}`);
    const args = [resolve(repoRoot, 'bin/anchor-rl.js'), 'train', ...common, '--set', `arms=[${arm}]`, '--set', 'grpo.steps=6', '--out', killed];
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'ignore', detached: true });
    // Kill the whole process group (CLI + arm process + sandbox workers) once step 3 is logged, and
    // wait for the CLI's exit: until it is reaped its pid stays live and still holds the run lock.
    await new Promise<void>((res, rej) => {
      let sent = false;
      const t = setInterval(() => {
        const p = join(killed, arm, 'metrics.jsonl');
        if (existsSync(p) && readFileSync(p, 'utf8').trim().split('\n').length >= 3) {
          clearInterval(t);
          sent = true;
          process.kill(-child.pid!, 'SIGKILL');
        }
      }, 50);
      child.on('exit', () => {
        clearInterval(t);
        if (sent) res();
        else rej(new Error('the run finished before it could be killed'));
      });
    });
    expect(JSON.parse(readFileSync(join(killed, arm, 'arm.json'), 'utf8')).state).toBe('running');
    const r = runCli(['resume', killed], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    const ref = join(work, `uninterrupted-${arm}`);
    const u = runCli(['train', ...common, '--set', `arms=[${arm}]`, '--set', 'grpo.steps=6', '--out', ref], { timeoutMs: 600_000 });
    expect(u.code, u.stderr).toBe(0);
    const a = metrics(killed, arm);
    expect(a.map((x) => x.step)).toEqual([0, 1, 2, 3, 4, 5]); // truncated on resume, never duplicated
    expect(withoutTiming(a)).toEqual(withoutTiming(metrics(ref, arm)));
    const samples = (d: string) => readFileSync(join(d, arm, 'samples.jsonl'), 'utf8');
    expect(samples(killed)).toBe(samples(ref));
    expect(readdirSync(join(killed, arm, 'checkpoints')).filter((n) => n.startsWith('.tmp'))).toEqual([]);
  if (arm === 'gated') {
    // The gate's log is truncated to the checkpoint too, and the restored failure library,
    // memory and escalation state decide exactly as the uninterrupted run's did.
    const gate = (d: string) => readFileSync(join(d, arm, 'gate.jsonl'), 'utf8');
    expect(gate(killed)).toBe(gate(ref));
  }
}

describe('train (smoke)', () => {
  let full: string;
  beforeAll(() => {
    full = join(work, 'full');
    const r = runCli(['train', ...common, '--out', full], { timeoutMs: 600_000 });
    if (r.code !== 0) throw new Error(`smoke train failed (${r.code}):\n${r.stderr.slice(-4000)}`);
  }, 900_000);

  it('runs every arm into its own directory with the logs of a run directory (run-format.ts)', () => {
    const manifest = JSON.parse(readFileSync(join(full, 'manifest.json'), 'utf8'));
    expect(manifest.arms).toEqual(['frozen', 'anchored', 'execution', 'judge', 'gated', 'anchored-uncertainty', 'gspo-dapo', 'reinforce-pp']);
    expect(manifest.endedAt).toBeTruthy();
    expect(manifest.config.grpo.steps).toBe(4);
    for (const arm of manifest.arms as string[]) {
      const rows = metrics(full, arm);
      expect(rows.map((r) => r.step)).toEqual([0, 1, 2, 3]);
      for (const key of ['reward/proxy', 'reward/gold', 'reward/gap', 'monitor/snd_g', 'monitor/snd_g_rolling', 'kl/ref', 'reward/frac_reward_zero_std', 'rollout/mismatch_kl', 'policy/entropy', 'completion/length', 'loss/total', 'grad/norm', 'opt/lr', 'settle/count', 'budget/exec', 'perf/rollout_s', 'perf/train_s']) {
        expect(rows[0], `${arm} ${key}`).toHaveProperty(key);
      }
      const samples = readFileSync(join(full, arm, 'samples.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
      expect(samples).toHaveLength(4 * 2 * 4);
      // Written when their window closes: every completion once, settled flags final.
      expect(new Set(samples.map((x) => `${x.step}/${x.index}`)).size).toBe(samples.length);
      const settledSamples = samples.filter((x) => x.settled);
      expect(settledSamples.length, arm).toBe(rows.reduce((a, r) => a + (r['settle/count'] as number), 0));
      // The judge's score is recorded where the judge labelled (its settled claims), nowhere else.
      for (const x of samples) expect(x.judge !== null, `${arm} ${x.step}/${x.index}`).toBe(arm === 'judge' && x.settled);
      expect(existsSync(join(full, arm, 'metrics.csv'))).toBe(true);
      expect(JSON.parse(readFileSync(join(full, arm, 'arm.json'), 'utf8')).state).toBe('done');
      const refits = readFileSync(join(full, arm, 'refits.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      // The gated arm settles every step while its gate has fewer than gate.min_settled gaps.
      expect(refits).toHaveLength(arm === 'gated' ? 4 : 2);
      for (const r of refits) {
        expect(r).toHaveProperty('rank');
        expect(r.strategy).toBe(r.refit ? (arm === 'anchored-uncertainty' ? 'uncertainty' : 'random') : null);
      }
    }
    const settledOf = (arm: string) => readFileSync(join(full, arm, 'samples.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((x) => x.settled).map((x) => `${x.step}/${x.index}`);
    expect(settledOf('anchored-uncertainty')).not.toEqual(settledOf('anchored'));
    // Budgets: execution pays for every rollout, anchored for its settled sample, frozen/judge none.
    const last = (arm: string) => metrics(full, arm).at(-1)!['budget/exec'] as number;
    expect(last('execution')).toBe(4 * 8);
    expect(last('anchored')).toBe(8); // 25% of each 16-completion window (2 steps x 8), two windows
    expect(last('frozen')).toBe(0);
    expect(last('judge')).toBe(0);
    expect(last('anchored-uncertainty')).toBe(8); // same budget as anchored, other claims
    // gated: its settled sample (every step, escalated rate) plus the gate's probes and verifications.
    const gatedRows = metrics(full, 'gated');
    const gatedSettled = gatedRows.reduce((a, r) => a + (r['settle/count'] as number), 0);
    expect(gatedSettled).toBeGreaterThan(8);
    expect(last('gated')).toBeGreaterThan(gatedSettled);
    // The policy moved: the arms share step-0 data, so they differ only through training.
    expect(metrics(full, 'anchored')[0]!['reward/proxy']).toBe(metrics(full, 'frozen')[0]!['reward/proxy']);
  });

  it('the GRPO-variant arms log what their options did; the other arms log none of it', () => {
    const variantKeys = ['rollout/tis_capped', 'reward/overlong_penalty', 'completion/truncated', 'sampling/extra_rounds', 'sampling/dropped_groups', 'sampling/filled_groups'];
    for (const arm of ['frozen', 'anchored', 'execution', 'judge', 'gated', 'anchored-uncertainty', 'gspo-dapo', 'reinforce-pp']) {
      for (const r of metrics(full, arm)) {
        // ONNX Runtime and tfjs agree on the sampled tokens' log-probs (the engine regression guard).
        expect(r['rollout/mismatch_kl'] as number, arm).toBeLessThan(1e-6);
        const f = r['reward/frac_reward_zero_std'] as number;
        expect(f >= 0 && f <= 1, `${arm} ${f}`).toBe(true);
        if (arm === 'frozen' || arm === 'anchored' || arm === 'execution') for (const k of variantKeys) expect(r, `${arm} ${k}`).not.toHaveProperty(k);
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
    const lines = readFileSync(join(full, 'gated', 'gate.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.map((l) => l.step)).toEqual([0, 1, 2, 3]);
    for (const l of lines) {
      expect(['DENY', 'ESCALATE', 'MODIFY', 'WAIT', 'AUTHORIZE']).toContain(l.decision);
      expect(l.reasons.length).toBeGreaterThan(0);
      expect(l.evidence.update).toMatchObject({ kind: 'policy_update', nonFinite: { loss: 0, grads: 0, weights: 0 }, sandboxIntegritySignals: 0 });
      expect(Number.isFinite(l.evidence.update.klToRef)).toBe(true);
    }
    // Too few settled gaps for a finite u (12 < min_settled 30): every update ESCALATEs, and
    // commits (escalation.pause is false) with settlement raised to the 0.4 cap.
    expect(lines.map((l) => [l.decision, l.applied])).toEqual(Array(4).fill(['ESCALATE', true]));
    const rows = metrics(full, 'gated');
    expect(rows.map((r) => r['gate/decision'])).toEqual(Array(4).fill('ESCALATE'));
    expect(rows.at(-1)).toMatchObject({ 'gate/escalate': 4, 'gate/deny': 0, 'gate/modify': 0, 'gate/authorize': 0, 'gate/surprises': 0, 'gate/u': null, 'settle/rate': 0.4 });
    expect(rows.at(-1)!['gate/settled_gaps']).toBe(rows.reduce((a, r) => a + (r['settle/count'] as number), 0));
    expect(rows.at(-1)).toHaveProperty('gate/library_size');
    for (const arm of ['frozen', 'anchored', 'execution', 'judge', 'anchored-uncertainty']) expect(existsSync(join(full, arm, 'gate.jsonl'))).toBe(false);
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

  it('settlement.label_weight enters each settled label that many times into the RM label set', () => {
    const out = join(work, 'label-weight');
    const r = runCli(['train', ...common, '--set', 'arms=[anchored]', '--set', 'grpo.steps=4', '--set', 'settlement.label_weight=3', '--out', out], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    const weighted = readFileSync(join(out, 'anchored', 'refits.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const plain = readFileSync(join(full, 'anchored', 'refits.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // 48 initial labels; 4 new claims per window (25% of 2 steps × 8), each copied 3 times.
    expect(weighted.map((l) => [l.newLabels, l.labels])).toEqual([[4, 60], [4, 72]]);
    expect(plain.map((l) => [l.newLabels, l.labels])).toEqual([[4, 52], [4, 56]]);
    // The first window's claims and drift are the same (the weight only acts at the refit).
    expect(weighted[0].drift).toBe(plain[0].drift);
  }, 600_000);

  it('SIGKILL at any moment + resume gives the metrics of an uninterrupted run', () => killAndResume('anchored'), 900_000);

  it('the same for the gated arm (failure library, memory and escalation restored)', () => killAndResume('gated'), 900_000);
});
