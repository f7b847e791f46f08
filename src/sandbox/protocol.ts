/**
 * Messages between the executor (parent) and its worker processes over the fork IPC channel.
 * Internal to src/sandbox.
 */
import type { ExecStatus } from './types.ts';

/** Worker start-up options, passed as argv[2] (JSON). */
export interface WorkerOptions {
  memoryMb: number;
  stdoutLimit: number;
  minAssertions: number;
  /** Replace the isolate after this many programs. */
  recycleAfter: number;
}

/** One program as sent to a worker. `i` is the parent's job index. */
export interface WireProgram {
  i: number;
  code: string;
  tests?: string;
  timeoutMs: number;
}

/** One result as sent back. */
export interface WireResult {
  i: number;
  status: ExecStatus;
  passed: number;
  total: number;
  ms: number;
  stdout: string;
  error?: string;
}

export type ToWorker = { type: 'batch'; batch: number; programs: WireProgram[] } | { type: 'exit' };

export type FromWorker =
  | { type: 'ready' }
  /** Results so far; `running` = the job index in progress and `elapsed` its age in ms. */
  | { type: 'progress'; batch: number; items: WireResult[]; running?: number; elapsed?: number; done: boolean }
  | { type: 'fatal'; message: string };
