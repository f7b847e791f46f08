/**
 * The settlement job: what a trainer puts on the queue and what a worker checks before running
 * anything. Any Redis client can add jobs (see docs/scaling.md, "Securing Redis"), and a worker
 * from other code would silently change verdicts, so a worker runs a job only when
 * - its shape and every field are valid (a malformed job is refused with the reason), and
 * - it was made for this worker's harness: the same package version, the same sandbox harness
 *   (a hash of the top-level `sandbox/` files, which decide every verdict) and a verdict mode
 *   this worker knows.
 * Per-program limits above the worker's own maxima are lowered to them ({@link capBatch}).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Language } from '../../datasets/problem.ts';
import type { ExecResult, ProgramSpec, VerdictMode } from '../types.ts';

/** Version of the job layout below; bumped whenever a field changes meaning. */
export const JOB_FORMAT = 2;

/** What a worker must match to run a job: the code that decides verdicts. */
export interface HarnessIdentity {
  /** anchor-rl package version. */
  version: string;
  /** SHA-256 (first 16 hex digits) of the files of the top-level `sandbox/` directory. */
  harness: string;
  /** Comparison semantics the verdicts use. */
  verdict: VerdictMode;
}

/** Sandbox settings of a batch (a worker keeps one local executor per distinct settings). */
export interface BatchSettings {
  memoryMb: number;
  stdoutLimit: number;
  minAssertions: number;
  seed: number;
}

/** The data of one settlement job. */
export interface BatchJobData {
  format: number;
  identity: HarnessIdentity;
  settings: BatchSettings;
  /** Programs with their timeouts filled in. */
  programs: Array<ProgramSpec & { timeoutMs: number }>;
}

/** A worker's ceilings on what a job may ask for (`anchor-rl worker --max-*`). */
export interface WorkerLimits {
  /** Longest wall-clock limit per program, ms. */
  maxTimeoutMs: number;
  /** Largest isolate heap, MB. */
  maxMemoryMb: number;
  /** Largest console capture per program, bytes. */
  maxStdoutLimit: number;
}

/** Defaults of {@link WorkerLimits}: generous for settlement, small enough that one job cannot hold a worker for long. */
export const DEFAULT_WORKER_LIMITS: WorkerLimits = { maxTimeoutMs: 60_000, maxMemoryMb: 1024, maxStdoutLimit: 1_048_576 };

let cachedHarness: string | undefined;

/** Hash of the sandbox harness files (cached; they do not change while a process runs). */
function harnessHash(): string {
  if (cachedHarness) return cachedHarness;
  // src/sandbox/queue/job.ts and dist/sandbox/queue/job.js both sit three levels below the package root.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../sandbox');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
  const h = createHash('sha256');
  for (const f of files) {
    h.update(f.slice(root.length).replaceAll('\\', '/'));
    h.update('\0');
    h.update(readFileSync(f));
    h.update('\0');
  }
  cachedHarness = h.digest('hex').slice(0, 16);
  return cachedHarness;
}

let cachedVersion: string | undefined;

