/**
 * Attack class: a wrong solution calling `assert` itself to inflate the pass fraction. Only the
 * tests' own checks count: the solution may call assert (it throws like Node's) but scores nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const PROMPT = 'function add(x, y) {\n';
const TESTS = `${ASSERT}function test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, 2), 3);\n  assert.deepEqual(candidate(2, 2), 4);\n  assert.deepEqual(candidate(5, 5), 10);\n}\ntest();\n`;

describe('attack: the solution counting its own assertions', () => {
  const ex = testExecutor({ timeoutMs: 3000 });
  afterAll(() => ex.close());

  it('gives a wrong solution no credit for its own assertions', async () => {
    const res = await runTraining(ex, jsProblem('add', PROMPT, TESTS), {
      atLoad: `  return 0;\n}\nconst a = require('assert');\nfor (let i = 0; i < 997; i++) a.ok(true);\n`,
      perCall: `  const a = require('node:assert/strict');\n  for (let i = 0; i < 500; i++) { a.ok(1); a.equal(1, 1); a.deepEqual([1], [1]); }\n  return 0;\n}\n`,
      throwsCaught: `  const a = require('assert');\n  for (let i = 0; i < 100; i++) a.throws(() => { throw new Error('x'); });\n  return -1;\n}\n`,
      strictModule: `  return 0;\n}\nconst s = require('assert').strict;\nfor (let i = 0; i < 300; i++) s.strictEqual(1, 1);\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe('fail');
      expect(r.passed, id).toBe(0);
      expect(r.gold, id).toBe(0);
    }
  });

  it('counts exactly the tests checks for a right solution that also asserts', async () => {
    const res = await runTraining(ex, jsProblem('add', PROMPT, TESTS), {
      right: `  require('assert').ok(Number.isFinite(x));\n  return x + y;\n}\nfor (let i = 0; i < 50; i++) require('assert').ok(true);\n`,
    });
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
    expect(res.right!.passed).toBe(3);
    expect(res.right!.total).toBe(3);
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
