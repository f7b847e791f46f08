/**
 * `anchor-rl experiment goodhart|settlement-loop|…`: the reproduction experiments on the DSL worlds
 * (see src/research/experiments/), and `resolution-probe`, which probes a finished run's RM offline.
 * Tables on stdout (or `--json`), a progress bar on stderr.
 */
import type { Argv, CommandModule } from 'yargs';
import type { CommandBody } from '../command-body.ts';
import { runGoodhart, GOODHART_DEFAULTS, type GoodhartResult } from '../../research/experiments/goodhart.ts';
import { runSettlementLoop, SETTLEMENT_DEFAULTS, type SettlementLoopResult } from '../../research/experiments/settlement-loop.ts';
import { progressBar } from '../../research/experiments/format.ts';
import { AnchorError } from '../../util/errors.ts';
import { runExchangeRate, EXCHANGE_DEFAULTS, type ExchangeRateResult } from '../../research/experiments/exchange-rate.ts';
import { runCopula, runCopulaOnRecords, type CopulaResult } from '../../research/experiments/copula.ts';
import { runAdversaryExperiment, ADVERSARY_DEFAULTS, type AdversaryResult } from '../../research/experiments/adversary.ts';
import { runScaling, SCALING_DEFAULTS, type ScalingResult } from '../../research/experiments/settlement-scaling.ts';
import { runResolution, RESOLUTION_DEFAULTS, type ResolutionResult } from '../../research/experiments/resolution.ts';
import { runStrongVerifier, type StrongVerifierResult } from '../../research/experiments/strong-verifier.ts';
import { RESOLUTION_PROBE_DEFAULTS } from '../../research/experiments/resolution-probe-options.ts';
import {
  formatAdversary,
  formatCopula,
  formatExchangeRate,
  formatGoodhart,
  formatResolution,
  formatResolutionProbe,
  formatScaling,
  formatSettlement,
} from '../../research/experiments/text.ts';
import { readPool } from './snd.ts';

interface CommonArgs {
  tasks: number;
  seed: number;
  json: boolean;
}

function common<T>(y: Argv<T>): Argv<T & CommonArgs> {
  return y
    .option('tasks', { type: 'number', default: 60, describe: 'Tasks (hidden target programs) to average over' })
    .option('seed', { type: 'number', default: 0, describe: 'Seed for tasks, labels and pools' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }) as Argv<T & CommonArgs>;
}

function positiveInt(name: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isInteger(v) && v >= 1))
    throw new AnchorError('BAD_ARGUMENT', `--${name} must be a positive integer, got ${v}`);
}

interface GoodhartArgs extends CommonArgs {
  domain: 'dsl6' | 'richdsl';
  train?: number;
  pool?: number;
  'max-log2'?: number;
}

const goodhart: CommandModule<object, GoodhartArgs> = {
  command: 'goodhart',
  describe: 'Best-of-N gold under execution vs learned verifiers (ridge; GBT on RichDSL), and Snd@N, on DSL-6 or RichDSL',
  builder: (y) =>
    common(y)
      .option('domain', { choices: ['dsl6', 'richdsl'] as const, default: 'dsl6' as const, describe: 'DSL world' })
      .option('train', { type: 'number', describe: 'Labelled random programs per task (default 1000 dsl6, 2000 richdsl)' })
      .option('pool', { type: 'number', describe: 'Fresh pool per task (default 2048 dsl6, 4096 richdsl)' })
      .option('max-log2', { type: 'number', describe: 'Largest log2 N (default 11 dsl6, 12 richdsl)' }) as Argv<GoodhartArgs>,
  handler: (args) => {
    for (const k of ['tasks', 'train', 'pool'] as const) positiveInt(k, args[k]);
    const bar = args.json ? undefined : progressBar(`goodhart ${args.domain}`, args.tasks);
    let res: GoodhartResult;
    try {
      res = runGoodhart({
        domain: args.domain,
        tasks: args.tasks,
        seed: args.seed,
        train: args.train,
        pool: args.pool,
        maxLog2:
          args['max-log2'] ??
          (args.pool !== undefined
            ? Math.min(GOODHART_DEFAULTS[args.domain].maxLog2, Math.floor(Math.log2(args.pool)))
            : undefined),
        onTask: (d) => bar?.update(d),
      });
    } finally {
      bar?.stop();
    }
    if (args.json) {
      process.stdout.write(JSON.stringify(res, null, 2) + '\n');
      return;
    }
    process.stdout.write(formatGoodhart(res) + '\n');
  },
};

