/**
 * Kill-and-resume identity check shared by the training smoke tests: a run SIGKILLed mid-way and
 * resumed logs exactly the metrics and samples of an uninterrupted run (wall-time `perf/*` keys
 * aside), with no duplicated lines.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli.ts';
import { repoRoot } from './paths.ts';
import { tensorboardView } from './tfevents-reader.ts';

/**
 * CLI args for the shipped default base (models/base-synthetic-js) at configs/smoke.yaml's budget:
 * unlike the smoke base, it passes some programs and ends completions at different lengths.
 */
export const SHIPPED_BASE_AT_SMOKE = [
  '--set',
  `policy.base=${join(repoRoot, 'models/base-synthetic-js')}`,
  '--set',
  'policy.model={layers: 2, d_model: 128, heads: 4, context: 256}',
  '--set',
  'policy.sampling.max_new_tokens=48',
];

/** The metrics lines of one arm. */
export function metrics(dir: string, arm: string): Record<string, unknown>[] {
  return readFileSync(join(dir, arm, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const withoutTiming = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('perf/'))));

/**
 * Train `arm` for `steps` steps (CLI args `common`), SIGKILL it once `killAfter` steps are logged,
 * (`beforeResume` may then edit the killed run's directory), resume, compare with an uninterrupted
 * run. Returns the resumed run's metrics lines.
 */
export async function killAndResumeRun({
  work,
  common,
  arm,
  tensorboard = false,
  steps = 6,
  killAfter = 3,
  beforeResume,
}: {
  work: string;
  common: string[];
  arm: string;
  tensorboard?: boolean;
  steps?: number;
  killAfter?: number;
  beforeResume?: (runDir: string) => void;
}): Promise<Record<string, unknown>[]> {
  const killed = join(work, `killed-${arm}`);
  const tb = tensorboard ? ['--set', 'logging.tensorboard=true'] : [];
  const args = [
    resolve(repoRoot, 'bin/anchor-rl.js'),
    'train',
    ...common,
    '--set',
    `arms=[${arm}]`,
    '--set',
    `grpo.steps=${steps}`,
    ...tb,
    '--out',
    killed,
  ];
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'ignore', detached: true });
  // Kill the whole process group (CLI + arm process + sandbox workers) once step 3 is logged, and
  // wait for the CLI's exit: until it is reaped its pid stays live and still holds the run lock.
  await new Promise<void>((res, rej) => {
    let sent = false;
    const t = setInterval(() => {
      const p = join(killed, arm, 'metrics.jsonl');
      if (existsSync(p) && readFileSync(p, 'utf8').trim().split('\n').length >= killAfter) {
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
  beforeResume?.(killed);
  const r = runCli(['resume', killed], { timeoutMs: 600_000 });
  expect(r.code, r.stderr).toBe(0);
  const ref = join(work, `uninterrupted-${arm}`);
  const u = runCli(['train', ...common, '--set', `arms=[${arm}]`, '--set', `grpo.steps=${steps}`, '--out', ref], {
    timeoutMs: 600_000,
  });
  expect(u.code, u.stderr).toBe(0);
  const a = metrics(killed, arm);
  const allSteps = Array.from({ length: steps }, (_, i) => i);
  expect(a.map((x) => x.step)).toEqual(allSteps); // truncated on resume, never duplicated
  expect(withoutTiming(a)).toEqual(withoutTiming(metrics(ref, arm)));
  const samples = (d: string) => readFileSync(join(d, arm, 'samples.jsonl'), 'utf8');
  expect(samples(killed)).toBe(samples(ref));
  expect(readdirSync(join(killed, arm, 'checkpoints')).filter((n) => n.startsWith('.tmp'))).toEqual([]);
  if (tensorboard) {
    // The resumed process started a second event file that purges the first one's steps from
    // its resume step, so TensorBoard shows each metric once per step, as logged.
    const events = readdirSync(join(killed, arm))
      .filter((n) => n.startsWith('events.out.tfevents.'))
      .map((n) => join(killed, arm, n));
    expect(events).toHaveLength(2);
    const view = tensorboardView(events);
    expect([...view.keys()].sort((x, y) => x - y)).toEqual(allSteps);
    for (const row of a) {
      for (const key of ['reward/proxy', 'kl/ref', 'loss/total', 'budget/exec']) {
        if (typeof row[key] === 'number')
          expect(view.get(row.step as number)![key], `${row.step} ${key}`).toBe(Math.fround(row[key] as number));
      }
    }
  }
  if (arm === 'gated') {
    // The gate's log is truncated to the checkpoint too, and the restored failure library,
    // memory and escalation state decide exactly as the uninterrupted run's did.
    const gate = (d: string) => readFileSync(join(d, arm, 'gate.jsonl'), 'utf8');
    expect(gate(killed)).toBe(gate(ref));
  }
  return a;
}
