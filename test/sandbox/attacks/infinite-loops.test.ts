/**
 * Attack class: programs that never finish synchronously. Each must end as `timeout` once it has
 * used its CPU-time limit, and the worker must go on serving programs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: infinite loops', () => {
  const ex = testExecutor({ timeoutMs: 400 });
  afterAll(() => ex.close());

  it('times out every kind of busy loop', async () => {
    const res = await runAll(ex, {
      forEver: `for (;;) {}`,
      whileTrue: `let i = 0; while (true) { i++; }`,
      inTests: `function f() { while (true) {} }\n${ASSERT}assert.deepEqual(f(), 1);`,
      inGetterDuringAssert: `${ASSERT}assert.deepEqual({ get a() { for (;;) {} } }, { a: 1 });`,
      inToStringDuringLog: `console.log(String({ toString() { for (;;) {} } }));`,
      catchAndContinue: `for (;;) { try { for (;;) {} } catch (e) {} }`,
      finallyLoop: `try { throw 1; } finally { for (;;) {} }`,
      atomicsWait: `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);`,
      generator: `function* g() { for (;;) yield 1; }\nfor (const x of g()) {}`,
      sortComparator: `[3, 1, 2].sort(() => { for (;;) {} });`,
      proxyTrapThrown: `throw new Proxy({}, { get() { for (;;) {} } });`,
      errorMessageGetter: `const e = new Error('x'); Object.defineProperty(e, 'message', { get() { for (;;) {} } }); throw e;`,
    });
    for (const [id, r] of Object.entries(res)) {
      expectStatus(r, 'timeout');
      expect(r.error, id).toMatch(/timed out/);
    }
    // The worker's own CPU-time limit (not the parent's kill path) ends ordinary loops. Their wall
    // time depends on the machine's load by design (docs/sandbox.md, "Time limits").
    expect(res.forEver!.error).toBe('timed out: used its 400 ms of CPU time');
    expect(res.forEver!.code).toBeUndefined();
    // Twelve programs that each use their whole CPU budget: on a loaded machine that is many times
    // as much wall time.
  }, 240_000);

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
