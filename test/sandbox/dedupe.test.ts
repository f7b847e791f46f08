/**
 * Running each distinct program of a batch once (src/sandbox/dedupe.ts): repeats get the first
 * one's result under their own id, results keep input order, and an executor that deduplicates
 * gives the same verdicts as one that runs everything — seeded randomness included, since a
 * program's random sources are seeded from its text, not its id.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runDistinct } from '../../src/sandbox/dedupe.ts';
import { createExecutorFromConfig, sandboxConfigSchema } from '../../src/sandbox/index.ts';
import { LocalExecutor } from '../../src/sandbox/local-executor.ts';
import type { ExecResult, ProgramSpec } from '../../src/sandbox/types.ts';
import { ASSERT, LEGIT, js } from './helpers.ts';

const fakeResult = (p: ProgramSpec, n: number): ExecResult => ({
  id: p.id,
  status: n % 2 ? 'pass' : 'fail',
  passed: n,
  total: 9,
  ms: 5,
  stdout: p.code,
});

describe('runDistinct', () => {
  it('runs each distinct program once and copies its result to the repeats', async () => {
    const programs = [js('a', 'A'), js('b', 'B'), js('a2', 'A'), js('c', 'A', 'T'), js('b2', 'B'), js('a3', 'A')];
    const batches: ProgramSpec[][] = [];
    const seen: number[] = [];
    const out = await runDistinct(
      programs,
      (r, i) => {
        expect(r.id).toBe(programs[i]!.id);
        seen.push(i);
      },
      async (ps, cb) => {
        batches.push([...ps]);
        const rs = ps.map((p, k) => fakeResult(p, k + 1));
        rs.forEach((r, k) => cb?.(r, k));
        return rs;
      },
    );
    // `c` has the same code as `a` but its own tests: a different program.
    expect(batches.map((b) => b.map((p) => p.id))).toEqual([['a', 'b', 'c']]);
    expect(out.map((r) => [r.id, r.passed, r.ms])).toEqual([
      ['a', 1, 5],
      ['b', 2, 5],
      ['a2', 1, 0],
      ['c', 3, 5],
      ['b2', 2, 0],
      ['a3', 1, 0],
    ]);
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('treats a different time limit or prompt as a different program', async () => {
    let ran = 0;
    await runDistinct(
      [js('a', 'A'), { ...js('b', 'A'), timeoutMs: 50 }, { ...js('c', 'A'), prompt: 'P' }],
      undefined,
      async (ps) => {
        ran = ps.length;
        return ps.map((p, k) => fakeResult(p, k));
      },
    );
    expect(ran).toBe(3);
  });

  it("fills repeats from the returned results when the inner run reports none, and rethrows a callback's error last", async () => {
    const programs = [js('a', 'A'), js('a2', 'A'), js('b', 'B')];
    const delivered: string[] = [];
    const run = runDistinct(
      programs,
      (r) => {
        delivered.push(r.id);
        if (r.id === 'a') throw new Error('callback');
      },
      async (ps) => ps.map((p, k) => fakeResult(p, k)),
    );
    await expect(run).rejects.toThrow('callback');
    expect(delivered.sort()).toEqual(['a', 'a2', 'b']);
  });
});

describe('a deduplicating executor', () => {
  const plain = new LocalExecutor({ workers: 2, timeoutMs: 2000 });
  const dedupe = new LocalExecutor({ workers: 2, timeoutMs: 2000, dedupe: true });
  afterAll(() => Promise.all([plain.close(), dedupe.close()]));

  it('gives the verdicts of an executor that runs every program', async () => {
    const random = `${ASSERT}assert.ok(Math.random() < 0.5);\nassert.ok(Math.random() < 0.5);\nassert.ok(Date.now() % 2 === 0);\n`;
    const failing = `${ASSERT}assert.strictEqual(1 + 1, 3);\n`;
    const codes = [LEGIT, random, failing, 'function (', random, LEGIT, failing, random];
    const specs = codes.map((c, i) => js(`p${i}`, c));
    const [a, b] = await Promise.all([plain.run(specs), dedupe.run(specs)]);
    const verdict = (r: ExecResult) => [r.id, r.status, r.passed, r.total, r.error ?? ''];
    expect(b.map(verdict)).toEqual(a.map(verdict));
    // The repeats were not run: no sandbox time.
    expect(b.filter((r) => r.ms === 0).map((r) => r.id)).toEqual(expect.arrayContaining(['p4', 'p5', 'p6', 'p7']));
    expect(a.filter((r) => r.status !== 'syntax_error').every((r) => r.ms > 0)).toBe(true);
  });

  it('is on for executors made from the sandbox config, unless `dedupe: false`', async () => {
    const on = createExecutorFromConfig(sandboxConfigSchema.parse({}));
    const off = createExecutorFromConfig(sandboxConfigSchema.parse({ dedupe: false }));
    try {
      const specs = [js('x', LEGIT), js('y', LEGIT)];
      expect((await on.run(specs)).map((r) => r.ms > 0)).toEqual([true, false]);
      expect((await off.run(specs)).map((r) => r.ms > 0)).toEqual([true, true]);
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});
