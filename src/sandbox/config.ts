/**
 * Sandbox section of the run config (`sandbox:` in YAML). Owned here; the lead's config loader
 * composes it into the run config. Every field has a default, unknown keys are rejected.
 */
import { z } from 'zod';

/** Zod schema of the `sandbox` config section. */
export const sandboxConfigSchema = z
  .object({
    /** Where programs run: `local` = isolated-vm worker processes on this machine (`queue` later). */
    backend: z.enum(['local']).default('local'),
    /** Worker processes, each hosting one isolate. */
    workers: z.number().int().min(1).max(256).default(2),
    /** Wall-clock limit per program, milliseconds. */
    timeout_ms: z.number().int().min(10).max(600_000).default(2000),
    /** Isolate heap limit per worker, megabytes (isolated-vm minimum is 8). */
    memory_mb: z.number().int().min(8).max(16_384).default(64),
    /** Captured console output per program, bytes (UTF-8); the rest is dropped. */
    stdout_limit: z.number().int().min(0).max(64 * 1024 * 1024).default(65_536),
    /**
     * A program that completes without error but ran fewer assertions than this is `fail`, not
     * `pass`. 1 (default) stops a completion from passing by preventing the tests from running
     * (e.g. redefining the test function); 0 gives Node's exit-code semantics.
     */
    min_assertions: z.number().int().min(0).max(1_000_000).default(1),
  })
  .strict();

/** The validated `sandbox` config section. */
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

/** The defaults of every field. */
export function defaultSandboxConfig(): SandboxConfig {
  return sandboxConfigSchema.parse({});
}
