/**
 * Gold of one execution result (src/train/gold.ts): the pass fraction over the tests' sites,
 * never 1 for a run that did not pass.
 */
import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/datasets/problem.ts';
import type { ExecResult } from '../../src/sandbox/types.ts';
import { goldOf } from '../../src/train/gold.ts';

const problem = (tests: string) => ({ tests }) as Problem;
const result = (status: ExecResult['status'], passed: number, total: number): ExecResult => ({
  id: 'p',
  status,
  passed,
  total,
  ms: 1,
  stdout: '',
});

describe('goldOf', () => {
  const three = problem('assert.equal(f(1), 1);\nassert.equal(f(2), 2);\nassert.equal(f(3), 3);\n');

  it('is 1 for a pass and 0 for a run that never judged the answer', () => {
    expect(goldOf(result('pass', 3, 3), three)).toBe(1);
    for (const s of ['timeout', 'oom', 'syntax_error'] as const) expect(goldOf(result(s, 2, 3), three)).toBe(0);
  });

  it('counts the passed sites over the larger of the sites run and the checks in the text', () => {
    expect(goldOf(result('fail', 1, 3), three)).toBeCloseTo(1 / 3);
    // The answer stopped the tests after one check: the two never run are failed sites.
    expect(goldOf(result('error', 1, 1), three)).toBeCloseTo(1 / 3);
    expect(goldOf(result('fail', 2, 4), three)).toBeCloseTo(2 / 4);
  });

  it('scores a failed run whose every site passed below a pass: the failure is one more site', () => {
    // Tests that detect the wrong answer with a throw after their only check.
    const one = problem("assert.equal(f(1), 1);\nif (f(2) !== 2) throw new Error('wrong');\n");
    expect(goldOf(result('error', 1, 1), one)).toBeCloseTo(1 / 2);
    expect(goldOf(result('fail', 3, 3), three)).toBeCloseTo(3 / 4);
    expect(goldOf(result('fail', 3, 3), three)).toBeLessThan(goldOf(result('pass', 3, 3), three));
  });
});
