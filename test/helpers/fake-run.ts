/**
 * A deterministic synthetic run directory in the format of src/train/run-format.ts, for testing
 * `compare` and `report` before (and independently of) the real trainer.
 *
 * The curves follow the reference study's qualitative pattern: the frozen arm's proxy rises
 * linearly while its gold peaks at mid-run and falls back; the execution arm climbs highest; the
 * anchored arm tracks it; the judge arm lands in between. Every value is a closed form of the step
 * (plus optional seeded noise), and the generator returns the lines it wrote so tests can compute
 * expected statistics by hand.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArmStatus, RefitLine, RunManifest, SampleLine } from '../../src/train/run-format.ts';
import type { SweepRecord } from '../../src/train/sweep-format.ts';
import { METRIC_KEYS as K, ROLLBACK_METRIC_KEYS as RK } from '../../src/train/run-format.ts';
import { Rng } from '../../src/util/rng.ts';

/** The four arms of the core experiment. */
export const FAKE_ARMS = ['frozen', 'anchored', 'execution', 'judge'] as const;

/** Which file of an arm to damage. */
type FakeFile = 'metrics' | 'samples' | 'refits';

/** Options of {@link writeFakeRun}. */
export interface FakeRunOptions {
  /** Steps per arm (steps are numbered 1..steps). Default 100. */
  steps?: number;
  /** Settlement window (refit every N steps). Default 25. */
  refitEvery?: number;
  /** Seed: shifts every gold value by 0.01 × seed and seeds the noise. Default 0. */
  seed?: number;
  /** Std of seeded Gaussian noise added to proxy/gold per step. Default 0 (exact closed forms). */
  noise?: number;
  /** Completions per step written to samples.jsonl. Default 4. */
  samplesPerStep?: number;
  /** Arm names (default the four). Unknown names get the anchored arm's curves. */
  arms?: string[];
  /** Arms left with no steps (state 'pending', empty logs). */
  noSteps?: string[];
  /** Arms left 'running' after the given number of steps. */
  running?: Record<string, number>;
  /** Cut the last line of this arm's file in half (no trailing newline), like a killed writer. */
  truncate?: { arm: string; file: FakeFile };
  /** Replace a 1-based line of this arm's file with garbage. */
  corrupt?: { arm: string; file: FakeFile; line: number };
  /** Skip manifest.json. */
  noManifest?: boolean;
  /** Run name in the manifest. Default 'fake'. */
  name?: string;
}

/** What was written for one arm (before any truncation/corruption). */
interface FakeArm {
  status: ArmStatus;
  metrics: Record<string, number | null>[];
  samples: SampleLine[];
  refits: RefitLine[];
}

/** What {@link writeFakeRun} wrote. */
export interface FakeRun {
  dir: string;
  manifest: RunManifest;
  arms: Record<string, FakeArm>;
}

/** Programs executed per step by the execution arm (its reward needs every completion run). */
export const FAKE_BATCH = 32;
/** Labels settled per window by anchored/judge arms (10% of 25 × 32). */
export const FAKE_NEW_LABELS = 80;

/** Closed-form curves: proxy and gold at step s of T (before seed shift and noise). */
export function fakeCurves(
  arm: string,
  s: number,
  T: number,
): { proxy: number; gold: number; kl: number; length: number; entropy: number } {
  const u = s / T;
  const rise = 1 - Math.exp(-3 * u);
  switch (arm) {
    case 'frozen': {
      // Goodhart: proxy climbs steadily, gold peaks at mid-run and falls back.
      const gold = 0.2 + 0.4 * Math.sin(Math.PI * u);
      return { proxy: 0.2 + 0.75 * u, gold, kl: 0.5 * u * u + 0.01, length: 40 - 28 * u, entropy: 1.5 - 1.0 * u };
    }
    case 'execution': {
      const gold = 0.2 + 0.6 * rise;
      return { proxy: gold + 0.05, gold, kl: 0.1 * u + 0.01, length: 40 - 5 * u, entropy: 1.5 - 0.4 * u };
    }
    case 'judge': {
      const gold = 0.2 + 0.35 * rise;
      return { proxy: gold + 0.25 * u, gold, kl: 0.2 * u + 0.01, length: 40 - 12 * u, entropy: 1.5 - 0.6 * u };
    }
    default: {
      // anchored (and custom arms)
      const gold = 0.2 + 0.52 * rise;
      return { proxy: gold + 0.06, gold, kl: 0.12 * u + 0.01, length: 40 - 6 * u, entropy: 1.5 - 0.45 * u };
    }
  }
}

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;

