/**
 * From a problem and a completion to the program the sandbox runs. The tests travel in the
 * separate `tests` field so a completion cannot pre-empt the tests' own declarations.
 */
import type { Problem } from '../datasets/problem.ts';
import type { ProgramSpec } from './types.ts';

/**
 * The sandbox program for `completion` of `problem`. JavaScript: setup + prompt + completion, then
 * the tests. Python: MBPP's `test_setup_code` builds fixtures from the solution's own classes
 * (upstream runs it after the solution), so it opens the tests instead.
 */
export function problemProgram(problem: Problem, completion: string, id: string, draw = 0): ProgramSpec {
  const drawn = draw ? { draw } : {};
  if (problem.language === 'python') {
    const tests = (problem.setup ? problem.setup + '\n' : '') + problem.tests;
    return { id, language: 'python', code: problem.prompt + completion, tests: '\n' + tests, prompt: problem.prompt, ...drawn };
  }
  const prompt = (problem.setup ? problem.setup + '\n' : '') + problem.prompt;
  return { id, language: problem.language, code: prompt + completion, tests: '\n' + problem.tests, prompt, ...drawn };
}
