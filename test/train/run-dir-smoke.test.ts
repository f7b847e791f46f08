/**
 * Run directories under real processes (configs/smoke.yaml, two arms at once): a second writer
 * is refused while `train` runs; SIGINT to `train` makes every running arm checkpoint before the
 * command exits non-zero (lock released); `resume` verifies the checkpoint's SHA-256s and finite
 * values (a flipped byte, a truncated state.json or a NaN weight is exit 2 naming the file) and
 * refuses an edited config unless `--allow-config-change` names the keys, then completes.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeSafetensors, encodeSafetensors } from '../../src/policy/safetensors.ts';
import { runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-rundir-smoke-'));
const base = join(work, 'base');
const ARMS = ['frozen', 'anchored'];
const common = [
  '--config',
  'configs/smoke.yaml',
  '--set',
  `policy.base=${base}`,
  '--set',
  `arms=[${ARMS.join(',')}]`,
  '--set',
  'concurrency=2',
];
const run = join(work, 'run');

const latestCheckpoint = (arm: string) => {
  const root = join(run, arm, 'checkpoints');
  const steps = readdirSync(root)
    .filter((n) => n.startsWith('step-') && existsSync(join(root, n, 'state.json')))
    .sort();
  return steps.length ? join(root, steps.at(-1)!) : undefined;
};

describe('run directory under real processes', () => {
  let exit: { code: number | null; signal: NodeJS.Signals | null; stderr: string };
  let second: ReturnType<typeof runCli>;
  let secondResume: ReturnType<typeof runCli>;

  beforeAll(async () => {
    // The base policy first (pretrained once, cached), so the run below reaches its arms quickly.
    const pre = runCli(['train', ...common, '--set', 'grpo.steps=1', '--set', 'arms=[frozen]', '--out', join(work, 'warm')], {
      timeoutMs: 600_000,
    });
    if (pre.code !== 0) throw new Error(`warm-up run failed: ${pre.stderr.slice(-3000)}`);
    // 400 steps (far more than the test waits for) without periodic checkpoints: the only checkpoint is the one SIGINT asks for.
    const child = spawn(
      process.execPath,
      [
        resolve(repoRoot, 'bin/anchor-rl.js'),
        'train',
        ...common,
        '--set',
        'grpo.steps=400',
        '--set',
        'checkpoint.every=1000',
        '--out',
        run,
      ],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => (stderr += d));
    const done = new Promise<typeof exit>((res) => child.on('exit', (code, signal) => res({ code, signal, stderr })));
    await new Promise<void>((res, rej) => {
      // Progress lines (metrics.jsonl is only synced at checkpoints, and there are none yet).
      const t = setInterval(() => {
        if (ARMS.every((a) => new RegExp(`\\[${a}\\] step \\d+/400`).test(stderr))) {
          clearInterval(t);
          res();
        }
      }, 100);
      void done.then(() => {
        clearInterval(t);
        rej(new Error(`train ended before both arms stepped: ${stderr.slice(-3000)}`));
      });
    });
    second = runCli(['train', ...common, '--out', run, '--force']);
    secondResume = runCli(['resume', run]);
    child.kill('SIGINT'); // the CLI process only: it must forward the signal to its arms
    exit = await done;
  }, 900_000);

  it('a second writer (train --force, resume) exits 2 naming the holder while train runs', () => {
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toMatch(/is in use by `anchor-rl train .*` \(pid \d+ on /);
    expect(secondResume.code, secondResume.stderr).toBe(2);
    expect(secondResume.stderr).toMatch(/is in use by `anchor-rl train/);
  });

  it('SIGINT: every running arm checkpoints, the command exits 130 and releases the lock', () => {
    expect(exit.code, exit.stderr.slice(-3000)).toBe(130);
    expect(exit.stderr).not.toMatch(/EPIPE/);
    for (const arm of ARMS) {
      const ck = latestCheckpoint(arm);
      expect(ck, `${arm} checkpoint`).toBeDefined();
      const status = JSON.parse(readFileSync(join(run, arm, 'arm.json'), 'utf8'));
      expect(status.state).toBe('running');
      expect(status.stepsDone).toBeGreaterThanOrEqual(1);
      expect(status.stepsDone).toBeLessThan(400);
    }
    expect(existsSync(join(run, '.lock'))).toBe(false);
  });

  it('resume refuses a corrupt checkpoint (flipped byte, truncated state.json, NaN weight) with exit 2 naming the file', () => {
    const ck = latestCheckpoint('anchored')!;
    const model = join(ck, 'policy', 'model.safetensors');
    const original = readFileSync(model);
    const flipped = Buffer.from(original);
    flipped[flipped.length - 3]! ^= 0x10;
    writeFileSync(model, flipped);
    let r = runCli(['resume', run]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${model}: does not match the SHA-256 recorded in ${join(ck, 'state.json')}`);
    expect(r.stderr).toMatch(/move the bad one aside \(mv .*corrupt-step-/);
    writeFileSync(model, original);

    const statePath = join(ck, 'state.json');
    const state = readFileSync(statePath, 'utf8');
    writeFileSync(statePath, state.slice(0, state.length / 2));
    r = runCli(['resume', run]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${statePath}: unreadable checkpoint state`);
    writeFileSync(statePath, state);

    // NaN with a matching hash (as a diverged save would have been): caught by the finite check.
    const f = decodeSafetensors(original, model);
    [...f.tensors.values()][0]!.data[0] = Number.NaN;
    const nan = encodeSafetensors(f.tensors, f.metadata);
    writeFileSync(model, nan);
    const parsed = JSON.parse(state);
    parsed.files['policy/model.safetensors'] = createHash('sha256').update(nan).digest('hex');
    writeFileSync(statePath, JSON.stringify(parsed));
    r = runCli(['resume', run]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds non-finite values: .*\\[0\\] = NaN`),
    );
    writeFileSync(model, original);
    writeFileSync(statePath, state);
    expect(existsSync(join(run, '.lock'))).toBe(false);
  });

  it('an edited config is refused (exit 2, keys listed) unless --allow-config-change names them; then resume completes and records it', () => {
    const mp = join(run, 'manifest.json');
    const manifest = JSON.parse(readFileSync(mp, 'utf8'));
    manifest.config.grpo.steps = 6; // finish sooner
    manifest.config.grpo.lr = manifest.config.grpo.lr / 2;
    writeFileSync(mp, JSON.stringify(manifest, null, 2));
    const refused = runCli(['resume', run]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /the config was changed since the run started:\n\s+grpo\.steps: recorded 400, now 6\n\s+grpo\.lr: recorded/,
    );
    expect(refused.stderr).toContain('--allow-config-change grpo.steps grpo.lr');
    const partly = runCli(['resume', run, '--allow-config-change', 'grpo.steps']);
    expect(partly.code, partly.stderr).toBe(2);

    const stepsBefore = Object.fromEntries(
      ARMS.map((a) => [a, JSON.parse(readFileSync(join(run, a, 'arm.json'), 'utf8')).stepsDone]),
    );
    const ok = runCli(['resume', run, '--allow-config-change', 'grpo.steps', 'grpo.lr'], { timeoutMs: 600_000 });
    expect(ok.code, ok.stderr).toBe(0);
    const after = JSON.parse(readFileSync(mp, 'utf8'));
    expect(after.configChanges).toHaveLength(1);
    expect(after.configChanges[0].steps).toEqual(stepsBefore);
    expect(after.configChanges[0].changes.map((c: { key: string }) => c.key).sort()).toEqual(['grpo.lr', 'grpo.steps']);
    expect(after.endedAt).toBeTruthy();
    for (const arm of ARMS) {
      expect(JSON.parse(readFileSync(join(run, arm, 'arm.json'), 'utf8')).state).toBe('done');
      const steps = readFileSync(join(run, arm, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).step);
      expect(steps).toEqual([...Array(Math.max(6, stepsBefore[arm])).keys()].slice(0, steps.length));
    }
    expect(existsSync(join(run, '.lock'))).toBe(false);
  }, 600_000);

  it('a diverging update (NaN weights) stops the arm with NON_FINITE and is never checkpointed', () => {
    // Negative Adam second moments (finite, so the load checks pass; hashes recomputed as a save
    // would have written them) make the next update take sqrt(v) < 0: NaN weights.
    const ck = latestCheckpoint('anchored')!;
    const p = join(ck, 'policy', 'optimizer.safetensors');
    const f = decodeSafetensors(readFileSync(p), p);
    for (const [k, t] of f.tensors) if (k.startsWith('v.')) t.data.fill(-1);
    const bytes = encodeSafetensors(f.tensors, f.metadata);
    writeFileSync(p, bytes);
    const state = JSON.parse(readFileSync(join(ck, 'state.json'), 'utf8'));
    state.files['policy/optimizer.safetensors'] = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(ck, 'state.json'), JSON.stringify(state));
    const statusPath = join(run, 'anchored', 'arm.json');
    const status = JSON.parse(readFileSync(statusPath, 'utf8'));
    writeFileSync(statusPath, JSON.stringify({ ...status, state: 'running' }));
    const mp = join(run, 'manifest.json');
    const manifest = JSON.parse(readFileSync(mp, 'utf8'));
    manifest.config.grpo.steps = status.stepsDone + 2;
    writeFileSync(mp, JSON.stringify(manifest, null, 2));

    const r = runCli(['resume', run, '--arm', 'anchored', '--allow-config-change', 'grpo.steps'], { timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `anchored policy holds non-finite weights: .* after step ${status.stepsDone + 1}; the arm stopped and keeps its last good checkpoint`,
      ),
    );
    expect(latestCheckpoint('anchored')).toBe(ck);
    expect(JSON.parse(readFileSync(statusPath, 'utf8'))).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/non-finite weights/),
    });
    expect(existsSync(join(run, '.lock'))).toBe(false);
  }, 600_000);
});
