/**
 * JavaScript (red-team rt61 PO01): js-passed-over.ts's problems with their tests inside a function
 * the tests call once (`function test() { … } test();`, the MultiPL-E shape). A function's body
 * runs in the order it is written each time it runs, but only checks outside the tests' functions
 * were held to that order, so a run that went on past a check in `test()` (a loop over an empty
 * answer) kept the passes after it until a later check failed. Now each function's body is one
 * more group run in written order (src/sandbox/test-plan.ts, `ordered`).
 */
import { JS_ASSERT } from './framework.ts';
import { PROBLEMS } from './js-passed-over.ts';
import { unranGenerators } from './unran-checks.ts';

/** The problem's tests as the body of `test()`, called once. */
const inFunction = (tests: string) =>
  `${JS_ASSERT}function test() {\n${tests.slice(JS_ASSERT.length).replace(/^(?=.)/gm, '  ')}}\ntest();\n`;

export const generators = unranGenerators(
  'js-passed-over-in-functions',
  'javascript',
  PROBLEMS.map((p) => ({ ...p, tests: (rng) => inFunction(p.tests(rng)) })),
);