interface SettlementArgs extends CommonArgs {
  domain: 'dsl6' | 'richdsl';
  rounds: number;
  pool: number;
  top: number;
  base: number;
  verifier?: string;
}

const settlementLoop: CommandModule<object, SettlementArgs> = {
  command: 'settlement-loop',
  describe: 'Rounds of select-top-k-by-proxy, settle, refit (anchored) or not (frozen) on DSL-6',
  builder: (y) =>
    common(y)
      .option('domain', { choices: ['dsl6', 'richdsl'] as const, default: 'dsl6' as const, describe: 'DSL world' })
      .option('rounds', { type: 'number', default: SETTLEMENT_DEFAULTS.rounds, describe: 'Rounds' })
      .option('pool', { type: 'number', default: SETTLEMENT_DEFAULTS.pool, describe: 'Fresh random programs per round' })
      .option('top', { type: 'number', default: SETTLEMENT_DEFAULTS.top, describe: 'Settled (top by proxy) per round' })
      .option('base', { type: 'number', default: SETTLEMENT_DEFAULTS.base, describe: 'Base labels both arms start from' })
      .option('verifier', {
        type: 'string',
        describe: 'Verifier (dsl6: ridge-43; richdsl: ridge-weak-111 (default), gbt-strong-359, ridge-strong-359)',
      }) as Argv<SettlementArgs>,
  handler: (args) => {
    for (const k of ['tasks', 'rounds', 'pool', 'top', 'base'] as const) positiveInt(k, args[k]);
    const bar = args.json ? undefined : progressBar(`settlement-loop ${args.domain}`, args.tasks);
    let res: SettlementLoopResult;
    try {
      res = runSettlementLoop({ ...args, onTask: (d) => bar?.update(d) });
    } finally {
      bar?.stop();
    }
    if (args.json) {
      process.stdout.write(JSON.stringify(res, null, 2) + '\n');
      return;
    }
    process.stdout.write(formatSettlement(res) + '\n');
  },
};

interface DomainArgs extends CommonArgs {
  domain: 'dsl6' | 'richdsl';
}

/**
 * A subcommand for one of the reproduction experiments: common options, the experiment's own options,
 * a progress bar, then JSON or text.
 */
