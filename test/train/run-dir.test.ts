/**
 * Run directories that cannot be lost, checked without training: names that would escape
 * runs/, `--force` on what is not ours, locks held by another writer (live or stale), `--out`
 * that cannot be written, inputs validated before anything is created, prototype keys in
 * `--set`/`--grid`, BOM-prefixed JSONL, an empty config file, `sandbox run X --out X`, and a
 * reward model holding NaN.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyOverrides, parseOverrides } from '../../src/config/overrides.ts';
import { runConfigSchema } from '../../src/train/run-config.ts';
import { readRecords } from '../../src/datasets/read.ts';
import { tinyLlamaConfig, writeRandomHfDir } from '../../src/policy/hf/random-dir.ts';
import { decodeSafetensors, encodeSafetensors } from '../../src/policy/safetensors.ts';
import { createRewardModel, loadRewardModel, rewardModelSchema } from '../../src/reward/models/index.ts';
import { parseGridArg } from '../../src/train/sweep-grid.ts';
import { planSweep } from '../../src/train/sweep.ts';
import { checkArmWriter, lockDir } from '../../src/train/run-dir.ts';
import { runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/paths.ts';

const work = mkdtempSync(join(tmpdir(), 'anchor-rundir-'));
const smoke = resolve(repoRoot, 'configs/smoke.yaml');
const common = ['--config', smoke, '--set', `policy.base=${join(work, 'base')}`];

/**
 * A directory holding this project's run manifest (what `--force` may replace). Its config is
 * invalid on purpose: a `resume` that gets past the lock stops there (exit 2) instead of training.
 */
function fakeRunDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const config = { grpo: { group_size: 1 } };
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      name: 'x',
      seed: 0,
      config,
      arms: [],
      versions: {},
      tfBackend: 'cpu',
      gitCommit: null,
      startedAt: 'now',
      endedAt: null,
    }),
  );
}

/** A PID that is not running: a child that has exited (reuse within the test is vanishingly unlikely). */
const deadPid = (): number => spawnSync('true').pid!;

describe('run names and --force', () => {
  it('name "." or ".." is a config error naming the key (nothing deleted)', () => {
    const cwd = join(work, 'project');
    mkdirSync(join(cwd, 'runs'), { recursive: true });
    writeFileSync(join(cwd, 'user-file.txt'), 'precious');
    for (const name of ['..', '.']) {
      const r = runCli(['train', ...common, '--set', `name=${name}`, '--force'], { cwd });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/name: got "\.{1,2}", a name other than "\." or "\.\."/);
    }
    expect(readFileSync(join(cwd, 'user-file.txt'), 'utf8')).toBe('precious');
    const arm = runCli(['train', ...common, '--set', 'arms=[{name: "..", extends: anchored}]'], { cwd });
    expect(arm.code, arm.stderr).toBe(2);
    expect(arm.stderr).toMatch(/arms\[0\]\.name/);
  });

  it('--force refuses a directory that is not a run directory, and keeps its files', () => {
    const dir = join(work, 'user-folder');
    mkdirSync(dir);
    writeFileSync(join(dir, 'thesis.tex'), 'years of work');
    const r = runCli(['train', ...common, '--out', dir, '--force']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--force refuses to delete .*user-folder: it is not an anchor-rl run directory/);
    expect(readdirSync(dir)).toEqual(['thesis.tex']);
  });

  it('--force refuses the working directory and its parents even when they hold a run manifest', () => {
    const cwd = join(work, 'run-as-cwd');
    fakeRunDir(cwd);
    mkdirSync(join(cwd, 'sub'));
    for (const [out, at] of [
      ['.', cwd],
      ['..', join(cwd, 'sub')],
    ] as const) {
      const r = runCli(['train', ...common, '--out', out, '--force'], { cwd: at });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--force refuses to delete .*: it is the working directory or one of its parents/);
    }
    expect(existsSync(join(cwd, 'manifest.json'))).toBe(true);
  });
});

