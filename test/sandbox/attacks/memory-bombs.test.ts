/**
 * Attack class: exhausting the isolate heap. Each must end as `oom` (or `error` for V8's own
 * RangeErrors such as string length), never crash the caller, and the next program must get a
 * healthy isolate.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: memory bombs', () => {
  const ex = testExecutor({ timeoutMs: 6000, memoryMb: 32 });
  afterAll(() => ex.close());

  it('stops heap exhaustion with oom', async () => {
    const res = await runAll(ex, {
      arrays: `const a = []; for (;;) a.push(new Array(1e5).fill(1.5));`,
      objects: `const a = []; for (let i = 0; ; i++) a.push({ i, s: 'k' + i, o: { i } });`,
      map: `const m = new Map(); for (let i = 0; ; i++) m.set(i, [i, i, i]);`,
      strings: `const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1000) + i);`,
      closures: `let f = () => 0; const keep = []; for (let i = 0; ; i++) { const g = f; f = () => g() + i; keep.push(f, new Array(64)); }`,
      inAssert: `${ASSERT}const keep = []; assert.deepEqual({ get a() { for (;;) keep.push(new Array(1e5).fill(0)); } }, { a: 1 });`,
    });
    // Big allocations hit the limit fast: always oom.
    for (const id of ['arrays']) {
      expectStatus(res[id], 'oom');
      expect(res[id]!.error).toMatch(/out of memory/);
    }
    // Many small objects make V8 collect garbage near the limit for a long time; on a loaded
    // machine the wall clock may run out first. Either limit stopping the program is correct.
    for (const id of ['strings', 'objects', 'map', 'closures', 'inAssert']) {
      expectStatus(res[id], ['oom', 'timeout', 'fail']);
      if (res[id]!.status === 'fail') expect(res[id]!.error, id).toMatch(/memory|allocation/i);
    }
  });

  it('reports V8 string limits as an error', async () => {
    const res = await runAll(ex, { doubling: `let s = 'x'; for (;;) s += s;` });
    expectStatus(res.doubling, ['error', 'oom']);
    expect(res.doubling!.error).toMatch(/Invalid string length|memory/);
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
