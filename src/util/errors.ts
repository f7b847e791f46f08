/**
 * Typed errors. Every error the library raises on purpose is an {@link AnchorError} with a
 * stable `code`; only `src/cli/` turns them into exit codes and messages.
 */

/** Stable error codes. `BAD_*` codes mean bad user input (CLI exit code 2). */
export type ErrorCode =
  | 'BAD_CONFIG'
  | 'BAD_ARGUMENT'
  | 'BAD_DATASET'
  | 'BAD_MODEL'
  /** A malformed request to `anchor-rl serve` (HTTP 400). */
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'UNSUPPORTED'
  | 'RUN_FAILED'
  /** A run directory is in use by another writer (or holds a stale lock): bad input, exit 2. */
  | 'RUN_LOCKED'
  /** Stopped by SIGINT/SIGTERM after checkpointing (exit 130). */
  | 'INTERRUPTED'
  /** Training produced NaN/Infinity (loss, gradient norm, weights): the arm stops (exit 1). */
  | 'NON_FINITE'
  | 'SANDBOX_FAILED'
  | 'INTERNAL';

/** An error with a machine-readable code and optional structured details. */
export class AnchorError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AnchorError';
    this.code = code;
    this.details = details;
  }
}

/** True when the error is the user's input being wrong (as opposed to a run failing). */
export function isInputError(err: unknown): boolean {
  return (
    err instanceof AnchorError &&
    (err.code.startsWith('BAD_') || err.code === 'NOT_FOUND' || err.code === 'UNSUPPORTED' || err.code === 'RUN_LOCKED')
  );
}
