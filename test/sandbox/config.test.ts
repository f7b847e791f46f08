/**
 * The `sandbox` config section: defaults, strictness, ranges.
 */
import { describe, expect, it } from 'vitest';
import { defaultSandboxConfig, executorOptionsFromConfig, sandboxConfigSchema } from '../../src/sandbox/index.ts';

describe('sandbox config', () => {
  it('defaults every field', () => {
    expect(defaultSandboxConfig()).toEqual({
      backend: 'local',
      redis: 'redis://127.0.0.1:6379',
      queue_prefix: 'anchor-rl',
      batch_size: 16,
      max_in_flight: 256,
      no_worker_timeout_ms: 60_000,
      redis_timeout_ms: 120_000,
      stall_timeout_ms: 0,
      workers: 2,
      timeout_ms: 2000,
      memory_mb: 64,
      stdout_limit: 65536,
      min_assertions: 1,
      verdict: 'strict',
    });
  });

  it('rejects unknown keys, wrong types and out-of-range values', () => {
    expect(sandboxConfigSchema.safeParse({ wokers: 2 }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ workers: '2' }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ workers: 0 }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ memory_mb: 4 }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ timeout_ms: 1.5 }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ backend: 'cluster' }).success).toBe(false);
    expect(sandboxConfigSchema.safeParse({ verdict: 'loose' }).success).toBe(false);
    const r = sandboxConfigSchema.safeParse({ workers: 0 });
    expect(r.success ? [] : r.error.issues[0]!.path).toEqual(['workers']);
  });

  it('maps onto executor options', () => {
    expect(executorOptionsFromConfig(sandboxConfigSchema.parse({ workers: 3, timeout_ms: 500, verdict: 'parity' }), 7)).toEqual({
      workers: 3,
      timeoutMs: 500,
      memoryMb: 64,
      stdoutLimit: 65536,
      minAssertions: 1,
      verdict: 'parity',
      seed: 7,
    });
  });
});
