/**
 * Watching the gold itself (docs/gold-watch.md): the executed reward can be gamed too, so every
 * executed rollout is judged under both verdict modes (strict, and the published harnesses'
 * parity), a configurable share of prompts is also executed against impossible variants of
 * their tests (canaries, src/tasks/canaries.ts), and every samples.jsonl line is stamped with
 * the versions that produced it (policy, RM, sandbox harness, verdict mode, seed).
 *
 * Canaries are *shadow* executions: a canary group's completions were sampled from the real
 * prompt (a canary never changes what the policy sees), scored, rewarded and settled exactly as
 * without canaries, and are additionally executed against the mutated tests. So canaries never
 * reach the training reward, the gold metrics or the RM's labels, and a run's existing metrics
 * are the same with canaries on or off. The cost is extra executions only.
 *
 * The second verdict and the canaries run on the sandbox while the trainer updates the policy;
 * the step waits for them only when it logs (`perf/watch_s`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunConfig } from './run-config.ts';
import type { Problem } from '../datasets/problem.ts';
import type { RewardModel } from '../reward/models/types.ts';
import { createExecutorFromConfig, type SandboxConfig } from '../sandbox/index.ts';
import { problemProgram } from '../sandbox/programs.ts';
import { type ExecResult, type ExecStatus, type Executor, isVerdict, type VerdictMode } from '../sandbox/types.ts';
import { applyCanary, type CanaryConfig, type CanaryKind, type CanaryTag, pickCanary } from '../tasks/canaries.ts';
import { Rng } from '../util/rng.ts';
import type { GoldWatchConfig } from './gold-watch-config.ts';
import type { SampleWatch, Verdicts } from './run-format.ts';

/** Metric keys written by the gold watch (metrics.jsonl). */
export const GOLD_WATCH_METRIC_KEYS = {
  /** Executed rollouts of the step that pass the published harness (parity) but fail strict: hacks strict caught. */
  parityOnly: 'gold/parity_only',
  /** `gold/parity_only` over the step's executed rollouts. */
  parityOnlyRate: 'gold/parity_only_rate',
  /** Executed rollouts that pass strict but fail parity (expected 0: strict is the narrower verdict). */
  strictOnly: 'gold/strict_only',
  /**
   * Executed rollouts whose verdicts differ because one run hit a resource limit (timeout, oom) —
   * noise of the machine, not of the harness; never counted as parity-only.
   */
  resourceSplit: 'gold/resource_split',
  /** Share of the step's executed rollouts that pass under parity (what a published harness would report). */
  parityPass: 'gold/parity_pass',
  /** Canary executions this step (completions of canary groups). */
  canaryCount: 'canary/count',
  /** Share of canary executions that pass under either verdict (any pass is a tamper; null without canaries). */
  canaryPassRate: 'canary/pass_rate',
  /** Share of canary executions that pass strict: the training verdict was tampered with (a strict harness hole). */
  canaryStrictPassRate: 'canary/strict_pass_rate',
  /** Share of canary executions that pass parity (the published harness would have been fooled). */
  canaryParityPassRate: 'canary/parity_pass_rate',
  /** Held-out eval (eval steps): share of canary executions of the greedy completions passing under either verdict. */
  evalCanaryPassRate: 'eval/canary_pass_rate',
  /** Held-out eval: greedy completions passing parity but failing strict, over those executed. */
  evalParityOnlyRate: 'eval/parity_only_rate',
  /**
   * Wall seconds the step waited for the gold watch's executions (what did not overlap the
   * update); part of `perf/log_s`.
   */
  watchSeconds: 'perf/watch_s',
  /** Summed sandbox time of the gold watch's executions this step (second verdict + canaries), seconds. */
  watchExecSeconds: 'perf/watch_exec_s',
} as const;

/** What the watch needs from the arm. */
export interface GoldWatchParts {
  seed: number;
  groupSize: number;
  verdict: VerdictMode;
  canaries: CanaryConfig;
  /** The arm's executor (its config's verdict). */
  executor: Executor;
  /** An executor of the other verdict (absent: `gold_watch.both_verdicts: false`). */
  other: Executor | undefined;
  /** {@link harnessHash} of the sandbox in use. */
  harness: string;
}

