/**
 * Shared helpers for the sandbox tests: program builders and the "executor still works" check
 * every attack test ends with.
 */
import { expect } from 'vitest';
import { createExecutor, type ExecResult, type Executor, type ProgramSpec } from '../../src/sandbox/index.ts';
import type { LocalExecutorOptions } from '../../src/sandbox/local-executor.ts';
import { problemProgram } from '../../src/sandbox/programs.ts';
import type { Problem } from '../../src/datasets/problem.ts';
import { goldOf } from '../../src/train/gold.ts';

/** Preamble of MultiPL-E tests. */
export const ASSERT = "const assert = require('node:assert');\n";

/** A correct MultiPL-E-style program that must pass. */
export const LEGIT = `function add(x, y) {\n  return x + y;\n}\n${ASSERT}function test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, 2), 3);\n  assert.deepEqual(candidate(-1, 1), 0);\n}\ntest();\n`;

/** A JavaScript program spec. */
export function js(id: string, code: string, tests?: string): ProgramSpec {
  return tests === undefined ? { id, language: 'javascript', code } : { id, language: 'javascript', code, tests };
}

/** An executor with short timeouts, suited to attack tests. */
export function testExecutor(opts: Partial<LocalExecutorOptions> = {}): Executor {
  return createExecutor({ workers: 2, timeoutMs: 600, memoryMb: 64, ...opts });
}

/** Run programs given as `{ id: code }` and index the results by id. */
export async function runAll(ex: Executor, programs: Record<string, string>): Promise<Record<string, ExecResult>> {
  const specs = Object.entries(programs).map(([id, code]) => js(id, code));
  const results = await ex.run(specs);
  expect(results).toHaveLength(specs.length);
  return Object.fromEntries(results.map((r) => [r.id, r]));
}

/** After an attack: a legitimate program still passes on every worker, with a clean verdict. */
export async function expectStillWorks(ex: Executor): Promise<void> {
  const results = await ex.run(Array.from({ length: 6 }, (_, i) => js(`legit-${i}`, LEGIT)));
  for (const r of results) {
    expect(r.status, JSON.stringify(r)).toBe('pass');
    expect(r.passed).toBe(2);
    expect(r.total).toBe(2);
  }
}

/** Assert one result's status, printing the result on failure. */
export function expectStatus(r: ExecResult | undefined, status: ExecResult['status'] | Array<ExecResult['status']>): void {
  const ok = Array.isArray(status) ? status : [status];
  expect(r, 'missing result').toBeDefined();
  expect(ok, JSON.stringify(r)).toContain(r!.status);
}

/** A JavaScript problem as the datasets and task families hand it to training. */
export function jsProblem(id: string, prompt: string, tests: string): Problem {
  return { id, language: 'javascript', prompt, tests, stopTokens: [], source: 'attack-test' };
}

/**
 * Run completions of one problem through the training reward path: the program as training
 * builds it (src/sandbox/programs.ts: trusted prompt, untrusted completion, the tests in their own
 * field) and gold as training computes it (src/train/gold.ts). Indexed by completion id.
 */
export async function runTraining(
  ex: Executor,
  problem: Problem,
  completions: Record<string, string>,
): Promise<Record<string, ExecResult & { gold: number }>> {
  const ids = Object.keys(completions);
  const results = await ex.run(ids.map((id) => problemProgram(problem, completions[id]!, id)));
  expect(results).toHaveLength(ids.length);
  return Object.fromEntries(results.map((r) => [r.id, { ...r, gold: goldOf(r, problem) }]));
}
