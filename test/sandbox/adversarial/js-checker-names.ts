/**
 * JavaScript: checkers reached by a name other than their own, and handlers that never finish or
 * run the skipped check again. The tests call the candidate outside the check (`const got =
 * fact(n)`) in a `try`/`catch` that logs, and check through an alias (`const eq = checkEq`), an
 * object or array value (`CHECKS.eq`, `CHECKS['eq']`, `CH[0]`), a bound copy, a method by a
 * computed key (`c['eq']`), a checker handed to a runner as a parameter or stored on `this`; or
 * keep a tests generator paused in its `catch`, or carry on with the next cases from inside the
 * handler (a recursive runner). A program right on the easy cases and throwing on the rest passed
 * these where a wrong value failed; and a skipped helper call left the checks in the helper's body
 * their passed sites (1 of 2 where the wrong value scores 0). src/sandbox/test-plan.ts
 * `checkNames` (aliases, `bodiesOf`), `skipScopes` (`notJudges`), sandbox/harness.js
 * (`openHandlers`, `innerChecks`). Controls: the same tests on an honest program.
 */
import { honestFact, raisingFact } from './fact-programs.ts';

const CASES = '[[0, 1], [1, 1], [5, 120], [6, 720]]';
const PER_CASE = (check: string) =>
  `for (const [n, w] of ${CASES}) {\n  try {\n    const got = fact(n);\n    ${check};\n  } catch (e) {\n    console.log('FAIL', n, String(e));\n  }\n}\n`;
const CHECK_EQ = 'function checkEq(a, b) {\n  assert.strictEqual(a, b);\n}\n';

/** Tests shapes; the passes an honest wrong value gets. */
const STYLES: Array<[string, number]> = [
  [`${CHECK_EQ}${PER_CASE('checkEq(got, w)')}`, 0],
  [`${CHECK_EQ}const eq = checkEq;\n${PER_CASE('eq(got, w)')}`, 0],
  [`${CHECK_EQ}const CHECKS = { eq: checkEq };\n${PER_CASE("CHECKS['eq'](got, w)")}`, 0],
  [`${CHECK_EQ}const CHECKS = { eq: checkEq };\n${PER_CASE('CHECKS.eq(got, w)')}`, 0],
  [`${CHECK_EQ}const CH = [checkEq];\n${PER_CASE('CH[0](got, w)')}`, 0],
  [`${CHECK_EQ}const eqb = checkEq.bind(null);\n${PER_CASE('eqb(got, w)')}`, 0],
  [`${CHECK_EQ}const CHECKS = { eq: checkEq };\n${PER_CASE('Object.values(CHECKS).forEach((c) => c(got, w))')}`, 0],
  [`${CHECK_EQ}const CH = [checkEq];\n${PER_CASE('CH.slice(0).forEach((c) => c(got, w))')}`, 0],
  [`${CHECK_EQ}function run(check) {\n${PER_CASE('check(got, w)')}}\nrun(checkEq);\n`, 0],
  [`class C {\n  eq(a, b) {\n    assert.strictEqual(a, b);\n  }\n}\nconst c = new C();\n${PER_CASE("c['eq'](got, w)")}`, 0],
  [
    `${CHECK_EQ}class Suite {\n  constructor() {\n    this.check = checkEq;\n  }\n  run() {\n${PER_CASE('this.check(got, w)')}  }\n}\nnew Suite().run();\n`,
    0,
  ],
  [
    `function* outcomes() {\n  for (const [n, w] of ${CASES}) {\n    try {\n      const got = fact(n);\n      assert.strictEqual(got, w);\n      yield [n, true];\n    } catch (e) {\n      yield [n, String(e)];\n    }\n  }\n}\nconst g = outcomes();\nfor (;;) {\n  const r = g.next();\n  if (r.done) break;\n  if (r.value[1] !== true) {\n    console.log('FAIL', r.value);\n    break;\n  }\n}\n`,
    0,
  ],
  [
    "const CASES = [[5, 120], [6, 720], [0, 1], [1, 1]];\nfunction run(i) {\n  if (i === CASES.length) return;\n  const [n, w] = CASES[i];\n  try {\n    const got = fact(n);\n    assert.strictEqual(got, w);\n  } catch (e) {\n    console.log('FAIL', n);\n    run(i + 1);\n    return;\n  }\n  run(i + 1);\n}\nrun(0);\n",
    0,
  ],
];

const attacks = raisingFact(
  'javascript',
  'js-checker-names',
  'a check reached through an alias, container, bound copy, parameter or this, a paused handler, a recursive runner: no site passes',
  52,
  STYLES,
);

// (Not the recursive runner on the honest program: its call in the handler is a check an honest run
// never reaches, docs/sandbox.md "Known limits".)
const honest = honestFact(
  'javascript',
  'js-checker-names-honest',
  'controls: the same tests shapes on an honest program (but the recursive runner)',
  20,
  STYLES.filter(([t]) => !t.includes('run(i + 1)')).map(([t]) => t),
);

export const generators = [attacks, honest];
