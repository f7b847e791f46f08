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

  it('encodes large text without running out of memory (an 8 MB string is not 8 million numbers)', async () => {
    // A realm's UTF-8 encoding built a plain array of numbers (~8 bytes per byte): these honest
    // programs were `oom` at 64 MB (red-team rt59 G4); Node runs them in 64 MB.
    const big = testExecutor({ timeoutMs: 6000, memoryMb: 64 });
    try {
      const s = "const s = 'ab'.repeat(4e6);";
      const res = await runAll(big, {
        buffer: `${ASSERT}${s}\nassert.strictEqual(Buffer.from(s).length, 8e6);`,
        encoder: `${ASSERT}${s}\nassert.strictEqual(new TextEncoder().encode(s).length, 8e6);`,
        hash: `${ASSERT}${s}\nassert.strictEqual(require('crypto').createHash('sha256').update(s).digest('hex').length, 64);`,
        multiByte: `${ASSERT}const t = 'é😀'.repeat(1e6);\nassert.strictEqual(Buffer.from(t).length, 6e6);\nassert.strictEqual(Buffer.from(t).toString(), t);`,
      });
      for (const id of ['buffer', 'encoder', 'hash', 'multiByte']) expectStatus(res[id], 'pass');
    } finally {
      await big.close();
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
