/**
 * Hidden-test code in the MultiPL-E JavaScript shape, shared by every task family.
 *
 * Why an `independent` style: the sandbox's `assert` behaves like Node's — the first failing
 * assertion throws and ends `test()`, so `passed/total` would be "passed before the first
 * failure / attempted". Gold in these tasks is the fraction of cases passed, so each case runs
 * inside its own guard: a failing or throwing case is still counted as one failed assertion and
 * the remaining cases still run. The result is the same with any harness that counts
 * assertions (the sandbox, plain Node with a counting assert).
 */

/** `independent`: every case counts (default). `multipl-e`: plain assert lines, stop at first failure. */
export type TestStyle = 'independent' | 'multipl-e';

/** One test case as JavaScript literals. */
export interface TestCase {
  input: string;
  output: string;
}

/** The guard of the independent style (names chosen not to clash with candidate code). */
const CHECK_FN = [
  '// Each case is one assertion that counts on its own: a failing or throwing case does not stop',
  '// the others, so passed/total is the fraction of cases passed.',
  'function __check(run, expected) {',
  '  let actual;',
  '  try {',
  '    actual = run();',
  '  } catch {',
  '    actual = { threw: true };',
  '  }',
  '  try {',
  '    assert.deepEqual(actual, expected);',
  '  } catch {}',
  '}',
].join('\n');

/** Test code: `const assert = ...; function test() { let candidate = X; ... } test();`. */
export function testBlock(candidate: string, cases: readonly TestCase[], style: TestStyle = 'independent'): string {
  const lines = ["const assert = require('node:assert');"];
  if (style === 'independent') lines.push(CHECK_FN);
  lines.push('function test() {', `  let candidate = ${candidate};`);
  for (const c of cases) {
    lines.push(
      style === 'independent'
        ? `  __check(() => candidate(${c.input}), ${c.output});`
        : `  assert.deepEqual(candidate(${c.input}), ${c.output});`,
    );
  }
  lines.push('}', '', 'test();', '');
  return lines.join('\n');
}