function simpleCommand<A extends DomainArgs, Res>(spec: {
  name: string;
  describe: string;
  defaultDomain?: 'dsl6' | 'richdsl';
  defaultTasks?: number;
  tasksDescribe?: string;
  options?: (y: Argv<DomainArgs>) => Argv<A>;
  run: (args: A, onTask: (d: number) => void) => Res | Promise<Res>;
  format: (r: Res) => string;
  total?: (args: A) => number;
}): CommandModule<object, A> {
  return {
    command: spec.name,
    describe: spec.describe,
    builder: (y) => {
      const base = (y as Argv)
        .option('tasks', {
          type: 'number',
          default: spec.defaultTasks ?? 60,
          describe: spec.tasksDescribe ?? 'Tasks (hidden target programs) to average over',
        })
        .option('seed', { type: 'number', default: 0, describe: 'Seed; task t uses only the stream (seed, t)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
        .option('domain', {
          choices: ['dsl6', 'richdsl'] as const,
          default: spec.defaultDomain ?? ('dsl6' as const),
          describe: 'DSL world',
        }) as Argv<DomainArgs>;
      return spec.options ? spec.options(base) : (base as unknown as Argv<A>);
    },
    handler: async (args) => {
      positiveInt('tasks', args.tasks);
      const a = args as unknown as A;
      const bar = args.json ? undefined : progressBar(`${spec.name} ${args.domain}`, spec.total ? spec.total(a) : args.tasks);
      let res: Res;
      try {
        res = await spec.run(a, (d) => bar?.update(d));
      } finally {
        bar?.stop();
      }
      process.stdout.write((args.json ? JSON.stringify(res, null, 2) : spec.format(res)) + '\n');
    },
  };
}

const exchangeRate = simpleCommand<DomainArgs & { batch: number; 'max-log2': number }, ExchangeRateResult>({
  name: 'exchange-rate',
  describe:
    'Best-of-N under a ρ-correlated proxy in the joint-Gaussian model vs theory, and the compute penalty N′ (the model is world-free: --domain is ignored)',
  defaultTasks: EXCHANGE_DEFAULTS.tasks,
  tasksDescribe: 'Monte Carlo batches (each --batch replicates)',
  options: (y) =>
    y
      .option('batch', { type: 'number', default: EXCHANGE_DEFAULTS.batch, describe: 'Replicates per batch' })
      .option('max-log2', { type: 'number', default: EXCHANGE_DEFAULTS.maxLog2, describe: 'Largest log2 N' }) as Argv<
      DomainArgs & { batch: number; 'max-log2': number }
    >,
  run: (a, on) => {
    positiveInt('batch', a.batch);
    return runExchangeRate({ tasks: a.tasks, seed: a.seed, batch: a.batch, maxLog2: a['max-log2'], onTask: on });
  },
  format: formatExchangeRate,
});

type CopulaArgs = DomainArgs & { pool?: string; train?: number; 'pool-size'?: number; 'max-log2'?: number };
const copula = simpleCommand<CopulaArgs, CopulaResult>({
  name: 'copula',
  describe:
    'Predict per-problem Snd@N from the rank (Gaussian-copula) vs the Pearson correlation, on goodhart pools or a --pool file',
  options: (y) =>
    y
      .option('pool', {
        type: 'string',
        describe: 'Scored pool file (the `snd --pool` JSONL format); default: rebuild goodhart pools from the seed',
      })
      .option('train', { type: 'number', describe: 'Goodhart labelled programs per task' })
      .option('pool-size', { type: 'number', describe: 'Goodhart pool per task' })
      .option('max-log2', { type: 'number', describe: 'Largest log2 N' }) as Argv<CopulaArgs>,
  run: async (a, on) => {
    if (a.pool) return runCopulaOnRecords(await readPool(a.pool), a.pool, a['max-log2'], a.seed);
    for (const k of ['train', 'pool-size'] as const) positiveInt(k, a[k]);
    const size = a['pool-size'];
    return runCopula({
      domain: a.domain,
      tasks: a.tasks,
      seed: a.seed,
      train: a.train,
      pool: size,
      maxLog2:
        a['max-log2'] ??
        (size !== undefined ? Math.min(GOODHART_DEFAULTS[a.domain].maxLog2, Math.floor(Math.log2(size))) : undefined),
      onTask: on,
    });
  },
  format: formatCopula,
});

type AdversaryArgs = DomainArgs & {
  steps?: number;
  every?: number;
  base?: number;
  k?: number;
  population?: number;
  probes?: number;
};
const adversary = simpleCommand<AdversaryArgs, AdversaryResult>({
  name: 'adversary',
  describe: 'Steepest-ascent, evolutionary and settlement-aware adversaries against sound, frozen and anchored verifiers',
  options: (y) =>
    y
      .option('steps', { type: 'number', describe: `Optimisation steps (default ${ADVERSARY_DEFAULTS.steps})` })
      .option('every', {
        type: 'number',
        describe: `Anchored: settle and refit every K steps (default ${ADVERSARY_DEFAULTS.every})`,
      })
      .option('base', { type: 'number', describe: 'Base labels of the learned verifiers (default 1000 dsl6, 2000 richdsl)' })
      .option('k', { type: 'number', describe: `Mutations proposed per step (default ${ADVERSARY_DEFAULTS.k})` })
      .option('population', { type: 'number', describe: `Evolutionary population (default ${ADVERSARY_DEFAULTS.population})` })
      .option('probes', {
        type: 'number',
        describe: `Settlement-aware restart probes (default ${ADVERSARY_DEFAULTS.probes})`,
      }) as Argv<AdversaryArgs>,
  run: (a, on) =>
    runAdversaryExperiment({
      domain: a.domain,
      tasks: a.tasks,
      seed: a.seed,
      steps: a.steps,
      every: a.every,
      base: a.base,
      k: a.k,
      population: a.population,
      probes: a.probes,
      onTask: on,
    }),
  format: formatAdversary,
});

type ScalingArgs = DomainArgs & {
  budgets?: (string | number)[];
  init?: number;
  batch?: number;
  candidates?: number;
  'eval-pool'?: number;
  'max-log2'?: number;
};
const settlementScaling = simpleCommand<ScalingArgs, ScalingResult>({
  name: 'settlement-scaling',
  describe: 'Snd AUC vs settled-label budget for on-policy, random and uncertainty acquisition, with the log-linear trend',
  options: (y) =>
    y
      .option('budgets', { type: 'array', describe: `Label budgets S (default ${SCALING_DEFAULTS.budgets.join(' ')})` })
      .option('init', { type: 'number', describe: `Initial random labels (default ${SCALING_DEFAULTS.init})` })
      .option('batch', { type: 'number', describe: `Labels per acquisition step (default ${SCALING_DEFAULTS.batch})` })
      .option('candidates', {
        type: 'number',
        describe: `Fresh candidates per acquisition step (default ${SCALING_DEFAULTS.candidates})`,
      })
      .option('eval-pool', { type: 'number', describe: 'Fresh evaluation pool per task (default 2048 dsl6, 4096 richdsl)' })
      .option('max-log2', { type: 'number', describe: 'Largest log2 N of the AUC' }) as Argv<ScalingArgs>,
  run: (a, on) => {
    const budgets = a.budgets?.flatMap((b) => String(b).split(',')).map(Number);
    if (budgets?.some((b) => !Number.isInteger(b) || b < 1))
      throw new AnchorError('BAD_ARGUMENT', `--budgets must be positive integers, got ${a.budgets!.join(' ')}`);
    return runScaling({
      domain: a.domain,
      tasks: a.tasks,
      seed: a.seed,
      budgets,
      init: a.init,
      batch: a.batch,
      candidates: a.candidates,
      evalPool: a['eval-pool'],
      maxLog2: a['max-log2'],
      onTask: on,
    });
  },
  format: formatScaling,
});

type ResolutionArgs = DomainArgs & { rounds?: number; pool?: number; claims?: number; base?: number; threshold?: number };
const resolutionCmd = simpleCommand<ResolutionArgs, ResolutionResult>({
  name: 'resolution',
  describe:
    'Rounds of probabilistic claims "gold ≥ threshold" settled by execution: out-of-sample Brier reliability and resolution per round',
  options: (y) =>
    y
      .option('rounds', { type: 'number', describe: `Rounds (default ${RESOLUTION_DEFAULTS.rounds})` })
      .option('pool', { type: 'number', describe: `Fresh programs per round (default ${RESOLUTION_DEFAULTS.pool})` })
      .option('claims', { type: 'number', describe: `Claims settled per round (default ${RESOLUTION_DEFAULTS.claims})` })
      .option('base', { type: 'number', describe: `Base labels (default ${RESOLUTION_DEFAULTS.base})` })
      .option('threshold', {
        type: 'number',
        describe: `Claim threshold θ in "gold ≥ θ" (default ${RESOLUTION_DEFAULTS.threshold})`,
      }) as Argv<ResolutionArgs>,
  run: (a, on) => {
    for (const k of ['rounds', 'pool', 'claims', 'base'] as const) positiveInt(k, a[k]);
    return runResolution({
      domain: a.domain,
      tasks: a.tasks,
      seed: a.seed,
      rounds: a.rounds,
      pool: a.pool,
      claims: a.claims,
      base: a.base,
      threshold: a.threshold,
      onTask: on,
    });
  },
  format: formatResolution,
});

type StrongArgs = DomainArgs & {
  train?: number;
  pool?: number;
  'max-log2'?: number;
  rounds?: number;
  top?: number;
  base?: number;
};
const strongVerifier = simpleCommand<StrongArgs, StrongVerifierResult>({
  name: 'strong-verifier',
  describe: 'RichDSL: weak ridge (111 features) vs strong GBT (359 features) in goodhart and settlement-loop',
  defaultDomain: 'richdsl',
  options: (y) =>
    y
      .option('train', { type: 'number', describe: 'Goodhart labelled programs per task (default 2000)' })
      .option('pool', { type: 'number', describe: 'Goodhart pool per task (default 4096)' })
      .option('max-log2', { type: 'number', describe: 'Goodhart largest log2 N (default 12)' })
      .option('rounds', { type: 'number', describe: `Settlement-loop rounds (default ${SETTLEMENT_DEFAULTS.rounds})` })
      .option('top', { type: 'number', describe: `Settlement-loop settled per round (default ${SETTLEMENT_DEFAULTS.top})` })
      .option('base', {
        type: 'number',
        describe: `Settlement-loop base labels (default ${SETTLEMENT_DEFAULTS.base})`,
      }) as Argv<StrongArgs>,
  run: (a, on) => {
    for (const k of ['train', 'pool', 'rounds', 'top', 'base'] as const) positiveInt(k, a[k]);
    const maxLog2 = a['max-log2'] ?? (a.pool !== undefined ? Math.min(12, Math.floor(Math.log2(a.pool))) : undefined);
    return runStrongVerifier({
      domain: a.domain,
      tasks: a.tasks,
      seed: a.seed,
      train: a.train,
      pool: a.pool,
      maxLog2,
      rounds: a.rounds,
      top: a.top,
      base: a.base,
      onTask: on,
    });
  },
  format: (r) =>
    [formatGoodhart(r.goodhart), '', formatSettlement(r.settlement.weak), '', formatSettlement(r.settlement.strong)].join('\n'),
});

interface ProbeArgs {
  run: string;
  arm: string;
  features: string;
  windows?: (string | number)[];
  sample: number;
  seed: number;
  json: boolean;
}

const resolutionProbe: CommandModule<object, ProbeArgs> = {
  command: 'resolution-probe <run> <arm>',
  describe:
    "Refit ridge RMs offline on an arm's executed samples and score how well each ranks a window's groups (within-group Spearman, Snd@G, MAE)",
  builder: (y) =>
    y
      .positional('run', { type: 'string', demandOption: true, describe: 'Run directory' })
      .positional('arm', { type: 'string', demandOption: true, describe: 'Arm whose samples.jsonl is probed' })
      .option('features', {
        type: 'string',
        default: RESOLUTION_PROBE_DEFAULTS.features.join(','),
        describe: 'Feature extractors, comma-separated to concatenate (e.g. js-surface,js-ast)',
      })
      .option('windows', {
        type: 'array',
        describe: `Settlement windows to score (default ${RESOLUTION_PROBE_DEFAULTS.windows.join(' ')})`,
      })
      .option('sample', {
        type: 'number',
        default: RESOLUTION_PROBE_DEFAULTS.sample,
        describe: 'Fraction of earlier completions in the budget-sized refit',
      })
      .option('seed', { type: 'number', default: RESOLUTION_PROBE_DEFAULTS.seed, describe: 'Seed of the budget-sized sample' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' }) as Argv<ProbeArgs>,
  handler: async (args) => {
    const windows = args.windows?.flatMap((w) => String(w).split(',')).map(Number);
    if (windows?.some((w) => !Number.isInteger(w) || w < 0))
      throw new AnchorError('BAD_ARGUMENT', `--windows must be non-negative integers, got ${args.windows!.join(' ')}`);
    if (!(args.sample > 0 && args.sample <= 1))
      throw new AnchorError('BAD_ARGUMENT', `--sample must be in (0, 1], got ${args.sample}`);
    // Loaded here: the probe reads the run's problems through the trainer (policy, backends).
    const { runResolutionProbe } = await import('../../research/experiments/resolution-probe.ts');
    const res = runResolutionProbe({
      runDir: args.run,
      arm: args.arm,
      features: args.features.split(',').map((f) => f.trim()),
      ...(windows ? { windows } : {}),
      sample: args.sample,
      seed: args.seed,
    });
    process.stdout.write((args.json ? JSON.stringify(res, null, 2) : formatResolutionProbe(res)) + '\n');
  },
};

/** `anchor-rl experiment <name>`. */
export const experimentCommand: CommandBody = {
  builder: (y) =>
    y
      .command(goodhart)
      .command(settlementLoop)
      .command(exchangeRate)
      .command(copula)
      .command(adversary)
      .command(settlementScaling)
      .command(resolutionCmd)
      .command(strongVerifier)
      .command(resolutionProbe)
      .demandCommand(1),
  handler: () => {},
};
