/**
 * Attack class: memory outside the V8 heap: ArrayBuffers, typed arrays, SharedArrayBuffers, and
 * WebAssembly memories (WebAssembly is removed from the context).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

describe('attack: typed-array and ArrayBuffer bombs', () => {
  const ex = testExecutor({ timeoutMs: 3000, memoryMb: 32 });
  afterAll(() => ex.close());

  it('refuses one allocation beyond the memory limit with a catchable error', async () => {
    // V8 throws a RangeError before anything is allocated, which the program could catch: an
    // error of the program, not the isolate running out of memory (the host measures memory).
    const res = await runAll(ex, {
      oneHuge: `new ArrayBuffer(2 ** 31);`,
      hugeTyped: `new Float64Array(2 ** 28);`,
    });
    for (const [id, r] of Object.entries(res)) {
      expectStatus(r, 'error');
      expect(r.error, id).toMatch(/RangeError: Array buffer allocation failed/);
    }
  });

  it('ends programs that fill the isolate with buffers as oom', async () => {
    const res = await runAll(ex, {
      manyMedium: `const keep = []; for (;;) keep.push(new Uint8Array(1 << 20));`,
      shared: `const keep = []; for (;;) keep.push(new SharedArrayBuffer(1 << 22));`,
      resize: `const keep = []; let b = new ArrayBuffer(1 << 20); for (;;) { keep.push(b); b = b.slice(0); }`,
      dataView: `const keep = []; for (;;) keep.push(new DataView(new ArrayBuffer(1 << 21)));`,
    });
    for (const [id, r] of Object.entries(res)) {
      expectStatus(r, 'oom');
      expect(r.error, id).toMatch(/out of memory/);
    }
  });

  it('has no WebAssembly to reserve memory with', async () => {
    const res = await runAll(ex, {
      wasm: `new WebAssembly.Memory({ initial: 65536 });`,
      typeofWasm: `${ASSERT}assert.strictEqual(typeof WebAssembly, 'undefined');`,
    });
    expectStatus(res.wasm, 'error');
    expect(res.wasm!.error).toMatch(/WebAssembly is not defined/);
    expectStatus(res.typeofWasm, 'pass');
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
