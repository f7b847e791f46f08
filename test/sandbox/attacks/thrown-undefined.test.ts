/**
 * Attack class: throwing or rejecting `undefined` (or another falsy value) so that "an error
 * happened" reads like "completed". A load-time throw must stop the program before any test, a
 * throw inside a test case must fail that case, and neither may be `pass` — even with the
 * program padding the count with its own `assert.ok(1)`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const PROMPT = 'function add(x, y) {\n';
const TESTS = `${ASSERT}function test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, 2), 3);\n  assert.deepEqual(candidate(2, 2), 4);\n}\ntest();\n`;
const ASYNC_TESTS = `${ASSERT}async function test() {\n  let candidate = add;\n  assert.deepEqual(await candidate(1, 2), 3);\n  assert.deepEqual(await candidate(2, 2), 4);\n}\ntest();\n`;
const PAD = "require('assert').ok(1);\n";

describe('attack: thrown or rejected undefined', () => {
  const ex = testExecutor({ timeoutMs: 2000 });
  afterAll(() => ex.close());

  it('never reads a thrown undefined as completed', async () => {
    const res = await runTraining(ex, jsProblem('add', PROMPT, TESTS), {
      loadThrowUndefined: `  return 0;\n}\n${PAD}throw undefined;`,
      loadThrowVoid: `  return 0;\n}\n${PAD}throw void 0;`,
      loadThrowNull: `  return 0;\n}\n${PAD}throw null;`,
      loadThrowFalse: `  return 0;\n}\n${PAD}throw false;`,
      loadReject: `  return 0;\n}\n${PAD}Promise.reject();`,
      loadAsyncThrow: `  return 0;\n}\n${PAD}(async () => { throw undefined; })();`,
      callThrowUndefined: `  ${PAD}  throw undefined;\n}\n`,
      callThrowNull: `  throw null;\n}\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(r.status, `${id}: ${JSON.stringify(r)}`).not.toBe('pass');
      expect(r.gold, id).toBe(0);
      expect(r.error, id).toMatch(/undefined|null|false/);
    }
  });

  it('never reads a rejected undefined inside async tests as completed', async () => {
    const res = await runTraining(ex, jsProblem('add', PROMPT, ASYNC_TESTS), {
      rejectUndefined: `  ${PAD}  return Promise.reject();\n}\n`,
      asyncThrowUndefined: `  return (async () => { throw undefined; })();\n}\n`,
      right: `  return Promise.resolve(x + y);\n}\n`,
    });
    expect(res.rejectUndefined!.status).toBe('error');
    expect(res.asyncThrowUndefined!.status).toBe('error');
    expect(res.rejectUndefined!.gold).toBe(0);
    expect(res.right!.status, JSON.stringify(res.right)).toBe('pass');
  });

  it('still passes a correct solution that throws and catches undefined itself', async () => {
    const res = await runTraining(ex, jsProblem('add', PROMPT, TESTS), {
      caught: `  try { throw undefined; } catch {}\n  return x + y;\n}\ntry { throw void 0; } catch {}\n`,
    });
    expect(res.caught!.status, JSON.stringify(res.caught)).toBe('pass');
    expect(res.caught!.passed).toBe(2);
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