describe('one writer per run directory', () => {
  it('lockDir: O_EXCL lock naming pid, host and start time; a second lock is RUN_LOCKED naming the holder', () => {
    const dir = join(work, 'locked');
    const lock = lockDir(dir, 'anchor-rl train --out locked');
    const held = JSON.parse(readFileSync(join(dir, '.lock'), 'utf8'));
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), command: 'anchor-rl train --out locked' });
    expect(() => lockDir(dir, 'anchor-rl resume locked', { takeOverStale: true })).toThrow(
      new RegExp(`in use by \`anchor-rl train --out locked\` \\(pid ${process.pid}`),
    );
    lock.release();
    expect(existsSync(join(dir, '.lock'))).toBe(false);
    lockDir(dir, 'again').release();
  });

  it('locks share one exit listener (a ten-seed sweep holds eleven), and it goes when the last is released', () => {
    const before = process.listenerCount('exit');
    const locks = Array.from({ length: 12 }, (_, i) => lockDir(join(work, `many-${i}`), 'anchor-rl sweep'));
    expect(process.listenerCount('exit')).toBe(before + 1);
    for (const l of locks.slice(0, 11)) l.release();
    expect(process.listenerCount('exit')).toBe(before + 1);
    locks[11]!.release();
    locks[11]!.release(); // twice is harmless
    expect(process.listenerCount('exit')).toBe(before);
    expect(locks.every((l) => !existsSync(l.path))).toBe(true);
  });

  it('process.exit with twelve locks held: every lock file removed, no MaxListenersExceededWarning', () => {
    const dirs = Array.from({ length: 12 }, (_, i) => join(work, `exit-${i}`));
    const code = `import { lockDir } from ${JSON.stringify(resolve(repoRoot, 'src/train/run-dir.ts'))};
      for (const d of ${JSON.stringify(dirs)}) lockDir(d, 'anchor-rl sweep');
      await new Promise((r) => setTimeout(r, 100)); // Node prints the warning on a later tick
      process.exit(0);`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/MaxListenersExceeded/);
    expect(dirs.filter((d) => existsSync(join(d, '.lock')))).toEqual([]);
  });

  it('a live holder: train (even --force) and resume exit 2 naming it', () => {
    const dir = join(work, 'busy');
    fakeRunDir(dir);
    writeFileSync(
      join(dir, '.lock'),
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        startedAt: '2026-01-01T00:00:00Z',
        command: 'anchor-rl train --out busy',
      }),
    );
    for (const args of [
      ['train', ...common, '--out', dir, '--force'],
      ['resume', dir],
    ]) {
      const r = runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`is in use by \`anchor-rl train --out busy\` (pid ${process.pid} on ${hostname()}`);
    }
    expect(existsSync(join(dir, 'manifest.json'))).toBe(true);
  });

  it('a stale lock (dead pid, same host): train refuses and points to resume; only resume takes it over', () => {
    const dir = join(work, 'stale');
    fakeRunDir(dir);
    const pid = deadPid();
    writeFileSync(
      join(dir, '.lock'),
      JSON.stringify({ pid, host: hostname(), startedAt: '2026-01-01T00:00:00Z', command: 'anchor-rl train' }),
    );
    const t = runCli(['train', ...common, '--out', dir, '--force']);
    expect(t.code, t.stderr).toBe(2);
    expect(t.stderr).toMatch(
      new RegExp(
        `stale lock from \`anchor-rl train\` \\(pid ${pid}.*no longer running: continue the run with \`anchor-rl resume`,
      ),
    );
    // resume takes the lock over (then stops at the fake manifest's config: exit 2, lock released).
    const r = runCli(['resume', dir]);
    expect(r.stderr).toMatch(/taking over the stale lock .* no longer running/);
    expect(r.stderr).toContain('grpo.group_size: got 1');
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });

  it('a killed holder its parent has not reaped yet (a zombie) counts as dead', () => {
    const dir = join(work, 'zombie');
    const child = spawn('sleep', ['60']);
    child.kill('SIGKILL');
    // Synchronously (the event loop cannot reap it meanwhile): wait until it is a zombie.
    const state = () => readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]![0];
    const until = Date.now() + 10_000;
    while (state() !== 'Z' && Date.now() < until);
    expect(state()).toBe('Z');
    mkdirSync(dir);
    writeFileSync(
      join(dir, '.lock'),
      JSON.stringify({ pid: child.pid, host: hostname(), startedAt: '2026-01-01T00:00:00Z', command: 'anchor-rl train' }),
    );
    const logs: string[] = [];
    lockDir(dir, 'anchor-rl resume', { takeOverStale: true, log: (l) => logs.push(l) }).release();
    expect(logs.join('\n')).toMatch(new RegExp(`taking over the stale lock .*pid ${child.pid}`));
  });

  it('an arm whose arm process still runs (its parent killed) is not started twice', () => {
    const orphan = spawn('sleep', ['60']);
    try {
      const writer = { pid: orphan.pid!, host: hostname() };
      expect(() => checkArmWriter('/r/anchored', writer)).toThrow(
        `/r/anchored is still being written by its arm process (pid ${orphan.pid} on ${hostname()})`,
      );
      expect(() => checkArmWriter('/r/anchored', { pid: process.pid, host: hostname() })).not.toThrow(); // itself
      expect(() => checkArmWriter('/r/anchored', { ...writer, host: 'elsewhere' })).not.toThrow(); // a queue worker's: unknown
      expect(() => checkArmWriter('/r/anchored', { pid: deadPid(), host: hostname() })).not.toThrow();
    } finally {
      orphan.kill('SIGKILL');
    }
  });

  it('sweep locks each seed run directory the same way', () => {
    const out = join(work, 'sweep-busy');
    const sets = common.filter((a) => a.startsWith('policy.base='));
    // A sweep begun earlier (its record), one of whose seed runs another process is resuming.
    const plan = planSweep({ configPath: smoke, sets, grids: ['settlement.rate=0.1,0.2'], seeds: 1, out });
    mkdirSync(join(out, 'seed-0'), { recursive: true });
    writeFileSync(join(out, 'sweep.json'), JSON.stringify({ ...plan.record, startedAt: '2026-01-01T00:00:00Z', endedAt: null }));
    writeFileSync(
      join(out, 'seed-0', '.lock'),
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        startedAt: '2026-01-01T00:00:00Z',
        command: 'anchor-rl resume seed-0',
      }),
    );
    const r = runCli([
      'sweep',
      '--config',
      smoke,
      ...sets.flatMap((s) => ['--set', s]),
      '--grid',
      'settlement.rate=0.1,0.2',
      '--seeds',
      '1',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('is in use by `anchor-rl resume seed-0`');
    expect(existsSync(join(out, 'seed-0', 'manifest.json'))).toBe(false);
  });
});