function armSpec(arm: string): ArmStatus['spec'] {
  switch (arm) {
    case 'frozen':
      return { reward: 'rm', labels: null, describe: 'RM score; RM fitted once, never again' };
    case 'execution':
    case 'ceiling':
      return { reward: 'execution', labels: null, describe: 'executed test pass fraction' };
    case 'judge':
      return { reward: 'rm', labels: 'judge', describe: 'RM refitted on judge labels' };
    default:
      return { reward: 'rm', labels: 'execution', describe: 'RM refitted on executed labels' };
  }
}

function sampleText(arm: string, s: number, T: number, i: number): string {
  // Frozen completions degenerate into short RM-pleasing junk late in the run.
  if (arm === 'frozen' && s > T * 0.6) return `return true; // <ok> & "passes" ${i}`;
  return `function add(a, b) {\n  // step ${s} <${arm}> & "${i}"\n  return a + b${i % 2 ? ' + 0' : ''};\n}`;
}

/** Write a fake run into `dir` (created if needed) and return what was written. */
export function writeFakeRun(dir: string, opts: FakeRunOptions = {}): FakeRun {
  const T = opts.steps ?? 100;
  const every = opts.refitEvery ?? 25;
  const seed = opts.seed ?? 0;
  const noise = opts.noise ?? 0;
  const perStep = opts.samplesPerStep ?? 4;
  const armNames = opts.arms ?? [...FAKE_ARMS];
  const running = opts.running ?? {};
  const started = new Date(Date.UTC(2026, 0, 1, 12, 0, 0)).toISOString();
  const anyUnfinished = armNames.some((a) => a in running || opts.noSteps?.includes(a));
  mkdirSync(dir, { recursive: true });
  const manifest: RunManifest = {
    name: opts.name ?? 'fake',
    seed,
    config: {
      name: opts.name ?? 'fake',
      seed,
      grpo: { steps: T, group_size: 8, prompts_per_step: 4 },
      settlement: { every, rate: 0.1 },
      arms: armNames,
    },
    arms: armNames,
    versions: { 'anchor-rl': '0.1.0', node: process.version },
    tfBackend: 'wasm',
    gitCommit: null,
    startedAt: started,
    endedAt: anyUnfinished ? null : new Date(Date.UTC(2026, 0, 1, 12, 10, 0)).toISOString(),
  };
  if (!opts.noManifest) writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));

  const arms: Record<string, FakeArm> = {};
  for (const arm of armNames) {
    const rng = new Rng(seed * 1000 + 7).fork(arm);
    const done = opts.noSteps?.includes(arm) ? 0 : (running[arm] ?? T);
    const state: ArmStatus['state'] = opts.noSteps?.includes(arm) ? 'pending' : arm in running ? 'running' : 'done';
    const status: ArmStatus = {
      name: arm,
      spec: armSpec(arm),
      state,
      stepsDone: done,
      totalSteps: T,
      startedAt: state === 'pending' ? null : started,
      endedAt: state === 'done' ? manifest.endedAt : null,
    };
    const metrics: Record<string, number | null>[] = [];
    const samples: SampleLine[] = [];
    const refits: RefitLine[] = [];
    let budget = 0;
    let goldBudget = 0;
    let labels = 1600;
    const spec = status.spec;
    for (let s = 1; s <= done; s++) {
      const c = fakeCurves(arm, s, T);
      const gold = r6(Math.min(1, Math.max(0, c.gold + 0.01 * seed + noise * rng.normal())));
      const proxy = r6(c.proxy + noise * rng.normal());
      const windowEnd = s % every === 0;
      const isRefit = windowEnd && spec.labels !== null;
      const settled = isRefit ? FAKE_NEW_LABELS : 0;
      if (spec.reward === 'execution') budget += FAKE_BATCH;
      else if (spec.labels === 'execution') budget += settled;
      goldBudget += FAKE_BATCH;
      metrics.push({
        [K.step]: s,
        [K.proxy]: proxy,
        [K.gold]: gold,
        [K.gap]: r6(proxy - gold),
        [K.train]: spec.reward === 'execution' ? gold : proxy,
        [K.kl]: r6(c.kl),
        [K.entropy]: r6(c.entropy),
        [K.length]: r6(c.length),
        [K.loss]: r6(-0.01 * s),
        [K.gradNorm]: 1,
        [K.lr]: 3e-4,
        [K.settled]: settled,
        [K.settleRate]: 0.1,
        [K.budget]: budget,
        [K.goldBudget]: goldBudget,
        [K.stepSeconds]: 0.5,
      });
      for (let i = 0; i < perStep; i++) {
        samples.push({
          step: s,
          problem: `p${(s * perStep + i) % 17}`,
          index: i,
          text: sampleText(arm, s, T, i),
          tokens: Math.round(c.length),
          proxy: r6(proxy + 0.01 * i),
          gold: i % 2 === 0 ? 1 : 0,
          judge: spec.labels === 'judge' ? 0.5 : null,
          settled: isRefit && i === 0,
          status: i % 2 === 0 ? 'pass' : 'fail',
        });
      }
      if (windowEnd) {
        if (isRefit) labels += FAKE_NEW_LABELS;
        const win = metrics.slice(-every);
        const gap = win.reduce((a, m) => a + (m[K.gap] as number), 0) / win.length;
        // Drift tracks the gap (the alarm works) but not perfectly monotonically.
        const k = s / every;
        refits.push({
          step: s,
          labels,
          newLabels: isRefit ? FAKE_NEW_LABELS : 0,
          drift: r6(0.05 + 0.5 * gap + (k % 2 === 0 ? 0.004 : 0)),
          driftGold: r6(0.05 + 0.5 * gap),
          judgeLabelError: spec.labels === 'judge' ? r6(0.1 + 0.01 * k) : null,
          gap: r6(gap),
          // The RM's out-of-sample ranking quality degrades as the gap opens.
          pairAcc: r6(0.8 - 0.5 * gap),
          auc: r6(0.85 - 0.4 * gap),
          fit: isRefit ? { mse: 0.05 } : {},
          // Arms whose RM never refits still log the monitoring drift against gold.
          refit: isRefit,
        });
      }
    }
    arms[arm] = { status, metrics, samples, refits };

    const armDir = join(dir, arm);
    mkdirSync(armDir, { recursive: true });
    writeFileSync(join(armDir, 'arm.json'), JSON.stringify(status, null, 2));
    const files: Record<FakeFile, string> = {
      metrics: jsonl(metrics),
      samples: jsonl(samples),
      refits: jsonl(refits),
    };
    for (const f of Object.keys(files) as FakeFile[]) {
      let text = files[f];
      if (opts.corrupt?.arm === arm && opts.corrupt.file === f) {
        const lines = text.split('\n');
        lines[opts.corrupt.line - 1] = '{"step": 3, "reward/pro';
        text = lines.join('\n');
      }
      if (opts.truncate?.arm === arm && opts.truncate.file === f) {
        const body = text.endsWith('\n') ? text.slice(0, -1) : text;
        const lastStart = body.lastIndexOf('\n') + 1;
        text = body.slice(0, lastStart + Math.floor((body.length - lastStart) / 2));
      }
      writeFileSync(join(armDir, `${f}.jsonl`), text);
    }
  }
  return { dir, manifest, arms };
}

