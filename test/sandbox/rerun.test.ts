import { describe, expect, it } from 'vitest';
import { createExecutor, isVerdict } from '../../src/sandbox/index.ts';
import { runVerdicts } from '../../src/sandbox/rerun.ts';
import type { ExecResult, Executor, ProgramSpec } from '../../src/sandbox/types.ts';

const spec = (id: string): ProgramSpec => ({ id, code: 'const x = 1;', language: 'javascript' }) as ProgramSpec;
const result = (id: string, extra: Partial<ExecResult>): ExecResult => ({
  id,
  status: 'pass',
  passed: 1,
  total: 1,
  ms: 1,
  stdout: '',
  ...extra,
});

/** An executor whose n-th run of a program id returns `script[id][n]` (the last entry repeats). */
function scripted(script: Record<string, Partial<ExecResult>[]>): Executor & { runs: string[][] } {
  const seen = new Map<string, number>();
  const runs: string[][] = [];
  return {
    runs,
    async run(programs) {
      runs.push(programs.map((p) => p.id));
      return programs.map((p) => {
        const n = seen.get(p.id) ?? 0;
        seen.set(p.id, n + 1);
        const list = script[p.id]!;
        return result(p.id, list[Math.min(n, list.length - 1)]!);
      });
    },
    async close() {},
  } as Executor & { runs: string[][] };
}

describe('isVerdict', () => {
  it('reads the code, not the message a program can shape', () => {
    expect(isVerdict(result('a', { status: 'timeout', code: 'host_overloaded' }))).toBe(false);
    expect(isVerdict(result('a', { status: 'error', code: 'sandbox_unavailable' }))).toBe(false);
    expect(isVerdict(result('a', { status: 'timeout' }))).toBe(true);
    expect(isVerdict(result('a', { status: 'fail', code: 'tests_not_run' }))).toBe(true);
    // A program that throws the sandbox's own words is still judged.
    expect(isVerdict(result('a', { status: 'error', error: 'sandbox worker unavailable: spoofed' }))).toBe(true);
  });

  it('a closed executor answers with a coded non-verdict', async () => {
    const ex = createExecutor({ workers: 1 });
    await ex.close();
    const [r] = await ex.run([spec('closed')]);
    expect(r!.status).toBe('error');
    expect(r!.code).toBe('sandbox_unavailable');
    expect(isVerdict(r!)).toBe(false);
  });
});

describe('runVerdicts', () => {
  it('runs again only the programs whose result was not a verdict, keeping the order', async () => {
    const ex = scripted({
      a: [{ status: 'fail', passed: 0 }],
      b: [{ status: 'timeout', code: 'host_overloaded' }, { status: 'pass' }],
      c: [{ status: 'pass' }],
    });
    const out = await runVerdicts(ex, [spec('a'), spec('b'), spec('c')]);
    expect(out.map((r) => [r.id, r.status])).toEqual([
      ['a', 'fail'],
      ['b', 'pass'],
      ['c', 'pass'],
    ]);
    expect(ex.runs).toEqual([['a', 'b', 'c'], ['b']]);
  });

  it('stops after `attempts` runs and hands back the last coded result', async () => {
    const ex = scripted({ b: [{ status: 'error', code: 'sandbox_unavailable' }] });
    const out = await runVerdicts(ex, [spec('b')], 3);
    expect(ex.runs).toEqual([['b'], ['b'], ['b']]);
    expect(out[0]!.code).toBe('sandbox_unavailable');
  });
});
