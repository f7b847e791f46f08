/**
 * The CLI as users get it. The checkout's CLI started from another directory, and the npm
 * package: `npm pack` (which builds dist/ through `prepare`), the tarball installed into an empty
 * directory, its `anchor-rl` run from a directory outside both — and from an empty directory on
 * the embedded defaults, which must start from the shipped base policy (models/base-synthetic-js)
 * instead of pretraining one there. Each `train` forks an arm process
 * and sandbox workers, so a child that finds its loader or files only from the checkout's root fails
 * here. The install draws on the local npm cache first (`--prefer-offline`); when npm cannot
 * install at all the packaged tests skip with a printed reason (and fail under CI).
 *
 * Cost: dependencies' install scripts are skipped (`--ignore-scripts`: onnxruntime-node's would
 * download CUDA binaries, isolated-vm's compiles for minutes) and isolated-vm's native addon is
 * copied from the checkout when both hold the same version (same sources, same Node); otherwise
 * it is rebuilt with `npm rebuild isolated-vm`.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available } from '../../support/requirements.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-pack-'));
/** Where the CLI is started from: outside the checkout and outside the install directory. */
const elsewhere = join(work, 'elsewhere');
mkdirSync(elsewhere);

/** The smallest training run that still forks an arm process and executes programs in the sandbox. */
const tinyTrain = (out: string) => [
  'train',
  '--config',
  join(elsewhere, 'smoke.yaml'),
  '--set',
  'arms=[execution]',
  '--set',
  'grpo.steps=2',
  '--set',
  'policy.pretrain.steps=5',
  '--set',
  `policy.base=${out}-base`,
  '--out',
  out,
];
writeFileSync(join(elsewhere, 'smoke.yaml'), readFileSync(resolve(repoRoot, 'configs/smoke.yaml')));

/**
 * A smoke run of the embedded defaults (no --config) from an empty directory, shrunk by `--set`
 * but with the default model and task: it must start from the package's shipped base, not
 * pretrain one into the working directory.
 */
const defaultsSmoke = [
  'train',
  '--set',
  'arms=[execution]',
  '--set',
  'grpo.steps=2',
  '--set',
  'grpo.prompts_per_step=2',
  '--set',
  'grpo.group_size=2',
  '--set',
  'task.train=32',
  '--set',
  'task.eval=8',
  '--set',
  'reward_model.initial_samples=16',
  '--set',
  'eval.every=0',
  '--set',
  'checkpoint.every=2',
  '--set',
  'concurrency=1',
  '--out',
  'runs/smoke',
];

/** The empty-directory smoke in `cwd` finished from the shipped base and wrote nothing else there. */
function expectShippedBaseSmoke(r: CliResult, cwd: string): void {
  expect(r.code, r.stderr.slice(-4000)).toBe(0);
  expect(r.stderr).not.toMatch(/pretraining/);
  expect(readdirSync(cwd)).toEqual(['runs']);
  expect(readdirSync(join(cwd, 'runs'))).toEqual(['smoke']); // no runs/.cache: nothing was pretrained
  const manifest = JSON.parse(readFileSync(join(cwd, 'runs', 'smoke', 'manifest.json'), 'utf8'));
  expect(manifest.endedAt).toBeTruthy();
  expect(manifest.config.policy.base).toMatch(/models[\\/]base-synthetic-js$/);
}
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Run npm in `cwd`, without the `npm_*` variables of an enclosing `npm test` (its local prefix is the checkout). */
function npm(args: string[], cwd: string, timeoutMs: number): CliResult {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...env, npm_config_update_notifier: 'false' },
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? String(r.error ?? '') };
}

/** isolated-vm's compiled addon in the install at `prefix`: the checkout's copy, or a rebuild. */
function provideIsolatedVmAddon(prefix: string): void {
  const addon = 'node_modules/isolated-vm/out/isolated_vm.node';
  const version = (root: string) =>
    (JSON.parse(readFileSync(join(root, 'node_modules/isolated-vm/package.json'), 'utf8')) as { version: string }).version;
  if (existsSync(join(repoRoot, addon)) && version(repoRoot) === version(prefix)) {
    mkdirSync(join(prefix, dirname(addon)), { recursive: true });
    copyFileSync(join(repoRoot, addon), join(prefix, addon));
    return;
  }
  const r = npm(['rebuild', 'isolated-vm'], prefix, 1_200_000);
  if (r.code !== 0) throw new Error(`npm rebuild isolated-vm failed (${r.code}):\n${r.stderr.slice(-4000)}`);
}

