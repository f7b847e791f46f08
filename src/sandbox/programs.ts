/**
 * From a problem and a completion to the program the sandbox runs. The tests travel in the
 * separate `tests` field so a completion cannot pre-empt the tests' own declarations.
 */
import type { Problem } from '../datasets/problem.ts';
import type { ProgramSpec } from './types.ts';

/** The sandbox program for `completion` of `problem` (setup + prompt + completion, then tests). */
export function problemProgram(problem: Problem, completion: string, id: string): ProgramSpec {
  const code = (problem.setup ? problem.setup + '\n' : '') + problem.prompt + completion;
  return { id, language: problem.language, code, tests: '\n' + problem.tests };
}
