/**
 * CLI smoke run over a Hugging Face Llama-shaped policy (configs/smoke-llama.yaml): a tiny random
 * Llama written by the run itself (no download), LoRA on a frozen base, all four arms, adapters-only
 * checkpoints pinned to the base hash, the report listing every arm, and SIGKILL + resume giving
 * exactly the uninterrupted run's metrics and samples. The same config over a tiny random GPT-2
 * directory trains LoRA adapters on its Conv1D projections, exports merged and resumes exactly.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { killAndResumeRun, metrics } from '../helpers/kill-resume.ts';
import { loadHfDir } from '../../src/policy/hf/hf-dir.ts';
import { tinyGpt2Config, writeRandomHfDir } from '../../src/policy/hf/random-dir.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-train-llama-'));
const common = ['--config', 'configs/smoke-llama.yaml', '--set', `policy.model.path=${join(work, 'tiny-llama')}`];
const ARMS = ['frozen', 'anchored', 'execution', 'judge'];

describe('train (smoke-llama)', () => {
  let full: string;
  beforeAll(() => {
    full = join(work, 'full');
    const r = runCli(['train', ...common, '--out', full], { timeoutMs: 600_000 });
    if (r.code !== 0) throw new Error(`smoke-llama train failed (${r.code}):\n${r.stderr.slice(-4000)}`);
  }, 900_000);

  it('runs all four arms; checkpoints hold only adapters and the base hash; the report shows every arm', () => {
    const manifest = JSON.parse(readFileSync(join(full, 'manifest.json'), 'utf8'));
    expect(manifest.arms).toEqual(ARMS);
    const pinned = JSON.parse(readFileSync(join(full, 'shared', 'base-hf.json'), 'utf8'));
    expect(pinned.sha256).toMatch(/^[0-9a-f]{64}$/);
    for (const arm of ARMS) {
      expect(metrics(full, arm).map((r) => r.step)).toEqual([0, 1, 2, 3]);
      expect(JSON.parse(readFileSync(join(full, arm, 'arm.json'), 'utf8')).state).toBe('done');
      const ck = join(full, arm, 'checkpoints', 'step-000004', 'policy');
      expect(readdirSync(ck).sort()).toEqual(['adapters.safetensors', 'config.json', 'optimizer.safetensors']);
      const cfg = JSON.parse(readFileSync(join(ck, 'config.json'), 'utf8'));
      expect(cfg).toMatchObject({ format: 'anchor-rl-hf-policy', base: { sha256: pinned.sha256 }, lora: { rank: 4, alpha: 8 } });
    }
    expect(existsSync(join(full, 'shared', 'base'))).toBe(false); // the base is not copied into the run
    const md = readFileSync(join(full, 'compare.md'), 'utf8');
    for (const arm of ARMS) expect(md).toContain(`| ${arm} |`);
    expect(existsSync(join(full, 'report.html'))).toBe(true);
  });

  it('the HF configs demand policy.model.path (exit 2, nothing written)', () => {
    for (const cfg of ['configs/mbpp-hf.yaml', 'configs/humaneval-hf.yaml']) {
      const out = join(work, 'never');
      const r = runCli(['train', '--config', cfg, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('policy.model.path is required with policy.model.source hf: pass --set policy.model.path=DIR');
      expect(existsSync(out)).toBe(false);
    }
  });

  it('export-hf writes the merged policy as a Hugging Face directory that loads back', () => {
    const out = join(work, 'exported');
    const r = runCli(['export-hf', full, '--arm', 'anchored', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('exported anchored step 4');
    const back = loadHfDir(out);
    const base = loadHfDir(join(work, 'tiny-llama'));
    expect(back.config).toEqual(base.config);
    expect([...back.weights.keys()].sort()).toEqual([...base.weights.keys()].sort());
  });

  it(
    'SIGKILL + resume gives the metrics and samples of an uninterrupted run',
    () => killAndResumeRun({ work, common, arm: 'anchored' }),
    900_000,
  );
});

describe('train (smoke-llama config over a GPT-2 directory, LoRA)', () => {
  const gptDir = join(work, 'tiny-gpt2');
  const gpt = [
    '--config',
    'configs/smoke-llama.yaml',
    '--set',
    `policy.model.path=${gptDir}`,
    '--set',
    'policy.lora.target_modules=[c_attn, c_proj, c_fc]',
  ];
  let run: string;
  beforeAll(() => {
    writeRandomHfDir(gptDir, { arch: 'gpt2', gpt: tinyGpt2Config({ context: 512 }) }, { seed: 3 });
    run = join(work, 'gpt2-run');
    const r = runCli(['train', ...gpt, '--set', 'arms=[anchored]', '--out', run], { timeoutMs: 600_000 });
    if (r.code !== 0) throw new Error(`GPT-2 LoRA train failed (${r.code}):\n${r.stderr.slice(-4000)}`);
  }, 900_000);

  it('checkpoints hold only the GPT-2 adapters; export-hf merges them into a loadable GPT-2 directory', () => {
    const cks = readdirSync(join(run, 'anchored', 'checkpoints'));
    const policy = join(run, 'anchored', 'checkpoints', cks.at(-1)!, 'policy');
    expect(readdirSync(policy).sort()).toEqual(['adapters.safetensors', 'config.json', 'optimizer.safetensors']);
    const cfg = JSON.parse(readFileSync(join(policy, 'config.json'), 'utf8'));
    expect(cfg).toMatchObject({ model: { arch: 'gpt2' }, lora: { target_modules: ['c_attn', 'c_proj', 'c_fc'] } });
    const out = join(work, 'gpt2-exported');
    const r = runCli(['export-hf', run, '--arm', 'anchored', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const back = loadHfDir(out);
    const base = loadHfDir(gptDir);
    expect(back.config).toEqual(base.config);
    expect([...back.weights.keys()].sort()).toEqual([...base.weights.keys()].sort());
  });

  it(
    'SIGKILL + resume gives the metrics and samples of an uninterrupted run',
    // Its own directory: the helper names its runs after the arm.
    () => killAndResumeRun({ work: mkdtempSync(join(work, 'gpt2-kill-')), common: gpt, arm: 'anchored' }),
    900_000,
  );
});
