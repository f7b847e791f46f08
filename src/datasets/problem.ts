/**
 * The common problem type every task source emits (synthetic families, HumanEval, MBPP,
 * MultiPL-E). Training, settlement and evaluation only ever see this shape.
 */

/** Languages the sandbox knows about. */
export type Language = 'javascript' | 'python';

/** One code-generation problem. */
export interface Problem {
  /** Stable identifier, unique within its source (e.g. `HumanEval/0`, `mbpp_3_is_not_prime`). */
  id: string;
  language: Language;
  /** Text the policy completes (signature, docstring/comment). */
  prompt: string;
  /**
   * Test code appended after prompt + completion to make the executable program.
   * JavaScript: MultiPL-E style (`const assert = require('node:assert'); ... test();`).
   * Python: HumanEval `check` definition, or MBPP assert lines.
   */
  tests: string;
  /** Name of the function under test, when known. */
  entryPoint?: string;
  /** Strings at which a completion is cut. */
  stopTokens: string[];
  /** A reference completion (the text that follows `prompt`), when the source has one. */
  reference?: string;
  /** Code that must run before the solution (MBPP `test_setup_code`, test imports). */
  setup?: string;
  /** Where the problem came from (file path or family name) — for reports and licences. */
  source: string;
  /** Free-form source-specific fields kept for inspection (task text, difficulty, ...). */
  meta?: Record<string, unknown>;
}

/** Cut a completion at the first stop token (MultiPL-E convention). */
export function truncateAtStop(completion: string, stopTokens: readonly string[]): string {
  let end = completion.length;
  for (const stop of stopTokens) {
    if (!stop) continue;
    const at = completion.indexOf(stop);
    if (at >= 0 && at < end) end = at;
  }
  return completion.slice(0, end);
}

/** The executable program for a completion: prompt + completion + tests (+ setup first). */
export function assembleProgram(problem: Problem, completion: string): string {
  const parts: string[] = [];
  if (problem.setup) parts.push(problem.setup);
  parts.push(problem.prompt + completion);
  parts.push(problem.tests);
  return parts.join('\n');
}
