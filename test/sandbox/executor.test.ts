/**
 * The Executor contract: results in input order with the caller's ids, onResult for every
 * program, concurrent run() calls, per-program timeouts, unsupported languages, close().
 */
import { describe, expect, it } from 'vitest';
import { createExecutor, type ExecResult } from '../../src/sandbox/index.ts';
import { ASSERT, LEGIT, js } from './helpers.ts';

describe('executor contract', () => {
  it('returns results in input order, calls onResult once per program, serves concurrent runs', async () => {
    const ex = createExecutor({ workers: 2, timeoutMs: 5000, maxBatch: 4 });
    try {
      expect(await ex.run([])).toEqual([]);
      const specs = Array.from({ length: 30 }, (_, i) =>
        js(`id-${i}`, `${ASSERT}assert.strictEqual(${i} % 3 === 0 ? ${i} : ${i}, ${i % 3 === 0 ? i + 1 : i});`),
      );
      const seen = new Map<number, ExecResult>();
      const [a, b] = await Promise.all([
        ex.run(specs, (r, i) => {
          expect(seen.has(i)).toBe(false);
          seen.set(i, r);
        }),
        ex.run(specs.slice(0, 7).reverse()),
      ]);
      expect(a.map((r) => r.id)).toEqual(specs.map((s) => s.id));
      expect(a.map((r) => r.status)).toEqual(specs.map((_, i) => (i % 3 === 0 ? 'fail' : 'pass')));
      expect(seen.size).toBe(30);
      for (const [i, r] of seen) expect(r).toBe(a[i]);
      expect(b.map((r) => r.id)).toEqual(
        specs
          .slice(0, 7)
          .reverse()
          .map((s) => s.id),
      );
    } finally {
      await ex.close();
    }
  });

  it('honours per-program timeouts and reports unsupported languages without running them', async () => {
    const ex = createExecutor({ workers: 1, timeoutMs: 5000 });
    try {
      const results = await ex.run([
        { id: 'short', language: 'javascript', code: 'for (;;) {}', timeoutMs: 100 },
        { id: 'rb', language: 'ruby' as 'python', code: 'puts 1' },
        js('ok', LEGIT),
      ]);
      expect(results.map((r) => r.status)).toEqual(['timeout', 'unsupported', 'pass']);
      // The per-program budget (100 ms of CPU time), not the executor's 5000, stopped it. Its wall
      // time depends on the machine's load by design (docs/sandbox.md, "Time limits").
      expect(results[0]!.error).toBe('timed out: used its 100 ms of CPU time');
      expect(results[0]!.code).toBeUndefined();
      expect(results[1]!.error).toBe('unsupported language: ruby');
    } finally {
      await ex.close();
    }
  });

  it('counts assertions and enforces min_assertions', async () => {
    const strict = createExecutor({ workers: 1 });
    const node = createExecutor({ workers: 1, minAssertions: 0 });
    try {
      const code = "console.log('no tests here');";
      const [r1] = await strict.run([js('none', code)]);
      const [r2] = await node.run([js('none', code)]);
      expect(r1!.status).toBe('fail');
      expect(r1!.error).toMatch(/no assertion ran/);
      expect(r1!.code).toBe('tests_not_run');
      expect(r2!.status).toBe('pass');
      expect(r2!.code).toBeUndefined();
      expect(r2!.stdout).toBe('no tests here\n');
    } finally {
      await strict.close();
      await node.close();
    }
  });

  it('close() is idempotent and a closed executor reports instead of throwing', async () => {
    const ex = createExecutor({ workers: 1 });
    await ex.run([js('ok', LEGIT)]);
    await ex.close();
    await ex.close();
    const [r] = await ex.run([js('late', LEGIT)]);
    expect(r!.status).toBe('error');
    expect(r!.error).toBe('executor is closed');
  });
});