function jsonl(rows: readonly object[]): string {
  return rows.map((r) => JSON.stringify(r) + '\n').join('');
}

/** A fake run written step by step, as a training run is: see {@link liveFakeRun}. */
export interface LiveFakeRun {
  dir: string;
  /** The full run the lines come from. */
  full: FakeRun;
  /** Steps written so far per arm. */
  steps: Record<string, number>;
  /** Append the next `n` steps of every running arm (metrics and refits), like the trainer does. */
  advance(n: number): void;
  /** Mark an arm failed with `error` (its logs stop where they are). */
  fail(arm: string, error: string): void;
  /** Cut every arm's logs back to `step` steps (a resume from an earlier checkpoint). */
  truncate(step: number): void;
}

/**
 * A run directory that grows while a test watches: the manifest and each arm's arm.json
 * (state running) first, then `advance` appends steps the way the trainer's JSONL writer does.
 * Curves are those of {@link writeFakeRun} (generated in full into a temporary directory).
 */
export function liveFakeRun(dir: string, opts: FakeRunOptions & { start?: number } = {}): LiveFakeRun {
  // The full run is generated elsewhere: next to `dir` it would be one more run in a served directory.
  const full = writeFakeRun(join(mkdtempSync(join(tmpdir(), 'anchor-live-full-')), 'run'), {
    ...opts,
    running: undefined,
    noSteps: undefined,
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...full.manifest, endedAt: null }, null, 2));
  const steps: Record<string, number> = {};
  const state: Record<string, ArmStatus['state']> = {};
  const writeArm = (arm: string) => {
    const a = full.arms[arm]!;
    const n = steps[arm]!;
    const status: ArmStatus = { ...a.status, state: state[arm]!, stepsDone: n, endedAt: null };
    mkdirSync(join(dir, arm), { recursive: true });
    writeFileSync(join(dir, arm, 'arm.json'), JSON.stringify(status, null, 2));
    writeFileSync(join(dir, arm, 'metrics.jsonl'), jsonl(a.metrics.slice(0, n)));
    writeFileSync(join(dir, arm, 'refits.jsonl'), jsonl(a.refits.filter((r) => r.step <= n)));
  };
  const live: LiveFakeRun = {
    dir,
    full,
    steps,
    advance(n) {
      for (const arm of Object.keys(full.arms)) {
        if (state[arm] !== 'running') continue;
        const total = full.arms[arm]!.metrics.length;
        steps[arm] = Math.min(total, steps[arm]! + n);
        if (steps[arm] === total) state[arm] = 'done';
        writeArm(arm);
      }
    },
    fail(arm, error) {
      state[arm] = 'failed';
      writeArm(arm);
      const p = join(dir, arm, 'arm.json');
      writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, 'utf8')), error }, null, 2));
    },
    truncate(step) {
      for (const arm of Object.keys(full.arms)) {
        steps[arm] = Math.min(steps[arm]!, step);
        if (state[arm] === 'done') state[arm] = 'running';
        writeArm(arm);
      }
    },
  };
  for (const arm of Object.keys(full.arms)) {
    steps[arm] = opts.start ?? 0;
    state[arm] = 'running';
    writeArm(arm);
  }
  return live;
}

