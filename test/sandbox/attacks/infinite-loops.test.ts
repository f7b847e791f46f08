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

  // Timers that never stop, in separate tests: each timer callback is one call into the isolate,
  // ~470,000 of them in 2 s here. Their calls' timeouts left isolated-vm as many timers due within
  // a millisecond, which its timer thread, when the load made it late, released recursively until
  // its stack overflowed: the worker crashed (SIGSEGV) and the run (or the next) was an `error`
  // where the program hangs. A run now stops at 20,000 timer callbacks, as `timeout` (see settle()
  // in src/sandbox/worker.ts). Each runs after a passing program on the same worker, which must
  // still pass.
  it("times out timers that never stop, the tests' or the program's", async () => {
    const spec = (id: string, completion: string, tests: string) => ({
      id,
      language: 'javascript' as const,
      code: 'function mk(n) {\n' + completion,
      prompt: 'function mk(n) {\n',
      tests: ASSERT + tests,
    });
    const closure = '  return () => n * n;\n}\n';
    const ok = (id: string) => spec(id, closure, 'assert.strictEqual(mk(3)(), 9);\n');
    const specs = [
      ok('ok-1'),
      spec('tests-interval', closure, 'const f = mk(2);\nsetInterval(() => f(), 10);\nassert.strictEqual(mk(3)(), 9);\n'),
      ok('ok-2'),
      spec(
        'tests-interval-async',
        closure,
        '(async () => {\n  const f = mk(2);\n  await null;\n  setInterval(() => f(), 10);\n  assert.strictEqual(mk(3)(), 9);\n})();\n',
      ),
      ok('ok-3'),
      spec('program-interval', '  setInterval(() => {}, 10);\n  return () => n * n;\n}\n', 'assert.strictEqual(mk(3)(), 9);\n'),
      ok('ok-4'),
    ];
    const one = testExecutor({ workers: 1, timeoutMs: 2000 });
    const res = Object.fromEntries((await one.run(specs).finally(() => one.close())).map((r) => [r.id, r]));
    for (const id of ['ok-1', 'ok-2', 'ok-3', 'ok-4']) expectStatus(res[id], 'pass');
    for (const id of ['tests-interval', 'tests-interval-async', 'program-interval']) {
      expectStatus(res[id], 'timeout');
      expect(res[id]!.error, id).toMatch(/timed out/);
    }
  }, 120_000);

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
