/**
 * Attack class: forging a status by throwing an error whose text reads like the host's own —
 * a timeout, the memory limit, a late syntax error. Statuses come from the host's signals (its
 * clock, the isolate's disposal and memory accounting, the parser), never from error text.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStillWorks, jsProblem, runTraining, testExecutor } from '../helpers.ts';

const FORGED = {
  timeout: `new Error('Script execution timed out.')`,
  isolateTimeout: `new Error('timed out after 2000 ms (watchdog disposed the isolate)')`,
  memoryLimit: `new Error('Isolate was disposed during execution due to memory limit')`,
  allocation: `new RangeError('Array buffer allocation failed')`,
  outOfMemory: `new RangeError('out of memory')`,
  lateSyntax: `new SyntaxError("Identifier 'x' has already been declared")`,
};

describe('attack: statuses forged through error text', () => {
  const ex = testExecutor({ timeoutMs: 2000 });
  afterAll(() => ex.close());
  const tests = `${ASSERT}function test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, 2), 3);\n}\ntest();\n`;
  const problem = jsProblem('add', 'function add(x, y) {\n', tests);

  it('reports a forged error thrown at load time as error', async () => {
    const res = await runTraining(
      ex,
      problem,
      Object.fromEntries(Object.entries(FORGED).map(([k, e]) => [k, `  return x + y;\n}\nthrow ${e};\n`])),
    );
    for (const [id, r] of Object.entries(res)) expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe('error');
  });

  it('reports a forged error thrown by the candidate as an error of that case', async () => {
    const res = await runTraining(
      ex,
      problem,
      Object.fromEntries(Object.entries(FORGED).map(([k, e]) => [k, `  throw ${e};\n}\n`])),
    );
    for (const [id, r] of Object.entries(res)) expect(r.status, `${id}: ${JSON.stringify(r)}`).toBe('error');
  });

  it('still reports the real thing', async () => {
    const res = await runTraining(ex, problem, {
      loop: `  for (;;) {}\n}\n`,
      heap: `  const keep = []; for (;;) keep.push(new Array(1e6).fill(x));\n}\n`,
      buffers: `  const keep = []; for (;;) keep.push(new Float64Array(1 << 20));\n}\n`,
      syntax: `  return x +;\n}\n`,
    });
    expect(res.loop!.status).toBe('timeout');
    expect(res.heap!.status).toBe('oom');
    expect(res.buffers!.status).toBe('oom');
    expect(res.syntax!.status).toBe('syntax_error');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