/** A finished run directory: manifest closed, the arm's two steps logged, the report written. */
function expectFinishedRun(r: CliResult, out: string): void {
  expect(r.code, r.stderr.slice(-4000)).toBe(0);
  expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).endedAt).toBeTruthy();
  expect(
    readFileSync(join(out, 'execution', 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n'),
  ).toHaveLength(2);
  expect(existsSync(join(out, 'report.html'))).toBe(true);
}

describe('the checkout CLI started outside the checkout', () => {
  it('--help works', () => {
    const r = runCli(['--help'], { cwd: elsewhere });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('anchor-rl train');
  });

  it('train forks its arm process and sandbox workers', () => {
    const out = join(work, 'checkout-run');
    expectFinishedRun(runCli(tinyTrain(out), { cwd: elsewhere, timeoutMs: 600_000 }), out);
  }, 700_000);

  it('the embedded defaults from an empty directory start from the shipped base', () => {
    const empty = join(work, 'empty-checkout');
    mkdirSync(empty);
    expectShippedBaseSmoke(runCli(defaultsSmoke, { cwd: empty, timeoutMs: 600_000 }), empty);
  }, 700_000);
});

describe('the packed and installed CLI', () => {
  const prefix = join(work, 'install');
  let bin = '';
  let packed: string[] = [];

  beforeAll(() => {
    const pack = npm(['pack', '--json', '--pack-destination', work], repoRoot, 300_000);
    if (pack.code !== 0) throw new Error(`npm pack failed (${pack.code}):\n${pack.stderr.slice(-4000)}`);
    // `--json` output follows whatever the `prepare` build printed.
    const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[\n'))) as { filename: string; files: { path: string }[] }[];
    packed = info[0]!.files.map((f) => f.path);
    mkdirSync(prefix);
    writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'anchor-rl-consumer', private: true }));
    const args = [
      'install',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--omit=optional',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      join(work, info[0]!.filename),
    ];
    const inst = npm(args, prefix, 1_200_000);
    const missing =
      inst.code === 0
        ? null
        : `npm ${args.join(' ')} failed (${inst.code}): ${inst.stderr.trim().split('\n').slice(-5).join(' | ')}`;
    if (!available('installing the packed tarball', missing)) return;
    provideIsolatedVmAddon(prefix);
    bin = join(prefix, 'node_modules', '.bin', 'anchor-rl');
  }, 1_600_000);

  it('ships the compiled CLI and its run-time files, not sources or tests', () => {
    for (const f of [
      'bin/anchor-rl.js',
      'dist/cli/main.js',
      'dist/train/arm-process.js',
      'dist/sandbox/worker.js',
      'dist/sandbox/python/worker.js',
      'sandbox/snapshot.js',
      'sandbox/python/harness.py',
      'configs/smoke.yaml',
      'configs/default.yaml',
      'models/base-synthetic-js/model.safetensors',
      'models/base-synthetic-js/config.json',
      'models/base-synthetic-js/char-vocab.json',
    ])
      expect(packed).toContain(f);
    expect(packed.filter((f) => /^(src|test|bench|support|runs|docs)\//.test(f) || f.endsWith('.ts'))).toEqual([]);
  });

  it('--help works from another directory', (ctx) => {
    if (!bin) return ctx.skip();
    const r = spawnSync(bin, ['--help'], { cwd: elsewhere, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('anchor-rl train');
  });

  it('train completes from another directory, without tsx', (ctx) => {
    if (!bin) return ctx.skip();
    expect(existsSync(join(prefix, 'node_modules', 'tsx'))).toBe(false); // a dev dependency only
    const out = join(work, 'packed-run');
    const r = spawnSync(bin, tinyTrain(out), { cwd: elsewhere, encoding: 'utf8', timeout: 600_000 });
    expectFinishedRun({ code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }, out);
  }, 700_000);

  it('the embedded defaults from an empty directory start from the shipped base, and the packed configs find it', (ctx) => {
    if (!bin) return ctx.skip();
    const empty = join(work, 'empty-packed');
    mkdirSync(empty);
    const r = spawnSync(bin, defaultsSmoke, { cwd: empty, encoding: 'utf8', timeout: 600_000 });
    expectShippedBaseSmoke({ code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }, empty);
    const shipped = join(prefix, 'node_modules', 'anchor-rl', 'models', 'base-synthetic-js');
    expect(realpathSync(JSON.parse(readFileSync(join(empty, 'runs', 'smoke', 'manifest.json'), 'utf8')).config.policy.base)).toBe(
      realpathSync(shipped),
    );
    // The packaged default config names the shipped base relative to itself.
    const show = spawnSync(
      bin,
      ['config', 'show', '--config', join(prefix, 'node_modules', 'anchor-rl', 'configs', 'default.yaml')],
      {
        cwd: empty,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain(`base: ${shipped}`);
  }, 700_000);
});
