/**
 * Attack class: flooding the captured output. Capture is capped in UTF-8 bytes per program
 * (default 64 KiB) and output beyond the cap costs almost nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ASSERT, expectStatus, expectStillWorks, runAll, testExecutor } from '../helpers.ts';

const MARK = '\n[output truncated at the sandbox stdout limit]\n';

describe('attack: output floods', () => {
  const ex = testExecutor({ timeoutMs: 5000 });
  afterAll(() => ex.close());

  it('caps captured output at the limit', async () => {
    const res = await runAll(ex, {
      loop: `${ASSERT}for (let i = 0; i < 1e5; i++) console.log('line ' + i);\nassert.ok(true);`,
      oneHugeLine: `${ASSERT}console.log('y'.repeat(1e7));\nassert.ok(true);`,
      manyArgs: `${ASSERT}console.log(...Array.from({ length: 2e4 }, (_, i) => 'arg' + i));\nassert.ok(true);`,
      hugeObject: `${ASSERT}console.log(Array.from({ length: 1e5 }, (_, i) => ({ i })), { s: 'y'.repeat(1e6) });\nassert.ok(true);`,
      multiByte: `${ASSERT}for (let i = 0; i < 2e4; i++) console.error('é€😀');\nassert.ok(true);`,
      infinite: `for (;;) console.log('x'.repeat(1000));`,
      allMethods: `${ASSERT}for (let i = 0; i < 1e4; i++) { console.info(i); console.warn(i); console.debug(i); console.dir({ i }); console.trace(i); }\nassert.ok(true);`,
    });
    for (const id of ['loop', 'oneHugeLine', 'manyArgs', 'multiByte', 'allMethods']) {
      const r = res[id]!;
      expectStatus(r, 'pass');
      expect(r.stdout.endsWith(MARK), id).toBe(true);
      const body = r.stdout.slice(0, -MARK.length);
      expect(Buffer.byteLength(body, 'utf8'), id).toBeLessThanOrEqual(65536);
      expect(Buffer.byteLength(body, 'utf8'), id).toBeGreaterThan(60000);
    }
    expect(res.loop!.stdout.startsWith('line 0\nline 1\n')).toBe(true);
    // Like util.inspect, formatting is bounded: 100 array items, 10,000 characters of a string.
    expectStatus(res.hugeObject, 'pass');
    expect(res.hugeObject!.stdout).toContain('... 99900 more items');
    expect(res.hugeObject!.stdout).toContain('more characters');
    expect(res.hugeObject!.stdout.length).toBeLessThan(20000);
    // The cap never splits a UTF-8 character.
    expect(res.multiByte!.stdout).not.toContain('\uFFFD');
    expectStatus(res.infinite, 'timeout');
    expect(Buffer.byteLength(res.infinite!.stdout)).toBeLessThanOrEqual(65536 + MARK.length);
  });

  it('honours a smaller configured cap', async () => {
    const small = testExecutor({ workers: 1, stdoutLimit: 100 });
    try {
      const [r] = await small.run([
        { id: 's', language: 'javascript', code: `${ASSERT}for (let i = 0; i < 100; i++) console.log(i);\nassert.ok(true);` },
      ]);
      expectStatus(r, 'pass');
      expect(Buffer.byteLength(r!.stdout.replace(MARK, ''))).toBeLessThanOrEqual(100);
      expect(r!.stdout.startsWith('0\n1\n2\n')).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('keeps working after the attacks', async () => {
    await expectStillWorks(ex);
  });
});