/** Write a sweep directory of fake seed runs (arms = references + cells) and its sweep.json. */
export function writeFakeSweep(
  dir: string,
  opts: { seeds?: number[]; steps?: number; rates?: number[]; references?: string[] } = {},
): SweepRecord {
  const seeds = opts.seeds ?? [0, 1];
  const rates = opts.rates ?? [0.1, 0.2];
  const references = opts.references ?? ['frozen', 'execution'];
  const cells = Object.fromEntries(rates.map((r) => [`rate-${r}`, { 'settlement.rate': r }]));
  const arms = [...references, ...Object.keys(cells)];
  for (const seed of seeds)
    writeFakeRun(join(dir, `seed-${seed}`), { steps: opts.steps ?? 50, seed, noise: 0.02, arms, name: `fake-seed${seed}` });
  const record: SweepRecord = {
    name: 'fake',
    grid: [{ key: 'settlement.rate', values: rates }],
    seeds,
    armBase: 'anchored',
    references,
    cells,
    config: { name: 'fake', seed: 0, settlement: { every: 25, rate: 0.1 } },
    source: { config: null, sets: [] },
    startedAt: '2026-01-01T12:00:00.000Z',
    endedAt: '2026-01-01T12:10:00.000Z',
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sweep.json'), JSON.stringify(record));
  return record;
}

/**
 * A finished fake run whose `anchored` arm ran the anchoring controls: the RM quality gate and a
 * rollback on (config and metrics: `settle/rm_gate` closed on every other step, `settle/rm_weight`
 * 0 there, `rollback/count` 2 at the end), with the `mask` silenced mode. For the tests that the
 * report, compare and the live view show the anchoring columns and description.
 */
export function writeAnchoredFakeRun(dir: string, opts: FakeRunOptions = {}): FakeRun {
  const fake = writeFakeRun(dir, { steps: 30, refitEvery: 10, ...opts });
  const manifest = JSON.parse(readFileSync(join(fake.dir, 'manifest.json'), 'utf8')) as RunManifest;
  const config = manifest.config as Record<string, Record<string, unknown>>;
  config.settlement = {
    ...config.settlement,
    rm_gate: { min_pair_acc: 0.6 },
    rollback: { enabled: true, z: 1.5, on_alarm: false },
  };
  config.proxy = { silenced: 'mask' };
  writeFileSync(join(fake.dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const lines = fake.arms.anchored!.metrics.map((l) => {
    const closed = l.step! % 2 === 0 ? 1 : 0;
    return JSON.stringify({
      ...l,
      [K.rmGate]: closed,
      [K.rmWeight]: 1 - closed,
      [RK.count]: l.step! >= 20 ? 2 : l.step! >= 10 ? 1 : 0,
    });
  });
  writeFileSync(join(fake.dir, 'anchored', 'metrics.jsonl'), lines.join('\n') + '\n');
  return fake;
}
