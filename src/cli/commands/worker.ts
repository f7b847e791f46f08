/**
 * `anchor-rl worker --redis URL [--role settle|trainer] [--concurrency N] [--languages js,python]`:
 * a scale-out worker. `settle` (default) runs settlement batches from the `queue` sandbox backend
 * in this machine's local sandbox; `trainer` runs whole arms queued by `train --queue`. Runs until
 * SIGINT/SIGTERM, then finishes (settle) or checkpoints (trainer) its current work and exits.
 */
import type { CommandBody } from '../command-body.ts';
import type { Language } from '../../datasets/problem.ts';
import { checkRedisUrl, DEFAULT_QUEUE_PREFIX } from '../../sandbox/queue/connection.ts';
import { DEFAULT_WORKER_LIMITS } from '../../sandbox/queue/job.ts';
import { AnchorError } from '../../util/errors.ts';

interface WorkerArgs {
  redis?: string;
  role: string;
  concurrency: number;
  languages: string;
  prefix: string;
  'lock-duration-ms': number;
  'stalled-interval-ms': number;
  'max-timeout-ms': number;
  'max-memory-mb': number;
  'max-stdout-limit': number;
}

const LANGS: Record<string, Language> = { js: 'javascript', javascript: 'javascript', py: 'python', python: 'python' };

/** Parse `js,python` into languages; BAD_ARGUMENT on anything else. */
export function parseLanguages(list: string): Language[] {
  const out = new Set<Language>();
  for (const raw of list
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    const l = LANGS[raw];
    if (!l) throw new AnchorError('BAD_ARGUMENT', `unknown language ${JSON.stringify(raw)} in --languages (use js, python)`);
    out.add(l);
  }
  if (!out.size) throw new AnchorError('BAD_ARGUMENT', '--languages is empty');
  return [...out];
}

/** `anchor-rl worker`. */
export const workerCommand: CommandBody<object, WorkerArgs> = {
  builder: (y) =>
    y
      .option('redis', {
        type: 'string',
        describe: 'Redis URL, redis://[:password@]host:port[/db] or rediss:// (default $ANCHOR_REDIS_URL)',
      })
      .option('role', {
        type: 'string',
        choices: ['settle', 'trainer'],
        default: 'settle',
        describe: 'settle: sandbox batches; trainer: whole arms',
      })
      .option('concurrency', { type: 'number', default: 1, describe: 'Batches (settle) or arms (trainer) at once' })
      .option('languages', {
        type: 'string',
        default: 'js',
        describe: 'Settlement languages served, comma-separated: js, python',
      })
      .option('prefix', {
        type: 'string',
        default: DEFAULT_QUEUE_PREFIX,
        describe: 'Queue-name prefix (sandbox.queue_prefix of the run)',
      })
      .option('lock-duration-ms', {
        type: 'number',
        default: 30_000,
        describe: "Job lock; a dead worker's jobs are re-queued after it expires",
      })
      .option('stalled-interval-ms', {
        type: 'number',
        default: 30_000,
        describe: 'How often this worker looks for jobs orphaned by dead workers',
      })
      .option('max-timeout-ms', {
        type: 'number',
        default: DEFAULT_WORKER_LIMITS.maxTimeoutMs,
        describe: 'Settle: longest time limit per program; a job asking more is run with this one',
      })
      .option('max-memory-mb', {
        type: 'number',
        default: DEFAULT_WORKER_LIMITS.maxMemoryMb,
        describe: 'Settle: largest isolate heap a job may ask for, MB',
      })
      .option('max-stdout-limit', {
        type: 'number',
        default: DEFAULT_WORKER_LIMITS.maxStdoutLimit,
        describe: 'Settle: largest console capture per program a job may ask for, bytes',
      }),
  handler: async (args) => {
    const redis = args.redis ?? process.env.ANCHOR_REDIS_URL;
    if (!redis) throw new AnchorError('BAD_ARGUMENT', 'worker needs --redis URL (or ANCHOR_REDIS_URL)');
    try {
      checkRedisUrl(redis);
    } catch (e) {
      throw new AnchorError('BAD_ARGUMENT', (e as Error).message);
    }
    if (!Number.isInteger(args.concurrency) || args.concurrency < 1)
      throw new AnchorError('BAD_ARGUMENT', '--concurrency must be a positive integer');
    for (const k of ['lock-duration-ms', 'stalled-interval-ms'] as const) {
      if (!Number.isFinite(args[k]) || args[k] < 100) throw new AnchorError('BAD_ARGUMENT', `--${k} must be at least 100`);
    }
    for (const [k, min] of [
      ['max-timeout-ms', 10],
      ['max-memory-mb', 8],
      ['max-stdout-limit', 0],
    ] as const) {
      if (!Number.isInteger(args[k]) || args[k] < min)
        throw new AnchorError('BAD_ARGUMENT', `--${k} must be an integer of at least ${min} (got ${args[k]})`);
    }
    const log = (l: string) => process.stderr.write(`${new Date().toISOString()} ${l}\n`);
    const common = {
      redis,
      prefix: args.prefix,
      concurrency: args.concurrency,
      lockDurationMs: args['lock-duration-ms'],
      stalledIntervalMs: args['stalled-interval-ms'],
      log,
    };
    // The workers (the trainer, the sandbox, the queue client) load only when one starts.
    const worker =
      args.role === 'trainer'
        ? await (await import('../../train/distributed/arm-queue.ts')).startTrainerWorker(common)
        : await (await import('../../sandbox/queue/settle-worker.ts')).startSettlementWorker({
            ...common,
            languages: parseLanguages(args.languages),
            limits: {
              maxTimeoutMs: args['max-timeout-ms'],
              maxMemoryMb: args['max-memory-mb'],
              maxStdoutLimit: args['max-stdout-limit'],
            },
          });
    // Runs until a stop signal, or until Redis refuses the credentials (then: one message, exit 2).
    let onSignal: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      onSignal = resolve;
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    });
    try {
      await Promise.race([stopped, worker.fatal]);
    } catch (e) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await worker.close(true);
      throw e;
    }
    log('shutting down: finishing current work');
    await worker.close();
  },
};