/** The anchor-rl package version. */
function packageVersion(): string {
  cachedVersion ??= (
    JSON.parse(readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  return cachedVersion;
}

/** This process's harness identity for a verdict mode. */
export function harnessIdentity(verdict: VerdictMode): HarnessIdentity {
  return { version: packageVersion(), harness: harnessHash(), verdict };
}

/** A name for this worker process in refusals and logs: host and pid. */
export function workerName(): string {
  return `${hostname()}:${process.pid}`;
}

const int = (min: number, max: number) => z.number().int().min(min).max(max);

const programSchema = z
  .object({
    id: z.string().max(1000),
    language: z.enum(['javascript', 'python']),
    code: z.string(),
    tests: z.string().optional(),
    prompt: z.string().optional(),
    // Any positive limit a timer can take; above the worker's maximum it is lowered (capBatch).
    timeoutMs: int(1, 2 ** 31 - 1),
    draw: int(0, 2 ** 31 - 1).optional(),
  })
  .strict();

const jobSchema = z
  .object({
    format: z.literal(JOB_FORMAT),
    identity: z.object({ version: z.string().max(100), harness: z.string().max(100), verdict: z.string().max(100) }).strict(),
    settings: z
      .object({
        memoryMb: int(8, 1_048_576),
        stdoutLimit: int(0, 2 ** 31 - 1),
        minAssertions: int(0, 1_000_000),
        seed: z.number().int().safe(),
      })
      .strict(),
    programs: z.array(programSchema).min(1).max(4096),
  })
  .strict();

/** Why a job cannot run here, or undefined when it can. */
export function refusal(data: unknown, language: Language): string | undefined {
  // The format first: a job from other code is best explained as such, not as its first odd field.
  const format = (data as { format?: unknown } | null)?.format;
  if (format !== JOB_FORMAT)
    return `job format ${JSON.stringify(format ?? null)}, this worker reads format ${JOB_FORMAT} (trainer and worker run different anchor-rl versions)`;
  const parsed = jobSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    return `malformed job: ${where.replace(/^\./, '') || '(root)'}: ${issue.message}${parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : ''}`;
  }
  const job = parsed.data;
  const mine = harnessIdentity('strict');
  if (job.identity.version !== mine.version) return `trainer runs anchor-rl ${job.identity.version}, this worker ${mine.version}`;
  if (job.identity.harness !== mine.harness)
    return `sandbox harness differs (trainer ${job.identity.harness}, this worker ${mine.harness}): the two run different sandbox/ files, so verdicts could differ`;
  if (job.identity.verdict !== 'strict' && job.identity.verdict !== 'parity')
    return `verdict mode ${JSON.stringify(job.identity.verdict)} is unknown to this worker (strict, parity)`;
  const other = job.programs.find((p) => p.language !== language);
  if (other) return `malformed job: program ${JSON.stringify(other.id)} is ${other.language} on the ${language} queue`;
  return undefined;
}

/** What capping changed, to explain a `timeout` or `oom` that the job's own limits would not have given. */
export interface CappedBatch {
  data: BatchJobData;
  /** Notes per program index; empty when nothing was lowered. */
  notes: Map<number, string>;
  /** A line for the worker's log when anything was lowered. */
  summary?: string;
}

/** Lower a (valid) job's limits to the worker's maxima. */
export function capBatch(data: BatchJobData, limits: WorkerLimits): CappedBatch {
  const lowered: string[] = [];
  const settings = { ...data.settings };
  let memoryNote: string | undefined;
  if (settings.memoryMb > limits.maxMemoryMb) {
    lowered.push(`memoryMb ${settings.memoryMb} -> ${limits.maxMemoryMb}`);
    memoryNote = `the job asked for ${settings.memoryMb} MB; this worker caps isolates at ${limits.maxMemoryMb} MB`;
    settings.memoryMb = limits.maxMemoryMb;
  }
  if (settings.stdoutLimit > limits.maxStdoutLimit) {
    lowered.push(`stdoutLimit ${settings.stdoutLimit} -> ${limits.maxStdoutLimit}`);
    settings.stdoutLimit = limits.maxStdoutLimit;
  }
  const notes = new Map<number, string>();
  let timeouts = 0;
  const programs = data.programs.map((p, i) => {
    const capped = p.timeoutMs > limits.maxTimeoutMs;
    const parts = [
      ...(capped ? [`the job asked for ${p.timeoutMs} ms; this worker caps programs at ${limits.maxTimeoutMs} ms`] : []),
      ...(memoryNote ? [memoryNote] : []),
    ];
    if (parts.length) notes.set(i, parts.join('; '));
    if (!capped) return p;
    timeouts++;
    return { ...p, timeoutMs: limits.maxTimeoutMs };
  });
  if (timeouts) lowered.push(`timeoutMs of ${timeouts} program(s) -> ${limits.maxTimeoutMs}`);
  return {
    data: { ...data, settings, programs },
    notes,
    ...(lowered.length ? { summary: `lowered to this worker's maxima: ${lowered.join(', ')}` } : {}),
  };
}

/** Add a capping note to a result whose status the lowered limit may explain. */
export function noteCap(r: ExecResult, note: string | undefined): ExecResult {
  if (!note || (r.status !== 'timeout' && r.status !== 'oom')) return r;
  return { ...r, error: `${r.error ?? r.status} (${note})` };
}

/** Prefix of a job's failure reason when a worker refused it; the trainer stops on it. */
export const REFUSED = 'refused by worker';
