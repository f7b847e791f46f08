/**
 * The settlement executor's interface. The training driver only sees {@link Executor}; which
 * backend runs the programs (local isolate workers today, a job queue later) is config.
 */
import type { Language } from '../datasets/problem.ts';

/** Comparison semantics of the tests: `strict` (training, settlement) or `parity` (published harnesses). */
export type VerdictMode = 'strict' | 'parity';

/** Outcome of one program. */
export type ExecStatus = 'pass' | 'fail' | 'error' | 'syntax_error' | 'timeout' | 'oom' | 'unsupported';

/** A complete program to execute (solution + tests). */
export interface ProgramSpec {
  /** Caller's identifier, echoed in the result. */
  id: string;
  language: Language;
  /** Full source: solution followed by its tests (or only the solution when `tests` is given). */
  code: string;
  /**
   * Optional tests, run as a second script in the same context after `code` (both are compiled
   * before either runs, so a syntax error anywhere still means nothing runs). Keeping the tests
   * apart stops a solution from pre-empting the tests' own declarations — e.g. a completion that
   * assigns `var test = () => {}` before the tests' `function test` is hoisted over it.
   */
  tests?: string;
  /**
   * The trusted prefix of `code` (the problem's setup and prompt). With `tests`, definitions the
   * tests use that the prompt provides (a helper such as HumanEval's `poly`) are taken from here,
   * so a completion that redefines them changes only what its own code sees (JavaScript: the tests
   * realm evaluates its own copy of the prompt, all of it but the entry point; Python: the prompt
   * is executed apart into the tests' namespace).
   */
  prompt?: string;
  /** Per-program override of the executor's time limit, ms (see {@link ExecutorOptions.timeoutMs}). */
  timeoutMs?: number;
  /**
   * Which draw of its problem's random sources and clock this execution is (training passes the
   * step's index; default 0). The program's and the tests' seeds come from the run seed, the
   * problem's text and this: within a draw every completion of a problem meets the same stream
   * and clock, and the next draw brings others. With one stream per problem for a whole run, a
   * program right only by chance could fix where in it its answers fall (burning K draws first)
   * and pass every step; now it passes only as often as chance lets it (red-team rt62 A25).
   */
  draw?: number;
}

/**
 * Why a program's result is suspect beyond its status (read by the trainer's pre-action gate as
 * a harness-integrity signal): `tests_not_run` — the program finished but fewer than
 * `min_assertions` assertions ran (the completion pre-empted the tests); `host_overloaded` — not a
 * verdict: the machine was so loaded that the program could not use its CPU time budget within
 * the wall-clock backstop (its status is `timeout`, but the program did not exhaust its budget;
 * re-run it or leave it out, never read it as a label); `sandbox_unavailable` — not a verdict: the
 * sandbox could not run the program at all (a worker that did not start, a closed executor, a
 * failed queue job or a malformed result from a queue worker; its status is `error`).
 */
export type ExecErrorCode = 'tests_not_run' | 'host_overloaded' | 'sandbox_unavailable';

/** Codes that mark a result as machine trouble rather than a judgement of the program. */
const NOT_A_VERDICT: ReadonlySet<ExecErrorCode> = new Set(['host_overloaded', 'sandbox_unavailable']);

/**
 * Whether the result is a judgement of the program (any status the program, its tests or its own
 * resource use decided), as opposed to the host failing to run it — read from the result's
 * {@link ExecErrorCode}, never from its message, which a program can shape.
 */
export function isVerdict(result: ExecResult): boolean {
  return result.code === undefined || !NOT_A_VERDICT.has(result.code);
}

/** Result of one program. Never thrown: every failure mode is a status. */
export interface ExecResult {
  id: string;
  status: ExecStatus;
  /** Assertions that passed, where the harness can count them. */
  passed: number;
  /** Assertions attempted, where the harness can count them. */
  total: number;
  /** Wall time spent on the program in the worker, milliseconds. */
  ms: number;
  /** Captured console output, capped. */
  stdout: string;
  /** Error message for non-pass statuses. */
  error?: string;
  /** Machine-readable reason, where the sandbox knows one ({@link ExecErrorCode}). */
  code?: ExecErrorCode;
}

/** Executor limits and sizing. */
export interface ExecutorOptions {
  /** Worker processes hosting isolates. */
  workers: number;
  /**
   * Time limit per program, milliseconds (default 2000): JavaScript, the isolate's CPU time (so the
   * verdict does not depend on the machine's load; a wall-clock backstop of many times it guards
   * the host); Python, the CPU time of the worker thread that runs its interpreters, likewise.
   */
  timeoutMs: number;
  /** Isolate heap limit, megabytes (default 64). */
  memoryMb: number;
  /** Console capture cap per program, bytes (default 64 KiB). */
  stdoutLimit: number;
  /** Comparison semantics of the tests (default `strict`). */
  verdict?: VerdictMode;
  /** Run seed from which each program's random sources are seeded (default 0). */
  seed?: number;
  /**
   * Run each distinct program of a batch once and copy its result to the repeats (./dedupe.ts;
   * default false here, true from the `sandbox.dedupe` config key).
   */
  dedupe?: boolean;
}

/** Called with each result of a batch as it arrives, and its index in the batch. */
export type OnResult = (result: ExecResult, index: number) => void;

/** Runs batches of untrusted programs. Implementations never reject for a program's fault. */
export interface Executor {
  /** Execute programs; results come back in input order. */
  run(programs: readonly ProgramSpec[], onResult?: OnResult): Promise<ExecResult[]>;
  /** Release workers. Idempotent. */
  close(): Promise<void>;
}
