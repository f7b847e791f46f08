/**
 * Attack class: floods through the verdict path — a 30 MB error message, a 3M-element wrong
 * answer. They end as `error`/`fail` with the cap stated, not as `timeout` (copying or formatting
 * them whole once took longer than the time limit).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const TESTS = `${ASSERT}function test() {\n  let candidate = f;\n  assert.deepEqual(candidate(), [1, 2, 3]);\n}\ntest();\n`;

describe('attack: floods through errors and answers', () => {
  const ex = testExecutor({ timeoutMs: 4000 });
  afterAll(() => ex.close());

  it('caps huge error messages and huge answers', async () => {
    const res = await runTraining(ex, jsProblem('f', 'function f() {\n', TESTS), {
      errorAtLoad: `  return [1, 2, 3];\n}\nthrow new Error('x'.repeat(30e6));\n`,
      errorInCall: `  throw new Error('y'.repeat(30e6));\n}\n`,
      thrownString: `  throw 'z'.repeat(30e6);\n}\n`,
      hugeArray: `  return new Array(3e6).fill(7);\n}\n`,
      hugeString: `  return 's'.repeat(30e6);\n}\n`,
      // The same refusal with the isolate's memory held nearly full on purpose: still the
      // snapshot's error, not `oom` (whether the heap was full once decided it).
      hugeStringFullHeap: `  globalThis.keep = new Uint8Array(50e6).fill(1);\n  return 's'.repeat(20e6);\n}\n`,
      hugeArrayFullHeap: `  globalThis.keep = new Uint8Array(50e6).fill(1);\n  return new Array(3e6).fill(7);\n}\n`,
      deepNest: `  let a = [];\n  for (let i = 0; i < 1e5; i++) a = [a];\n  return a;\n}\n`,
    });
    for (const [id, r] of Object.entries(res)) {
      expect(['fail', 'error'], `${id}: ${JSON.stringify(r).slice(0, 300)}`).toContain(r.status);
      expect(r.error!.length, id).toBeLessThanOrEqual(8000);
    }
    for (const id of ['errorAtLoad', 'errorInCall'])
      expect(res[id]!.error, id).toMatch(/truncated: messages are capped at \d+ characters/);
    // A thrown value over a snapshot cap that is no error is refused, as an answer would be (an
    // error over a cap crosses as the error it describes, its text capped): sandbox/snapshot.js.
    expect(res.thrownString!.error).toMatch(/snapshot cap/);
    expect(res.hugeArray!.error).toMatch(/snapshot cap/);
    expect(res.hugeString!.error).toMatch(/snapshot cap/);
    expect(res.hugeStringFullHeap!.error).toMatch(/snapshot cap/);
    expect(res.hugeArrayFullHeap!.error).toMatch(/snapshot cap/);
    expect(res.deepNest!.error).toMatch(/nested deeper than/);
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
