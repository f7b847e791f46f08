/**
 * Gold: the executed test pass fraction of a completion. Assertions after the first failing
 * one never run (MultiPL-E tests stop at the first throw), so the denominator is the number
 * of assertions the test code contains, not the number attempted.
 */
import type { Problem } from '../datasets/problem.ts';
import type { ExecResult } from '../sandbox/types.ts';

const ASSERT_CALL = /\bassert(?:\.\w+)?\s*\(/g;

/** Number of assertion calls in a problem's test code (at least 1). */
export function assertionCount(problem: Problem): number {
  const n = problem.tests.match(ASSERT_CALL)?.length ?? 0;
  return Math.max(1, n);
}

/** Gold in [0, 1] for one execution result. */
export function goldOf(result: ExecResult, problem: Problem): number {
  if (result.status === 'pass') return 1;
  // Assertions that passed before a failure or a thrown error still count; a program that
  // never ran (syntax error, timeout, OOM) earns nothing.
  if (result.status !== 'fail' && result.status !== 'error') return 0;
  const sites = Math.max(result.total, assertionCount(problem));
  // A run that failed is never scored as one that passed: when every counted site passed (the
  // tests detected the wrong answer with a throw after their last check, or a program error
  // ended them there), the failure is one more failed site, as the sandbox counts a guard that
  // fails no site.
  return result.passed >= sites ? sites / (sites + 1) : result.passed / sites;
}
