/**
 * Sandbox section of the run config (`sandbox:` in YAML). Owned here; src/train/run-config.ts
 * composes it into the run config. Every field has a default, unknown keys are rejected.
 */
import { z } from 'zod';

/** Zod schema of the `sandbox` config section. */
export const sandboxConfigSchema = z
  .object({
    backend: z
      .enum(['local', 'queue'])
      .default('local')
      .describe(
        'Where programs run: `local` = isolated-vm worker processes on this machine; `queue` = batches on a BullMQ queue in Redis, run by `anchor-rl worker` processes on any machine.',
      ),
    redis: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, 'expected redis://[:password@]host:port[/db] or rediss://...')
      .default('redis://127.0.0.1:6379')
      .describe('Redis of the `queue` backend: `redis://[:password@]host:port[/db]`, or `rediss://` for TLS.'),
    queue_prefix: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .default('anchor-rl')
      .describe('Queue-name prefix of the `queue` backend (workers must use the same one).'),
    batch_size: z.number().int().min(1).max(4096).default(16).describe('Programs per queue job (`queue` backend).'),
    max_in_flight: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .default(256)
      .describe('Back-pressure (`queue` backend): most programs submitted and not yet returned.'),
    no_worker_timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(86_400_000)
      .default(60_000)
      .describe('`queue` backend: fail when no worker serves a queue with pending batches for this long.'),
    redis_timeout_ms: z
      .number()
      .int()
      .min(100)
      .max(86_400_000)
      .default(120_000)
      .describe('`queue` backend: fail when Redis stays unreachable this long (it waits and resumes before).'),
    stall_timeout_ms: z
      .number()
      .int()
      .min(0)
      .max(86_400_000)
      .default(0)
      .describe(
        '`queue` backend: fail when workers are connected but no program on a queue with pending batches finished for this long, ms (a stuck worker). 0 (default) = the wall-clock backstop of the longest pending program budget (20 × it + 5 s: a worker on an overloaded host may take that long before reporting) + 30 s.',
      ),
    workers: z.number().int().min(1).max(256).default(2).describe('Worker processes, each hosting one isolate.'),
    timeout_ms: z
      .number()
      .int()
      .min(10)
      .max(600_000)
      .default(2000)
      .describe(
        "Time limit per program, milliseconds, of CPU time (the sandbox worker thread's, charged from the program's first statement; JavaScript and Python alike), so a verdict does not depend on the machine's load; a wall-clock backstop of 20 × this + 5 s only guards the host (past it the result is `timeout` with code `host_overloaded`, not a verdict).",
      ),
    memory_mb: z
      .number()
      .int()
      .min(8)
      .max(16_384)
      .default(64)
      .describe('Isolate heap limit per worker, megabytes (isolated-vm minimum is 8).'),
    stdout_limit: z
      .number()
      .int()
      .min(0)
      .max(64 * 1024 * 1024)
      .default(65_536)
      .describe('Captured console output per program, bytes (UTF-8); the rest is dropped.'),
    min_assertions: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .default(1)
      .describe(
        "A program that completes without error but ran fewer assertions than this is `fail`, not `pass`. 1 (default) stops a completion from passing by preventing the tests from running (e.g. redefining the test function); 0 gives Node's exit-code semantics.",
      ),
    verdict: z
      .enum(['strict', 'parity'])
      .default('strict')
      .describe(
        "How answers are compared with the tests' expected values. `strict` (default; training and settlement): an answer compared against a builtin expected value must be exactly that type (JavaScript: strict deep equality, numbers, strings and BigInts distinct; Python: the tests' comparisons go through a trusted helper that refuses lying `__eq__` and builtin subclasses that override comparison). `parity`: the published harnesses' semantics (loose `deepEqual`, Python `==`), the default of `anchor-rl eval`. See docs/sandbox.md.",
      ),
    dedupe: z
      .boolean()
      .default(true)
      .describe(
        'Run each distinct program of a batch once (same language, code, tests, prompt and time limit) and give its repeats a copy of the result with `ms` 0. A verdict is a pure function of those and the run seed, so results are unchanged; a GRPO group often samples the same completion several times. false = execute every program (e.g. to measure throughput).',
      ),
  })
  .strict();

/** The validated `sandbox` config section. */
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

/** The defaults of every field. */
export function defaultSandboxConfig(): SandboxConfig {
  return sandboxConfigSchema.parse({});
}
