/**
 * Settlement sandbox: run untrusted JavaScript programs against their unit tests.
 *
 * ```ts
 * const executor = createExecutor({ workers: 2, timeoutMs: 2000 });
 * const results = await executor.run([{ id: 'p1', language: 'javascript', code }]);
 * await executor.close();
 * ```
 */
import { LocalExecutor, type LocalExecutorOptions } from './local-executor.ts';
import type { SandboxConfig } from './config.ts';
import type { Executor } from './types.ts';
import { QueueExecutor, type QueueExecutorOptions } from './queue/queue-executor.ts';

export type { ExecResult, ExecStatus, Executor, ProgramSpec } from './types.ts';
export { isVerdict } from './types.ts';
export { sandboxConfigSchema, defaultSandboxConfig, type SandboxConfig } from './config.ts';
export { LocalExecutor, type LocalExecutorOptions } from './local-executor.ts';
export { QueueExecutor } from './queue/queue-executor.ts';

/** Create the executor for the configured backend (only `local` exists today). */
export function createExecutor(options: Partial<LocalExecutorOptions> = {}): Executor {
  return new LocalExecutor(options);
}

/** Map the `sandbox` config section (and the run seed) onto executor options. */
export function executorOptionsFromConfig(config: SandboxConfig, seed = 0): LocalExecutorOptions {
  return {
    workers: config.workers,
    timeoutMs: config.timeout_ms,
    memoryMb: config.memory_mb,
    stdoutLimit: config.stdout_limit,
    minAssertions: config.min_assertions,
    verdict: config.verdict,
    seed,
    dedupe: config.dedupe,
  };
}

/**
 * Create the executor described by a `sandbox` config section (`local` or `queue` backend).
 * `seed` is the run seed every program's random sources are derived from.
 */
export function createExecutorFromConfig(config: SandboxConfig, seed = 0): Executor {
  if (config.backend === 'queue') return new QueueExecutor(queueExecutorOptionsFromConfig(config, seed));
  return createExecutor(executorOptionsFromConfig(config, seed));
}

/** Map the `sandbox` config section onto the `queue` backend's options. */
function queueExecutorOptionsFromConfig(config: SandboxConfig, seed = 0): QueueExecutorOptions {
  return {
    ...executorOptionsFromConfig(config, seed),
    redis: config.redis,
    prefix: config.queue_prefix,
    batchSize: config.batch_size,
    maxInFlight: config.max_in_flight,
    noWorkerTimeoutMs: config.no_worker_timeout_ms,
    redisTimeoutMs: config.redis_timeout_ms,
    stallTimeoutMs: config.stall_timeout_ms,
    pollMs: 250,
    minAssertions: config.min_assertions,
  };
}
