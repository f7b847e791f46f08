/**
 * The pretrained default base shipped in models/base-synthetic-js (so `npm start` skips
 * pretraining): the files are the ones recorded in its SHA256SUMS, configs/default.yaml uses it,
 * and `anchor-rl pretrain` is bit-reproducible — a shortened pretrain of the default config
 * (20 steps) writes exactly the recorded weights. In CI (CI=true) or with ANCHOR_FULL_PRETRAIN=1 it
 * also runs the full default pretrain (minutes) and compares it with the shipped file itself.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

const shipped = join(repoRoot, 'models/base-synthetic-js');
const work = mkdtempSync(join(tmpdir(), 'anchor-shipped-base-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** `sha256  name` lines of the shipped SHA256SUMS, by file name. */
function recorded(): Map<string, string> {
  const lines = readFileSync(join(shipped, 'SHA256SUMS'), 'utf8').trim().split('\n');
  return new Map(lines.map((l) => l.split(/\s+/) as [string, string]).map(([h, f]) => [f, h]));
}

/** `anchor-rl pretrain` with configs/pretrain.yaml (the default base's settings) into `out`. */
function pretrain(out: string, sets: string[]): string {
  const r = runCli(
    [
      'pretrain',
      '--config',
      'configs/pretrain.yaml',
      '--json',
      '--no-progress',
      ...sets.flatMap((s) => ['--set', s]),
      '--set',
      `output=${out}`,
    ],
    {
      timeoutMs: 1_800_000,
    },
  );
  if (r.code !== 0) throw new Error(`pretrain failed (${r.code}):\n${r.stderr.slice(-3000)}`);
  return sha256(join(out, 'model.safetensors'));
}

/** The weights a 20-step pretrain of configs/pretrain.yaml writes (see models/base-synthetic-js/PROVENANCE.md). */
const SHORT_PRETRAIN_SHA256 = '606cb311908ede96e63c5e5b52fbbb2740f88e4c3ff084842aee7aab6f9970da';
const SHORT = ['train.steps=20', 'train.eval_every=0', 'eval.problems=8'];

describe('the shipped default base', () => {
  it('holds the files its SHA256SUMS records, and configs/default.yaml uses it with its shape', () => {
    const sums = recorded();
    expect([...sums.keys()].sort()).toEqual(['char-vocab.json', 'config.json', 'model.safetensors']);
    for (const [file, hash] of sums) expect(sha256(join(shipped, file)), file).toBe(hash);
    const run = parse(readFileSync(join(repoRoot, 'configs/default.yaml'), 'utf8'));
    // Relative paths in a config file resolve against the file (configs/).
    expect(resolve(repoRoot, 'configs', run.policy.base)).toBe(resolve(shipped));
    const meta = JSON.parse(readFileSync(join(shipped, 'config.json'), 'utf8'));
    expect(meta.model).toMatchObject({
      layers: run.policy.model.layers,
      dModel: run.policy.model.d_model,
      heads: run.policy.model.heads,
    });
    const pre = parse(readFileSync(join(repoRoot, 'configs/pretrain.yaml'), 'utf8'));
    expect(meta.meta.config.train).toMatchObject({ steps: pre.train.steps, batch_size: pre.train.batch_size });
  });

  it('a shortened pretrain of the default config writes the recorded weights, bit for bit', () => {
    expect(pretrain(join(work, 'short'), SHORT)).toBe(SHORT_PRETRAIN_SHA256);
  }, 1_800_000);

  // Minutes of CPU: run in CI (`.ci/run` sets CI=true) and on request, not in every local `npm test`.
  it.runIf(process.env.ANCHOR_FULL_PRETRAIN === '1' || process.env.CI === 'true')(
    'the full default pretrain reproduces the shipped model.safetensors (CI, or ANCHOR_FULL_PRETRAIN=1)',
    () => {
      expect(pretrain(join(work, 'full'), [])).toBe(recorded().get('model.safetensors'));
    },
    3_600_000,
  );
});
