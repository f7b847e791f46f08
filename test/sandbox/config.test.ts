/**
 * The `sandbox` config section: defaults, strictness, ranges.
 */
import { describe, expect, it } from 'vitest';
import { defaultSandboxConfig, executorOptionsFromConfig, sandboxConfigSchema } from '../../src/sandbox/index.ts';

describe('sandbox config', () => {
  // The defaults' one source is the schema (docs/config.md is generated from it and checked by
  // test/train/config-docs.test.ts); this tests what the defaults do, not their values.
  it('defaults every field, with values the schema accepts', () => {
    const d = defaultSandboxConfig();
    expect(Object.keys(d).sort()).toEqual(Object.keys(sandboxConfigSchema.shape).sort());
    expect(Object.entries(d).filter(([, v]) => v === undefined)).toEqual([]);
    expect(sandboxConfigSchema.parse(d)).toEqual(d);
  });

  it('defaults to the safe choices: local execution, strict verdicts, at least one assertion', () => {
    const d = defaultSandboxConfig();
    expect(d.backend).toBe('local');
    expect(d.verdict).toBe('strict');
    expect(d.min_assertions).toBeGreaterThanOrEqual(1);
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
    const c = sandboxConfigSchema.parse({
      workers: 3,
      timeout_ms: 500,
      memory_mb: 96,
      stdout_limit: 1000,
      min_assertions: 0,
      verdict: 'parity',
      dedupe: false,
    });
    expect(executorOptionsFromConfig(c, 7)).toEqual({
      workers: 3,
      timeoutMs: 500,
      memoryMb: 96,
      stdoutLimit: 1000,
      minAssertions: 0,
      verdict: 'parity',
      seed: 7,
      dedupe: false,
    });
  });
});
