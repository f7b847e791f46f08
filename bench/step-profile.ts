/**
 * `npm run bench:step`: where a GRPO step's time goes, per arm kind. Trains the default config
 * (configs/default.yaml) for a short run — BENCH_STEPS steps (default 20) of every profiled arm,
 * one seed, one arm at a time (`concurrency: 1`, so arms do not share the cores with each other),
 * no held-out evaluation — and reads the `perf/*` phase times each arm logs (src/train/run-format.ts)
 * from its metrics.jsonl. Shares are taken over the settlement windows after the first one (the
 * first holds the warm-up: wasm compilation, the first ONNX session), so settlement + refit is
 * amortised over exactly the steps of its windows. Writes the "## Step profile" section of
 * BENCHMARKS.md.
 *
 * Env: BENCH_STEPS (default 20: two windows of 10), BENCH_ARMS (comma-separated, default the
 * seven below), BENCH_QUICK=1 (4 steps of two arms, a smoke run).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { benchHeader, machineLoad, median, writeBenchSection } from './benchmarks-file.ts';

const quick = process.env.BENCH_QUICK === '1';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ARMS = (
  process.env.BENCH_ARMS ??
  (quick ? 'frozen,anchored' : 'frozen,anchored-gao,anchored,execution,judge,anchored-uncertainty,ensemble')
).split(',');
const STEPS = Number(process.env.BENCH_STEPS ?? (quick ? 4 : 20));
const CONFIG = 'configs/default.yaml';

/** The step's phases as logged (seconds per step); RM and gold are parts of `reward`. */
const PHASES = ['rollout', 'reward_rm', 'reward_gold', 'reward_other', 'train', 'sync', 'settle', 'log'] as const;
const LABEL: Record<(typeof PHASES)[number], string> = {
  rollout: 'rollout',
  reward_rm: 'RM features + predict',
  reward_gold: 'gold execution',
  reward_other: 'reward source (judge, ensemble)',
  train: 'GRPO update',
  sync: 'weight sync',
  settle: 'settlement + refit',
  log: 'logging',
};

type Row = Record<string, number | string | null>;

function main(): void {
  const loadBefore = machineLoad();
  const every = (parse(readFileSync(path.join(repoRoot, CONFIG), 'utf8')) as { settlement: { every: number } }).settlement.every;
  const out = mkdtempSync(path.join(tmpdir(), 'anchor-step-profile-'));
  const sets = [`grpo.steps=${STEPS}`, `arms=[${ARMS.join(',')}]`, 'concurrency=1', 'eval.every=0', `checkpoint.every=${STEPS}`];
  process.stderr.write(`step profile: ${ARMS.length} arms x ${STEPS} steps of ${CONFIG} into ${out}\n`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    ['bin/anchor-rl.js', 'train', '--config', CONFIG, ...sets.flatMap((s) => ['--set', s]), '--out', path.join(out, 'run')],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`anchor-rl train exited with ${r.status ?? r.signal}`);

  // --- per arm: sum the phases over the measured windows ---------------------------------------
  const from = STEPS > every ? every : 1; // skip the first window (or the first step of a shorter run)
  const table: string[][] = [];
  const misses: string[] = [];
  for (const arm of ARMS) {
    const rows = readFileSync(path.join(out, 'run', arm, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row)
      .filter((x) => (x.step as number) >= from);
    const sum = (k: string): number => rows.reduce((a, x) => a + ((x[`perf/${k}_s`] as number | null) ?? 0), 0);
    const total = sum('step') - sum('eval');
    const part: Record<string, number> = {
      rollout: sum('rollout'),
      reward_rm: sum('reward_rm'),
      reward_gold: sum('reward_gold'),
      reward_other: sum('reward') - sum('reward_rm') - sum('reward_gold'),
      train: sum('train'),
      sync: sum('sync'),
      settle: sum('settle'),
      log: sum('log'),
    };
    const windows = rows.filter((x) => ((x.step as number) + 1) % every === 0).length;
    const share = (k: string): string => `${((100 * part[k]!) / total).toFixed(1)}%`;
    const settleShare = part.settle! / total;
    if (settleShare > 0.1) misses.push(`${arm}: settlement + refit ${(settleShare * 100).toFixed(1)}% of a step`);
    const cpu = rows.map((x) => x['perf/cpu_s']).filter((v): v is number => typeof v === 'number');
    table.push([
      arm,
      `${median(rows.map((x) => x['perf/step_s'] as number)).toFixed(2)} s`,
      cpu.length ? `${median(cpu).toFixed(2)} s` : '—',
      ...PHASES.map(share),
      windows ? `${(part.settle! / windows).toFixed(2)} s` : '—',
    ]);
  }
  rmSync(out, { recursive: true, force: true });
  const loadAfter = machineLoad();

  // --- the BENCHMARKS.md section -----------------------------------------------------------------
  const section = [
    '## Step profile',
    '',
    benchHeader('npm run bench:step', 'bench/step-profile.ts', loadBefore, loadAfter),
    `Workload: ${CONFIG} (the default model, P·G = 4·8 completions of ≤ 48 tokens per step, gold executed for every rollout as \`metrics.gold: all\` does), ${STEPS} steps per arm, seed 0, one arm at a time (\`concurrency: 1\`), no held-out evaluation; whole run ${wall.toFixed(0)} s including the shared assets (initial RM and judge from executed base samples). Shares are over steps ${from}–${STEPS - 1} (the settlement windows after the first, which holds the warm-up), from the \`perf/*\` times each arm logs (the phases are wall time; "CPU per step" is the median \`perf/cpu_s\`, the arm process's own CPU time, which other processes on the cores disturb much less); "reward source" is scoring time outside the RM and gold (the judge's predictions, the ensemble's members). Settlement runs once every ${every} steps, so its share is its per-window cost amortised over the window.`,
    '',
    `| arm | median step | CPU per step | ${PHASES.map((p) => LABEL[p]).join(' | ')} | settlement per window |`,
    `|---|---:|---:|${PHASES.map(() => '---:').join('|')}|---:|`,
    ...table.map((row) => `| ${row.join(' | ')} |`),
    '',
    misses.length
      ? `Target settlement + refit ≤ 10% of a step, missed on this run: ${misses.join('; ')}.`
      : 'Target settlement + refit ≤ 10% of a step: met by every arm on this run.',
  ].join('\n');
  writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Step profile', section);
  process.stderr.write(section + '\n');
}

main();
