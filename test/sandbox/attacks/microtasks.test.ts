/**
 * Attack class: promise/microtask chains that spin forever, and programs that await something
 * that can never happen (the sandbox has no timers or I/O). Both must end as `timeout`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: microtask spins and awaiting forever', () => {
  const ex = testExecutor({ timeoutMs: 400 });
  afterAll(() => ex.close());

  it('times out microtask spins', async () => {
    const res = await runAll(ex, {
      awaitNullLoop: `(async () => { for (;;) await null; })();`,
      awaitNullLoopNotReturned: `(async () => { for (;;) await null; })();\nconsole.log('started');\n0;`,
      thenChain: `Promise.resolve().then(function f() { return Promise.resolve().then(f); });`,
      thenableChain: `const t = { then(r) { Promise.resolve().then(() => r(t)); } };\nPromise.resolve(t);`,
      twoSpinners: `(async () => { for (;;) await 0; })(); (async () => { for (;;) await 1; })();`,
      spinAfterPass: `${ASSERT}assert.ok(true);\n(async () => { for (;;) await null; })();`,
      spinInCompletionThen: `const p = Promise.resolve(1);\nObject.defineProperty(p, 'constructor', { get() { for (;;) {} } });\np;`,
    });
    for (const [id, r] of Object.entries(res)) {
      // The two chains keep every link pending (each adopts the next), so they grow without
      // bound; with the budget in CPU time they get the whole 400 ms and may reach the 64 MB
      // limit first (fresh-clone CI and local runs saw `oom` after 1.4-1.6 s for either one, and
      // `timeout` in other runs: which limit comes first is not deterministic, docs/sandbox.md).
      // Either way the host's own measurement ends them and they never pass; the other spinners
      // allocate nothing and must time out.
      if ((id === 'thenChain' || id === 'thenableChain') && r.status === 'oom') {
        expect(r.error, id).toMatch(/memory limit/);
        continue;
      }
      expectStatus(r, 'timeout');
      expect(r.error, id).toMatch(/timed out/);
    }
    expect(res.awaitNullLoopNotReturned!.stdout).toBe('started\n');
  });

  it('reports awaiting forever as timeout, not pass', async () => {
    const res = await runAll(ex, {
      neverResolves: `(async () => { await new Promise(() => {}); })();`,
      assertsAfterNever: `${ASSERT}async function test() { assert.ok(true); await new Promise(() => {}); assert.ok(false); }\ntest();`,
      asyncTestsNever: `${ASSERT}async function f() { return new Promise(() => {}); }\nasync function test() { assert.deepEqual(await f(), 1); }\ntest();`,
    });
    for (const r of Object.values(res)) {
      expectStatus(r, 'timeout');
      expect(r.error).toMatch(/never settled/);
    }
    expect(res.assertsAfterNever!.passed).toBe(1);
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
