/**
 * Shared helpers for the Python sandbox tests: program builders, a one-worker executor (each
 * Python worker boots Pyodide once, ~1-2 s idle), and the "runtime still works" check every
 * attack test ends with.
 */
import { expect } from 'vitest';
import { createExecutor, type ExecResult, type Executor, type ProgramSpec } from '../../../src/sandbox/index.ts';
import type { LocalExecutorOptions } from '../../../src/sandbox/local-executor.ts';

/** A Python program spec; `tests` runs after `code` in its own namespace (as in training). */
export function py(id: string, code: string, tests?: string): ProgramSpec {
  return tests === undefined ? { id, language: 'python', code } : { id, language: 'python', code, tests };
}

/** HumanEval-shaped tests for `add(a, b)`. */
export const ADD_TESTS =
  'def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n    assert abs(candidate(0.5, 0.25) - 0.75) < 1e-9\n\ncheck(add)\n';
/** A correct solution for {@link ADD_TESTS}. */
export const ADD_OK = 'def add(a, b):\n    return a + b\n';
/** A wrong solution for {@link ADD_TESTS}. */
export const ADD_WRONG = 'def add(a, b):\n    return a - b\n';

/** An executor for Python attack tests: one worker (programs share one runtime), short timeouts. */
export function pyExecutor(opts: Partial<LocalExecutorOptions> = {}): Executor {
  return createExecutor({ workers: 1, timeoutMs: 1500, memoryMb: 64, ...opts });
}

/** Run `[id, code, tests?]` triples in order and index the results by id. */
export async function runPy(ex: Executor, programs: Array<[string, string, string?]>): Promise<Record<string, ExecResult>> {
  const specs = programs.map(([id, code, tests]) => py(id, code, tests));
  const results = await ex.run(specs);
  expect(results).toHaveLength(specs.length);
  return Object.fromEntries(results.map((r) => [r.id, r]));
}

/** The result is not a pass (and, when given, has one of the statuses). */
export function expectNotPass(r: ExecResult | undefined, statuses?: readonly string[]): void {
  expect(r, 'missing result').toBeDefined();
  expect(r!.status, JSON.stringify(r)).not.toBe('pass');
  if (statuses) expect(statuses, JSON.stringify(r)).toContain(r!.status);
}

/** After an attack: a correct program passes with a clean verdict and a wrong one fails. */
export async function expectStillWorks(ex: Executor): Promise<void> {
  const rs = await runPy(ex, [
    ['after-ok', ADD_OK, ADD_TESTS],
    ['after-wrong', ADD_WRONG, ADD_TESTS],
  ]);
  expect(rs['after-ok']!.status, JSON.stringify(rs['after-ok'])).toBe('pass');
  expect(rs['after-ok']!.passed).toBe(3);
  expect(rs['after-wrong']!.status, JSON.stringify(rs['after-wrong'])).toBe('fail');
}
