/**
 * The reproduction suite: every experiment at reference or `--quick` sizes as a job, and the
 * chunked, resumable runner `anchor-rl reproduce` uses.
 *
 * Resumability works at two grains: a finished job's result is cached in OUT/results/ID.json and
 * not rerun; inside a job, tasks run in chunks whose records are cached in OUT/chunks/ID/ (so a
 * killed run loses at most one chunk). Caches are keyed by the job's resolved options; a changed
 * size or seed reruns the job. Because every task is seeded by its index alone
 * (src/research/experiments/common.ts), the chunk size does not change a single figure.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskExperiment, Headline } from './common.ts';
import { goodhartExperiment, resolveGoodhart, type GoodhartResult } from './goodhart.ts';
import { resolveSettlement, settlementExperiment, type SettlementLoopResult } from './settlement-loop.ts';
import {
  resolveStrongVerifier,
  strongVerifierExperiment,
  strongVerifierHeadlines,
  goodhartHeadlines,
  settlementHeadlines,
  type StrongVerifierResult,
} from './strong-verifier.ts';
import { exchangeRateExperiment, exchangeRateHeadlines, resolveExchangeRate, type ExchangeRateResult } from './exchange-rate.ts';
import { copulaExperiment, copulaHeadlines, resolveCopula, type CopulaResult } from './copula.ts';
import { adversaryExperiment, adversaryHeadlines, resolveAdversary, type AdversaryResult } from './adversary.ts';
import { resolveScaling, scalingExperiment, scalingHeadlines, type ScalingResult } from './settlement-scaling.ts';
import { resolveResolution, resolutionExperiment, resolutionHeadlines, type ResolutionResult } from './resolution.ts';
import { formatAdversary, formatCopula, formatExchangeRate, formatResolution, formatScaling } from './text.ts';
import { formatGoodhart, formatSettlement } from './text.ts';
import { chartsFor, type ChartSpec } from './charts.ts';

/** One job of the suite. */
export interface SuiteJob {
  id: string;
  title: string;
  /** The equivalent single command. */
  command: string;
  tasks: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  experiment: TaskExperiment<any, any, any>;
  opts: unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  headlines(result: any): Headline[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  format(result: any): string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  charts(result: any): ChartSpec[];
}

/** Sizes of the suite: reference (the reference sizes of docs/design.md) or quick (CI smoke). */
export function suiteJobs(quick: boolean, seed = 0): SuiteJob[] {
  const T = quick ? 2 : 60;
  const g6 = quick ? { train: 200, pool: 256, maxLog2: 8 } : {};
  const gR = quick ? { train: 200, pool: 256, maxLog2: 8 } : {};
  const loop = quick ? { rounds: 3, pool: 128, top: 16, base: 100 } : {};
  const jobs: SuiteJob[] = [
    {
      id: 'goodhart-dsl6',
      title: 'Goodhart on DSL-6 (ridge-43)',
      command: 'anchor-rl experiment goodhart --domain dsl6',
      tasks: T,
      experiment: goodhartExperiment,
      opts: resolveGoodhart({ domain: 'dsl6', tasks: T, seed, ...g6 }),
      headlines: (r: GoodhartResult) => goodhartHeadlines(r),
      format: formatGoodhart,
      charts: (r: GoodhartResult) => chartsFor.goodhart(r, 'goodhart-dsl6'),
    },
    {
      id: 'settlement-loop-dsl6',
      title: 'Settlement loop on DSL-6 (ridge-43)',
      command: 'anchor-rl experiment settlement-loop --domain dsl6',
      tasks: T,
      experiment: settlementExperiment,
      opts: resolveSettlement({ domain: 'dsl6', tasks: T, seed, ...loop }),
      headlines: (r: SettlementLoopResult) => settlementHeadlines(r),
      format: formatSettlement,
      charts: (r: SettlementLoopResult) => chartsFor.settlement(r, 'settlement-loop-dsl6'),
    },
    {
      id: 'exchange-rate',
      title: 'Exchange rate: best-of-N under a ρ-correlated proxy (joint Gaussian)',
      command: 'anchor-rl experiment exchange-rate',
      tasks: quick ? 2 : 100,
      experiment: exchangeRateExperiment,
      opts: resolveExchangeRate({ tasks: quick ? 2 : 100, seed, ...(quick ? { batch: 20, maxLog2: 10 } : {}) }),
      headlines: exchangeRateHeadlines,
      format: formatExchangeRate,
      charts: (r: ExchangeRateResult) => chartsFor.exchangeRate(r),
    },
    {
      id: 'copula-dsl6',
      title: 'Copula vs Pearson predictions of Snd@N (DSL-6 goodhart pools)',
      command: 'anchor-rl experiment copula --domain dsl6',
      tasks: T,
      experiment: copulaExperiment,
      opts: resolveCopula({ domain: 'dsl6', tasks: T, seed, ...g6 }),
      headlines: (r: CopulaResult) => copulaHeadlines(r, 'dsl6'),
      format: formatCopula,
      charts: (r: CopulaResult) => chartsFor.copula(r, 'copula-dsl6'),
    },
    {
      id: 'adversary-dsl6',
      title: 'Directed adversaries vs sound, frozen and anchored verifiers (DSL-6)',
      command: 'anchor-rl experiment adversary --domain dsl6',
      tasks: T,
      experiment: adversaryExperiment,
      opts: resolveAdversary({
        domain: 'dsl6',
        tasks: T,
        seed,
        ...(quick ? { steps: 30, base: 200, every: 10, probes: 64 } : {}),
      }),
      headlines: adversaryHeadlines,
      format: formatAdversary,
      charts: (r: AdversaryResult) => chartsFor.adversary(r),
    },
    {
      id: 'settlement-scaling-dsl6',
      title: 'Soundness AUC vs settled-label budget (DSL-6)',
      command: 'anchor-rl experiment settlement-scaling --domain dsl6',
      tasks: T,
      experiment: scalingExperiment,
      opts: resolveScaling({
        domain: 'dsl6',
        tasks: T,
        seed,
        ...(quick ? { budgets: [16, 32, 64], init: 16, batch: 16, candidates: 128, evalPool: 256, maxLog2: 8 } : {}),
      }),
      headlines: scalingHeadlines,
      format: formatScaling,
      charts: (r: ScalingResult) => chartsFor.scaling(r),
    },
    {
      id: 'resolution-dsl6',
      title: 'Calibration and resolution of settled probabilistic claims (DSL-6)',
      command: 'anchor-rl experiment resolution --domain dsl6',
      tasks: T,
      experiment: resolutionExperiment,
      opts: resolveResolution({
        domain: 'dsl6',
        tasks: T,
        seed,
        ...(quick ? { rounds: 3, pool: 128, claims: 32, base: 100 } : {}),
      }),
      headlines: resolutionHeadlines,
      format: formatResolution,
      charts: (r: ResolutionResult) => chartsFor.resolution(r),
    },
    {
      id: 'strong-verifier-richdsl',
      title: 'RichDSL: weak ridge vs strong GBT verifier in goodhart and settlement-loop',
      command: 'anchor-rl experiment strong-verifier --domain richdsl',
      tasks: T,
      experiment: strongVerifierExperiment,
      opts: resolveStrongVerifier({ tasks: T, seed, ...gR, ...(quick ? { rounds: 3, loopPool: 128, top: 16, base: 100 } : {}) }),
      headlines: strongVerifierHeadlines,
      format: (r: StrongVerifierResult) =>
        [formatGoodhart(r.goodhart), '', formatSettlement(r.settlement.weak), '', formatSettlement(r.settlement.strong)].join(
          '\n',
        ),
      charts: (r: StrongVerifierResult) => [
        ...chartsFor.goodhart(r.goodhart, 'strong-verifier-goodhart'),
        ...chartsFor.settlement(r.settlement.weak, 'strong-verifier-loop-weak'),
        ...chartsFor.settlement(r.settlement.strong, 'strong-verifier-loop-strong'),
      ],
    },
    {
      id: 'copula-richdsl',
      title: 'Copula vs Pearson predictions of Snd@N (RichDSL goodhart pools)',
      command: 'anchor-rl experiment copula --domain richdsl',
      tasks: T,
      experiment: copulaExperiment,
      opts: resolveCopula({ domain: 'richdsl', tasks: T, seed, ...gR }),
      headlines: (r: CopulaResult) => copulaHeadlines(r, 'richdsl'),
      format: formatCopula,
      charts: (r: CopulaResult) => chartsFor.copula(r, 'copula-richdsl'),
    },
  ];
  return jobs;
}

/** Stable JSON of a job's options (cache key). */
function optionsKey(opts: unknown): string {
  return JSON.stringify(opts);
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** Progress callback: tasks done of total, and whether the chunk came from the cache. */
export type ChunkProgress = (done: number, total: number) => void;

/**
 * Run a job's tasks in chunks of `chunk`, caching each chunk's records under `dir` (when given),
 * then aggregate. Identical results for any chunk size.
 */
export function runChunked<O, R, Res>(
  exp: TaskExperiment<O, R, Res>,
  opts: O,
  tasks: number,
  chunk: number,
  dir?: string,
  onProgress?: ChunkProgress,
  stats?: { seconds: number },
): Res {
  const key = optionsKey(opts);
  if (dir) mkdirSync(dir, { recursive: true });
  const records: R[] = [];
  for (let from = 0; from < tasks; from += chunk) {
    const to = Math.min(tasks, from + chunk);
    const file = dir ? join(dir, `tasks-${from}-${to}.json`) : undefined;
    let recs: R[] | undefined;
    if (file && existsSync(file)) {
      try {
        const saved = JSON.parse(readFileSync(file, 'utf8')) as { key: string; records: R[]; seconds?: number };
        if (saved.key === key && saved.records.length === to - from) {
          recs = saved.records;
          if (stats) stats.seconds += saved.seconds ?? 0;
        }
      } catch {
        recs = undefined; // a torn write: recompute the chunk
      }
    }
    if (!recs) {
      const t0 = Date.now();
      recs = [];
      for (let t = from; t < to; t++) {
        // Round-trip through JSON so a fresh record is exactly what a cached one would be.
        recs.push(JSON.parse(JSON.stringify(exp.task(opts, t))) as R);
        onProgress?.(t + 1, tasks);
      }
      const seconds = (Date.now() - t0) / 1000;
      if (stats) stats.seconds += seconds;
      if (file) writeAtomic(file, JSON.stringify({ key, seconds, records: recs }));
    }
    records.push(...recs);
    onProgress?.(to, tasks);
  }
  return exp.aggregate(opts, records);
}

/** A finished job as cached in OUT/results/ID.json. */
export interface JobResult {
  id: string;
  title: string;
  command: string;
  key: string;
  quick: boolean;
  tasks: number;
  /** Compute seconds: the chunks' own times (also those cached by an interrupted run) + aggregation. */
  seconds: number;
  finishedAt: string;
  headlines: Headline[];
  result: unknown;
}

/** Load a finished job's cached result when its options match. */
function loadJobResult(out: string, job: SuiteJob): JobResult | undefined {
  const file = join(out, 'results', `${job.id}.json`);
  if (!existsSync(file)) return undefined;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as JobResult;
    return r.key === optionsKey(job.opts) ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Run (or load) one job. */
export function runJob(
  out: string,
  job: SuiteJob,
  quick: boolean,
  chunk: number,
  onProgress?: ChunkProgress,
): { result: JobResult; cached: boolean } {
  const cached = loadJobResult(out, job);
  if (cached) return { result: cached, cached: true };
  const stats = { seconds: 0 };
  const t0 = Date.now();
  const res = runChunked(job.experiment, job.opts, job.tasks, chunk, join(out, 'chunks', job.id), onProgress, stats);
  const aggregateSeconds = (Date.now() - t0) / 1000 - stats.seconds;
  const result: JobResult = {
    id: job.id,
    title: job.title,
    command: job.command,
    key: optionsKey(job.opts),
    quick,
    tasks: job.tasks,
    // Compute time summed over chunks, including chunks finished by an earlier, interrupted run.
    seconds: stats.seconds + Math.max(0, aggregateSeconds),
    finishedAt: new Date().toISOString(),
    headlines: job.headlines(res),
    result: res,
  };
  mkdirSync(join(out, 'results'), { recursive: true });
  writeAtomic(join(out, 'results', `${job.id}.json`), JSON.stringify(result, null, 1));
  return { result, cached: false };
}
