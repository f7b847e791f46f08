/**
 * Python (red-team rt61 PO01): py-passed-over.ts's problems with their asserts inside a function the
 * tests call once (`def check(): … ` then `check()`, HumanEval's shape). A function's body runs in
 * the order it is written each time it runs, but only asserts outside the tests' functions were
 * held to that order, so a run that went on past an assert in `check()` (a loop over an empty
 * answer) kept the passes after it until a later assert failed (3/5 where a wrong value scored
 * 1/5). Now each function's body is one more group run in written order (sandbox/python/harness.py,
 * `_passed_over`).
 */
import { PROBLEMS } from './py-passed-over.ts';
import { unranGenerators } from './unran-checks.ts';

/** The problem's tests as the body of `check()`, called once. */
const inFunction = (tests: string) => `def check():\n${tests.replace(/^(?=.)/gm, '    ')}\ncheck()\n`;

export const generators = unranGenerators(
  'py-passed-over-in-functions',
  'python',
  PROBLEMS.map((p) => ({ ...p, tests: (rng) => inFunction(p.tests(rng)) })),
);