describe('validated before anything is created', () => {
  it('--out that is a file or cannot be written: a clear error, exit 2', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    const f = runCli(['train', ...common, '--out', file]);
    expect(f.code, f.stderr).toBe(2);
    expect(f.stderr).toContain(`--out ${file}: is a file, not a directory`);
    expect(f.stderr).not.toMatch(/internal error|\n\s+at /);
    // /proc refuses new entries even to root (a read-only directory for every user).
    const ro = runCli(['train', ...common, '--out', '/proc/anchor-run']);
    expect(ro.code, ro.stderr).toBe(2);
    expect(ro.stderr).toMatch(/--out \/proc\/anchor-run: cannot write in \/proc \(E[A-Z]+\)/);
  });

  it('a malformed dataset fails before the run directory (manifest.json, shared/) exists', () => {
    const ds = join(work, 'bad.jsonl');
    writeFileSync(ds, '{"task_id": "a", "prompt": "x"\n');
    const out = join(work, 'never-created');
    const r = runCli(['train', ...common, '--set', `task={dataset: ${ds}}`, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${ds}:1`);
    expect(existsSync(out)).toBe(false);
  });

  it('a start that fails on its base model takes back what it wrote, so the rerun needs no --force', () => {
    // A Hugging Face base whose end-of-sequence id (256) is outside its 256-row embedding: found
    // while the shared assets load it, after manifest.json was written.
    const model = join(work, 'bad-vocab-llama');
    writeRandomHfDir(model, { arch: 'llama', llama: tinyLlamaConfig({ vocabSize: 256 }) }, { seed: 0 });
    const llamaArgs = ['--config', resolve(repoRoot, 'configs/smoke-llama.yaml'), '--set', `policy.model.path=${model}`];
    const out = join(work, 'failed-start');
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = runCli(['train', ...llamaArgs, '--out', out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/token ids outside the model's vocabulary/);
      expect(r.stderr).not.toMatch(/exists and is not empty/);
      expect(existsSync(out), `attempt ${attempt}`).toBe(false);
    }
    // An empty directory the user made stays (emptied of only what the command wrote).
    mkdirSync(out);
    const r = runCli(['train', ...llamaArgs, '--out', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(readdirSync(out)).toEqual([]);
  });

  it('--set and --grid reject __proto__, constructor and prototype segments', () => {
    for (const seg of ['__proto__', 'constructor', 'prototype']) {
      expect(() => parseOverrides([`${seg}.polluted=1`])).toThrow(new RegExp(`"${seg}" is not allowed in a key path`));
      expect(() => parseGridArg(`settlement.${seg}=1,2`)).toThrow(new RegExp(`"${seg}" is not allowed`));
    }
    expect(() => applyOverrides({}, [{ path: ['__proto__', 'polluted'], raw: '1' }], runConfigSchema)).toThrow(/not allowed/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const r = runCli(['train', ...common, '--set', '__proto__.x=1', '--out', join(work, 'proto')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('"__proto__" is not allowed in a key path');
  });

  it('an empty config file says so on stderr', () => {
    const empty = join(work, 'empty.yaml');
    writeFileSync(empty, '# nothing yet\n');
    const r = runCli(['train', '--config', empty, '--set', 'grpo.group_size=1', '--out', join(work, 'empty-run')]);
    expect(r.stderr).toContain(`config ${empty} is empty; running the embedded defaults`);
    expect(r.code).toBe(2); // the --set value, validated after the warning
  });
});

describe('readers', () => {
  it('a UTF-8 BOM on the first JSONL line is accepted', () => {
    const p = join(work, 'bom.jsonl');
    writeFileSync(p, '\uFEFF{"a":1}\n{"a":2}\n');
    expect(readRecords(p).map((r) => r.value)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('sandbox run X --out X is refused and the input is kept', () => {
    const p = join(work, 'programs.jsonl');
    const text = '{"id":"a","program":"1+1"}\n';
    writeFileSync(p, text);
    const r = runCli(['sandbox', 'run', p, '--out', join(work, '.', 'programs.jsonl')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/is the input file/);
    expect(readFileSync(p, 'utf8')).toBe(text);
  });

  it('a reward model holding NaN names its file (not "ridge system is not positive definite")', async () => {
    const rm = createRewardModel(rewardModelSchema.parse({ kind: 'ridge' }));
    const X = Array.from({ length: 12 }, (_, i) => Float32Array.from([i, i % 3, 1]));
    await rm.fit(
      X,
      X.map((x) => x[0]! / 12),
    );
    const dir = join(work, 'rm');
    await rm.save(dir);
    const file = join(dir, 'model.safetensors');
    const f = decodeSafetensors(readFileSync(file), file);
    const [name, t] = [...f.tensors][0]!;
    t.data[0] = Number.NaN;
    writeFileSync(file, encodeSafetensors(f.tensors, f.metadata));
    await expect(loadRewardModel(dir)).rejects.toThrow(`${file} holds non-finite reward-model values: ${name}[0] = NaN`);
    // The float64 copies in model.json: NaN was written as null.
    await rm.save(dir);
    const json = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
    json.weightsF64[1] = null;
    writeFileSync(join(dir, 'model.json'), JSON.stringify(json));
    await expect(loadRewardModel(dir)).rejects.toThrow(
      `${join(dir, 'model.json')} holds non-finite reward-model values in weightsF64`,
    );
  });
});