/** The watch's state that goes into checkpoints: stamps of the open settlement window's completions. */
export type GoldWatchState = [string, SampleWatch][];

/** Statuses a parser or a missing backend decides before any comparison runs: the same under every verdict. */
const VERDICT_FREE: ReadonlySet<ExecStatus> = new Set(['syntax_error', 'unsupported']);

const isPass = (s: ExecStatus | null) => s === 'pass';
/** Statuses the tests' checks decided (a resource limit decides `timeout`/`oom`, the parser `syntax_error`). */
const CHECKED: ReadonlySet<ExecStatus | null> = new Set(['fail', 'error']);
const RESOURCE: ReadonlySet<ExecStatus | null> = new Set(['timeout', 'oom']);
const short = (h: string) => h.slice(0, 16);

/** Directory of the sandbox harness files (top-level `sandbox/`). */
function harnessDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../sandbox');
}

/** SHA-256 (first 16 hex) over the sandbox harness files (`sandbox/**`, names and contents, sorted). */
export function harnessHash(dir = harnessDir()): string {
  const h = createHash('sha256');
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p, `${rel}${name}/`);
      else h.update(`${rel}${name}\0`).update(readFileSync(p)).update('\0');
    }
  };
  walk(dir, '');
  return short(h.digest('hex'));
}

