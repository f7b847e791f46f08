/**
 * `npm run bench:rm`: the transformer reward model's cost on the shipped base trunk
 * (models/base-synthetic-js: 2 blocks, d_model 128) at its schema defaults, with
 * `reward_model.transformer.fast` on and off side by side — two models fitted on the same labels,
 * their refits and scorings alternated so both see the same machine load. What is timed is what a
 * training run pays: a refit on one settlement window (32 new labels plus the replay of 64 base
 * labels, 2 epochs) and the scoring of one step's rollouts (32 programs). Rows are random token ids
 * of 50–150 tokens (prompt + completion of the default task run 53–149, median 87), labels random:
 * the cost depends on the lengths, not on what the programs say. Process CPU time is reported next
 * to wall time (a shared machine disturbs it less). Writes the "## Transformer reward model"
 * section of BENCHMARKS.md.
 *
 * Env: BENCH_QUICK=1 shrinks the workload (smoke run).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCheckpoint } from '../src/policy/checkpoint.ts';
import { TOKEN_PAD } from '../src/reward/models/transformer.ts';
import { rewardModelSchema } from '../src/reward/models/config.ts';
import { createRewardModel } from '../src/reward/models/kinds.ts';
import type { RewardModel } from '../src/reward/models/types.ts';
import { initTf } from '../src/tf/backend.ts';
import { Rng } from '../src/util/rng.ts';
import { benchHeader, machineLoad, median, writeBenchSection } from './benchmarks-file.ts';

const quick = process.env.BENCH_QUICK === '1';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** `n` label rows of 50–150 random token ids (padded to the trunk's context), labels in {0, 1}. */
function rows(rng: Rng, n: number, vocab: number, context: number): { X: Float32Array[]; y: number[]; groups: number[] } {
  const X: Float32Array[] = [];
  const y: number[] = [];
  const groups: number[] = [];
  for (let i = 0; i < n; i++) {
    const len = 50 + Math.floor(rng.next() * 101);
    const r = new Float32Array(context).fill(TOKEN_PAD);
    for (let t = 0; t < len; t++) r[t] = Math.floor(rng.next() * vocab);
    X.push(r);
    y.push(rng.next() < 0.3 ? 1 : 0);
    groups.push(Math.floor(i / 8));
  }
  return { X, y, groups };
}

async function timed(f: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const w0 = performance.now();
  const c0 = cpuMs();
  await f();
  return { wall: performance.now() - w0, cpu: cpuMs() - c0 };
}

async function main(): Promise<void> {
  await initTf();
  const loadBefore = machineLoad();
  const base = loadCheckpoint(path.join(repoRoot, 'models/base-synthetic-js'));
  const trunk = { config: base.config, weights: base.weights };
  const { vocabSize, context } = base.config;
  const windows = quick ? 2 : 8;
  const rng = new Rng(20261204);
  const initial = rows(rng, quick ? 128 : 1600, vocabSize, context);
  const models: Record<'full' | 'fast', RewardModel> = {
    full: createRewardModel(rewardModelSchema.parse({ kind: 'transformer', transformer: { fast: false } }), { trunk }),
    fast: createRewardModel(rewardModelSchema.parse({ kind: 'transformer', transformer: { fast: true } }), { trunk }),
  };
  // Warm-up (not timed): the backend's kernels and V8's compiled code, for both paths.
  for (const fast of [false, true]) {
    const w = createRewardModel(rewardModelSchema.parse({ kind: 'transformer', transformer: { fast } }), { trunk });
    const r = rows(rng, 32, vocabSize, context);
    await w.fit(r.X, r.y);
    await w.refit(r.X, r.y, { window: 0, groups: r.groups });
    w.dispose?.();
  }
  const fit: Record<string, { wall: number; cpu: number }> = {};
  for (const [name, m] of Object.entries(models)) fit[name] = await timed(() => m.fit(initial.X, initial.y));
  const t: Record<string, { refit: number[]; refitCpu: number[]; score: number[]; scoreCpu: number[] }> = {
    full: { refit: [], refitCpu: [], score: [], scoreCpu: [] },
    fast: { refit: [], refitCpu: [], score: [], scoreCpu: [] },
  };
  for (let w = 0; w < windows; w++) {
    const fresh = rows(rng, 32, vocabSize, context);
    const step = rows(rng, 32, vocabSize, context);
    // Alternate which model goes first, so neither always runs right after the other.
    const order = w % 2 === 0 ? (['full', 'fast'] as const) : (['fast', 'full'] as const);
    for (const name of order) {
      const m = models[name];
      const s = await timed(() => m.predict(step.X));
      const r = await timed(() => m.refit(fresh.X, fresh.y, { window: w, groups: fresh.groups }));
      t[name]!.score.push(s.wall);
      t[name]!.scoreCpu.push(s.cpu);
      t[name]!.refit.push(r.wall);
      t[name]!.refitCpu.push(r.cpu);
      process.stderr.write(`window ${w} ${name}: refit ${r.wall.toFixed(0)} ms, score 32 ${s.wall.toFixed(0)} ms\n`);
    }
  }
  // The two paths agree up to rounding: the largest score difference after all refits.
  const probe = rows(rng, 64, vocabSize, context);
  const [a, b] = [await models.full.predict(probe.X), await models.fast.predict(probe.X)];
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i]! - b[i]!));
  const f = (xs: number[]) => median(xs).toFixed(0);
  const ratio = (k: 'refit' | 'refitCpu' | 'score' | 'scoreCpu') => (median(t.full![k]) / median(t.fast![k])).toFixed(2);
  const cmd = 'npm run bench:rm';
  const section = [
    '## Transformer reward model',
    '',
    benchHeader(cmd, 'bench/reward-model-bench.ts', loadBefore, machineLoad()),
    '',
    `Shipped base trunk, schema defaults (4 heads, top block trained, last-token pooling, batch 32, 2 refit epochs, replay 64), ` +
      `\`fast\` off and on side by side, alternated; medians over ${windows} settlement windows.`,
    '',
    '| | full (`fast: false`) | fast | full / fast |',
    '|---|---:|---:|---:|',
    `| initial fit, ${initial.X.length} labels × 2 epochs (wall / CPU) | ${fit.full!.wall.toFixed(0)} / ${fit.full!.cpu.toFixed(0)} ms | ${fit.fast!.wall.toFixed(0)} / ${fit.fast!.cpu.toFixed(0)} ms | ${(fit.full!.wall / fit.fast!.wall).toFixed(2)}× |`,
    `| refit, 32 new + 64 replay × 2 epochs, wall | ${f(t.full!.refit)} ms | ${f(t.fast!.refit)} ms | ${ratio('refit')}× |`,
    `| refit, process CPU | ${f(t.full!.refitCpu)} ms | ${f(t.fast!.refitCpu)} ms | ${ratio('refitCpu')}× |`,
    `| scoring one step's 32 rollouts, wall | ${f(t.full!.score)} ms | ${f(t.fast!.score)} ms | ${ratio('score')}× |`,
    `| scoring, process CPU | ${f(t.full!.scoreCpu)} ms | ${f(t.fast!.scoreCpu)} ms | ${ratio('scoreCpu')}× |`,
    '',
    `Largest |full − fast| score on 64 fresh programs after the fit and ${windows} refits each: ${diff.toExponential(1)}.`,
  ].join('\n');
  writeBenchSection(path.join(repoRoot, 'BENCHMARKS.md'), 'Transformer reward model', section);
  process.stderr.write(section + '\n');
  for (const m of Object.values(models)) m.dispose?.();
}

await main();