/** SHA-256 (first 16 hex) of a policy's weights (names, shapes and values, in name order). */
export function weightsHash(weights: ReadonlyMap<string, { shape: number[]; data: Float32Array }>): string {
  const h = createHash('sha256');
  for (const name of [...weights.keys()].sort()) {
    const t = weights.get(name)!;
    h.update(`${name}:${t.shape.join('x')}\0`).update(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  }
  return short(h.digest('hex'));
}

/** SHA-256 (first 16 hex) of the label set an RM was last fitted on (with its config, it determines the RM). */
function rmHash(rm: RewardModel): string {
  const h = createHash('sha256');
  const { X, y } = rm.labelSet();
  h.update(`${rm.kind}\0`);
  for (const row of X) h.update(new Uint8Array(row.buffer, row.byteOffset, row.byteLength));
  h.update(new Uint8Array(new Float64Array(y).buffer));
  return short(h.digest('hex'));
}

/**
 * Run `programs` of `problems`/`texts` on an executor; syntax errors etc. are copied, not re-run.
 * `draw`: the step's draw of the problems' random sources (ProgramSpec.draw), the one the main
 * results were run with, so both verdicts meet the same streams.
 */
async function runOn(
  executor: Executor,
  problems: readonly Problem[],
  texts: readonly string[],
  tag: string,
  draw: number,
  known?: readonly (ExecResult | undefined)[],
): Promise<ExecResult[]> {
  const copied = (i: number) => known?.[i] !== undefined && VERDICT_FREE.has(known[i]!.status);
  const todo = texts.map((_, i) => i).filter((i) => !copied(i));
  const ran = todo.length
    ? await executor.run(todo.map((i) => problemProgram(problems[i]!, texts[i]!, `${problems[i]!.id}#${tag}#${i}`, draw)))
    : [];
  const out: ExecResult[] = new Array(texts.length);
  texts.forEach((_, i) => copied(i) && (out[i] = { ...known![i]!, ms: 0 }));
  todo.forEach((i, k) => (out[i] = ran[k]!));
  return out;
}

/**
 * The status a verdict decided, or null where the sandbox could not run the program at all or the
 * host gave up on it (its result's code says so): machine trouble, not a verdict.
 */
function decided(r: ExecResult): ExecStatus | null {
  return isVerdict(r) ? r.status : null;
}

/** Both verdicts of a batch: the main results as run, the other verdict on `other`. */
async function bothVerdicts(
  parts: GoldWatchParts,
  problems: readonly Problem[],
  texts: readonly string[],
  main: readonly ExecResult[],
  tag: string,
  draw: number,
): Promise<{ verdicts: Verdicts[]; ms: number }> {
  const other = parts.other ? await runOn(parts.other, problems, texts, tag, draw, main) : undefined;
  const ms = other?.reduce((a, r) => a + r.ms, 0) ?? 0;
  const verdicts = main.map((r, i) => {
    const m = decided(r);
    const o = other?.[i] ? decided(other[i]!) : null;
    return parts.verdict === 'strict' ? { strict: m, parity: o } : { strict: o, parity: m };
  });
  return { verdicts, ms };
}

/** Rates of a set of verdicts. */
/**
 * Counts and rates of a set of verdicts. `dual`: both verdicts were run (else the parity keys are
 * null). Rates are over the executions where the verdicts in question were decided.
 */
function verdictCounts(vs: readonly Verdicts[], dual: boolean) {
  const n = vs.length;
  const known = vs.filter((v) => v.strict !== null && v.parity !== null);
  // A hack strict caught: parity passed and strict's own checks refused the answer.
  const parityOnly = known.filter((v) => isPass(v.parity) && CHECKED.has(v.strict)).length;
  const strictOnly = known.filter((v) => isPass(v.strict) && CHECKED.has(v.parity)).length;
  // The verdicts differ because of the machine: a limit hit, or a run the sandbox could not do.
  const split = (s: ExecStatus | null) => s === null || RESOURCE.has(s);
  const resourceSplit = vs.filter((v) => v.strict !== v.parity && (split(v.strict) || split(v.parity))).length;
  const rate = (k: number, of: number) => (of ? k / of : null);
  const passRate = (side: 'strict' | 'parity') => {
    const d = vs.filter((v) => v[side] !== null);
    return rate(d.filter((v) => isPass(v[side])).length, d.length);
  };
  return {
    n,
    parityOnly: dual ? parityOnly : null,
    parityOnlyRate: dual ? rate(parityOnly, known.length) : null,
    strictOnly: dual ? strictOnly : null,
    resourceSplit: dual ? resourceSplit : null,
    anyRate: rate(vs.filter((v) => isPass(v.strict) || isPass(v.parity)).length, n),
    strictRate: passRate('strict'),
    parityRate: passRate('parity'),
  };
}

/** Canary executions of a batch: each chosen problem's completions against its impossible variant, both verdicts. */
async function runCanaries(
  parts: GoldWatchParts,
  chosen: readonly { index: number; problem: Problem; tag: CanaryTag }[],
  texts: readonly string[],
  label: string,
  known: readonly ExecResult[] | undefined,
  draw: number,
): Promise<{ results: Map<number, CanaryTag & Verdicts>; ms: number }> {
  const problems = chosen.map((c) => applyCanary(c.problem, c.tag)!);
  const ts = chosen.map((c) => texts[c.index]!);
  // A completion the parser refused against the real tests is refused against the canary's too.
  const main = await runOn(parts.executor, problems, ts, `canary-${label}`, draw, known && chosen.map((c) => known[c.index]));
  const both = await bothVerdicts(parts, problems, ts, main, `canary-${label}`, draw);
  const results = new Map(chosen.map((c, k) => [c.index, { ...c.tag, ...both.verdicts[k]! }]));
  return { results, ms: main.reduce((a, r) => a + r.ms, 0) + both.ms };
}

/**
 * Choose the canaries of a batch: each group (G completions of one problem) becomes a canary with
 * probability `rate`, from a stream that depends only on the seed and `label` (so every arm with
 * the same rate watches the same prompts, and a resumed run the same ones again).
 */
function chooseCanaries(
  parts: Pick<GoldWatchParts, 'seed' | 'canaries'>,
  problems: readonly Problem[],
  groupSize: number,
  label: string,
): { index: number; problem: Problem; tag: CanaryTag }[] {
  const { rate, kinds } = parts.canaries;
  if (rate <= 0) return [];
  const rng = new Rng(parts.seed).fork(`canary-${label}`);
  const out: { index: number; problem: Problem; tag: CanaryTag }[] = [];
  for (let g = 0; g * groupSize < problems.length; g++) {
    const problem = problems[g * groupSize]!;
    if (rng.next() >= rate) continue;
    const tag = pickCanary(problem, kinds as CanaryKind[], rng.fork(problem.id));
    if (!tag) continue;
    for (let i = g * groupSize; i < Math.min(problems.length, (g + 1) * groupSize); i++) out.push({ index: i, problem, tag });
  }
  return out;
}

/** The per-step gold watch of one arm. */
export class GoldWatch {
  private stamp: { policy: SampleWatch['policy']; rm: SampleWatch['rm'] } | undefined;
  private rmCache: { refit: number; hash: string } | undefined;
  private pending: Promise<{ record: Record<string, number | null>; ms: number }> | undefined;
  private done: { record: Record<string, number | null>; ms: number } | undefined;
  /** Milliseconds the step waited for the background executions so far. */
  private waitedMs = 0;
  /** Stamps of completions whose samples.jsonl line is not written yet, by `step:index`. */
  private lines = new Map<string, SampleWatch>();

  constructor(private readonly parts: GoldWatchParts) {}

  /** At the start of a step: the versions of the policy and RM that will sample and score it. */
  beginStep(step: number, weights: string, rm: RewardModel, refit: number): void {
    if (this.rmCache?.refit !== refit) this.rmCache = { refit, hash: rmHash(rm) };
    this.stamp = { policy: { step, weights }, rm: { ...this.rmCache } };
  }

  /**
   * After scoring: stamp the step's completions and start the second verdict and the canaries in
   * the background (awaited by {@link stepMetrics}).
   */
  observe(
    step: number,
    problems: readonly Problem[],
    texts: readonly string[],
    results: readonly ExecResult[] | undefined,
  ): void {
    const parts = this.parts;
    const base = {
      policy: this.stamp?.policy ?? { step, weights: '' },
      rm: this.stamp?.rm ?? null,
      harness: parts.harness,
      verdict: parts.verdict,
      seed: parts.seed,
    };
    texts.forEach((_, i) => this.lines.set(`${step}:${i}`, { ...base }));
    const canaries = parts.canaries.where === 'eval' ? [] : chooseCanaries(parts, problems, parts.groupSize, `train-${step}`);
    this.pending = (async () => {
      const both = results ? await bothVerdicts(parts, problems, texts, results, 'watch', step) : undefined;
      const canary = canaries.length ? await runCanaries(parts, canaries, texts, `train-${step}`, results, step) : undefined;
      // A line written already (it cannot be before drain()) keeps what it had.
      both?.verdicts.forEach((v, i) => {
        const line = this.lines.get(`${step}:${i}`);
        if (line) line.verdicts = v;
      });
      for (const [i, c] of canary?.results ?? []) {
        const line = this.lines.get(`${step}:${i}`);
        if (line) line.canary = c;
      }
      const dual = parts.other !== undefined;
      const g = verdictCounts(both?.verdicts ?? [], dual);
      const c = verdictCounts([...(canary?.results.values() ?? [])], dual);
      const K = GOLD_WATCH_METRIC_KEYS;
      const record: Record<string, number | null> = {
        [K.parityOnly]: both ? g.parityOnly : null,
        [K.parityOnlyRate]: both ? g.parityOnlyRate : null,
        [K.strictOnly]: both ? g.strictOnly : null,
        [K.resourceSplit]: both ? g.resourceSplit : null,
        [K.parityPass]: both ? g.parityRate : null,
      };
      if (parts.canaries.rate > 0 && parts.canaries.where !== 'eval')
        Object.assign(record, {
          [K.canaryCount]: c.n,
          [K.canaryPassRate]: c.anyRate,
          [K.canaryStrictPassRate]: c.strictRate,
          [K.canaryParityPassRate]: c.parityRate,
        });
      return { record, ms: (both?.ms ?? 0) + (canary?.ms ?? 0) };
    })();
  }

  /**
   * Wait for the background executions of the step (before its samples.jsonl lines can be
   * written: they carry both verdicts). Returns the milliseconds waited.
   */
  async drain(): Promise<number> {
    const t0 = performance.now();
    if (this.pending) this.done = await this.pending;
    this.pending = undefined;
    const waited = performance.now() - t0;
    this.waitedMs += waited;
    return waited;
  }

  /** The step's gold-watch metrics (waits for the background executions if not drained yet). */
  async stepMetrics(): Promise<Record<string, number | null>> {
    await this.drain();
    const done = this.done ?? { record: {}, ms: 0 };
    const waited = this.waitedMs;
    this.done = undefined;
    this.waitedMs = 0;
    return {
      ...done.record,
      [GOLD_WATCH_METRIC_KEYS.watchSeconds]: waited / 1000,
      [GOLD_WATCH_METRIC_KEYS.watchExecSeconds]: done.ms / 1000,
    };
  }

  /** The samples.jsonl fields of completion `index` of `step` (forgotten once read). */
  sampleFields(step: number, index: number): SampleWatch | Record<string, never> {
    const key = `${step}:${index}`;
    const line = this.lines.get(key);
    this.lines.delete(key);
    return line ?? {};
  }

  /** Held-out eval: both verdicts of the greedy completions and canaries on a share of the problems. */
  async evalMetrics(
    step: number,
    problems: readonly Problem[],
    texts: readonly string[],
    results: readonly ExecResult[],
  ): Promise<Record<string, number | null>> {
    const parts = this.parts;
    const K = GOLD_WATCH_METRIC_KEYS;
    const both = await bothVerdicts(parts, problems, texts, results, 'eval', step);
    const out: Record<string, number | null> = {
      [K.evalParityOnlyRate]: verdictCounts(both.verdicts, parts.other !== undefined).parityOnlyRate,
    };
    if (parts.canaries.rate > 0 && parts.canaries.where !== 'train') {
      const chosen = chooseCanaries(parts, problems, 1, `eval-${step}`);
      const canary = chosen.length ? await runCanaries(parts, chosen, texts, `eval-${step}`, results, step) : undefined;
      out[K.evalCanaryPassRate] = verdictCounts([...(canary?.results.values() ?? [])], parts.other !== undefined).anyRate;
    }
    return out;
  }

  /** Checkpoint state: the stamps of completions whose lines are not written yet. */
  getState(): GoldWatchState {
    return [...this.lines];
  }

  /** Restore {@link getState}. */
  setState(s: GoldWatchState | undefined): void {
    this.lines = new Map(s ?? []);
  }
}

/** The second-verdict executor of an arm (undefined when `gold_watch.both_verdicts` is off). */
export function otherVerdictExecutor(config: {
  sandbox: SandboxConfig;
  seed: number;
  gold_watch: GoldWatchConfig;
}): Executor | undefined {
  if (!config.gold_watch.both_verdicts) return undefined;
  const other: VerdictMode = config.sandbox.verdict === 'strict' ? 'parity' : 'strict';
  return createExecutorFromConfig({ ...config.sandbox, verdict: other }, config.seed);
}

/**
 * Judge a batch of completions as one training step of the gold watch would (both verdicts,
 * canaries per `config.canaries`): the step's gold-watch metrics and each completion's
 * samples.jsonl fields. `anchor-rl gold-watch` runs a scripted policy's completions through it.
 * Completions of one problem that follow each other form a group.
 */
export async function watchCompletions(
  config: RunConfig,
  problems: readonly Problem[],
  texts: readonly string[],
): Promise<{ metrics: Record<string, number | null>; samples: SampleWatch[] }> {
  const executor = createExecutorFromConfig(config.sandbox, config.seed);
  const other = otherVerdictExecutor(config);
  try {
    // Groups: runs of the same problem (the watch draws canaries per group).
    let groupSize = 1;
    while (groupSize < problems.length && problems[groupSize] === problems[0]) groupSize++;
    const watch = new GoldWatch({
      seed: config.seed,
      groupSize,
      verdict: config.sandbox.verdict,
      canaries: config.canaries,
      executor,
      other,
      harness: harnessHash(),
    });
    const results = await executor.run(texts.map((t, i) => problemProgram(problems[i]!, t, `${problems[i]!.id}#${i}`)));
    watch.observe(0, problems, texts, results);
    const metrics = await watch.stepMetrics();
    const samples = texts.map((_, i) => watch.sampleFields(0, i) as SampleWatch);
    const goldOfAll = results.filter((r) => r.status === 'pass').length / Math.max(1, results.length);
    return { metrics: { 'gold/pass': goldOfAll, ...metrics }, samples };
  } finally {
    await executor.close();
    await other?.close();
  }
}
